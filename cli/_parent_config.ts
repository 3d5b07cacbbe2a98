/**
 * A build without a config in its folder reads no other: run in `src/` of a project whose
 * `slop.config.ts` is one folder up, it bundles `src/` alone with the defaults, and keeps its
 * outputs in `src/.slop/`. That is by design (the config is the folder's, as `slop init DIR`
 * writes it), but a user who ran `slop init` at the top expects the config to apply: slop says
 * which config it did not read, and how to use it.
 *
 * @module
 */

import { pathExists } from "../pipeline/helpers.ts";
import { dirname, join, relative, sep } from "node:path";
import { CONFIG_FILES } from "../pipeline/config.ts";

/** Folders looked at above the build's, at most (a project's depth, not a disk's). */
const MAX_LEVELS = 16;

/**
 * The config file of the nearest folder above `folder` within its git work tree (up to the
 * folder with `.git`): its path relative to `folder`, or undefined when there is none, or when
 * `folder` is in no work tree (a config in `/tmp` is no project's).
 *
 * @example
 * ```ts
 * import { parentConfig } from "./_parent_config.ts";
 * parentConfig("/"); // undefined: nothing is above the root
 * ```
 */
export function parentConfig(folder: string): string | undefined {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  let found: string | undefined;
  let dir = folder;
  for (let level = 0; level < MAX_LEVELS; level++) {
    // The top of the work tree: a config found below it is the project's.
    if (pathExists(join(dir, ".git"))) return found;
    const up = dirname(dir);
    if (up === dir || up === home) return undefined;
    dir = up;
    const name = found ? undefined : CONFIG_FILES.find((n) => pathExists(join(dir, n)));
    if (name) found = relative(folder, join(dir, name)).split(sep).join("/");
  }
  return undefined;
}

/**
 * The warning of a build that found no config in its folder while a folder above has one.
 *
 * @example
 * ```ts
 * import { parentConfigWarning } from "./_parent_config.ts";
 * parentConfigWarning("../slop.config.ts");
 * ```
 */
export function parentConfigWarning(config: string): string {
  const flag = /^[\w@%+=:,./-]+$/.test(config) ? config : `'${config.replace(/'/g, `'"'"'`)}'`;
  return `No slop config in this folder, so this build takes its files with the defaults; ` +
    `"${config}" above is not read: run slop in its folder, or pass --config ${flag}`;
}
