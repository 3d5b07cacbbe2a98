/**
 * The cache folder as a whole, for `slop cache` and the build's record: what it holds
 * (`cacheStats`), emptying it (`clearCache`) and the last build's hit counts (`recordBuild`).
 * Reading and writing entries is `cache.ts`'s `openCache()`.
 *
 * @module
 */

import { join } from "./_path.ts";
import { readPackIndex } from "./_cache_pack.ts";
import { readSettingTextSync, STATE_FILE_LIMIT } from "./_setting_file.ts";

/** The last build's hit counts, beside the entries. */
const LAST_BUILD = "last-build.json";

/**
 * What the cache writes at the top of its folder besides its entry folders (two hex digits) and
 * `.tmp` files: the packs, their stamps (`_cache_pack.ts`), the read stage's stat index
 * (`accel/stat_index.ts`), the size record of `_cache_prune.ts` and the last build's counts.
 * {@linkcode clearCache} removes them; a cache folder inside the project may hold nothing else.
 *
 * @example
 * ```ts
 * import { CACHE_FOLDER_NAMES } from "./_cache_folder.ts";
 * CACHE_FOLDER_NAMES.includes("packs"); // true
 * ```
 */
export const CACHE_FOLDER_NAMES: readonly string[] = [
  "packs",
  "pack-stamps",
  "stat",
  "usage.json",
  LAST_BUILD,
];
const encoder = new TextEncoder();

/** What `slop cache stats` reports. */
export interface CacheStats {
  /** Absolute cache folder. */
  dir: string;
  /** Entry files. */
  entries: number;
  /** Bytes of the entry files. */
  bytes: number;
  /** Temp files left by killed writes (removed by `slop cache clear`). */
  tempFiles: number;
  /**
   * Pack files (the entries each project's last build used or made, in one file), their bytes
   * and records.
   */
  packs: { files: number; bytes: number; entries: number };
  /** Cache use of the last build that wrote to this folder, if any. */
  lastBuild?: LastBuildStats;
}

/** Cache use of one build, kept in `last-build.json` in the cache folder. */
export interface LastBuildStats {
  /** Rendered files served from the cache / rendered anew. */
  files: { hits: number; misses: number };
  /** Token counts served from the cache / counted anew. */
  tokens: { hits: number; misses: number };
}

/**
 * Count the entries and bytes of a cache folder and read the last build's
 * hit counts.
 *
 * @example
 * ```ts
 * import { cacheStats } from "./_cache_folder.ts";
 * const stats = await cacheStats(await Deno.makeTempDir());
 * stats.entries; // 0
 * ```
 */
export async function cacheStats(dir: string): Promise<CacheStats> {
  const stats: CacheStats = {
    dir,
    entries: 0,
    bytes: 0,
    tempFiles: 0,
    packs: { files: 0, bytes: 0, entries: 0 },
  };
  for (const folder of await entryFolders(dir)) {
    for await (const item of Deno.readDir(join(dir, folder))) {
      if (!item.isFile) continue;
      if (item.name.endsWith(".tmp")) {
        stats.tempFiles++;
        continue;
      }
      stats.entries++;
      stats.bytes += (await Deno.stat(join(dir, folder, item.name))).size;
    }
  }
  for (const item of await listFiles(join(dir, "packs"))) {
    if (item.endsWith(".tmp")) {
      stats.tempFiles++;
      continue;
    }
    stats.packs.files++;
    stats.packs.bytes += (await Deno.stat(join(dir, "packs", item))).size;
    stats.packs.entries += readPackIndex(join(dir, "packs", item)).size;
  }
  try {
    const last = JSON.parse(readSettingTextSync(join(dir, LAST_BUILD), STATE_FILE_LIMIT));
    if (last?.files && last?.tokens) stats.lastBuild = last;
  } catch {
    // No build recorded yet.
  }
  return stats;
}

/**
 * Remove every entry, pack, temp file and the last-build record of a cache
 * folder. Only what the cache wrote is removed: other files in the folder stay.
 *
 * @returns How many entries were removed (entry files and pack records).
 *
 * @example
 * ```ts
 * import { clearCache } from "./_cache_folder.ts";
 * await clearCache(await Deno.makeTempDir()); // 0
 * ```
 */
export async function clearCache(dir: string): Promise<number> {
  let removed = 0;
  for (const folder of await entryFolders(dir)) {
    for await (const item of Deno.readDir(join(dir, folder))) {
      if (!item.isFile) continue;
      await Deno.remove(join(dir, folder, item.name)).catch(() => {});
      if (!item.name.endsWith(".tmp")) removed++;
    }
    await Deno.remove(join(dir, folder)).catch(() => {});
  }
  for (const item of await listFiles(join(dir, "packs"))) {
    const records = item.endsWith(".tmp") ? 0 : readPackIndex(join(dir, "packs", item)).size;
    await Deno.remove(join(dir, "packs", item)).then(() => (removed += records), () => {});
  }
  await Deno.remove(join(dir, "packs")).catch(() => {});
  // The rest goes whole: the packs' stamps, the stat index, the size and last build's records.
  for (const name of CACHE_FOLDER_NAMES) {
    if (name !== "packs") await Deno.remove(join(dir, name), { recursive: true }).catch(() => {});
  }
  // Only when now empty, and only a folder: a file in its place is not the cache's to remove.
  if (isFolder(dir)) await Deno.remove(dir).catch(() => {});
  return removed;
}

/**
 * Record a build's cache use for `slop cache stats` (atomically; errors are
 * ignored).
 *
 * @example
 * ```ts
 * import { recordBuild } from "./_cache_folder.ts";
 * await recordBuild(await Deno.makeTempDir(), {
 *   files: { hits: 1, misses: 0 },
 *   tokens: { hits: 2, misses: 0 },
 * });
 * ```
 */
export async function recordBuild(dir: string, stats: LastBuildStats): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    await writeEntry(join(dir, LAST_BUILD), encoder.encode(JSON.stringify(stats) + "\n"));
  } catch {
    // Stats are a convenience.
  }
}

async function writeEntry(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

async function entryFolders(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const item of Deno.readDir(dir)) {
      if (item.isDirectory && /^[0-9a-f]{2}$/.test(item.name)) out.push(item.name);
    }
  } catch {
    // No cache yet.
  }
  return out.sort();
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const item of Deno.readDir(dir)) if (item.isFile) out.push(item.name);
  } catch {
    // No such folder.
  }
  return out.sort();
}

function isFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}
