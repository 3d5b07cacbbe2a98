/**
 * Where a work tree's git folders are, read from the files git writes (no git process): the
 * build server's and `slop watch`'s watchers follow git's listing files there, and the CLI reads
 * the index's file sizes there to choose V8's flags (`cli/_v8_flags.ts`).
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "./_path.ts";
import { readSettingTextSync } from "./helpers.ts";

/** A work tree's git folder, its common folder, and whether `.git` is a file naming them. */
export interface GitFolders {
  /** The folder of the work tree's own index: `.git`, or the one a `.git` file names. */
  gitDir: string;
  /** The folder of `info/`, `config` and the objects: a worktree's main `.git`, else `gitDir`. */
  commonDir: string;
  /**
   * Whether the folders are outside the project: `.git` is a file naming them (a `git worktree`,
   * a submodule's checkout), or the project is a folder of a work tree above it (`top`).
   */
  outside: boolean;
  /**
   * The top of the work tree, when the project is a folder inside it (a monorepo's package built
   * alone): the nearest folder above the root that holds a `.git`.
   */
  top?: string;
}

/**
 * The git folder of the work tree at `root` and its common folder, read once from the files git
 * writes: `root/.git` itself when it is a folder (or missing); else the folder its `gitdir:` line
 * names (a `git worktree`'s `<main>/.git/worktrees/<name>`, a submodule's
 * `<super>/.git/modules/<name>`), whose `commondir` file names the common folder (a worktree's
 * `<main>/.git`; without one it is the git folder). With no `.git` at the root, those of the
 * nearest folder above it that holds one (`top`: the root is a folder of that work tree, as git
 * finds it). `outside` is true when `.git` is such a file or is above the root: the folders are
 * then outside the project as a rule, and the watchers watch them too.
 *
 * @example
 * ```ts
 * import { gitFolders } from "./git_folders.ts";
 * gitFolders("/no/such/p"); // { gitDir: "/no/such/p/.git", commonDir: "/no/such/p/.git", outside: false }
 * ```
 */
export function gitFolders(root: string): GitFolders {
  // `.git` and `commondir` are read as files of one line, of a regular file only: an unpacked
  // tree's `commondir` linked to `/dev/zero` was read until memory ran out, a FIFO for good.
  const dir = root.replace(/[\\/]+$/, "");
  const dotGit = `${dir}/.git`;
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(dotGit);
  } catch {
    // No `.git` here: the work tree above (git's own search), if any.
    const top = workTreeAbove(dir);
    if (top !== undefined) return { ...gitFolders(top), outside: true, top };
  }
  const inside = { gitDir: dotGit, commonDir: dotGit, outside: false };
  let named: RegExpExecArray | null;
  try {
    if (!info?.isFile) return inside;
    named = /^gitdir:[ \t]*(.+?)\s*$/m.exec(readSettingTextSync(dotGit, GIT_FILE_LIMIT));
  } catch {
    return inside;
  }
  if (!named) return inside;
  const gitDir = resolve(dir, named[1]);
  let commonDir = gitDir;
  try {
    commonDir = resolve(
      gitDir,
      readSettingTextSync(join(gitDir, "commondir"), GIT_FILE_LIMIT).trim(),
    );
  } catch {
    // No `commondir` (a submodule's folder, a plain repository): the git folder is common.
  }
  return { gitDir, commonDir, outside: true };
}

/**
 * The nearest folder above `dir` (its real path, as git sees it) that holds a `.git` entry, up to
 * the folders of `GIT_CEILING_DIRECTORIES` (git does not go up into one: a project below one is in
 * no work tree above it).
 */
function workTreeAbove(dir: string): string | undefined {
  let at: string;
  try {
    at = Deno.realPathSync(dir);
  } catch {
    return undefined;
  }
  const ceilings = ceilingFolders();
  for (let up = resolve(at, ".."); up !== at; at = up, up = resolve(at, "..")) {
    if (ceilings.has(up)) return undefined;
    try {
      Deno.lstatSync(join(up, ".git"));
      return up;
    } catch {
      // None here: one folder up.
    }
  }
  return undefined;
}

/**
 * The folders of `GIT_CEILING_DIRECTORIES` (absolute paths split by `:`), each as given and as its
 * real path (git resolves the entries before an empty one); none without the variable or leave to
 * read it.
 */
function ceilingFolders(): Set<string> {
  let value: string | undefined;
  try {
    value = Deno.env.get("GIT_CEILING_DIRECTORIES");
  } catch {
    return new Set(); // no --allow-env: git's own search is the rule
  }
  const out = new Set<string>();
  for (const entry of value?.split(Deno.build.os === "windows" ? ";" : ":") ?? []) {
    if (!isAbsolute(entry)) continue; // an empty entry, or a relative one git passes over
    const folder = resolve(entry);
    out.add(folder);
    try {
      out.add(Deno.realPathSync(folder));
    } catch {
      // A ceiling that is not there stops no search below it.
    }
  }
  return out;
}

/**
 * Whether a git work tree can contain `root`: `root` (its real path, as git
 * sees its working folder) or a folder above it holds a `.git` entry (a
 * folder, or a file as in worktrees and submodules). When it cannot, git would find no repository
 * either: no need to start it (a process is costly beside a look at a few folders), and the CLI
 * treats the folder as no project of git's. Anything that cannot be looked at counts as a maybe.
 *
 * @example
 * ```ts
 * import { mayBeInWorkTree } from "./git_folders.ts";
 * mayBeInWorkTree(Deno.cwd()); // true in a clone of slop
 * ```
 */
export function mayBeInWorkTree(root: string): boolean {
  let dir: string;
  try {
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

/** The most bytes of a `.git` file or a `commondir` read (each one line naming a folder). */
const GIT_FILE_LIMIT = 64 * 1024;
