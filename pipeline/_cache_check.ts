/**
 * A cache folder slop cannot use: a file (or a FIFO, a device) where the folder should be, a
 * folder under one, or a folder that takes no writes. The cache reads and writes nothing then,
 * and each build renders and counts every file anew: the document is whole, so this is a warning
 * (as a state dir that takes no writes is, `_state_write.ts`), said once a build, naming the path
 * and what to do. What is in the way is left as it is.
 *
 * @module
 */

import { unwritableReason } from "./_state_write.ts";
import { isWithin, shownPath } from "./_path.ts";
import type { ResolvedConfig } from "./types.ts";

/** Cache folders a write was seen to work in, by this process: probed once. */
const writable = new Set<string>();

/**
 * The warning of a build whose cache folder (`cache.dir`) cannot be used, or undefined (it can,
 * or the cache is off with `--no-cache`). A missing folder is made here, as the cache's first
 * write would make it. A cache folder inside a state dir that is itself no folder is left to the
 * state dir's own message (a written build stops, `--stdout` warns).
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { cacheFolderWarning } from "./_cache_check.ts";
 * const warning = cacheFolderWarning(await loadConfig({ cwd: Deno.cwd() }));
 * if (warning) console.warn(warning);
 * ```
 */
export function cacheFolderWarning(config: ResolvedConfig): string | undefined {
  const dir = config.cache.dir;
  if (!config.cache.enabled) return undefined;
  if (isWithin(dir, config.stateDir) && !isFolder(config.stateDir)) return undefined;
  const reason = cacheFolderProblem(dir);
  if (reason === undefined) return undefined;
  const shown = shownPath(dir, config.root);
  return `Cannot use the cache folder "${shown}" (${reason}): the document is whole, but every ` +
    "build renders and counts every file anew; move what is in its place away, or set " +
    "cache.dir (or pass --state-dir) to a folder you can write";
}

/** Why `dir` cannot hold the cache, in a few words, or undefined. */
function cacheFolderProblem(dir: string): string | undefined {
  try {
    if (!Deno.statSync(dir).isDirectory) return "not a directory";
    if (writable.has(dir)) return undefined; // a stat a build: the probe below once
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return cacheWriteReason(error);
  }
  try {
    Deno.mkdirSync(dir, { recursive: true });
    // A folder that takes no writes (read-only, another user's): one file made and removed.
    const probe = Deno.makeTempFileSync({ dir, prefix: ".probe-", suffix: ".tmp" });
    Deno.removeSync(probe);
    writable.add(dir);
    return undefined;
  } catch (error) {
    return cacheWriteReason(error);
  }
}

/**
 * The warning of a build whose cache could not be saved (`reason`: why, from
 * {@linkcode cacheWriteReason}), or undefined when the folder's own warning was given at the
 * start of the build ({@linkcode cacheFolderWarning}: it is said once).
 *
 * @example
 * ```ts
 * import { loadConfig } from "./config.ts";
 * import { cacheUnsavedWarning } from "./_cache_check.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * cacheUnsavedWarning(config, "no space left on device");
 * ```
 */
export function cacheUnsavedWarning(config: ResolvedConfig, reason: string): string | undefined {
  if (cacheFolderProblem(config.cache.dir) !== undefined) return undefined;
  const shown = shownPath(config.cache.dir, config.root);
  return `Cannot save the cache in "${shown}" (${reason}): the document is whole, but the next ` +
    "build renders and counts the files anew; make room on its disk (or move what is in the way), " +
    "or set cache.dir (or pass --state-dir) to a folder you can write";
}

/**
 * Why a write into the cache folder failed, in a few words (`no space left on device`).
 *
 * @example
 * ```ts
 * import { cacheWriteReason } from "./_cache_check.ts";
 * cacheWriteReason(new Deno.errors.NotADirectory("Not a directory (os error 20)"));
 * // "a file is where a folder of its path should be"
 * ```
 */
export function cacheWriteReason(error: unknown): string {
  if (error instanceof Deno.errors.NotADirectory || hasCode(error, "ENOTDIR")) {
    return "a file is where a folder of its path should be";
  }
  if (error instanceof Deno.errors.AlreadyExists) return "not a directory";
  const reason = unwritableReason(error);
  if (reason) return reason;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ \(os error \d+\).*$/s, "");
}

function hasCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown })?.code === code;
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
