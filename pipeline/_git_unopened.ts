/**
 * The folders git could not open while it listed the untracked files: a folder its user may not
 * list, a path past the system's length limit. git lists the tracked files inside from its index
 * but none of the untracked ones, and says so only on stderr (`warning: could not open directory
 * 'sub/': Permission denied`); a build lists each such folder, skipped with the cause, so no file
 * goes missing without a word.
 *
 * @module
 */

/** The warning git writes for each folder it cannot open (`LC_ALL=C`: always in English). */
const COULD_NOT_OPEN = "warning: could not open directory '";

/**
 * The folders named in git's `could not open directory` warnings, relative to the work tree's top,
 * each with its cause (`Permission denied`), without the trailing slash.
 *
 * @example
 * ```ts
 * import { unopenedFolders } from "./_git_unopened.ts";
 * unopenedFolders("warning: could not open directory 'a b/': Permission denied\n");
 * // Map { "a b" => "Permission denied" }
 * ```
 */
export function unopenedFolders(stderr: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    if (!line.startsWith(COULD_NOT_OPEN)) continue;
    // The name is written as it is (a quote in it too): the cause follows the last `': `.
    const end = line.lastIndexOf("': ");
    if (end < COULD_NOT_OPEN.length) continue;
    const folder = line.slice(COULD_NOT_OPEN.length, end).replace(/\/$/, "");
    if (folder) found.set(folder, line.slice(end + 3).trim());
  }
  return found;
}

/**
 * The folders of {@linkcode unopenedFolders} under `prefix` (the root's folder in the work tree,
 * `git rev-parse --show-prefix`, with its trailing slash, or empty), relative to the root.
 *
 * @example
 * ```ts
 * import { underPrefix } from "./_git_unopened.ts";
 * underPrefix(new Map([["app/locked", "Permission denied"]]), "app/"); // Map { "locked" => … }
 * ```
 */
export function underPrefix(folders: Map<string, string>, prefix: string): Map<string, string> {
  if (!prefix) return folders;
  const out = new Map<string, string>();
  for (const [folder, cause] of folders) {
    if (folder.startsWith(prefix)) out.set(folder.slice(prefix.length), cause);
  }
  return out;
}

/**
 * Why a folder git could not open is listed in place of its untracked files.
 *
 * @example
 * ```ts
 * import { unopenedReason } from "./_git_unopened.ts";
 * unopenedReason("Permission denied");
 * ```
 */
export function unopenedReason(cause: string): string {
  return `a folder git cannot list (${cause}): its untracked files are left out`;
}
