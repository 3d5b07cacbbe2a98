/**
 * Count stage: the token counts of many texts, served from the content-hash cache when it has
 * them (keyed by text sha256 and tokenizer), the rest counted by this thread and a worker per
 * other core (`_count_threads.ts`) with slop's compact BPE counter (`_bpe.ts`), whose table is
 * stored once made (`_count_tables.ts`: a rebuild that counts one edited file never imports the
 * tokenizer's ranks). Large texts are cut at lines where the tokenizer's pre-split always breaks
 * (`_count_cuts.ts`), so one big file does not leave a core idle; the sum of the pieces is the
 * exact count of the whole. Nothing loads a tokenizer when every count is cached.
 *
 * @module
 */

import { type Cache, cacheKey } from "./cache.ts";
import { sha256 } from "./read.ts";
import type { Tokenizer } from "./types.ts";
import { splitForCounting } from "./_count_cuts.ts";
import { counterFor, loadTable } from "./_count_tables.ts";
import { countHelpers, countThreads, releaseCounting, shareCounting } from "./_count_threads.ts";

export { countableSpan, earlySpan, isCountCut, splitForCounting } from "./_count_cuts.ts";
export type { BpeTable } from "./_bpe.ts";
export {
  loadedTables,
  prefetchTable,
  prepareCounting,
  tableFor,
  tableOrigins,
} from "./_count_tables.ts";
export {
  countThreads,
  prestartCounting,
  releaseCounting,
  setParallelCountChars,
} from "./_count_threads.ts";

/** Texts longer than this are cut into pieces for the workers. */
const PIECE_CHARS = 256 * 1024;

/** Options of {@linkcode countMany}. */
export interface CountOptions {
  /** Tokenizer. @default {"o200k"} */
  tokenizer?: Tokenizer;
  /** Cache for counts (none: count everything). */
  cache?: Cache;
  /** Threads to count with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** The texts' sha256 (hex of their UTF-8 bytes), in order, when the caller has them. */
  hashes?: string[];
  /**
   * Told, as counts are found, the share (0 to 1) of the distinct texts whose count is known so
   * far: from the cache or counted (a progress bar's measure: a big tree's cold count takes
   * minutes). No text is read for it. @default {undefined}
   */
  onProgress?: (share: number) => void;
}

/** What {@linkcode countMany} returns. */
export interface CountResult {
  /** Token count by the text's sha256 (hex of its UTF-8 bytes). */
  counts: Map<string, number>;
  /** Distinct texts whose count came from the cache. */
  hits: number;
  /** Distinct texts counted now. */
  misses: number;
}

/**
 * Count the tokens of many texts, by text sha256: the cache's counts, the others counted
 * ({@linkcode countTexts}) and stored in the cache.
 *
 * @example
 * ```ts
 * import { countMany } from "./count.ts";
 * const { counts } = await countMany(["hello world"], { workers: 1 });
 * [...counts.values()]; // [2]
 * ```
 */
export async function countMany(
  texts: ArrayLike<string>,
  options: CountOptions = {},
): Promise<CountResult> {
  const { tokenizer = "o200k", cache } = options;
  const byHash = hashIndexes(texts, options.hashes);
  const tell = countProgress(byHash.size, options.onProgress);
  const { counts, missing } = await cachedCounts([...byHash.keys()], { tokenizer, cache });
  const hits = counts.size;
  tell(hits);
  const textOf = (hash: string) => texts[byHash.get(hash)!];
  await countInto(counts, missing, { textOf, tokenizer, workers: options.workers, cache, tell });
  await storeCounts(missing, counts, { tokenizer, cache });
  return { counts, hits, misses: missing.length };
}

/**
 * Count the texts of `hashes` ({@linkcode countTexts}) into `counts`; `tell` is told, as they are
 * taken, a share of one for each.
 *
 * @example
 * ```ts
 * import { countInto } from "./count.ts";
 * const counts = new Map<string, number>();
 * await countInto(counts, ["h"], { textOf: () => "hello world", tokenizer: "o200k", workers: 1 });
 * counts.get("h"); // 2
 * ```
 */
export async function countInto(
  counts: Map<string, number>,
  hashes: string[],
  options: {
    textOf: (hash: string) => string;
    tokenizer: Tokenizer;
    workers?: number;
    cache?: Cache;
    tell?: (texts: number) => void;
  },
): Promise<void> {
  const { tell } = options;
  let told = 0;
  const found = await countTexts(hashes.map(options.textOf), {
    tokenizer: options.tokenizer,
    workers: options.workers,
    cache: options.cache,
    onCounted: tell && ((share) => {
      const now = share * hashes.length;
      tell(now - told);
      told = now;
    }),
  }).finally(releaseCounting);
  hashes.forEach((hash, i) => counts.set(hash, found[i]));
}

/**
 * Each distinct text's index by its sha256 (`hashes[i]` when given, else hashed here). The texts
 * are read by index when counted: `texts` may read them from disk one by one
 * (`pipeline/lazy_text.ts`), and none is held here meanwhile.
 *
 * @example
 * ```ts
 * import { hashIndexes } from "./count.ts";
 * hashIndexes(["a", "b", "a"]).size; // 2
 * ```
 */
export function hashIndexes(texts: ArrayLike<string>, hashes?: string[]): Map<string, number> {
  const byHash = new Map<string, number>();
  for (let i = 0; i < texts.length; i++) byHash.set(hashes?.[i] ?? sha256(texts[i]), i);
  return byHash;
}

/**
 * The cache's token counts of texts by their sha256, and the sha256 of those it lacks, sorted.
 *
 * @example
 * ```ts
 * import { cachedCounts } from "./count.ts";
 * const { missing } = await cachedCounts(["ab12"], {});
 * missing; // ["ab12"]: no cache
 * ```
 */
export async function cachedCounts(
  hashes: string[],
  options: { tokenizer?: Tokenizer; cache?: Cache },
): Promise<{ counts: Map<string, number>; missing: string[] }> {
  const { tokenizer = "o200k", cache } = options;
  const counts = new Map<string, number>();
  const missing: string[] = [];
  await Promise.all(hashes.map(async (hash) => {
    const n = cache ? await cache.get<number>(tokenCountKey(tokenizer, hash)) : undefined;
    if (isCount(n)) counts.set(hash, n);
    else missing.push(hash);
  }));
  return { counts, missing: missing.sort() };
}

/**
 * Whether a value read back (from the cache, a file) is a token count.
 *
 * @example
 * ```ts
 * import { isCount } from "./count.ts";
 * [isCount(3), isCount(-1), isCount("3")]; // [true, false, false]
 * ```
 */
export function isCount(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/**
 * Store the counts of `hashes` (taken from `counts`) in the cache.
 *
 * @example
 * ```ts
 * import { storeCounts } from "./count.ts";
 * await storeCounts(["ab12"], new Map([["ab12", 2]]), {}); // no cache: nothing stored
 * ```
 */
export async function storeCounts(
  hashes: string[],
  counts: Map<string, number>,
  options: { tokenizer?: Tokenizer; cache?: Cache },
): Promise<void> {
  const { tokenizer = "o200k", cache } = options;
  if (!cache) return;
  await Promise.all(
    hashes.map((hash) => cache.set(tokenCountKey(tokenizer, hash), counts.get(hash))),
  );
}

/**
 * A progress callback's teller: given how many more of the `total` texts have their count (a
 * share of one for the texts being counted), it tells `onProgress` the share of all found so far.
 *
 * @example
 * ```ts
 * import { countProgress } from "./count.ts";
 * const tell = countProgress(4, (share) => console.log(share));
 * tell(1); // 0.25
 * ```
 */
export function countProgress(
  total: number,
  onProgress?: (share: number) => void,
): (texts: number) => void {
  if (!onProgress) return () => {};
  let done = 0;
  return (texts) => {
    done += texts;
    onProgress(total ? Math.min(1, done / total) : 1);
  };
}

/**
 * The token counter of a tokenizer, its table loaded as {@linkcode countTexts} loads it.
 *
 * @example
 * ```ts
 * import { tokenCounter } from "./count.ts";
 * (await tokenCounter("o200k"))("hello world"); // 2
 * ```
 */
export async function tokenCounter(
  tokenizer: Tokenizer,
  cache?: Cache,
): Promise<(text: string) => number> {
  return counterFor(tokenizer, await loadTable(tokenizer, cache));
}

/**
 * Count texts, in parallel when there is enough to count. The result is the
 * same as counting each text whole in one thread.
 *
 * @example
 * ```ts
 * import { countTexts } from "./count.ts";
 * await countTexts(["hello world", ""], { workers: 1 }); // [2, 0]
 * ```
 */
export async function countTexts(
  texts: string[],
  options: {
    tokenizer?: Tokenizer;
    workers?: number;
    cache?: Cache;
    /** Told the share (0 to 1) of the texts, or of their pieces, taken to be counted so far. */
    onCounted?: (share: number) => void;
  } = {},
): Promise<number[]> {
  const tokenizer = options.tokenizer ?? "o200k";
  if (!texts.length) return [];
  const total = texts.reduce((n, t) => n + t.length, 0);
  const workers = countThreads(total, options.workers);
  const told = options.onCounted ?? (() => {});
  if (workers === 1) {
    releaseCounting();
    const count = counterFor(tokenizer, await loadTable(tokenizer, options.cache));
    return texts.map((text, i) => {
      const n = count(text);
      told((i + 1) / texts.length);
      return n;
    });
  }
  // Workers start (unless started during the transform) while this thread loads the table.
  const helpers = countHelpers(workers - 1);
  const table = await loadTable(tokenizer, options.cache);
  const count = counterFor(tokenizer, table);
  // Cut, largest pieces first, so the last ones taken are small.
  const pieces: Array<{ text: number; body: string }> = [];
  texts.forEach((text, i) => {
    for (const body of splitForCounting(text, PIECE_CHARS)) pieces.push({ text: i, body });
  });
  pieces.sort((a, b) => b.body.length - a.body.length);
  const found = await shareCounting(pieces.map((p) => p.body), count, table, {
    helpers,
    onTaken: told,
  });
  const out = new Array<number>(texts.length).fill(0);
  pieces.forEach((piece, i) => (out[piece.text] += found[i]));
  return out;
}

/**
 * The cache key of a text's token count: the tokenizer and the sha256 of its UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { tokenCountKey } from "./count.ts";
 * tokenCountKey("o200k", "ab12"); // a key of the content-hash cache
 * ```
 */
export function tokenCountKey(tokenizer: Tokenizer, sha256: string): string {
  return cacheKey(["tokens", tokenizer, sha256]);
}
