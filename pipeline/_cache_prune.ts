/**
 * The cache's size limit (`cache.maxSize`): least-recently-used eviction of
 * entry files and packs. "Used" is a file's modification time: entries and
 * packs are written when made and touched when a build uses them. A build
 * adds what it wrote to an estimate of the folder's size (`usage.json`), and
 * only when the estimate passes the limit is the folder listed and pruned,
 * so a build under the limit costs two small file operations, not a walk.
 *
 * @module
 */

import { basename, dirname, join } from "./_path.ts";
import { dropIndexFile } from "./_cache_pack_index.ts";
import { quote, type Rule, typeName } from "./schema.ts";
import { readSettingTextSync } from "./_setting_file.ts";

/** The file holding the size estimate, beside the entry folders. */
const USAGE = "usage.json";
/** Temp files older than this are left by killed writes: prune removes them. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What {@linkcode pruneCache} did. */
export interface PruneResult {
  /** Entry files and packs removed. */
  removed: number;
  /** Bytes freed (temp files included). */
  freed: number;
  /** Bytes the folder holds now (entry files and packs). */
  bytes: number;
}

/**
 * A size in bytes from a number of bytes or a string like `"512MB"`,
 * `"2 GB"`, `"800k"` (units of 1024; `B`, `KB`, `MB`, `GB`, case-insensitive,
 * the `B` optional); `undefined` when it is neither.
 *
 * @example
 * ```ts
 * import { parseSize } from "./_cache_prune.ts";
 * parseSize("512MB"); // 536870912
 * parseSize(1000); // 1000
 * ```
 */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  }
  if (typeof value !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)b?\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()]!;
  return Math.floor(Number(m[1]) * unit);
}

/**
 * The config rule of `cache.maxSize`: bytes, or a size string.
 *
 * @example
 * ```ts
 * import { cacheSize } from "./_cache_prune.ts";
 * cacheSize()("1 TB", "cache.maxSize").length; // 1
 * ```
 */
export function cacheSize(): Rule {
  return (v, p) =>
    parseSize(v) !== undefined ? [] : [
      `"${p}" must be a number of bytes or a size like "512MB", got ${
        typeof v === "string" ? quote(v) : typeName(v)
      }`,
    ];
}

/**
 * Add `added` bytes to the folder's size estimate; `true` when the folder
 * should be listed and pruned (over `maxSize`, or no estimate yet).
 *
 * @example
 * ```ts
 * import { noteGrowth } from "./_cache_prune.ts";
 * await noteGrowth(await Deno.makeTempDir(), 100, 1000); // true: no estimate yet
 * ```
 */
export async function noteGrowth(dir: string, added: number, maxSize: number): Promise<boolean> {
  let bytes: number;
  try {
    bytes = JSON.parse(readSettingTextSync(join(dir, USAGE), 1 << 20)).bytes;
    if (typeof bytes !== "number" || !Number.isFinite(bytes)) return true;
  } catch {
    return true;
  }
  bytes += added;
  if (bytes > maxSize) return true;
  await writeUsage(dir, bytes);
  return false;
}

/**
 * Remove the least recently used entry files and packs of a cache folder
 * until it holds at most `maxSize` bytes, and temp files left by killed
 * writes (over an hour old). Files other than the cache's own stay.
 *
 * @example
 * ```ts
 * import { pruneCache } from "./_cache_prune.ts";
 * (await pruneCache(await Deno.makeTempDir(), 0)).removed; // 0
 * ```
 */
export async function pruneCache(dir: string, maxSize: number): Promise<PruneResult> {
  const files: Array<{ path: string; size: number; used: number }> = [];
  const result: PruneResult = { removed: 0, freed: 0, bytes: 0 };
  const now = Date.now();
  const visit = async (folder: string) => {
    let items: Deno.DirEntry[];
    try {
      items = [...Deno.readDirSync(folder)];
    } catch {
      return;
    }
    for (const item of items) {
      if (!item.isFile) continue;
      const path = join(folder, item.name);
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(path);
      } catch {
        continue; // removed meanwhile
      }
      const used = info.mtime?.getTime() ?? 0;
      if (item.name.endsWith(".tmp")) {
        if (now - used > STALE_TEMP_MS) {
          await Deno.remove(path).then(() => (result.freed += info.size), () => {});
        }
        continue;
      }
      files.push({ path, size: info.size, used });
    }
  };
  let folders: string[] = [];
  try {
    folders = [...Deno.readDirSync(dir)]
      .filter((e) => e.isDirectory && (/^[0-9a-f]{2}$/.test(e.name) || e.name === "packs"))
      .map((e) => e.name);
  } catch {
    return result; // no cache yet
  }
  for (const folder of folders.sort()) await visit(join(dir, folder));
  result.bytes = files.reduce((n, f) => n + f.size, 0);
  await evictOldest(dir, files, maxSize, result);
  for (const folder of folders) {
    if (folder !== "packs") await Deno.remove(join(dir, folder)).catch(() => {}); // when empty
  }
  await writeUsage(dir, result.bytes);
  return result;
}

/** Remove `files`, oldest first, until `result.bytes` is within `maxSize`. */
async function evictOldest(
  dir: string,
  files: Array<{ path: string; size: number; used: number }>,
  maxSize: number,
  result: PruneResult,
): Promise<void> {
  // Oldest first; ties by path, so the same folder is always pruned the same way.
  files.sort((a, b) => a.used - b.used || (a.path < b.path ? -1 : 1));
  for (const file of files) {
    if (result.bytes <= maxSize) break;
    try {
      await Deno.remove(file.path);
    } catch {
      continue;
    }
    result.removed++;
    result.freed += file.size;
    result.bytes -= file.size;
    // An evicted pack's index file (`_cache_pack_index.ts`, about a fortieth of its pack) goes too.
    if (dirname(file.path) === join(dir, "packs")) {
      dropIndexFile(join(dir, "pack-stamps", basename(file.path)));
    }
  }
}

async function writeUsage(dir: string, bytes: number): Promise<void> {
  const path = join(dir, USAGE);
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify({ bytes }) + "\n");
    await Deno.rename(tmp, path);
  } catch {
    await Deno.remove(tmp).catch(() => {});
  }
}
