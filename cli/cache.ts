/**
 * `slop cache stats` and `slop cache clear`: look into and empty the
 * content-hash cache of a project (`cache.dir`, default `.slop/cache`).
 *
 * @module
 */

import { relative } from "node:path";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { type CacheStats, cacheStats, clearCache } from "../pipeline/cache.ts";
import { formatBytes, printError } from "./_output.ts";

/** Flags of `slop cache stats|clear`. */
export interface CacheFlags {
  config?: string;
  stateDir?: string;
  /** Print the stats as JSON (`--json`). */
  json?: boolean;
  quiet?: boolean;
}

/**
 * Run `slop cache stats` or `slop cache clear`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runCache } from "./cache.ts";
 * // const code = await runCache("stats", { json: true });
 * ```
 */
export async function runCache(action: "stats" | "clear", flags: CacheFlags): Promise<number> {
  let dir: string;
  try {
    const config = await loadConfig({ config: flags.config, stateDir: flags.stateDir });
    dir = config.cache.dir;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
  if (action === "clear") {
    const removed = await clearCache(dir);
    if (!flags.quiet) console.log(`slop: removed ${removed} cache entries from ${shown(dir)}`);
    return 0;
  }
  const stats = await cacheStats(dir);
  console.log(flags.json ? JSON.stringify(stats) : cacheStatsText(stats));
  return 0;
}

/**
 * The human text of `slop cache stats`.
 *
 * @example
 * ```ts
 * import { cacheStatsText } from "./cache.ts";
 * cacheStatsText({
 *   dir: ".slop/cache",
 *   entries: 0,
 *   bytes: 0,
 *   tempFiles: 0,
 *   packs: { files: 0, bytes: 0 },
 * });
 * ```
 */
export function cacheStatsText(stats: CacheStats): string {
  const lines = [
    `cache: ${shown(stats.dir)}`,
    `entries: ${stats.entries} (${formatBytes(stats.bytes)})`,
  ];
  if (stats.packs.files) {
    lines.push(`packs: ${stats.packs.files} (${formatBytes(stats.packs.bytes)})`);
  }
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

function shown(path: string): string {
  const rel = relative(Deno.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
