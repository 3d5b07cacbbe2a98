/**
 * A compact, exact BPE token counter. It counts what gpt-tokenizer counts
 * (same split pattern, same ranks, same merge order; tests compare the two on
 * real files) but keeps the ranks in one open-addressing table over typed
 * arrays instead of a Map of 200k strings: lookups are a byte hash and a
 * compare, the table is a few MB, and it can be handed to a worker as plain
 * buffers, so workers never load the tokenizer module.
 *
 * @module
 */

/** The ranks of an encoding as typed arrays (cloneable to workers). */
export interface BpeTable {
  /** Open-addressing slots: rank + 1, 0 when empty. */
  slots: Int32Array;
  /** Byte offset of each rank's bytes in `pool` (-1 for unused ranks). */
  offsets: Int32Array;
  /** Byte length of each rank. */
  lengths: Int32Array;
  /** Every rank's bytes, back to back. */
  pool: Uint8Array;
  /** The split pattern's source and flags. */
  pattern: { source: string; flags: string };
}

const encoder = new TextEncoder();

/**
 * Build the table from gpt-tokenizer's rank list (index = rank; a string or
 * the raw bytes) and its split pattern.
 *
 * @example
 * ```ts
 * import { bpeCounter, buildBpeTable } from "./_bpe.ts";
 * const table = buildBpeTable(["a", "b", "ab"], /[a-z]+|\s+/gu);
 * bpeCounter(table)("ab ab"); // 3
 * ```
 */
export function buildBpeTable(
  ranks: ReadonlyArray<string | readonly number[]>,
  split: RegExp,
): BpeTable {
  let room = 0;
  let used = 0;
  ranks.forEach((value) => {
    room += typeof value === "string" ? value.length * 3 : value.length;
    used++;
  });
  let size = 1;
  while (size < used * 2.5) size <<= 1;
  const slots = new Int32Array(size);
  const offsets = new Int32Array(ranks.length).fill(-1);
  const lengths = new Int32Array(ranks.length);
  let pool = new Uint8Array(room);
  const mask = size - 1;
  let at = 0;
  ranks.forEach((value, rank) => {
    let n = 0;
    if (typeof value === "string") {
      for (; n < value.length; n++) {
        const c = value.charCodeAt(n);
        if (c >= 128) break;
        pool[at + n] = c;
      }
      if (n < value.length) n = encoder.encodeInto(value, pool.subarray(at)).written;
    } else {
      pool.set(value, at);
      n = value.length;
    }
    offsets[rank] = at;
    lengths[rank] = n;
    let i = hash(pool, at, at + n) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = rank + 1;
    at += n;
  });
  pool = pool.slice(0, at);
  return { slots, offsets, lengths, pool, pattern: { source: split.source, flags: split.flags } };
}

function hash(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

/**
 * A function counting the tokens of a text with a table.
 *
 * @example
 * ```ts
 * import { bpeCounter, buildBpeTable } from "./_bpe.ts";
 * const count = bpeCounter(buildBpeTable(["a", "b"], /[a-z]|\s+/gu));
 * count("ab"); // 2
 * ```
 */
export function bpeCounter(table: BpeTable): (text: string) => number {
  const { slots, offsets, lengths, pool } = table;
  const mask = slots.length - 1;
  const split = new RegExp(
    table.pattern.source,
    table.pattern.flags.includes("g") ? table.pattern.flags : table.pattern.flags + "g",
  );
  let buf = new Uint8Array(1024);
  let parts = new Int32Array(1025);
  let pairRanks = new Int32Array(1025);
  const memo = new Map<string, number>();
  const NONE = 0x7fffffff;

  function rankOf(start: number, end: number): number {
    return rankHashed(hash(buf, start, end), start, end);
  }

  function rankHashed(h: number, start: number, end: number): number {
    const len = end - start;
    let i = h & mask;
    for (;;) {
      const slot = slots[i];
      if (slot === 0) return NONE;
      const rank = slot - 1;
      if (lengths[rank] === len) {
        const off = offsets[rank];
        let k = 0;
        while (k < len && pool[off + k] === buf[start + k]) k++;
        if (k === len) return rank;
      }
      i = (i + 1) & mask;
    }
  }

  /** Tokens of one pre-split piece whose bytes are in buf[0..n). */
  function merge(n: number): number {
    if (parts.length < n + 1) {
      parts = new Int32Array(n + 1);
      pairRanks = new Int32Array(n + 1);
    }
    let count = n + 1; // boundaries
    for (let i = 0; i <= n; i++) parts[i] = i;
    for (let i = 0; i < count - 2; i++) pairRanks[i] = rankOf(parts[i], parts[i + 2]);
    pairRanks[count - 2] = NONE;
    for (;;) {
      let min = NONE;
      let at = -1;
      for (let i = 0; i < count - 1; i++) {
        if (pairRanks[i] < min) {
          min = pairRanks[i];
          at = i;
        }
      }
      if (at < 0) break;
      // Merge the segments at `at` and `at + 1`: drop boundary at + 1.
      parts.copyWithin(at + 1, at + 2, count);
      pairRanks.copyWithin(at + 1, at + 2, count - 1);
      count--;
      pairRanks[at] = at + 2 < count ? rankOf(parts[at], parts[at + 2]) : NONE;
      if (at > 0) pairRanks[at - 1] = rankOf(parts[at - 1], parts[at + 1]);
    }
    return count - 1;
  }

  function piece(text: string): number {
    const len = text.length;
    if (buf.length < len * 3) buf = new Uint8Array(len * 3);
    let n = 0;
    let h = 0x811c9dc5;
    for (; n < len; n++) {
      const c = text.charCodeAt(n);
      if (c >= 128) break;
      buf[n] = c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (n < len) {
      n = encoder.encodeInto(text, buf).written;
      h = hash(buf, 0, n);
    }
    if (n <= 1 || rankHashed(h >>> 0, 0, n) !== NONE) return 1;
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = merge(n);
      if (memo.size >= 100_000) memo.clear();
      memo.set(text, tokens);
    }
    return tokens;
  }

  return (text: string) => {
    let total = 0;
    const pieces = text.match(split);
    if (pieces) { for (let i = 0; i < pieces.length; i++) total += piece(pieces[i]); }
    return total;
  };
}
