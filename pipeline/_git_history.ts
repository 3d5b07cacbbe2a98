/**
 * Change statistics from `git log`, to seed the first file order when no
 * order has been remembered yet.
 *
 * @module
 */

import { type GitOutput, gitOutput, WAITS_FOR_GOOD } from "./_git.ts";
import { DECAY, type OrderSeed, PRIOR } from "./order_state.ts";
import { gitFolders } from "./git_folders.ts";
import { gitConfigStamp } from "./_git_wait_files.ts";
import { join } from "./_path.ts";
import { readSettingTextSync } from "./helpers.ts";

/** The least number of commits the seed looks at (its window starts at an anchor at least this old). */
export const SEED_COMMITS = 100;

/**
 * One commit in `ANCHOR_SPACING` (by its hash) can anchor the seed's window: the window's start
 * stays put while history grows, and moves on about once every that many commits.
 */
export const ANCHOR_SPACING = 32;

/** Commits looked at beyond the least, to find an anchor (none found: the oldest one read). */
const ANCHOR_REACH = 8 * ANCHOR_SPACING;

/** The `git log` seed: per-file statistics and the decayed number of commits seen. */
export interface GitSeed {
  /** Per-file decayed change counts and last change. */
  files: Map<string, OrderSeed>;
  /** Sum of the commits' weights (`DECAY^age`) from the newest commit to the anchor. */
  weight: number;
  /**
   * The count every file has besides its changes: `PRIOR` at the age of the least window,
   * decayed with the commits since, as if each file changed a little at the window's start.
   */
  prior: number;
  /** The hash of the window's oldest commit (the anchor, or the oldest commit read). */
  anchor: string;
}

/** One commit of the first-parent history, newest first: its hash and the paths it changed. */
export interface LogCommit {
  hash: string;
  /** The commit's message (subject and body), when asked for (`messages` of {@linkcode firstParentLog}). */
  message?: string;
  paths: string[];
}

/**
 * Whether a commit can anchor the seed's window: about one in {@linkcode ANCHOR_SPACING}, chosen by
 * its hash, so every clone picks the same.
 *
 * @example
 * ```ts
 * import { isAnchor } from "./_git_history.ts";
 * isAnchor("00000000aa"); // true
 * ```
 */
export function isAnchor(hash: string): boolean {
  return parseInt(hash.slice(0, 8), 16) % ANCHOR_SPACING === 0;
}

/**
 * The seed of a first-parent history (newest commit first): each file's decayed change count
 * (the newest commit weighs 1, each older one `DECAY` times less) over the commits from the
 * newest back to the anchor, the first commit at least `least` commits old that
 * {@linkcode isAnchor} picks (else the oldest given; `complete` says the history reaches the
 * repository's first commit). One more commit scales every count by `DECAY` and adds 1 to the
 * files it changed, so an order by count over size moves only those files until the anchor
 * moves on.
 *
 * @example
 * ```ts
 * import { seedFromLog } from "./_git_history.ts";
 * const seed = seedFromLog([{ hash: "b", paths: ["a.ts"] }, { hash: "a", paths: ["a.ts", "b.ts"] }]);
 * seed?.files.get("a.ts")?.changes; // 1 + DECAY
 * ```
 */
export function seedFromLog(
  commits: LogCommit[],
  least: number = SEED_COMMITS,
): GitSeed | undefined {
  let end = commits.length - 1;
  for (let age = least; age < commits.length; age++) {
    if (isAnchor(commits[age].hash)) {
      end = age;
      break;
    }
  }
  const seed = new Map<string, OrderSeed>();
  let total = 0;
  for (let age = 0; age <= end; age++) {
    const weight = DECAY ** age;
    total += weight;
    for (const path of commits[age].paths) {
      const s = seed.get(path);
      if (s) s.changes += weight;
      else seed.set(path, { changes: weight, last: -age });
    }
  }
  if (!seed.size) return undefined;
  return {
    files: seed,
    weight: total,
    prior: PRIOR * DECAY ** (end - least),
    anchor: commits[end].hash,
  };
}

/**
 * The seed of the first-parent history of the repository `root` is in (see
 * {@linkcode seedFromLog}); merges count as one change of what they brought. Undefined outside
 * git or with no commits; `options.onRefused` as {@linkcode firstParentLog}'s.
 *
 * @example
 * ```ts
 * import { gitChangeSeed } from "./_git_history.ts";
 * const seed = await gitChangeSeed(Deno.cwd());
 * ```
 */
export async function gitChangeSeed(
  root: string,
  least: number = SEED_COMMITS,
  options: { onRefused?: (line: string) => void } = {},
): Promise<GitSeed | undefined> {
  const commits = await firstParentLog(root, least + ANCHOR_REACH, "HEAD", options);
  return commits && seedFromLog(commits, least);
}

/**
 * The newest `count` commits of the first-parent history from `rev` of the repository `root` is
 * in, newest first, each with the paths it changed relative to `root` (merges: what they
 * brought). Undefined outside git or with no commits; when git refuses a value of its config,
 * `options.onRefused` gets git's line ({@linkcode configRefusal}).
 *
 * @example
 * ```ts
 * import { firstParentLog } from "./_git_history.ts";
 * const commits = await firstParentLog(Deno.cwd(), 10);
 * ```
 */
export async function firstParentLog(
  root: string,
  count: number,
  rev: string = "HEAD",
  options: { messages?: boolean; onRefused?: (line: string) => void } = {},
): Promise<LogCommit[] | undefined> {
  // A build reads the history from HEAD for its first order, its budget's map and its task's
  // ranking, some at once: git is asked once while HEAD names the same commit.
  const stamp = rev === "HEAD" ? headStamp(root) : undefined;
  const key = stamp && `${stamp}\0${count}\0${options.messages === true}`;
  let read = key ? logsRead.get(key) : undefined;
  if (!read) {
    read = readLog(root, count, rev, options.messages === true);
    if (key) keepRead(key, read);
  }
  const { commits, refused } = await read;
  if (refused) options.onRefused?.(refused);
  return commits?.map((commit) => ({ ...commit, paths: [...commit.paths] }));
}

/** The last history reads from HEAD, by {@linkcode headStamp}, count and messages. */
const logsRead = new Map<string, Promise<{ commits?: LogCommit[]; refused?: string }>>();

/** How many history reads are kept (a build makes two: with messages and without). */
const LOGS_KEPT = 8;

function keepRead(key: string, read: Promise<{ commits?: LogCommit[] }>): void {
  logsRead.set(key, read);
  // A read that did not end well is not kept (git may answer the next time).
  read.then(({ commits }) => commits || logsRead.delete(key), () => logsRead.delete(key));
  for (const oldest of logsRead.keys()) {
    if (logsRead.size <= LOGS_KEPT) break;
    logsRead.delete(oldest);
  }
}

/**
 * What the history from HEAD of the repository `root` is in depends on: the folder, the commit
 * HEAD names (read from git's files, not git: its ref, loose or packed), what changes a history
 * without a new commit (a shallow clone's list, grafts, replace refs: `git replace`), and git's
 * config files (a value git refuses fails every log; `core.useReplaceRefs`). slop's git runs
 * without `GIT_NO_REPLACE_OBJECTS` and `GIT_REPLACE_REF_BASE`, so the refs under
 * `refs/replace/` are the ones it follows. Undefined when HEAD cannot be read so (then git is asked each
 * time).
 */
function headStamp(root: string): string | undefined {
  const { gitDir, commonDir } = gitFolders(root);
  try {
    const head = readSettingTextSync(join(gitDir, "HEAD"), 4096).trim();
    const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
    const commit = ref ? refCommit(commonDir, ref) : head;
    if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
    const changed = ["shallow", "info/grafts"].map((name) => fileStamp(join(commonDir, name)));
    const replaced = replaceStamp(commonDir);
    return [root, commit, ...changed, replaced, gitConfigStamp(root)].join("\0");
  } catch {
    return undefined;
  }
}

/**
 * The replace refs of the store at `commonDir`: each loose one under `refs/replace/` with the
 * object it names, and `packed-refs` by its size, time and file (git rewrites it whole, under a
 * new name, when a packed replace ref is added, changed or removed).
 */
function replaceStamp(commonDir: string): string {
  const loose: string[] = [];
  const folders = [join(commonDir, "refs", "replace")];
  while (folders.length) {
    const folder = folders.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)];
    } catch {
      continue; // none (the usual case), or none git could read either
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) folders.push(path);
      else loose.push(`${path}=${readSettingTextSync(path, 4096).trim()}`);
    }
  }
  return [...loose.sort(), `packed-refs:${fileStamp(join(commonDir, "packed-refs"))}`].join("\0");
}

/** The commit `ref` names: its loose file, else its line of `packed-refs`. */
function refCommit(commonDir: string, ref: string): string | undefined {
  if (ref.split("/").includes("..")) return undefined;
  try {
    return readSettingTextSync(join(commonDir, ref), 4096).trim();
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "ENOENT")) throw error;
  }
  const packed = readSettingTextSync(join(commonDir, "packed-refs"), PACKED_REFS_LIMIT);
  const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
  return line?.slice(0, line.indexOf(" "));
}

/** The most of `packed-refs` read for HEAD's commit (a larger one: git is asked each time). */
const PACKED_REFS_LIMIT = 4 * 1024 * 1024;

/**
 * A file's size, change time and inode, or "none" (what a history read depends on besides HEAD):
 * git writes these files under a new name and renames it over the old, so a rewrite within the
 * file clock's second, of the same size, still has another inode.
 */
function fileStamp(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.size}:${info.mtime?.getTime()}:${info.ino}`;
  } catch {
    return "none";
  }
}

/** {@linkcode firstParentLog}'s read: git's log, parsed, and git's refusal of its config. */
async function readLog(
  root: string,
  count: number,
  rev: string,
  messages: boolean,
): Promise<{ commits?: LogCommit[]; refused?: string }> {
  const options = { messages };
  // Each record starts and its message ends with a mark no commit can hold: made anew for this
  // read, so a message that copies the marks of another read (or of the format) splits nothing.
  const mark = randomMark();
  const format = `--format=%x01${mark}%H${options.messages ? `%x02${mark}%B%x02${mark}` : ""}`;
  const log = (merges: string) =>
    gitOutput([
      "-c",
      "core.quotePath=false",
      "log",
      "--first-parent",
      merges,
      "-n",
      String(count),
      format,
      "--name-only",
      "--no-renames",
      "--relative",
      rev,
      "--",
    ], root);
  let answer = await log("--diff-merges=first-parent");
  // git before 2.31 knows no --diff-merges (Debian 11 has 2.30, Ubuntu 20.04 2.25); there `-m`
  // with --first-parent lists a merge's paths against its first parent, the same list.
  if (typeof answer === "object" && "failed" in answer && answer.failed.includes("--diff-merges")) {
    answer = await log("-m");
  }
  const refused = configRefusal(answer);
  const out = typeof answer === "object" && "out" in answer ? answer.out : undefined;
  if (!out) return { refused };
  const split = out.split(`\x01${mark}`).slice(1);
  return { commits: split.map((chunk) => logRecord(chunk, `\x02${mark}`, options)) };
}

/**
 * git's line when it refused a value of its config (`color.diff.new = notacolor` fails every
 * `git log`, not the listing): it names the key. Undefined for any other answer, a log that fails
 * for want of commits or outside git among them (nothing to warn of).
 *
 * @example
 * ```ts
 * import { configRefusal } from "./_git_history.ts";
 * configRefusal({ failed: "bad config variable 'color.diff.new' in file '.git/config' at line 7" });
 * // "bad config variable 'color.diff.new' in file '.git/config' at line 7"
 * ```
 */
export function configRefusal(answer: GitOutput): string | undefined {
  // git's words for a value or line of its config it cannot take: `bad config variable`, `bad
  // config line`, `bad numeric config value`, `bad boolean config value`. Not any line naming
  // config: a repository of another user advises `git config --global --add safe.directory`,
  // and the listing has said that already. And a file of git's store that git would wait on (a
  // FIFO object or ref, found as git was slow): the listing, which reads none, said nothing.
  return typeof answer === "object" && "failed" in answer &&
      (/\bbad (?:\w+ )?config (?:variable|line|value)\b/.test(answer.failed) ||
        answer.inStore === true)
    ? answer.failed
    : undefined;
}

/** The warning functions that have said git refused its config: one word a build. */
const refusalsSaid = new WeakSet<(message: string) => void>();

/**
 * Warn through `warn` that git refused a value of its config (`line`, git's own, names the key),
 * once for each `warn`: a build reads the history for its first order, its budget and its task,
 * some at once, and says so once, in the same words whichever read failed first.
 *
 * @example
 * ```ts
 * import { warnRefusedOnce } from "./_git_history.ts";
 * const warn = (message: string) => console.warn(message);
 * warnRefusedOnce(warn, "bad config variable 'color.diff.new' in file '.git/config' at line 7");
 * warnRefusedOnce(warn, "bad config variable 'color.diff.new' in file '.git/config' at line 7"); // says nothing
 * ```
 */
export function warnRefusedOnce(warn: ((message: string) => void) | undefined, line: string): void {
  if (!warn || refusalsSaid.has(warn)) return;
  refusalsSaid.add(warn);
  const fix = line.endsWith(WAITS_FOR_GOOD)
    ? "put a regular file in its place"
    : "correct the value in git's config";
  warn(
    `git cannot read the history (${line}): the build goes without it (a first order by sizes, ` +
      `a budget without change counts, a task without co-change and commit messages); ${fix}`,
  );
}

/** 32 random hex digits: the mark of one log read (see {@linkcode firstParentLog}). */
function randomMark(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One commit of a log read: `hash`, then with messages `end message end`, then its paths, one a
 * line (git quotes control characters in paths, so no path holds a mark).
 */
function logRecord(chunk: string, end: string, options: { messages?: boolean }): LogCommit {
  const parts = options.messages ? chunk.split(end) : [];
  const [head, message, rest] = parts.length === 3 ? parts : [chunk, undefined, ""];
  const [hash, ...lines] = options.messages ? [head, ...rest.split("\n")] : head.split("\n");
  const paths = lines.map((l) => unquote(l.trim())).filter(Boolean);
  if (!options.messages) return { hash: hash.trim(), paths };
  return { hash: hash.trim(), message: message?.trim() ?? "", paths };
}

/** git quotes unusual paths as C strings unless core.quotePath is off. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      bytes.push(...enc.encode(c));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push(({ n: 10, t: 9, '"': 34, "\\": 92 } as Record<string, number>)[next] ?? 63);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
