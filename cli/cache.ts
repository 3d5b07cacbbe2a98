/**
 * `slop cache stats`, `slop cache clear` and `slop cache prune`: look into,
 * empty and trim the content-hash cache of a project (`cache.dir`, default
 * `.slop/cache`).
 *
 * @module
 */

import { ConfigError, loadConfig } from "../pipeline/config.ts";
import {
  type CacheStats,
  cacheStats,
  clearCache,
  parseSize,
  pruneCache,
} from "../pipeline/cache.ts";
import { formatBytes, printError } from "./_output.ts";
import { shownPath } from "../pipeline/paths.ts";

/** Flags of `slop cache stats|clear|prune`. */
export interface CacheFlags {
  /** `slop cache prune --max-size`: bytes or a size like `"200MB"` (default: `cache.maxSize`). */
  maxSize?: string;
  config?: string;
  stateDir?: string;
  /** Print the stats as JSON (`--json`). */
  json?: boolean;
  quiet?: boolean;
}

/**
 * Run `slop cache stats`, `clear` or `prune`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runCache } from "./cache.ts";
 * // const code = await runCache("stats", { json: true });
 * ```
 */
export async function runCache(
  action: "stats" | "clear" | "prune",
  flags: CacheFlags,
): Promise<number> {
  let dir: string;
  let maxSize: number;
  try {
    const config = await loadConfig({ config: flags.config, stateDir: flags.stateDir });
    dir = config.cache.dir;
    maxSize = config.cache.maxSize;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
  if (action === "prune") {
    if (flags.maxSize !== undefined) {
      const size = parseSize(flags.maxSize);
      if (size === undefined) {
        printError(
          `Option --max-size must be a number of bytes or a size like "200MB", got "${flags.maxSize}"`,
        );
        return 2;
      }
      maxSize = size;
    }
    const done = await pruneCache(dir, maxSize);
    if (!flags.quiet) {
      console.log(
        `slop: removed ${done.removed} cache files (${formatBytes(done.freed)}) from ${
          shownPath(dir)
        }; it holds ${formatBytes(done.bytes)} (limit ${formatBytes(maxSize)})`,
      );
    }
    return 0;
  }
  if (action === "clear") {
    const removed = await clearCache(dir);
    if (!flags.quiet) console.log(`slop: removed ${removed} cache entries from ${shownPath(dir)}`);
    return 0;
  }
  const stats = await cacheStats(dir);
  console.log(flags.json ? JSON.stringify(stats) : cacheStatsText(stats));
  return 0;
}

/**
 * The human text of `slop cache stats`.
 */
function cacheStatsText(stats: CacheStats): string {
  const lines = [`cache: ${shownPath(stats.dir)}`];
  // Most entries live in packs: the entry files are the rest, so each line says which it counts
  // (not "entries: 0" over a pack of 660).
  if (stats.packs.files) {
    const { files, bytes, entries } = stats.packs;
    lines.push(
      `packed entries: ${entries} in ${files} pack file${files === 1 ? "" : "s"} ` +
        `(${formatBytes(bytes)})`,
    );
  }
  lines.push(`entry files besides the packs: ${stats.entries} (${formatBytes(stats.bytes)})`);
  if (stats.tempFiles) lines.push(`temp files left by interrupted writes: ${stats.tempFiles}`);
  const last = stats.lastBuild;
  if (last) {
    lines.push(`last build: files ${rate(last.files)}, token counts ${rate(last.tokens)}`);
  } else {
    lines.push("last build: none recorded");
  }
  return lines.join("\n");
}

function rate(c: { hits: number; misses: number }): string {
  const total = c.hits + c.misses;
  const pct = total ? Math.round((c.hits / total) * 100) : 0;
  return `${c.hits}/${total} hits (${pct}%)`;
}
