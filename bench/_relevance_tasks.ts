/**
 * Tasks for the relevance bench, taken from real histories: for each
 * first-parent commit of a repository (merges skipped), the task is the
 * commit message, the needed files are the source files it modified that
 * exist at its parent, and the project is the tree at the parent.
 *
 * The tree is a shared clone of the mirror checked out at the parent (the
 * files `git archive` gives, plus the history before the commit, so a plain
 * build orders files by their history as it would in the user's checkout),
 * kept in `bench/.cache/relevance/`.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { languageFor } from "../grammars/languages.ts";

/** One task. */
export interface RelevanceTask {
  /** Repository name (`psf+requests`). */
  repo: string;
  /** The commit. */
  commit: string;
  /** Its first parent: the tree the task is posed on. */
  parent: string;
  /** The commit message. */
  message: string;
  /** Source files the commit modified or deleted that exist at the parent, sorted. */
  needed: string[];
}

/** Which commits make tasks. */
export interface TaskOptions {
  /** Tasks per repository (the newest eligible commits). @default {40} */
  commits?: number;
  /** A commit touching more source files than this is skipped. @default {15} */
  maxSourceFiles?: number;
}

/** Whether a path is a source file: a language slop has a grammar for. */
export function isSource(path: string): boolean {
  return languageFor(path) !== undefined;
}

async function git(gitDir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["--git-dir", gitDir, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C" },
  }).output();
  if (!out.success) {
    throw new Error(
      `[bench] git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * The tasks of one mirror (a bare git dir), newest first: first-parent,
 * non-merge commits that modify at least one source file existing at the
 * parent and touch at most `maxSourceFiles` source files.
 *
 * @example
 * ```ts
 * import { collectTasks } from "./_relevance_tasks.ts";
 * // const tasks = await collectTasks("psf+requests", "/work/.mirror/psf+requests/repo");
 * ```
 */
export async function collectTasks(
  repo: string,
  gitDir: string,
  options: TaskOptions = {},
): Promise<RelevanceTask[]> {
  const want = options.commits ?? 40;
  const maxSource = options.maxSourceFiles ?? 15;
  const tasks: RelevanceTask[] = [];
  // Read the log in pages until enough tasks are found.
  for (let skip = 0; tasks.length < want; skip += 400) {
    const out = await git(gitDir, [
      "-c",
      "core.quotePath=false",
      "log",
      "--first-parent",
      "--no-merges",
      `--skip=${skip}`,
      "-n",
      "400",
      "--format=%x01%H %P%x02%B%x03",
      "--name-status",
      "--no-renames",
      "HEAD",
    ]);
    const chunks = out.split("\x01").slice(1);
    if (!chunks.length) break;
    for (const chunk of chunks) {
      const [head, rest] = chunk.split("\x02");
      const [commit, parent] = head.trim().split(" ");
      const [message, status] = rest.split("\x03");
      if (!parent) continue; // the root commit
      const changed = status.split("\n").map((l) => l.split("\t")).filter((p) => p.length >= 2);
      const source = changed.filter(([, path]) => isSource(path));
      if (!source.length || source.length > maxSource) continue;
      // Modified or deleted: the file exists at the parent.
      const needed = source.filter(([s]) => s === "M" || s === "D").map(([, p]) => p).sort();
      if (!needed.length) continue;
      tasks.push({ repo, commit, parent, message: message.trim(), needed });
      if (tasks.length >= want) break;
    }
  }
  return tasks;
}

/**
 * The tree at `parent`, checked out in a shared clone of the mirror under
 * `cacheDir` (made once; a clone interrupted half way is made again).
 *
 * @example
 * ```ts
 * import { treeAt } from "./_relevance_tasks.ts";
 * // const dir = await treeAt("/work/.mirror/psf+requests/repo", "abc123...", "bench/.cache/relevance/psf+requests");
 * ```
 */
export async function treeAt(gitDir: string, parent: string, cacheDir: string): Promise<string> {
  const dir = join(cacheDir, parent.slice(0, 12));
  const done = join(cacheDir, `${parent.slice(0, 12)}.ok`);
  if (existsSync(done) && existsSync(dir)) return dir;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(cacheDir, { recursive: true });
  await run(["clone", "-q", "--shared", "--no-checkout", gitDir, dir]);
  await run(["-C", dir, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", parent]);
  await Deno.writeTextFile(done, parent + "\n");
  return dir;
}

async function run(args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(
      `[bench] git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}
