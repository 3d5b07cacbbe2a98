/**
 * Thin wrappers over the `git` command. Every function returns `undefined`
 * when git is missing or the folder is not a work tree.
 *
 * @module
 */

import { dirname, join } from "./_path.ts";

/** Run git in `cwd`; stdout as text, or undefined on any failure. */
export async function runGit(args: string[], cwd: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd,
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
    }).output();
    if (!out.success) return undefined;
    return new TextDecoder().decode(out.stdout);
  } catch {
    return undefined;
  }
}

/**
 * Whether a git work tree can contain `root`: `GIT_DIR` or `GIT_WORK_TREE`
 * is set, or `root` (its real path, as git sees its working folder) or a
 * folder above it holds a `.git` entry (a folder, or a file as in worktrees
 * and submodules). When it cannot, git would find no repository either:
 * no need to start it (a process costs 5-10 ms). Anything that cannot be
 * looked at counts as a maybe.
 *
 * @example
 * ```ts
 * import { mayBeInWorkTree } from "./_git.ts";
 * mayBeInWorkTree(Deno.cwd()); // true in a clone of slop
 * ```
 */
export function mayBeInWorkTree(root: string): boolean {
  let dir: string;
  try {
    if (Deno.env.get("GIT_DIR") !== undefined || Deno.env.get("GIT_WORK_TREE") !== undefined) {
      return true;
    }
    dir = Deno.realPathSync(root);
  } catch {
    return true;
  }
  for (;;) {
    try {
      Deno.lstatSync(join(dir, ".git"));
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) return true;
    }
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

/**
 * Files git sees under `root`: tracked plus untracked-but-not-ignored
 * (`git ls-files -co --exclude-standard`), relative to `root`, or undefined
 * outside a work tree (without starting git where no `.git` entry is found).
 */
export async function gitFiles(root: string): Promise<string[] | undefined> {
  if (!mayBeInWorkTree(root)) return undefined;
  // One process: `ls-files` fails outside a work tree (no repository, inside `.git`, a bare
  // repository) just as `rev-parse --is-inside-work-tree` says "false" there.
  const out = await runGit(["ls-files", "-co", "--exclude-standard", "-z"], root);
  if (out === undefined) return undefined;
  const seen = new Set<string>();
  for (const path of out.split("\0")) if (path) seen.add(path);
  return [...seen];
}
