/**
 * The read stage with what the speed layer knows of the files: the same
 * sources as `readTargets()` of `pipeline/read.ts`, built on its steps
 * (`readEach`, `readTarget`), given the `lstat` the resolve stage took of each
 * file (not taken again), and telling the layer of each file as it is read
 * (the text spill keeps each text out of memory from then on).
 *
 * @module
 */

import { readEach, readTarget } from "../pipeline/read.ts";
import type { FileStat } from "../pipeline/file_stat.ts";
import type { ResolvedConfig, SourceFile, Target } from "../pipeline/types.ts";

/** Options of {@linkcode readLooked}. */
export interface LookedReadOptions {
  /**
   * The `lstat` of files taken a moment ago, by path (not taken again). @default {undefined}
   * each file's is taken as it is read
   */
  lstats?: Map<string, FileStat>;
  /** Called with each file as it is read. @default {undefined} none */
  onRead?: (source: SourceFile) => void;
  /** Told the files read so far; what it throws stops the reads (`readEach`). @default {undefined} */
  onEach?: (done: number) => void;
}

/**
 * Read every target once, as `readTargets()` does, with the `lstat` each file was looked at with
 * already, telling `onRead` of each file as it is read.
 *
 * @example
 * ```ts
 * import { readLooked } from "./read_looked.ts";
 * import { resolveAgain } from "./kept_resolution.ts";
 * import { loadConfig } from "../pipeline/config.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const { resolution, lstats } = await resolveAgain(config);
 * let read = 0;
 * await readLooked(resolution.targets, config, { lstats, onRead: () => read++ });
 * console.log(read === resolution.targets.length); // true
 * ```
 */
export async function readLooked(
  targets: Target[],
  config: ResolvedConfig,
  options: LookedReadOptions = {},
): Promise<SourceFile[]> {
  const { lstats, onRead, onEach } = options;
  return await readEach(targets, async (target) => {
    const source = await readTarget(target, config, { lstat: lstats?.get(target.path) });
    onRead?.(source);
    return source;
  }, { onEach });
}
