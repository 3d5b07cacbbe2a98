/**
 * The next build, prepared ahead by a build server. When its watcher sees an
 * edit, the server runs the last build's config up to the outputs
 * (`prepareBuild`); the build asked for next only writes them, provided that
 * nothing the prepared build read has changed since: the project's files (the
 * watcher says), the config (the server still keeps the same one), and the
 * files it reads that the watcher does not see (the lock, the slices file,
 * the knowledge digest, the screenshots, the order states), by their stamps.
 * A build that reads what slop cannot stamp (user plugins, the discussion
 * history, Beads, LLM summaries, a token budget's memory, `--since`, files
 * outside the root) is not prepared: it is built when asked for. It makes
 * the build after an edit take a fraction of its time; the measurement is in
 * `bench/README.md`, "Speed layers, each switched off", row `prepared`.
 *
 * @module
 */

import { join } from "node:path";
import type { PreparedBuild } from "../pipeline/build.ts";
import { fileStamp } from "../accel/resident.ts";
import { orderStatePath } from "../pipeline/order_memory.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";

/** A build prepared ahead, with what decides whether it may be finished. */
export interface PreparedNext {
  /** The build, up to its outputs. */
  build: PreparedBuild;
  /** The config it was built with (the server's kept object). */
  config: ResolvedConfig;
  /** The builds the server had run when it was prepared: a build since makes it stale. */
  after: number;
  /** The stamps of the files it read that the watcher does not see, taken before it read them. */
  stamps: InputStamps;
}

/** Paths and their stamps (inode, size, modification time, or "missing"). */
export type InputStamps = Array<[path: string, stamp: string]>;

/**
 * Whether a build with `config` may be prepared ahead: the config does not
 * turn it off (`server: { prepare: false }`), and its build reads only what a
 * build server can tell has not changed: the project's files under the root,
 * and the files {@linkcode inputStamps} stamps.
 *
 * @example
 * ```ts
 * import { preparable } from "./_prepare.ts";
 * // preparable(config); // false with user plugins, history, Beads, a budget or --since
 * ```
 */
export function preparable(config: ResolvedConfig): boolean {
  const history = config.history;
  return config.raw.server?.prepare !== false && config.cache.enabled && !config.plugins.length &&
    !config.since &&
    config.budget.tokens === undefined && !config.allowOutsideRoot && !config.beads &&
    (history === undefined || (Array.isArray(history) && !history.length));
}

/**
 * Whether a prepared build may be finished as it is: no view it chose reads
 * more than the file (an LLM summary asks a provider and its store).
 *
 * @example
 * ```ts
 * import { finishable } from "./_prepare.ts";
 * // finishable(prepared.files); // false when a file is shown as an LLM summary
 * ```
 */
export function finishable(files: PreparedBuild["files"]): boolean {
  return !files.some((file) => file.view === "llm_summary");
}

/**
 * The stamps of the files a build with `config` reads besides the project's
 * files: its lock, its slices file, the knowledge digest, the screenshots, its
 * order state, and `more` (the other order states the server keeps).
 *
 * @example
 * ```ts
 * import { inputStamps } from "./_prepare.ts";
 * // const stamps = inputStamps(config, resident.orders.keys());
 * ```
 */
export function inputStamps(config: ResolvedConfig, more: Iterable<string> = []): InputStamps {
  const paths = [config.lock, config.slicesFile, orderStatePath(config)];
  if (config.knowledge.digest) paths.push(join(config.knowledge.dir, "digest.md"));
  for (const entry of config.screenshots) paths.push(join(config.root, entry));
  paths.push(...more);
  return [...new Set(paths)].map((path) => [path, stampOf(path)]);
}

/**
 * What names a file rendered ahead: its path, content hash and view.
 *
 * @example
 * ```ts
 * import { aheadKey } from "./_prepare.ts";
 * aheadKey({ path: "a.ts", sha256: "ab", view: "full" }); // "a.ts\0ab\0full"
 * ```
 */
export function aheadKey(file: { path: string; sha256: string; view: string }): string {
  return `${file.path}\0${file.sha256}\0${file.view}`;
}

/**
 * Whether every stamped file is as it was.
 *
 * @example
 * ```ts
 * import { inputStamps, unchangedInputs } from "./_prepare.ts";
 * // unchangedInputs(inputStamps(config)); // true
 * ```
 */
export function unchangedInputs(stamps: InputStamps): boolean {
  return stamps.every(([path, stamp]) => stampOf(path) === stamp);
}

/**
 * A file's stamp (inode, size and modification time), or "missing".
 *
 * @example
 * ```ts
 * import { stampOf } from "./_prepare.ts";
 * stampOf("/no/such/file"); // "missing"
 * ```
 */
export function stampOf(path: string): string {
  return fileStamp(path) ?? "missing";
}
