/**
 * A symbolic link leads the read stage to its target, so the defaults that leave files out by
 * their path would be passed by a link: `notes.txt -> .env` read the `.env`, `cfg -> .git/config`
 * git's config. A link is judged by its target too: one into a folder every build leaves out, or
 * to a file that usually holds secrets (unless the link is named by its path), is skipped.
 *
 * @module
 */

import { DEFAULT_SECRET_FILES, excludedByDefault } from "./_default_skips.ts";
import { nameMatcher } from "./_path_matchers.ts";
import { printablePath } from "./helpers.ts";
import { isAbsolute, relative, sep } from "./_path.ts";

const isSecretFile = nameMatcher(DEFAULT_SECRET_FILES, { nocase: true }); // `.ENV` too, as resolve

/**
 * Why a symbolic link whose real target is `real` is skipped, or undefined when it is read.
 * `realRoot` is the project folder's real path; `named`: the link is named by its path in `files`.
 *
 * @example
 * ```ts
 * import { linkTargetSkip } from "./_link_targets.ts";
 * linkTargetSkip("/p/.git/config", "/p", false);
 * // 'a symbolic link to ".git/config", in a folder slop leaves out of every build (...)'
 * linkTargetSkip("/p/src/a.ts", "/p", false); // undefined
 * ```
 */
export function linkTargetSkip(real: string, realRoot: string, named: boolean): string | undefined {
  const rel = relative(realRoot, real).split(sep).join("/");
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const shown = printablePath(inside ? rel : real.slice(real.lastIndexOf(sep) + 1));
  if (inside && excludedByDefault(rel)) {
    return `a symbolic link to "${shown}", in a folder slop leaves out of every build (".git", ` +
      '"node_modules", ".slop")';
  }
  if (!named && isSecretFile(real.split(sep).join("/"))) {
    return `a symbolic link to "${shown}", a file that may hold secrets, skipped by default: ` +
      'name the link by its path in "files" to include it';
  }
  return undefined;
}
