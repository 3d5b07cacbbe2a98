/**
 * Thin wrappers over the `git` command. Every function returns `undefined`
 * when git is missing or the folder is not a work tree.
 *
 * @module
 */

import { dirname, join } from "./_path.ts";

/** What {@linkcode runGit} answers when git ran past its deadline (it is killed). */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Run git in `cwd`; stdout as text, or undefined on any failure. With `deadlineMs`, a git still
 * running after it is killed and the answer is {@linkcode TIMED_OUT}.
 */
export async function runGit(args: string[], cwd: string): Promise<string | undefined>;
export async function runGit(
  args: string[],
  cwd: string,
  options: { deadlineMs: number },
): Promise<string | undefined | typeof TIMED_OUT>;
export async function runGit(
  args: string[],
  cwd: string,
  options?: { deadlineMs: number },
): Promise<string | undefined | typeof TIMED_OUT> {
  const signal = options ? AbortSignal.timeout(options.deadlineMs) : undefined;
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd,
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
      signal,
    }).output();
    if (signal?.aborted) return TIMED_OUT;
    if (!out.success) return undefined;
    return new TextDecoder().decode(out.stdout);
  } catch {
    return signal?.aborted ? TIMED_OUT : undefined;
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
 * How long `git ls-files` may list the files (ms) before slop stops it: git matches some
 * `.gitignore` patterns in time that grows as a power of the folder depth (`**` + `/**` repeated,
 * against a tree 200 folders deep: minutes). `SLOP_GIT_DEADLINE_MS` sets another.
 */
export const GIT_LIST_DEADLINE_MS = 30_000;

/**
 * The deadline of a git listing, in ms: `SLOP_GIT_DEADLINE_MS` or {@linkcode GIT_LIST_DEADLINE_MS}.
 *
 * @example
 * ```ts
 * import { gitDeadlineMs } from "./_git.ts";
 * gitDeadlineMs(); // 30000
 * ```
 */
export function gitDeadlineMs(): number {
  return Number(Deno.env.get("SLOP_GIT_DEADLINE_MS")) || GIT_LIST_DEADLINE_MS;
}

/** The files git lists; `trackedOnly` when git ran past its deadline on the untracked ones. */
export interface GitListing {
  files: string[];
  trackedOnly: boolean;
}

/**
 * Files git sees under `root`: tracked plus untracked-but-not-ignored
 * (`git ls-files -co --exclude-standard`), relative to `root`, or undefined
 * outside a work tree (without starting git where no `.git` entry is found).
 * When git runs past its deadline, the tracked files alone (`git ls-files -c`, which matches no
 * pattern), with `trackedOnly` set.
 *
 * @example
 * ```ts
 * import { gitListing } from "./_git.ts";
 * const listing = await gitListing(Deno.cwd());
 * listing?.files.length;
 * ```
 */
export async function gitListing(root: string): Promise<GitListing | undefined> {
  if (!mayBeInWorkTree(root)) return undefined;
  const deadlineMs = gitDeadlineMs();
  // One process: `ls-files` fails outside a work tree (no repository, inside `.git`, a bare
  // repository) just as `rev-parse --is-inside-work-tree` says "false" there.
  const out = await runGit(["ls-files", "-co", "--exclude-standard", "-z"], root, { deadlineMs });
  if (out === TIMED_OUT) {
    const tracked = await runGit(["ls-files", "-c", "-z"], root, { deadlineMs });
    if (typeof tracked !== "string") return undefined;
    return { files: splitZ(tracked), trackedOnly: true };
  }
  return out === undefined ? undefined : { files: splitZ(out), trackedOnly: false };
}

/** {@linkcode gitListing}'s files. */
export async function gitFiles(root: string): Promise<string[] | undefined> {
  return (await gitListing(root))?.files;
}

function splitZ(out: string): string[] {
  const seen = new Set<string>();
  for (const path of out.split("\0")) if (path) seen.add(path);
  return [...seen];
}
