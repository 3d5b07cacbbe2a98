/**
 * The secrets stage's records of the files found clean, so that a build scans only what changed:
 * a file's id (its content hash and path) listed under the scan's key (its rules and scanner),
 * kept in a long list and a short one of the ids added since. A part of `secrets.ts`.
 *
 * @module
 */

import { type Cache, cacheKey } from "./cache.ts";
import { countWork } from "./_work_count.ts";

/** The lists of the files found clean under a scan's key, as a plan read them. */
export interface CleanLists {
  /** The cache entry of the long list (the scan's rules and scanner). */
  key: string;
  /** The ids of both lists. */
  before: Set<string>;
  /** The short list's ids. */
  added: string[];
}

/**
 * The ids of the files found clean before: the cache's list under `key` and those `added` since.
 * The files found clean are kept in two lists, so that a build that finds a few files clean
 * anew (an edit) stores a few ids, not the tree's: the list under `key` (sorted), stored whole
 * now and then, and the short list of the ids found clean since (`cleanAddedKey()`), stored
 * again by each build that adds to it. Once the short one grows past
 * {@linkcode addedLimit}, or a tenth of the ids listed are no longer of a file found clean
 * (gone or changed), the list is stored whole again and the short one empty. An id stays true
 * once listed (a file of that path and content is clean under these rules), so ids of files
 * gone only cost their bytes until then.
 *
 * @example
 * ```ts
 * import { cleanList } from "./_scan_clean.ts";
 * (await cleanList("k", undefined, ["a b"])).has("a b"); // true
 * ```
 */
export async function cleanList(
  key: string,
  cache: Cache | undefined,
  added: string[],
): Promise<Set<string>> {
  const list = cache?.enabled ? (await cache.get<string[]>(key)) ?? [] : [];
  // The list is the size of the tree: read it once a build at most (the scaling tests count it).
  countWork("clean ids read", list.length);
  const out = new Set(list);
  for (const id of added) out.add(id);
  return out;
}

/** The key of the short list of the ids found clean since the list under `key` was stored. */
function cleanAddedKey(key: string): string {
  return cacheKey(["secrets-clean-added/1", key]);
}

/**
 * The ids found clean since the cache's list under `key` was stored (see `cleanList`).
 *
 * @example
 * ```ts
 * import { cleanAdded } from "./_scan_clean.ts";
 * await cleanAdded("k", undefined); // []: no cache
 * ```
 */
export async function cleanAdded(key: string, cache: Cache | undefined): Promise<string[]> {
  if (!cache?.enabled) return [];
  const added = await cache.get<string[]>(cleanAddedKey(key));
  return Array.isArray(added) && added.every((id) => typeof id === "string") ? added : [];
}

/**
 * How long the short list of the ids found clean anew grows before the whole list is stored
 * again: about the square root of twice the files found clean. A build that adds one id
 * stores the short list again (its length in ids), and the whole list once in that many
 * builds: `k` builds store about `k * k / 2 + n` ids, fewest a build at `k = sqrt(2n)`.
 */
function addedLimit(clean: number): number {
  return Math.max(64, Math.ceil(Math.sqrt(2 * clean)));
}

/**
 * Store the files found clean (see `cleanList`): the ids found clean anew added to the short
 * list, or, past its limit or with many ids of files no longer clean, the whole list; gives the
 * ids the lists hold once stored (undefined when nothing was stored).
 *
 * @example
 * ```ts
 * import { storeClean } from "./_scan_clean.ts";
 * // plan.stored = await storeClean(cache, plan, { clean, newlyClean }) ?? plan.stored;
 * ```
 */
export async function storeClean(
  cache: Cache,
  { key, before, added }: CleanLists,
  { clean, newlyClean }: { clean: string[]; newlyClean: string[] },
): Promise<Set<string> | undefined> {
  // Ids are unique: those of `before` that are not clean now are of files gone or changed.
  const stale = before.size - (clean.length - newlyClean.length);
  const grown = added.length + newlyClean.length;
  if (grown > addedLimit(clean.length) || stale > clean.length / 10) {
    await cache.set(key, clean.sort());
    if (added.length) await cache.set(cleanAddedKey(key), []);
    return new Set(clean);
  }
  if (!newlyClean.length) return undefined;
  await cache.set(cleanAddedKey(key), [...added, ...newlyClean].sort());
  const stored = new Set(before);
  for (const id of newlyClean) stored.add(id);
  return stored;
}
