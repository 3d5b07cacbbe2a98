/**
 * An output folder that holds the project's own files: slop leaves its output folder out of every
 * build (its documents would be in the next one), so `output.dir: "src"` would leave every file of
 * `src` out of the document, quietly. That is a mistake nobody means, and a warning would scroll
 * by while the document (and a prefix pinned from it) went on without them: it is a config error
 * that names the key and the files, as `output.dir` set to the project folder is.
 *
 * @module
 */

import { ConfigError, configName } from "./config.ts";
import { relative, sep } from "./_path.ts";
import type { ResolvedConfig } from "./types.ts";

/** How many of the files left out the error names. */
const NAMED = 3;

/**
 * The error for the project files (root-relative `paths`, as listed) under the output folder that
 * slop did not write, or undefined when there are none. slop writes `<namespace>_<n>.<ext>` and
 * `.<namespace>.…` files there (the documents and manifests, the last number, files being written),
 * and the folders in `others` are slop's too (root-relative: the state dir, the cache dir, the
 * history file), wherever they are.
 *
 * @example
 * ```ts
 * import { outputDirError } from "./_output_dir.ts";
 * // outputDirError(config, ["src/a.py", "src/context_001.md"])?.message
 * // 'Invalid config "slop.config.ts": output.dir "src" holds files of the project ("src/a.py"): …'
 * ```
 */
export function outputDirError(
  config: ResolvedConfig,
  paths: string[],
  others: string[] = [],
): ConfigError | undefined {
  const dir = relative(config.root, config.output.dir).split(sep).join("/");
  if (!dir || dir.startsWith("..") || dir.startsWith("/")) return undefined;
  const slops = others.filter((d) => d !== dir);
  const namespace = config.output.namespace;
  const own = (name: string) =>
    name.startsWith(`.${namespace}.`) ||
    (name.startsWith(`${namespace}_`) && /^\d+\./.test(name.slice(namespace.length + 1)));
  const theirs = paths.filter((p) =>
    p.startsWith(dir + "/") && !own(p.slice(dir.length + 1)) &&
    !slops.some((d) => p === d || p.startsWith(d + "/"))
  );
  if (!theirs.length) return undefined;
  return new ConfigError(configName(config), [
    `output.dir "${dir}" holds files of the project (${
      namedPaths(theirs)
    }): slop leaves its output ` +
    "folder out of the build, so they would be missing from the document; name a folder of its " +
    "own, or leave output.dir out (the state dir's out/ folder)",
  ]);
}

/**
 * The first few of `paths` in quotes, and how many more there are, for an error's parentheses.
 *
 * @example
 * ```ts
 * import { namedPaths } from "./_output_dir.ts";
 * namedPaths(["a", "b", "c", "d"]); // '"a", "b", "c" and 1 more'
 * ```
 */
export function namedPaths(paths: string[]): string {
  const more = paths.length > NAMED ? ` and ${paths.length - NAMED} more` : "";
  return paths.slice(0, NAMED).map((p) => `"${p}"`).join(", ") + more;
}
