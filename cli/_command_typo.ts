/**
 * `slop buidl` runs the default command, `build`, with the path "buidl": a
 * mistyped command would write an empty document and exit 0. This tells the
 * two apart: a first path that does not exist and is close to a command name.
 *
 * @module
 */

import { closest } from "../pipeline/closest.ts";

/**
 * The usage error for a first `PATHS` argument that is a mistyped command,
 * else undefined (an existing path, a glob, a path with a folder or a dot).
 *
 * @example
 * ```ts
 * import { commandTypo } from "./_command_typo.ts";
 * await commandTypo(["buidl"], ["build", "stats"]);
 * // 'Unknown command "buidl" (did you mean "build"?), and no file or folder has that name'
 * ```
 */
export async function commandTypo(
  paths: string[],
  commands: string[],
): Promise<string | undefined> {
  const first = paths[0];
  if (first === undefined || /[\\/.*?[\]{}]/.test(first)) return undefined;
  const exists = await Deno.lstat(first).then(() => true, () => false);
  if (exists) return undefined;
  const hint = closest(first, commands);
  return hint === undefined
    ? undefined
    : `Unknown command "${first}" (did you mean "${hint}"?), and no file or folder has that name`;
}
