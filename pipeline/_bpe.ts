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

import { countWork } from "./helpers.ts";

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
 * Longest piece (characters) of the pre-split: a longer run (a megabyte of one letter, a
 * one-line DNA sequence) is counted in parts this long. The expression itself runs out of stack
 * on a run of some millions of characters in a text that is not all Latin-1 (as gpt-tokenizer
 * does); cut at this length, every text counts, the same in every thread.
 */
const LONGEST_PIECE = 1 << 20;

/** Longest piece (bytes) whose merge arrays a counter keeps for the next piece. */
const LONG_KEPT = 16 * 1024;

/** The arrays of a merge of pieces up to `size - 1` bytes (see `mergeLong`). */
function longScratch(size: number) {
  return {
    next: new Int32Array(size),
    prev: new Int32Array(size),
    rank: new Int32Array(size),
    heapRank: new Int32Array(3 * size),
    heapPos: new Int32Array(3 * size),
  };
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
  // Kept whole (hot loop): the counting loops share buffers and a work count as closure variables.
  const { slots, offsets, lengths, pool } = table;
  const mask = slots.length - 1;
  const flags = table.pattern.flags.includes("g") ? table.pattern.flags : table.pattern.flags + "g";
  // Made on first use: the sticky copy below finds nearly every piece, and making a RegExp of
  // this pattern costs about as much as counting one edited file (bench/README.md, "Numbers
  // behind code choices").
  let split: RegExp | undefined;
  let buf = new Uint8Array(1024);
  let parts = new Int32Array(1025);
  let pairRanks = new Int32Array(1025);
  /** mergeLong's linked list and heap. */
  let long = longScratch(0);
  const memo = new Map<string, number>();
  const NONE = 0x7fffffff;

  /** Steps of this count: bytes hashed and compared, heap moves (see `countWork` in `helpers.ts`). */
  let work = 0;

  function rankOf(start: number, end: number): number {
    work += end - start;
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

  /**
   * Tokens of a long piece in buf[0..n): the same merges in the same order (lowest rank, then
   * leftmost) with a heap over a linked list, O(n log n) instead of the simple way's O(n²).
   */
  function mergeLong(n: number): number {
    // Kept whole (hot loop): the heap merge of one long piece, its heap steps inlined closures.
    // Reused between pieces (grown when too short, up to a limit): arrays made per piece were
    // most of a counting thread's garbage.
    let scratch = long;
    if (scratch.next.length < n + 1) {
      scratch = longScratch(Math.max(n + 1, 2 * scratch.next.length));
      if (n < LONG_KEPT) long = scratch;
    }
    const { next, prev, rank, heapRank, heapPos } = scratch;
    rank.fill(NONE, 0, n + 1);
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    let size = 0;
    const less = (a: number, b: number) =>
      heapRank[a] < heapRank[b] || (heapRank[a] === heapRank[b] && heapPos[a] < heapPos[b]);
    const swap = (a: number, b: number) => {
      const r = heapRank[a], p = heapPos[a];
      heapRank[a] = heapRank[b];
      heapPos[a] = heapPos[b];
      heapRank[b] = r;
      heapPos[b] = p;
    };
    const push = (r: number, pos: number) => {
      work += 32 - Math.clz32(size + 1);
      let i = size++;
      heapRank[i] = r;
      heapPos[i] = pos;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    };
    const pop = () => {
      work += 32 - Math.clz32(size);
      size--;
      swap(0, size);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < size && less(l, m)) m = l;
        if (r < size && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    };
    /** Rank of the segment at i joined with the next one. */
    const pairRank = (i: number) => {
      const j = next[i];
      return j >= n ? NONE : rankOf(i, next[j]);
    };
    for (let i = 0; i < n - 1; i++) {
      rank[i] = pairRank(i);
      if (rank[i] !== NONE) push(rank[i], i);
    }
    let count = n;
    while (size > 0) {
      const r = heapRank[0], i = heapPos[0];
      pop();
      if (rank[i] !== r) continue; // stale
      const j = next[i];
      const k = next[j];
      next[i] = k;
      prev[k] = i;
      rank[j] = NONE;
      count--;
      rank[i] = pairRank(i);
      if (rank[i] !== NONE) push(rank[i], i);
      const p = prev[i];
      if (p >= 0) {
        rank[p] = pairRank(p);
        if (rank[p] !== NONE) push(rank[p], p);
      }
    }
    return count;
  }

  /** Tokens of one pre-split piece whose bytes are in buf[0..n). */
  function merge(n: number): number {
    if (n > 64) return mergeLong(n);
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
      work += count;
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

  /** Tokens of the piece text[start..end), read in place (no substring unless it is memoized). */
  function piece(text: string, start: number, end: number): number {
    const len = end - start;
    work += len;
    if (buf.length < len * 3) buf = new Uint8Array(len * 3);
    let n = 0;
    let h = 0x811c9dc5;
    for (; n < len; n++) {
      const c = text.charCodeAt(start + n);
      if (c >= 128) break;
      buf[n] = c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    let sub: string | undefined;
    if (n < len) {
      sub = text.slice(start, end);
      n = encoder.encodeInto(sub, buf).written;
      h = hash(buf, 0, n);
    }
    if (n <= 1 || rankHashed(h >>> 0, 0, n) !== NONE) return 1;
    sub ??= text.slice(start, end);
    let tokens = memo.get(sub);
    if (tokens === undefined) {
      tokens = merge(n);
      if (memo.size >= 100_000) memo.clear();
      memo.set(sub, tokens);
    }
    return tokens;
  }

  // The pre-split walks the text with a sticky copy of the pattern (each piece's end found without
  // a string per piece); where it does not match, the global search skips ahead as `match` would.
  const sticky = new RegExp(table.pattern.source, flags.replace("g", "") + "y");

  return (text: string) => {
    let total = 0;
    let at = 0;
    work = 0;
    const len = text.length;
    while (at < len) {
      const end = pieceEnd(sticky, text, at);
      if (end > at) {
        total += piece(text, at, end);
        at = end;
        continue;
      }
      split ??= new RegExp(table.pattern.source, flags);
      split.lastIndex = at;
      const found = split.exec(text);
      if (!found) break;
      if (found[0].length === 0) {
        // An empty piece (a pattern that allows one) counts like `match` counted it.
        total += piece(found[0], 0, 0);
        at = found.index + 1;
        continue;
      }
      total += piece(text, found.index, found.index + found[0].length);
      at = found.index + found[0].length;
    }
    countWork("count", work);
    return total;
  };
}

/**
 * Where the piece at `at` ends (at most LONGEST_PIECE on), or -1 when none starts there: `sticky`
 * is the pre-split pattern with the `y` flag.
 */
function pieceEnd(sticky: RegExp, text: string, at: number): number {
  let end: number;
  sticky.lastIndex = at;
  try {
    end = sticky.test(text) ? sticky.lastIndex : -1;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The expression ran out of stack on a run of millions of characters in a text that is
    // not all Latin-1: the piece is found in a window (a piece ending well inside it ends
    // there in the whole text too: the pattern looks one character ahead at most).
    sticky.lastIndex = 0;
    const window = text.slice(at, at + LONGEST_PIECE + 64);
    end = sticky.test(window) ? at + sticky.lastIndex : at + 1;
  }
  return end - at > LONGEST_PIECE ? at + LONGEST_PIECE : end;
}
