/**
 * Thin wrappers over the `git` command. Every function returns `undefined`
 * when git is missing or the folder is not a work tree.
 *
 * @module
 */

import { gitDirAbove } from "./_git_dir.ts";
import { mayBeInWorkTree } from "./git_folders.ts";
import { waitingGitFile, waitingStoreFile } from "./_git_wait_files.ts";
import { countWork, MAX_TIMER_MS } from "./helpers.ts";
import { endsWithSlop, stopChild } from "./_child_reaper.ts";
import { guardedGit, guardedListing, isBlocked } from "./_git_ignore_files.ts";
import { underPrefix, unopenedFolders } from "./_git_unopened.ts";

/** What {@linkcode runGit} answers when git ran past its deadline (it is killed). */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * The variables that point git at a repository, a work tree, an index or an object store: the
 * ones git itself clears when it runs git for another repository. A hook exports some of them
 * (`git commit` gives its pre-commit hook `GIT_INDEX_FILE`, and in a worktree `GIT_DIR`), and so
 * do tools; slop's git would then read that repository, whatever folder the project is in. slop
 * finds the repository from the project's folder instead, as `git -C <root>` does without them.
 */
const REPOSITORY_VARIABLES: readonly string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_SHALLOW_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_NAMESPACE",
];

/** The environment of slop's git: this one's without {@linkcode REPOSITORY_VARIABLES}. */
function gitEnv(): { env: Record<string, string>; clearEnv: boolean } {
  // Never ask at a terminal, never fetch: a partial clone's git fetches a missing object from its
  // remote when a command needs it, and may ask for a password there (the build would wait).
  const fixed = {
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_LAZY_FETCH: "1",
    // Output buffered whole: slop reads every git's output at its end, and `check-attr --stdin`
    // otherwise writes (and slop reads) each path's answer on its own into the pipe, 44,040 of
    // each on the monorepo (bench/README.md, "A warm build's heads from the pack's index").
    GIT_FLUSH: "0",
  };
  let env: Record<string, string>;
  try {
    env = Deno.env.toObject();
  } catch {
    return { env: fixed, clearEnv: false }; // No --allow-env: nothing to read them from either.
  }
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return { env: { ...env, ...fixed }, clearEnv: true };
}

/**
 * Settings for every git slop runs, over the user's own:
 * - `core.fsmonitor` names a program (or a daemon) git asks which files changed before it lists
 *   them: a speed-up only, which slop's reads do without. A hook that hangs (a watchman gone
 *   astray) held each git call until it returned: minutes a build. Empty, not `false`: git before
 *   2.36 reads the value as the hook's path, and empty as none.
 * - `log.showSignature` printed each signed commit's check ("Good signature for …") into the
 *   log's path list: a file's change count went to that line.
 * - `i18n.logOutputEncoding`: messages in UTF-8 (a Latin-1 setting made "é" another byte, so a
 *   task's words no longer met them).
 * - `log.showRoot`: the first commit's paths, as git's default (`false` listed none: the files
 *   of a young repository, or the one commit of a shallow clone, counted as never changed).
 */
const FIXED_SETTINGS: readonly string[] = [
  ...["-c", "core.fsmonitor="],
  ...["-c", "log.showSignature=false"],
  ...["-c", "i18n.logOutputEncoding=UTF-8"],
  ...["-c", "log.showRoot=true"],
];

/**
 * The reason of a git that failed without a word on stderr (`rev-parse --quiet` of an unknown
 * ref): told apart from one that named its cause.
 *
 * @example
 * ```ts
 * import { NO_REASON } from "./_git.ts";
 * NO_REASON; // "git failed"
 * ```
 */
export const NO_REASON = "git failed";

/** What git answered: its stdout, or why it failed (its first error line), or its deadline. */
export type GitOutput =
  | { out: string; stderr: string }
  | { failed: string; inStore?: boolean }
  | typeof TIMED_OUT;

/**
 * Run git in `cwd` (found from `cwd`, never from a hook's {@linkcode REPOSITORY_VARIABLES});
 * its stdout, or the reason it failed. With `deadlineMs`, a git still running after it is killed.
 *
 * @example
 * ```ts
 * import { gitOutput } from "./_git.ts";
 * const answer = await gitOutput(["rev-parse", "HEAD"], Deno.cwd());
 * ```
 */
export async function gitOutput(
  args: string[],
  cwd: string,
  options: { deadlineMs?: number; stdin?: string; signal?: AbortSignal } = {},
): Promise<GitOutput> {
  // A file git would wait on (a FIFO): git is not started.
  const waiting = waitingGitFile(cwd);
  if (waiting) return waitingFailure(waiting);
  countWork(`git ${gitCommand(args)}`, 1);
  // One of its store's files (an object, a ref), looked for when git is slow: git is stopped.
  const signal = options.signal;
  const answer = await guardedGit(
    (guard) => spawnGit(args, cwd, { ...options, signals: signal ? [guard, signal] : [guard] }),
    async (done) => {
      const found = await waitingStoreFile(cwd, done);
      return found ? [found] : [];
    },
  );
  return typeof answer === "object" && "notRegular" in answer
    ? { ...waitingFailure(answer.notRegular[0]), inStore: true }
    : answer;
}

/** The git command `args` run (`log` of `-c core.quotePath=false log …`). */
function gitCommand(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c" || args[i] === "-C") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return "";
}

/** How the reason git was not run, or stopped, for a file it would wait on ends. */
export const WAITS_FOR_GOOD = "which git would wait on for good";

/** Why git was not run, or stopped: `file` (as named) is a FIFO or a socket. */
function waitingFailure(file: string): { failed: string } {
  return { failed: `git's ${file} is a FIFO or a socket, ${WAITS_FOR_GOOD}` };
}

/** {@linkcode gitOutput}'s run of git, stopped when one of `signals` aborts. */
async function spawnGit(
  args: string[],
  cwd: string,
  options: { deadlineMs?: number; stdin?: string; signals: AbortSignal[] },
): Promise<GitOutput> {
  let stopped = false;
  let child: Deno.ChildProcess | undefined;
  const stop = () => {
    stopped = true;
    if (child) stopChild(child);
  };
  // The deadline and the caller's signal each stop git directly (no combined signal, and not
  // Deno's own `signal` option): a git that waits on something never comes back by itself.
  const timer = options.deadlineMs ? setTimeout(stop, options.deadlineMs) : undefined;
  const { signals } = options;
  for (const signal of signals) signal.addEventListener("abort", stop, { once: true });
  try {
    // A git left waiting when slop is stopped by a signal would run for good: it ends with slop.
    child = endsWithSlop("git", {
      args: [...FIXED_SETTINGS, ...args],
      cwd,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      ...gitEnv(),
    });
    if (stopped || signals.some((signal) => signal.aborted)) stop();
    const out = options.stdin === undefined
      ? await child.output()
      : await withInput(child, options.stdin);
    if (stopped) return TIMED_OUT;
    if (!out.success) return { failed: failureLine(new TextDecoder().decode(out.stderr)) };
    const stderr = new TextDecoder().decode(out.stderr);
    return { out: new TextDecoder().decode(out.stdout), stderr };
  } catch (error) {
    if (stopped) return TIMED_OUT;
    if (error instanceof Deno.errors.NotFound) {
      return { failed: "git is not installed (not on PATH)" };
    }
    return { failed: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    for (const signal of signals) signal.removeEventListener("abort", stop);
  }
}

/** Write `input` to a child's stdin (while its output is read, so neither side blocks). */
async function withInput(child: Deno.ChildProcess, input: string): Promise<Deno.CommandOutput> {
  const writer = child.stdin.getWriter();
  const written = writer.write(new TextEncoder().encode(input)).then(() => writer.close())
    .catch(() => {}); // A git that stopped early (a fault, its deadline) says why on stderr.
  const out = await child.output();
  await written;
  return out;
}

/**
 * git's complaint in one line: its first `fatal:` line (else `error:` line, else first line), and
 * the command it suggests, if any (`git config --global --add safe.directory ...`).
 */
function failureLine(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const first = lines.find((l) => l.startsWith("fatal:")) ??
    lines.find((l) => l.startsWith("error:")) ?? lines[0] ?? NO_REASON;
  const command = lines.find((l) => /^git [a-z]/.test(l));
  const reason = first.replace(/^(fatal|error): /, "");
  return command ? `${reason}; to allow it, run "${command}"` : reason;
}

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
  const answer = await gitOutput(args, cwd, options);
  return answer === TIMED_OUT ? answer : "out" in answer ? answer.out : undefined;
}

/**
 * A reader of git's settings in `root` (`git config …` as slop runs git), for the guards of
 * `_git_ignore_files.ts`.
 *
 * @example
 * ```ts
 * import { gitConfigRead } from "./_git.ts";
 * await gitConfigRead(Deno.cwd())(["config", "--get", "core.excludesFile"]);
 * ```
 */
export function gitConfigRead(root: string): (args: string[]) => Promise<string | undefined> {
  return (args) => runGit(args, root);
}

/**
 * How long `git ls-files` may list the files (ms) before slop stops it: git matches some
 * `.gitignore` patterns in time that grows as a power of the folder depth (`**` + `/**` repeated,
 * against a tree 200 folders deep: minutes). `SLOP_GIT_DEADLINE_MS` sets another.
 */
const GIT_LIST_DEADLINE_MS = 30_000;

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
  let value: string | undefined;
  try {
    value = Deno.env.get("SLOP_GIT_DEADLINE_MS")?.trim();
  } catch {
    return GIT_LIST_DEADLINE_MS; // no permission to read the environment: the default
  }
  if (value === undefined || value === "") return GIT_LIST_DEADLINE_MS;
  // A timer takes a whole number of ms up to 2^31 - 1: past it (or below 1) it fires at once,
  // and git was stopped as it started, with Node's warning on stderr.
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMER_MS) {
    throw new Error(
      `SLOP_GIT_DEADLINE_MS must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, ` +
        `got ${JSON.stringify(value.length > 100 ? value.slice(0, 100) + "…" : value)}`,
    );
  }
  return ms;
}

/** The files git lists; `trackedOnly` when git ran past its deadline on the untracked ones. */
export interface GitListing {
  files: string[];
  trackedOnly: boolean;
  /** The ignore files that are no regular file, which git was not let read (root-relative). */
  notRegular?: string[];
  /** The folders git could not open (root-relative), each with the cause: their untracked files are missing. */
  unopened?: Map<string, string>;
}

/** The folders git's warnings say it could not open, relative to `root` (see `_git_unopened.ts`). */
async function unopenedUnder(root: string, stderr: string): Promise<Map<string, string>> {
  const folders = unopenedFolders(stderr);
  if (!folders.size) return folders;
  // git names them from the work tree's top; the root may be a folder inside it.
  const prefix = await runGit(["rev-parse", "--show-prefix"], root);
  return underPrefix(folders, (prefix ?? "").trim());
}

/** Why git could not list the files of a folder a `.git` entry makes a work tree: a warning. */
export interface GitRefusal {
  refused: string;
}

/**
 * Files git sees under `root`: tracked plus untracked-but-not-ignored
 * (`git ls-files -co --exclude-standard`), relative to `root`, or undefined
 * outside a work tree (without starting git where no `.git` entry is found).
 * When git runs past its deadline, the tracked files alone (`git ls-files -c`, which matches no
 * pattern), with `trackedOnly` set. When a `.git` entry is found but git fails (a repository
 * another user owns, a damaged index or `.git` file, no git installed), why, as a warning.
 * Throws when `root` is inside a git directory (a bare repository, `.git`): its files are git's
 * store, not a project's.
 *
 * @example
 * ```ts
 * import { gitListing } from "./_git.ts";
 * const listing = await gitListing(Deno.cwd());
 * if (listing && "files" in listing) listing.files.length;
 * ```
 */
export async function gitListing(root: string): Promise<GitListing | GitRefusal | undefined> {
  if (!mayBeInWorkTree(root)) return refuseGitDir(root);
  const deadlineMs = gitDeadlineMs();
  // One process: `ls-files` fails outside a work tree (no repository, inside `.git`, a bare
  // repository) just as `rev-parse --is-inside-work-tree` says "false" there. An ignore file
  // that is no regular file (a FIFO) would hold git: then it is not run, or stopped.
  const out = await guardedListing(
    root,
    (signal) =>
      gitOutput(["ls-files", "-co", "--exclude-standard", "-z"], root, { deadlineMs, signal }),
    { config: gitConfigRead(root) },
  );
  if (out === TIMED_OUT || isBlocked(out)) {
    // The tracked files alone read no ignore file and match no pattern.
    const tracked = await runGit(["ls-files", "-c", "-z"], root, { deadlineMs });
    if (typeof tracked !== "string") return undefined;
    const notRegular = isBlocked(out) ? out.notRegular : undefined;
    return { files: splitZ(tracked), trackedOnly: true, ...(notRegular ? { notRegular } : {}) };
  }
  if ("out" in out) {
    const unopened = await unopenedUnder(root, out.stderr);
    return { files: splitZ(out.out), trackedOnly: false, ...(unopened.size ? { unopened } : {}) };
  }
  refuseGitDir(root);
  return {
    refused: `git cannot list the files (${out.failed}): slop lists them itself by the ` +
      ".gitignore files, and orders them without git's history",
  };
}

/** {@linkcode gitListing}'s files. */
export async function gitFiles(root: string): Promise<string[] | undefined> {
  const listing = await gitListing(root);
  return listing && "files" in listing ? listing.files : undefined;
}

/** Throw when `root` is inside a git directory; else undefined (no work tree). */
function refuseGitDir(root: string): undefined {
  const dir = gitDirAbove(root);
  if (dir === undefined) return undefined;
  throw new Error(
    `The project folder "${root}" is inside the git directory "${dir}" (a bare repository or ` +
      "a .git folder), which holds git's store, not the project's files: run slop in a work " +
      'tree (a clone, or "git worktree add <dir>")',
  );
}

function splitZ(out: string): string[] {
  const seen = new Set<string>();
  for (const path of out.split("\0")) if (path) seen.add(path);
  return [...seen];
}
