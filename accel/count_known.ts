/**
 * The count stage with what the speed layer knows of the counts: the same
 * counts as `countMany()` of `pipeline/count.ts`, built on its steps, with two
 * more ways to find a count before a text is counted whole:
 *
 * - `counted`: the last document's counts by sha256, for the texts the cache
 *   holds (a warm build has most blocks again: their counts need no cache read);
 * - `known`: for a text the cache lacks, its count made early by the scan's
 *   workers (`precount.ts`) or by difference from the same block's earlier text
 *   (`count_diff.ts`).
 *
 * @module
 */

import {
  cachedCounts,
  countInto,
  type CountOptions,
  countProgress,
  type CountResult,
  hashIndexes,
  isCount,
  storeCounts,
  tokenCounter,
  tokenCountKey,
} from "../pipeline/count.ts";
import type { Cache } from "../pipeline/cache.ts";
import type { Tokenizer } from "../pipeline/types.ts";

/**
 * The i-th text's count found another way, or `undefined` to count it whole: given the index,
 * the text (read when asked for: it may be read from disk, `lazy_text.ts`) and the counter
 * (loaded when first asked for).
 */
export type KnownCount = (
  index: number,
  text: () => string,
  counter: () => Promise<(text: string) => number>,
) => Promise<number | undefined>;

/** Options of {@linkcode countKnown}. */
export interface KnownCountOptions extends CountOptions {
  /** A count found another way, for a text the cache lacks. @default {undefined} none */
  known?: KnownCount;
  /**
   * The count of a text by its sha256 when the caller knows it already (the last document's
   * blocks), taken in place of reading the cache's entry, which is kept as read (`Cache.keep`).
   * @default {undefined} none
   */
  counted?: (sha256: string) => number | undefined;
}

/**
 * Count the tokens of many texts, by text sha256, as `countMany()` does, taking the counts the
 * caller knows (`counted`, `known`) before counting a text whole.
 *
 * @example
 * ```ts
 * import { countKnown } from "./count_known.ts";
 * const known = () => Promise.resolve(7);
 * const { counts } = await countKnown(["hello world"], { workers: 1, known });
 * [...counts.values()]; // [7]
 * ```
 */
export async function countKnown(
  texts: ArrayLike<string>,
  options: KnownCountOptions,
): Promise<CountResult> {
  const { tokenizer = "o200k", cache } = options;
  const byHash = hashIndexes(texts, options.hashes);
  const tell = countProgress(byHash.size, options.onProgress);
  const { counts, missing } = await countsKept([...byHash.keys()], options);
  const hits = counts.size;
  tell(hits);
  let rest = missing;
  // Texts counted another way (early, or by difference from an earlier version of the block).
  if (options.known && rest.length) {
    const counter = once(() => tokenCounter(tokenizer, cache));
    const left: string[] = [];
    for (const hash of rest) {
      const index = byHash.get(hash)!;
      const n = await options.known(index, () => texts[index], counter);
      if (n === undefined) left.push(hash);
      else {
        counts.set(hash, n);
        tell(1);
      }
    }
    rest = left;
  }
  const textOf = (hash: string) => texts[byHash.get(hash)!];
  await countInto(counts, rest, { textOf, tokenizer, workers: options.workers, cache, tell });
  await storeCounts(missing, counts, { tokenizer, cache });
  return { counts, hits, misses: missing.length };
}

/**
 * The counts the caller knows of texts the cache holds (their entries kept as read), then the
 * cache's counts of the others: as `cachedCounts()` gives them.
 */
async function countsKept(
  hashes: string[],
  options: {
    tokenizer?: Tokenizer;
    cache?: Cache;
    counted?: (sha256: string) => number | undefined;
  },
): Promise<{ counts: Map<string, number>; missing: string[] }> {
  const { tokenizer = "o200k", cache, counted } = options;
  if (!counted || !cache?.keep) return await cachedCounts(hashes, { tokenizer, cache });
  const kept = new Map<string, number>();
  const others = hashes.filter((hash) => {
    const n = counted(hash);
    if (!isCount(n) || !cache.keep!(tokenCountKey(tokenizer, hash))) return true;
    kept.set(hash, n);
    return false;
  });
  const { counts, missing } = await cachedCounts(others, { tokenizer, cache });
  for (const [hash, n] of kept) counts.set(hash, n);
  return { counts, missing };
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
