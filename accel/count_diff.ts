/**
 * Token counts by difference: a block that changed since the last document
 * (one edited file) is counted as the earlier block's count, minus the count
 * of the earlier middle, plus the count of the new middle, where the middles
 * are what lies between the texts' common head and common tail, cut at line
 * starts where the o200k/cl100k pre-split always breaks (`_count_cuts.ts`:
 * the counts of the pieces add up to the count of the whole). An edit of a few lines then counts a few lines, not
 * the whole file. The earlier block is read back from the last document (its
 * bytes checked against the sha256 its manifest lists) and its count is the
 * one the count cache holds for those bytes, so the result is the count of
 * the new text, exactly.
 *
 * @module
 */

import { sha256 } from "../pipeline/read.ts";
import { fileStamp, readAt } from "../pipeline/helpers.ts";
import { FORMAT_EXTENSIONS } from "../pipeline/formats.ts";
import { isCountCut, tokenCountKey } from "../pipeline/count.ts";
import type { Cache } from "../pipeline/cache.ts";
import type { Tokenizer } from "../pipeline/types.ts";
import type { WrittenDocument } from "./patch_write.ts";
import type { BlockMemo, Memo } from "../pipeline/memo.ts";
import { type BlockPlace, manifestBlockIn } from "./_manifest_block.ts";

/** An earlier version of a block: its text and the sha256 of its UTF-8 bytes. */
export interface EarlierText {
  text: string;
  sha256: string;
  /** Its count, when known (else the count cache's, by `sha256`). */
  tokens?: number;
}

/** Compare texts this many characters at a time before looking at single characters. */
const CHUNK = 4096;

/** Texts counted by difference in this thread. */
let served = 0;

/**
 * How many texts this thread counted by difference (for tests and timings).
 *
 * @example
 * ```ts
 * import { differenceServed } from "./count_diff.ts";
 * differenceServed(); // 0 before any build
 * ```
 */
export function differenceServed(): number {
  return served;
}

/**
 * The count of `after` from `before` (whose count is `tokens`), or
 * `undefined` when the two middles together are as long as `after` (counting
 * it whole is then cheaper).
 *
 * @example
 * ```ts
 * import { countByDifference } from "./count_diff.ts";
 * const count = (t: string) => t.split("\n").length - 1; // a stand-in counter: lines
 * countByDifference("a\nb\nc\nd\ne\nf\n", 6, "a\nb\nx\ny\nd\ne\nf\n", count); // 7
 * ```
 */
export function countByDifference(
  before: string,
  tokens: number,
  after: string,
  count: (text: string) => number,
): number | undefined {
  const head = commonHead(before, after);
  const tail = commonTail(before, after);
  // The last safe cut inside the common head: the characters on both sides of it are common.
  let start = 0;
  for (let nl = head >= 2 ? after.lastIndexOf("\n", head - 2) : -1; nl >= 0;) {
    if (isCountCut(after, nl + 1)) {
      start = nl + 1;
      break;
    }
    nl = nl > 0 ? after.lastIndexOf("\n", nl - 1) : -1;
  }
  // The first safe cut inside the common tail (its newline is common too) after `start` in both.
  let end = 0; // characters from the end
  for (
    let nl = after.indexOf("\n", after.length - tail);
    nl >= 0 && nl + 1 < after.length;
    nl = after.indexOf("\n", nl + 1)
  ) {
    const cut = after.length - (nl + 1);
    if (isCountCut(after, nl + 1) && before.length - cut >= start && nl + 1 >= start) {
      end = cut;
      break;
    }
  }
  const oldMiddle = before.slice(start, before.length - end);
  const newMiddle = after.slice(start, after.length - end);
  if (oldMiddle.length + newMiddle.length >= after.length) return undefined;
  served++;
  return tokens - count(oldMiddle) + count(newMiddle);
}

/** Length of the common start of two texts. */
function commonHead(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let at = 0;
  while (at + CHUNK <= max && a.slice(at, at + CHUNK) === b.slice(at, at + CHUNK)) at += CHUNK;
  while (at < max && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** Length of the common end of two texts. */
function commonTail(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (
    n + CHUNK <= max &&
    a.slice(a.length - n - CHUNK, a.length - n) === b.slice(b.length - n - CHUNK, b.length - n)
  ) n += CHUNK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/**
 * The blocks of the last document, by id, read back on demand: `undefined`
 * for a block it did not have, or when the document is not exactly the file
 * written then (same inode, size and modification time), its manifest is
 * missing or damaged, the block's bytes do not have the sha256 the manifest
 * lists, or they do not read back as the same text (invalid UTF-8).
 *
 * @example
 * ```ts
 * import { earlierBlocks } from "./count_diff.ts";
 * const earlier = earlierBlocks(undefined);
 * await earlier("files:a.py"); // undefined: no last document
 * ```
 */
export function earlierBlocks(
  written: WrittenDocument | undefined,
): (id: string) => Promise<EarlierText | undefined> {
  const place = manifestPlaces(written);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  return (id) => {
    const block = place(id);
    if (!block || !written) return Promise.resolve(undefined);
    try {
      using file = Deno.openSync(written.path);
      const bytes = new Uint8Array(block.length);
      if (!readAt(file, block.offset, bytes) || sha256(bytes) !== block.sha256) {
        return Promise.resolve(undefined);
      }
      const text = decoder.decode(bytes);
      // A replacement character may stand for a lone surrogate of the text that was counted.
      if (text.includes("\uFFFD")) return Promise.resolve(undefined);
      return Promise.resolve({ text, sha256: block.sha256 });
    } catch {
      return Promise.resolve(undefined);
    }
  };
}

/** Blocks found one by one in the manifest's bytes before it is parsed whole (see below). */
const LOOKUPS = 8;

/**
 * Where each block of the last document lies, by id, from its manifest: the first
 * {@linkcode LOOKUPS} found in the manifest's bytes one by one, undecoded (a one-file edit asks
 * for one block, and the manifest of a big tree is tens of MB of JSON), then every block parsed
 * at once.
 */
function manifestPlaces(
  written: WrittenDocument | undefined,
): (id: string) => BlockPlace | undefined {
  let path: string | undefined;
  let search: ReturnType<typeof manifestBlockIn> | undefined;
  let asked = 0;
  let blocks: Map<string, BlockPlace> | undefined;
  const pathOf = () => {
    if (!written || fileStamp(written.path) !== written.stamp) return "";
    const ext = Object.values(FORMAT_EXTENSIONS).find((e) => written.path.endsWith(`.${e}`));
    return ext ? `${written.path.slice(0, -ext.length)}json` : "";
  };
  return (id) => {
    path ??= pathOf();
    if (!path) return undefined;
    if (!blocks && ++asked <= LOOKUPS && (search ??= manifestBlockIn(path)).laidOut) {
      return search.block(id);
    }
    blocks ??= parseBlocks(readWhole(path));
    return blocks.get(id);
  };
}

/** A manifest's bytes (none when it cannot be read: no block is found then). */
function readWhole(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch {
    return EMPTY;
  }
}

const EMPTY = new Uint8Array(0);

/** Every block of a manifest's JSON, by id (none when it is damaged). */
function parseBlocks(bytes: Uint8Array): Map<string, BlockPlace> {
  const out = new Map<string, BlockPlace>();
  try {
    const text = new TextDecoder().decode(bytes);
    for (const b of JSON.parse(text)?.blocks ?? []) {
      if (
        typeof b?.id === "string" && Number.isInteger(b.offset) && Number.isInteger(b.length) &&
        typeof b.sha256 === "string"
      ) out.set(b.id, { offset: b.offset, length: b.length, sha256: b.sha256 });
    }
  } catch {
    out.clear();
  }
  return out;
}

/** How a count stage finds a text's count by difference (`KnownCountOptions.known`). */
export type CountEarlier = (
  index: number,
  text: string,
  counter: () => Promise<(text: string) => number>,
) => Promise<number | undefined>;

/**
 * Count the i-th block against its earlier version, found by `find`, whose count is its own or
 * the cache's: `undefined` when there is none, its count is unknown, or counting whole is cheaper.
 */
function byDifference(
  find: (index: number) => Promise<EarlierText | undefined>,
  cache: Cache,
  tokenizer: Tokenizer,
): CountEarlier {
  return async (index, text, counter) => {
    const before = await find(index);
    const tokens = before &&
      (before.tokens ?? await cache.get<number>(tokenCountKey(tokenizer, before.sha256)));
    if (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 0) return undefined;
    return countByDifference(before!.text, tokens, text, await counter());
  };
}

/**
 * Counts by difference from the blocks of the last document written (read back from its file):
 * `undefined` when there is no last document, or it is not the file written then (a cold build
 * looks for none).
 *
 * @example
 * ```ts
 * import { earlierIn } from "./count_diff.ts";
 * import { openCache } from "../pipeline/cache.ts";
 * earlierIn(undefined, [{ id: "files:a.py" }], openCache("/tmp/none", { enabled: false }), "o200k"); // undefined
 * ```
 */
export function earlierIn(
  written: WrittenDocument | undefined,
  blocks: Array<{ id: string }>,
  cache: Cache,
  tokenizer: Tokenizer,
): CountEarlier | undefined {
  if (!written || fileStamp(written.path) !== written.stamp) return undefined;
  const byId = earlierBlocks(written);
  const find = (index: number) =>
    blocks[index] ? byId(blocks[index].id) : Promise.resolve(undefined);
  return byDifference(find, cache, tokenizer);
}

/**
 * Counts by difference from the blocks that a resident process (`slop watch`) placed before:
 * each block's last text and count by `tokenizer`, from memory (the last document is not read
 * back).
 *
 * @example
 * ```ts
 * import { earlierInMemo } from "./count_diff.ts";
 * import { openCache } from "../pipeline/cache.ts";
 * const memo = { get: () => undefined, set: () => {} };
 * const cache = openCache("/tmp/none", { enabled: false });
 * await earlierInMemo(memo, [{ id: "files:a.py" }], cache, "o200k")(0, "x", () => Promise.resolve(() => 1)); // undefined
 * ```
 */
export function earlierInMemo(
  memo: Memo<BlockMemo>,
  blocks: Array<{ id: string }>,
  cache: Cache,
  tokenizer: Tokenizer,
): CountEarlier {
  const find = (index: number) => {
    const known = blocks[index] && memo.get(blocks[index].id);
    return Promise.resolve(
      known?.tokenizer === tokenizer
        ? { text: known.text, sha256: known.sha256, tokens: known.tokens }
        : undefined,
    );
  };
  return byDifference(find, cache, tokenizer);
}
