/**
 * The V8 flags of slop's processes, in a module of its own: the relaunch
 * reads them without loading `slop init` (a build server starts with its
 * own, `server/client.ts`).
 *
 * @module
 */

/**
 * The V8 flags slop runs with: a command that builds in its own process
 * starts again with them (`cli/_relaunch.ts`), so no task or command line
 * names them; the benchmark passes them itself. A young generation of at most 4 MB per half
 * instead of V8's 32: the young generation grows while the project's texts are read and stays
 * resident, so a smaller one lowers a build's peak memory. And no TurboFan: JavaScript is
 * optimized by Maglev only. A build is a short process whose hot code (the code views' walk,
 * the tokenizer, the scanner) runs for a second or two in each of its threads, and TurboFan
 * spends more CPU compiling it, on background threads that take the build's cores, than its
 * faster code saves (on one core it is the other way, which the README says). A running
 * process cannot set them for itself (`node:v8`'s `setFlagsFromString` does not take), hence
 * the start again. What each buys: bench/README.md, "Runtime flags".
 *
 * @example
 * ```ts
 * import { SLOP_V8_FLAGS } from "./_v8_flags.ts";
 * const args = ["run", "-A", SLOP_V8_FLAGS, "cli.ts", "build"];
 * ```
 */
export const SLOP_V8_FLAGS = "--v8-flags=--max-semi-space-size=4,--no-turbofan";

/**
 * The V8 flags of a big tree's build: slop's young generation, with TurboFan, and an old
 * generation let grow by half of what it holds before the next full collection. Counting and
 * scanning a tree of thousands of files runs the same code for a minute or more, and TurboFan's
 * faster code then saves more CPU than compiling it costs. Such a build holds hundreds of
 * megabytes of records, and V8's own choice lets the heap grow to about twice that before
 * collecting; growing by half keeps the peak near one and a half times what is held, for about
 * the same CPU (bench/README.md, "Lazy records kept small, and TurboFan for big trees" and "The
 * old generation's growth"). And V8's own `gc`: the full collections the text spill asks for
 * (`accel/collect.ts`) are then one collection each, not a low-memory collection's two (bench/README.md,
 * "The cold build's collections").
 *
 * @example
 * ```ts
 * import { BIG_TREE_V8_FLAGS } from "./_v8_flags.ts";
 * BIG_TREE_V8_FLAGS; // "--v8-flags=--max-semi-space-size=4,--heap-growing-percent=50,--expose-gc"
 * ```
 */
export const BIG_TREE_V8_FLAGS =
  "--v8-flags=--max-semi-space-size=4,--heap-growing-percent=50,--expose-gc";

/**
 * Bytes of files git tracks in a project from which its builds run with TurboFan
 * ({@linkcode BIG_TREE_V8_FLAGS}): a build's CPU grows with the bytes it scans and counts, and
 * TurboFan's compiling costs about the same whatever the tree, so it pays only from some size
 * on (where it was measured to: bench/README.md, "Lazy records kept small, and TurboFan for big
 * trees").
 */
export const TURBOFAN_FROM_BYTES = 64 * 1024 * 1024;

/** What git's index says of a repository's files: how many, and their bytes. */
export interface TrackedFiles {
  files: number;
  bytes: number;
}

/**
 * The V8 flags for a build of a project whose files git tracks (`tracked`; undefined: not
 * known): {@linkcode BIG_TREE_V8_FLAGS} from {@linkcode TURBOFAN_FROM_BYTES} bytes, else
 * {@linkcode SLOP_V8_FLAGS}. The one place that chooses TurboFan by the tree's size.
 *
 * @example
 * ```ts
 * import { SLOP_V8_FLAGS, v8FlagsFor } from "./_v8_flags.ts";
 * v8FlagsFor({ files: 12, bytes: 40_000 }) === SLOP_V8_FLAGS; // true
 * v8FlagsFor(undefined) === SLOP_V8_FLAGS; // true
 * ```
 */
export function v8FlagsFor(tracked: TrackedFiles | undefined): string {
  return (tracked?.bytes ?? 0) >= TURBOFAN_FROM_BYTES ? BIG_TREE_V8_FLAGS : SLOP_V8_FLAGS;
}

/**
 * The files git tracks in the repository `dir` is in, and the sum of their sizes, from its
 * index (`.git` looked for from `dir` up, a worktree's `.git` file followed): one read of a file
 * of about 70 bytes a file. With `upTo`, the sum stops there (`bytes` is then at least `upTo`):
 * a big tree's index is read in part. `undefined` outside a repository, or when the index cannot
 * be read or is of a form this does not know.
 *
 * @example
 * ```ts
 * import { trackedFiles } from "./_v8_flags.ts";
 * trackedFiles("/"); // undefined (no repository there)
 * ```
 */
export function trackedFiles(dir: string, upTo = Infinity): TrackedFiles | undefined {
  for (let at = dir.replace(/\/+$/, "") || "/";;) {
    const index = indexPath(at);
    if (index) return indexSizes(index, upTo);
    const up = at.replace(/\/[^/]*$/, "") || "/";
    if (up === at) return undefined;
    at = up;
  }
}

/** The index file of the repository whose top is `dir`, when `dir` has a `.git`. */
function indexPath(dir: string): string | undefined {
  const dotGit = `${dir === "/" ? "" : dir}/.git`;
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (info.isDirectory) return `${dotGit}/index`;
  // A worktree's or submodule's `.git` file names the git folder ("gitdir: <path>").
  const gitDir = info.isFile ? namedGitDir(dir, dotGit) : undefined;
  return gitDir === undefined ? undefined : `${gitDir}/index`;
}

/** The most of a `.git` file read (git writes one short line). */
const GIT_FILE_LIMIT = 64 * 1024;

/**
 * The folder a `.git` file (`dotGit`, in `dir`, seen to be a regular file) names on its `gitdir:`
 * line, as `gitFolders()` of `pipeline/git_folders.ts` reads it (at most
 * {@linkcode GIT_FILE_LIMIT} bytes), but without Deno's Node layer, which that reader loads: this
 * module runs in every build's first process, before it starts again, where loading the Node
 * layer cost more than all the rest (bench/README.md, "Suite time, twenty-second session"). Only
 * a regular file is opened, as the index is ({@linkcode indexSizes}).
 */
function namedGitDir(dir: string, dotGit: string): string | undefined {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(dotGit);
  } catch {
    return undefined;
  }
  try {
    const data = new Uint8Array(GIT_FILE_LIMIT + 1);
    let read = 0;
    while (read <= GIT_FILE_LIMIT) {
      const n = file.readSync(data.subarray(read));
      if (!n) break;
      read += n;
    }
    if (read > GIT_FILE_LIMIT) return undefined;
    const named = /^gitdir:[ \t]*(.+?)\s*$/m.exec(new TextDecoder().decode(data.subarray(0, read)));
    if (!named) return undefined;
    return named[1].startsWith("/") ? named[1] : `${dir}/${named[1]}`;
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/**
 * A git index's entries (format versions 2 to 4, SHA-1 names): "DIRC", version, count, then
 * per entry ten 32-bit stat fields (the tenth the file's size), the 20-byte name, 16-bit flags
 * (and 16 more in version 3 when flagged extended) and the path: NUL-padded to a multiple of 8
 * bytes (versions 2 and 3), or a prefix length and a NUL-ended suffix (version 4).
 */
function indexSizes(path: string, upTo: number): TrackedFiles | undefined {
  let file: Deno.FsFile;
  try {
    // A FIFO in its place would hold the open for good (every command, before it ran), a device
    // (a link to `/dev/zero`) be read as an index: only a regular file is opened.
    if (!Deno.statSync(path).isFile) return undefined;
    file = Deno.openSync(path);
  } catch {
    return undefined;
  }
  try {
    return entrySizes(readAhead(file), upTo);
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/** The entries' sizes summed (see {@linkcode indexSizes}), from the index as `reader` reads it. */
function entrySizes(reader: ReadAhead, upTo: number): TrackedFiles | undefined {
  const { data, view } = reader;
  if (!reader.has(12)) return undefined;
  const version = view.getUint32(4);
  if (view.getUint32(0) !== 0x44495243 || version < 2 || version > 4) return undefined;
  const files = view.getUint32(8);
  let bytes = 0;
  let at = 12;
  for (let i = 0; i < files && bytes < upTo; i++) {
    // The entry's fixed part, and its path (at most 4,096 bytes and a few).
    if (!reader.has(at + 62)) return undefined;
    reader.has(at + 64 + 4200);
    bytes += view.getUint32(at + 36);
    const flags = view.getUint16(at + 60);
    let name = at + 62 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    if (version === 4) { while (name < data.length && data[name++] & 0x80); }
    // The path's length is in the flags (12 bits) unless it is 4,095 or more: then its NUL.
    const length = flags & 0xfff;
    const end = version < 4 && length < 0xfff ? name + length : data.indexOf(0, name);
    if (end < 0 || data[end] !== 0) return undefined;
    at = version === 4 ? end + 1 : at + ((end - at + 8) & ~7);
  }
  return { files, bytes };
}

/** A file's bytes read in pieces as far as asked: a big tree's index is read in part. */
interface ReadAhead {
  data: Uint8Array;
  view: DataView;
  /** Whether the file has `end` bytes, reading them if not read yet. */
  has(end: number): boolean;
}

function readAhead(file: Deno.FsFile): ReadAhead {
  const data = new Uint8Array(file.statSync().size);
  let read = 0;
  return {
    data,
    view: new DataView(data.buffer),
    has(end) {
      while (read < Math.min(end, data.length)) {
        const n = file.readSync(data.subarray(read, Math.min(data.length, read + (1 << 20))));
        if (!n) break;
        read += n;
      }
      return read >= end;
    },
  };
}

/**
 * The folders a command line (`args`, after `slop`) may build from: its config file's folder
 * (`-c`, `--config`) and `cwd`, in that order, each once. The config's `root` is not known
 * before the config is loaded, which is after the flags are chosen: a config kept outside its
 * project is usually named from inside it (`slop build -c ~/configs/app.config.ts`), so the
 * working folder is looked at too.
 *
 * @example
 * ```ts
 * import { projectDirsOf } from "./_v8_flags.ts";
 * projectDirsOf(["build", "--config", "/p/slop.config.ts"], "/q"); // ["/p", "/q"]
 * projectDirsOf(["build"], "/q"); // ["/q"]
 * ```
 */
export function projectDirsOf(args: string[], cwd: string): string[] {
  const at = args.findLastIndex((a) => a === "-c" || a === "--config" || a.startsWith("--config="));
  const path = at < 0
    ? undefined
    : args[at].startsWith("--config=")
    ? args[at].slice(9)
    : args[at + 1];
  if (!path) return [cwd];
  const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
  const configDir = absolute.replace(/\/[^/]*$/, "") || "/";
  return configDir === cwd ? [cwd] : [configDir, cwd];
}

/**
 * What git tracks in the largest of the repositories `dirs` are in (see
 * {@linkcode trackedFiles}; each sum stops at `upTo`), `undefined` when none is in one.
 *
 * @example
 * ```ts
 * import { largestTracked } from "./_v8_flags.ts";
 * largestTracked(["/"]); // undefined (no repository there)
 * ```
 */
export function largestTracked(dirs: string[], upTo = Infinity): TrackedFiles | undefined {
  let largest: TrackedFiles | undefined;
  for (const dir of dirs) {
    const tracked = trackedFiles(dir, upTo);
    if (tracked && (!largest || tracked.bytes > largest.bytes)) largest = tracked;
  }
  return largest;
}
