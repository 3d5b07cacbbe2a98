/**
 * Whether a folder is inside a git directory (a bare repository, or the `.git` folder of a work
 * tree), found by git's own test: a `HEAD` file that names a ref or a commit, beside `objects`
 * and `refs` folders. Its files are git's store (objects, hooks, a config that may hold a
 * remote's credentials), never a project's.
 *
 * @module
 */

import { dirname, join } from "./_path.ts";

/** A `HEAD` as git writes it: a symbolic ref, or a commit id (sha1 or sha256). */
const HEAD = /^(ref: refs\/|[0-9a-f]{40}(?:[0-9a-f]{24})?\s*$)/;

/**
 * The git directory `dir` (its real path) or a folder above it is, or undefined. Anything that
 * cannot be looked at counts as no git directory.
 *
 * @example
 * ```ts
 * import { gitDirAbove } from "./_git_dir.ts";
 * gitDirAbove(Deno.cwd()); // undefined in a work tree; "/srv/app.git" in /srv/app.git/hooks
 * ```
 */
export function gitDirAbove(dir: string): string | undefined {
  try {
    dir = Deno.realPathSync(dir);
  } catch {
    return undefined;
  }
  for (;;) {
    if (isGitDir(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Whether `dir` is a git directory: a `HEAD` that names a ref or a commit, beside `objects` and
 * `refs` folders (git's own test). Anything that cannot be looked at is no git directory.
 *
 * @example
 * ```ts
 * import { isGitDir } from "./_git_dir.ts";
 * isGitDir("/srv/app.git"); // true for a bare repository
 * ```
 */
export function isGitDir(dir: string): boolean {
  try {
    // One look for most folders: no HEAD, no git directory.
    if (!Deno.lstatSync(join(dir, "HEAD")).isFile) return false;
    if (!Deno.statSync(join(dir, "objects")).isDirectory) return false;
    if (!Deno.statSync(join(dir, "refs")).isDirectory) return false;
    const file = Deno.openSync(join(dir, "HEAD"));
    try {
      const head = new Uint8Array(100);
      const n = file.readSync(head) ?? 0;
      return HEAD.test(new TextDecoder().decode(head.subarray(0, n)));
    } finally {
      file.close();
    }
  } catch {
    return false;
  }
}
