/**
 * Git directories inside the project: a bare repository (`backup.git`), a `.git` folder copied or
 * moved aside (`.git.bak`), a dotfiles repository's store. git lists their files as untracked
 * (only a folder named `.git` is its own), and a walk enters them; their files are git's store
 * (objects, refs, logs with names and addresses, hooks, a config that may hold a remote's
 * credentials), never the project's. Each such folder is listed once in place of its files.
 *
 * @module
 */

import { join } from "./_path.ts";
import { isGitDir } from "./_git_dir.ts";

/** Why a git directory inside the project is skipped. */
const GIT_STORE_REASON =
  "a git directory (a bare repository, or a .git folder copied or moved aside): git's store of " +
  'objects, refs and config, not the project\'s files; name them by path in "files" to include them';

/**
 * The paths, but for those inside a git directory, each such folder once in their place, with
 * {@linkcode GIT_STORE_REASON} in `folders`. A git directory is found by the `HEAD` file every
 * one holds: only a folder of the listing with a file named `HEAD` is looked at.
 *
 * @example
 * ```ts
 * import { foldGitStores } from "./_git_store_folders.ts";
 * const folders = new Map<string, string>();
 * foldGitStores(Deno.cwd(), ["a.ts", "backup.git/HEAD", "backup.git/config"], folders);
 * // ["a.ts", "backup.git"] where backup.git is a bare repository
 * ```
 */
export function foldGitStores(
  root: string,
  paths: string[],
  folders: Map<string, string>,
): string[] {
  const stores: string[] = [];
  for (const path of paths) {
    if (!path.endsWith("/HEAD")) continue;
    const dir = path.slice(0, -"/HEAD".length);
    if (isGitDir(join(root, dir))) stores.push(dir);
  }
  if (!stores.length) return paths;
  // The outermost store of a path (a bare repository inside another's folder is inside it).
  const storeOf = (path: string) => {
    let found: string | undefined;
    for (const dir of stores) {
      if (path.startsWith(dir + "/") && (!found || dir.length < found.length)) found = dir;
    }
    return found;
  };
  const out: string[] = [];
  for (const path of paths) {
    const store = storeOf(path);
    if (!store) {
      out.push(path);
      continue;
    }
    if (!folders.has(store)) out.push(store);
    folders.set(store, GIT_STORE_REASON);
  }
  return out;
}
