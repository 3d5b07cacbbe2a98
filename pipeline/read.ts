/**
 * Read stage: each target is read exactly once into bytes, text (UTF-8,
 * UTF-16 behind a byte order mark, or an older encoding detected: see
 * `_text_decode.ts`) and a sha256. Missing, unreadable,
 * binary, over-size and outside-root files become problems on the file; they
 * never stop the build.
 *
 * @module
 */

import { errorText } from "./error_text.ts";
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { sep } from "./_path.ts";
import type { ResolvedConfig, SourceFile, Target } from "./types.ts";
import { type FileStat, fileStat } from "./file_stat.ts";
import { decodeText } from "./_text_decode.ts";
import { isLfsPointer, LFS_POINTER_REASON } from "./_lfs_pointer.ts";
import { compiledOutput, generatedTextReason, projectPathFrom } from "./_generated_text.ts";
import { linkTargetSkip } from "./_link_targets.ts";
import { countWork } from "./_work_count.ts";
import { svgReason } from "./_default_skips.ts";
import { judgedByText, largeTextLimit, limitByText } from "./data_files.ts";

/**
 * sha256 of bytes or text (its UTF-8 bytes), hex.
 *
 * @example
 * ```ts
 * import { sha256 } from "./read.ts";
 * sha256("abc").slice(0, 8); // "ba7816bf"
 * ```
 */
export function sha256(data: Uint8Array | string): string {
  countWork("bytes hashed", data.length);
  return createHash("sha256").update(data).digest("hex");
}

/** Files read at once; keeps descriptor use bounded on big trees. */
const CONCURRENCY = 64;

/**
 * Read every target once, in parallel, keeping target order.
 *
 * @example
 * ```ts
 * import { readTargets } from "./read.ts";
 * // const files = await readTargets(targets, config);
 * ```
 */
export async function readTargets(
  targets: Target[],
  config: ResolvedConfig,
): Promise<SourceFile[]> {
  return await readEach(targets, (target) => readTarget(target, config));
}

/**
 * `read` of each target, {@linkcode CONCURRENCY} at once, in target order: the read stage's loop
 * (a speed layer reads each file its own way with it).
 *
 * @example
 * ```ts
 * import { readEach } from "./read.ts";
 * // const files = await readEach(targets, (target) => readTarget(target, config));
 * ```
 */
export async function readEach(
  targets: Target[],
  read: (target: Target) => Promise<SourceFile>,
): Promise<SourceFile[]> {
  const out = new Array<SourceFile>(targets.length);
  let next = 0;
  async function worker() {
    while (next < targets.length) {
      const i = next++;
      out[i] = await read(targets[i]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  return out;
}

/** Options of {@linkcode readTarget}. */
export interface ReadOptions {
  /**
   * The file's `lstat`, when taken already (a symbolic link is followed all the same).
   * @default {undefined} taken now
   */
  lstat?: FileStat;
}

/**
 * A file the resolve stage skipped (a generated file the config does not name): never read.
 *
 * @example
 * ```ts
 * import { skippedFile } from "./read.ts";
 * // skippedFile(target).error; // { status: "skipped", reason: target.skip }
 * ```
 */
export function skippedFile(target: Target): SourceFile {
  return {
    ...target,
    sha256: "",
    size: 0,
    mtimeMs: 0,
    error: { status: "skipped", reason: target.skip! },
  };
}

/**
 * Whether a target's path leaves the root (`../`, or absolute) where the config does not allow
 * it: such a file is not read.
 *
 * @example
 * ```ts
 * import { leavesRoot } from "./read.ts";
 * // leavesRoot(target, config); // true for "../x.ts" without allowOutsideRoot
 * ```
 */
export function leavesRoot(target: Target, config: ResolvedConfig): boolean {
  return !config.allowOutsideRoot &&
    (target.path.startsWith("../") || target.path.startsWith("/"));
}

/**
 * Read one target: its text and sha256, or why it is not read.
 *
 * @example
 * ```ts
 * import { readTarget } from "./read.ts";
 * // const file = await readTarget(target, config);
 * ```
 */
export async function readTarget(
  target: Target,
  config: ResolvedConfig,
  options: ReadOptions = {},
): Promise<SourceFile> {
  const { lstat } = options;
  if (target.skip) return skippedFile(target);
  const base = { ...target, sha256: "", size: 0, mtimeMs: 0 };
  const fail = (status: "error" | "skipped", reason: string): SourceFile => ({
    ...base,
    error: { status, reason },
  });
  const rootPrefix = config.root.endsWith(sep) ? config.root : config.root + sep;
  if (leavesRoot(target, config)) {
    return fail("error", "path leaves the root (set allowOutsideRoot to allow it)");
  }
  const limit = sizeLimit(target, config);
  let info: FileStat;
  try {
    info = lstat ?? fileStat(await Deno.lstat(target.absPath));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return fail("error", "file not found");
    return fail("error", `cannot read file: ${message(error)}`);
  }
  // Symbolic links are followed: the file read is their target, the one checked.
  let path = target.absPath;
  if (info.isSymlink) {
    const followed = await followLink(target, config);
    if (typeof followed === "string") return fail("error", followed);
    if ("skip" in followed) return fail("skipped", followed.skip);
    ({ info, real: path } = followed);
  } else if (!config.allowOutsideRoot && !target.absPath.startsWith(rootPrefix)) {
    return fail("error", "path leaves the root (set allowOutsideRoot to allow it)");
  }
  if (info.isDirectory) return fail("skipped", "is a directory");
  if (!info.isFile) return fail("skipped", "not a regular file");
  if (info.size > limit) {
    return { ...fail("skipped", overLimit(target, { size: info.size, limit })), size: info.size };
  }
  // The open file must be where it was looked for (a folder above it swapped for a link).
  const place = placeCheck(target, { linked: path !== target.absPath ? path : undefined, config });
  const read = readBytes(path, { size: info.size, limit, place });
  if (typeof read === "string") return fail("error", read);
  // A link now where a file was looked at (a checkout, an edit while the build runs): read as
  // the link it is, checked as one, once; a path that keeps changing is not chased.
  if ("changed" in read) {
    return lstat ? await readTarget(target, config) : fail("error", "file changed while read");
  }
  if ("skip" in read) return fail("skipped", read.skip);
  if ("grewTo" in read) {
    return {
      ...fail("skipped", overLimit(target, { size: read.grewTo, limit, grew: true })),
      size: read.grewTo,
    };
  }
  countWork("files read", 1);
  return await decodedFile(base, read.bytes, { mtimeMs: info.mtime });
}

/**
 * The size (bytes) over which a target is skipped unread: its entry's `maxBytes`, else the
 * config's `maxFileSize`, or less for an SVG the config does not name (image data).
 *
 * @example
 * ```ts
 * import { sizeLimit } from "./read.ts";
 * // sizeLimit(target, config); // 65536 for "icons.svg" matched by "**"
 * ```
 */
export function sizeLimit(target: Target, config: ResolvedConfig): number {
  const limit = target.entry.maxBytes ?? config.maxFileSize;
  return target.imageLimit === undefined ? limit : Math.min(limit, target.imageLimit);
}

/** Why a file of `size` bytes, over its `limit` (when read: it `grew` over it), is skipped. */
function overLimit(target: Target, { size, limit, grew = false }: OverLimit): string {
  if (limit === target.imageLimit) return svgReason(size);
  return grew
    ? `file grew over the limit of ${limit} bytes`
    : `file is ${size} bytes, over the limit of ${limit} bytes`;
}

/** A size over a limit, and whether the file grew over it between its stat and its read. */
interface OverLimit {
  size: number;
  limit: number;
  grew?: boolean;
}

/** What a symbolic link leads to, when it may be read: its target's info, or why not. */
async function followLink(
  target: Target,
  config: ResolvedConfig,
): Promise<{ info: FileStat; real: string } | { skip: string } | string> {
  let real: string;
  try {
    real = await Deno.realPath(target.absPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "broken symbolic link";
    if (error instanceof Deno.errors.FilesystemLoop) return "symbolic link loop";
    return `cannot follow symbolic link: ${message(error)}`;
  }
  const realRoot = await Deno.realPath(config.root).catch(() => config.root);
  // A link to the root folder itself (`a/up -> ..`) stays inside: it is a folder of the project.
  const inside = real === realRoot ||
    real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  if (!config.allowOutsideRoot && !inside) {
    return "symbolic link leaves the root (set allowOutsideRoot to allow it)";
  }
  // A link to a file the defaults leave out (`.env`, `.git/config`) is left out as its target.
  const skip = linkTargetSkip(real, realRoot, target.explicit);
  if (skip) return { skip };
  let info: FileStat;
  try {
    info = fileStat(await Deno.stat(target.absPath));
  } catch (error) {
    return readError(error); // removed or changed since it was followed
  }
  // A link to a folder (serde's `serde/src/core -> ../../serde_core/src`) is not followed: a
  // folder in the project has its files read by their own paths, so the reason says where they
  // are rather than "is a directory", which reads as a fault of the listing.
  if (info.isDirectory) {
    return {
      skip: inside
        ? "a symbolic link to a folder of the project, whose files are read by their own paths"
        : "a symbolic link to a folder outside the project (links to folders are not followed)",
    };
  }
  return { info, real };
}

/** What {@linkcode readBytes} found: the bytes, or a file that is no longer one to read. */
type BytesRead =
  | { bytes: Uint8Array }
  | { skip: string }
  | { grewTo: number }
  | { changed: true }
  | string;

/**
 * A file's bytes, or why they are not read. Only what was opened is trusted: the file may have
 * changed since it was looked at (a checkout, a generator). It is opened without waiting
 * (`O_NONBLOCK`: a FIFO put in its place would hold the open until a writer came), and without
 * following a symbolic link (`O_NOFOLLOW`: one put in its place may lead out of the root, or to
 * a file the defaults leave out; the caller checks it as a link, `changed`), at most
 * `limit` bytes and one more are read (a file that grew by gigabytes, a link to `/dev/zero`),
 * and when the bytes read are not the `size` it was looked at with, the open file's own kind
 * decides (a FIFO or a device is not read). The calls are synchronous (an awaited `node:fs` call
 * costs a task turn), and the open file's `fstat` is taken only then, as `node:fs` makes a costly
 * `Stats` for it (bench/README.md, "Correctness hunt: the file system, git and processes").
 */
function readBytes(path: string, { size, limit, place }: ReadBytesOptions): BytesRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    // A symbolic link where a file (or a link's checked target) was looked at: not followed.
    if ((error as { code?: unknown }).code === "ELOOP") return { changed: true };
    return readError(error);
  }
  try {
    const refused = place?.(fd, path);
    if (refused !== undefined) return refused;
    let bytes = new Uint8Array(Math.min(size, limit) + 1);
    let at = 0;
    while (true) {
      if (at === bytes.length) {
        if (at > limit) break;
        const more = new Uint8Array(Math.min(bytes.length * 2, limit + 1));
        more.set(bytes);
        bytes = more;
      }
      const n = readSync(fd, bytes, at, bytes.length - at, null);
      if (n === 0) break;
      at += n;
    }
    if (at !== size) {
      // Changed since it was looked at: a FIFO or device in its place, or a file of /proc.
      const info = fstatSync(fd);
      if (!info.isFile()) return { skip: "not a regular file" };
      if (at > limit) return { grewTo: Math.max(at, info.size) };
    }
    return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EISDIR") return { skip: "is a directory" };
    // A FIFO with a writer that has written nothing yet.
    if (code === "EAGAIN" && !isRegular(fd)) return { skip: "not a regular file" };
    return readError(error);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closed already: nothing was left open.
    }
  }
}

/** Options of {@linkcode readBytes}. */
interface ReadBytesOptions {
  /** The size the file was looked at with. */
  size: number;
  /** Bytes over which it is not read. */
  limit: number;
  /** Why the open file `fd` (opened at `path`) is not read, where it is not where it was looked for. */
  place?: (fd: number, path: string) => BytesRead | undefined;
}

/** Options of {@linkcode placeCheck}. */
interface PlaceOptions {
  /** For a link, the real path of its target (checked already); undefined for a file that is none. */
  linked?: string;
  config: ResolvedConfig;
}

/**
 * A check of where an open file is, against where the read looked for it: `O_NOFOLLOW` refuses a
 * link only as the path's last name, and a folder above the file swapped for a link since it was
 * looked at (a checkout while the build server builds) is followed. The file's real place (the
 * system's own path of the open file, Linux's `/proc/self/fd`) must be in the root and not in a
 * folder every build leaves out; a file opened elsewhere is judged as a link to it. None where
 * the config allows files outside the root, or on Windows (no `O_NOFOLLOW` there either).
 */
function placeCheck(target: Target, { linked, config }: PlaceOptions) {
  if (config.allowOutsideRoot || Deno.build.os === "windows") return undefined;
  return (fd: number, path: string): BytesRead | undefined => {
    const at = openedPath(fd, path);
    if (at === undefined) return { changed: true };
    const expected = (root: string) => linked ?? root + sep + target.path.split("/").join(sep);
    if (at === expected(realRootOf(config))) return undefined;
    // Elsewhere: judged by the root's real path now, not the one taken at an earlier build (a
    // root reached through a link that has been pointed at another checkout since).
    const realRoot = realRootOf(config, { fresh: true });
    if (at === expected(realRoot)) return undefined;
    if (!at.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
      return "a folder on its path is a symbolic link that leaves the root (set allowOutsideRoot " +
        "to allow it)";
    }
    const skip = linkTargetSkip(at, realRoot, target.explicit);
    return skip === undefined ? undefined : { skip };
  };
}

/** Whether `/proc/self/fd` names open files (Linux); false once it did not. */
let procFds = Deno.build.os === "linux";

/**
 * The real path of the open file `fd`, opened at `path`: the system's own (`/proc/self/fd`,
 * one call that no later change of the path can fool), else the real path of `path` when it
 * still leads to the open file (the same device and inode); undefined when it does not.
 */
function openedPath(fd: number, path: string): string | undefined {
  if (procFds) {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${fd}`);
    } catch {
      procFds = false; // no /proc mounted, or not readable: as on other systems
    }
  }
  try {
    const real = Deno.realPathSync(path);
    const now = Deno.statSync(real);
    const open = fstatSync(fd);
    return now.dev === open.dev && now.ino === open.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each config's root folder's real path (a root under a link, macOS's `/tmp`), taken once, and
 * again when `fresh` (a file not found where the one taken says).
 */
const realRoots = new WeakMap<ResolvedConfig, string>();

function realRootOf(config: ResolvedConfig, { fresh = false } = {}): string {
  let real = fresh ? undefined : realRoots.get(config);
  if (real === undefined) {
    try {
      real = Deno.realPathSync(config.root);
    } catch {
      real = config.root;
    }
    realRoots.set(config, real);
  }
  return real;
}

/** Whether the open file `fd` is a regular file (false when that cannot be told). */
function isRegular(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** The reason for a failed open or read, in plain words. */
function readError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT" || error instanceof Deno.errors.NotFound) return "file not found";
  if (code === "EACCES" || code === "EPERM" || error instanceof Deno.errors.PermissionDenied) {
    return "permission denied";
  }
  if (code === "ELOOP") return "symbolic link loop";
  return `cannot read file: ${message(error)}`;
}

/**
 * Whether a file was read whole only because the config names it (or `.gitattributes` marks it
 * `linguist-generated=false`), while its text shows it generated: a build that does not name it
 * skips it, so a record of it read (the stat index's) must not let such a build pass it unread.
 *
 * @example
 * ```ts
 * import { readNamedGenerated } from "./read.ts";
 * // if (!readNamedGenerated(file)) index.record(file.path, info, file.sha256);
 * ```
 */
export function readNamedGenerated(file: SourceFile): boolean {
  if (file.text === undefined) return false;
  if (!file.judgeGenerated) return generatedTextReason(file.path, file.text) !== undefined;
  // A compiled file read whole because neither its source nor its map is in the project: a
  // build after one is added skips it.
  return file.compiledSource === undefined && compiledOutput(file.path, file.text);
}

/**
 * The source of a compiled file in the project: when its source map (`map`, a project path) is
 * on disk, the first of the map's `sources` in the project, else the map itself (a build's output
 * shipped with its map); without a map, the source the resolve stage found beside it
 * (`compiledSources` of `pipeline/_generated_text.ts`).
 */
function sourceOf(file: Target, map: string | undefined): string | undefined {
  // The project's root: the file's absolute path less its project path.
  const root = file.absPath.endsWith(file.path.split("/").join(sep))
    ? file.absPath.slice(0, file.absPath.length - file.path.length)
    : undefined;
  if (map === undefined || root === undefined) return file.compiledSource;
  const statOf = (path: string) => {
    try {
      return Deno.statSync(root + path.split("/").join(sep));
    } catch {
      return undefined;
    }
  };
  const onDisk = (path: string) => statOf(path)?.isFile ?? false;
  const info = statOf(map);
  if (!info?.isFile) return file.compiledSource;
  return mapSources(root + map.split("/").join(sep), { map, size: info.size }).find(onDisk) ??
    map;
}

/** The most bytes of a source map read for its `sources` (a large bundle's map is tens of MB). */
const MAP_LIMIT = 64 * 1024 * 1024;

/**
 * The project paths of a source map's `sources` (resolved from the map's folder and its
 * `sourceRoot`); none for a map that is no JSON or a source at a URL or outside the project.
 * The map is read as a project file is ({@linkcode readBytes}): not through a link (one may
 * lead out of the root), not a FIFO or device put in its place, at most {@linkcode MAP_LIMIT}.
 */
function mapSources(absMap: string, { map, size }: { map: string; size: number }): string[] {
  const read = readBytes(absMap, { size, limit: Math.min(size, MAP_LIMIT) });
  if (typeof read === "string" || !("bytes" in read)) return [];
  let parsed: { sources?: unknown; sourceRoot?: unknown };
  try {
    parsed = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed?.sources)) return [];
  const root = typeof parsed.sourceRoot === "string" ? parsed.sourceRoot : "";
  const out: string[] = [];
  for (const source of parsed.sources) {
    if (typeof source !== "string") continue;
    const joined = root && !root.endsWith("/") ? `${root}/${source}` : root + source;
    if (/^[a-z][a-z0-9+.-]*:/i.test(joined) || joined.startsWith("/")) continue;
    const path = projectPathFrom(map, joined);
    if (path !== undefined) out.push(path);
  }
  return out;
}

/**
 * Whether a target's data limit depends on its text (plain text over the data limit, up to the
 * size over which any is summarized; code over the data limit, which may be number tables; not a
 * translation): the stat index does not record its limit, so it reads such a file again unless
 * the limit is remembered by the text's hash.
 *
 * @example
 * ```ts
 * import { readByContent } from "./read.ts";
 * // if (readByContent(target, info.size)) return undefined; // read it
 * ```
 */
export function readByContent(target: Target, size: number): boolean {
  return target.dataLimit !== undefined && target.translationOf === undefined &&
    judgedByText(target.path, size);
}

/**
 * A target with the data limit its size decides (plain text over the size at which any is
 * summarized: its reason names that limit, `largeTextLimit`); the target itself otherwise.
 *
 * @example
 * ```ts
 * import { sizedTarget } from "./read.ts";
 * // sizedTarget(target, 1_200_000).dataLimit; // 262144 for a large .txt
 * ```
 */
export function sizedTarget<T extends Target>(target: T, size: number): T {
  if (target.dataLimit === undefined || target.translationOf !== undefined) return target;
  const limit = largeTextLimit(target.path, size);
  return limit === undefined ? target : { ...target, dataLimit: limit };
}

/**
 * The skips decided by a file's bytes alone (binary, a Git LFS pointer, a generated header), by
 * their error objects: whether each is a generated file's (which a build that names the file
 * reads whole).
 */
const TEXT_SKIPS = new WeakMap<object, boolean>();

/** A file skipped for what its bytes hold, its verdict noted in {@linkcode TEXT_SKIPS}. */
function skippedByText(file: SourceFile, reason: string, generated: boolean): SourceFile {
  const error = { status: "skipped" as const, reason };
  TEXT_SKIPS.set(error, generated);
  return { ...file, error };
}

/**
 * Why a file read was skipped for what its bytes alone hold (binary, a Git LFS pointer, a header
 * that says it is generated), and whether it is a generated file's skip (one a build whose
 * config names the file does not make); `undefined` for a file read whole or skipped for another
 * reason (its size, its place, a compiler's output whose source is in the project). The same
 * bytes get the same verdict, so a record of the file's fingerprint may keep it (the stat index).
 *
 * @example
 * ```ts
 * import { skipByText } from "./read.ts";
 * // const verdict = skipByText(file); // { reason: "binary file", generated: false }
 * ```
 */
export function skipByText(file: SourceFile): { reason: string; generated: boolean } | undefined {
  const generated = file.error && TEXT_SKIPS.get(file.error);
  return generated === undefined ? undefined : { reason: file.error!.reason, generated };
}

/**
 * The version of the rules that skip a file by its text ({@linkcode skipByText}: the binary test,
 * the LFS pointer's, `pipeline/_generated_text.ts`): a verdict kept under another version is
 * judged again.
 *
 * @example
 * ```ts
 * import { TEXT_SKIP_RULES_VERSION } from "./read.ts";
 * `text-skips/${TEXT_SKIP_RULES_VERSION}`; // the stat index's salt
 * ```
 */
export const TEXT_SKIP_RULES_VERSION = 1;

/** A file read: its hash and text, or skipped when it is binary. */
async function decodedFile(
  base: SourceFile,
  bytes: Uint8Array,
  { mtimeMs }: { mtimeMs: number },
): Promise<SourceFile> {
  // The raw bytes are not kept: once hashed and decoded nothing reads them, and held to the
  // secret scan they were a second copy of the project beside its texts.
  const file: SourceFile = { ...base, sha256: sha256(bytes), size: bytes.length, mtimeMs };
  const decoded = await decodeText(bytes);
  if ("binary" in decoded) return skippedByText(file, decoded.binary, false);
  if (isLfsPointer(decoded.text, bytes.length)) {
    return skippedByText(file, LFS_POINTER_REASON, false);
  }
  const generated = base.judgeGenerated &&
    generatedTextReason(base.path, decoded.text, { sourceOf: (map) => sourceOf(base, map) });
  if (generated) {
    // A compiler's output is skipped only while its source or map is in the project: that
    // verdict looks at other files, so it is not one of its text alone.
    if (compiledOutput(base.path, decoded.text)) {
      return { ...file, error: { status: "skipped", reason: generated } };
    }
    return skippedByText(file, generated, true);
  }
  file.text = decoded.text;
  // Plain text over the data limit is summarized by what it holds: prose or code has a limit
  // of its own.
  if (readByContent(base, bytes.length)) {
    const limit = limitByText(base.path, decoded.text);
    if (limit === undefined) delete file.dataLimit;
    else file.dataLimit = limit;
  } else {
    const sized = sizedTarget(base, bytes.length);
    if (sized !== base) file.dataLimit = sized.dataLimit;
  }
  return file;
}

function message(error: unknown): string {
  // Deno ends a system error with its code, the call and the path, `node:fs` starts it with the
  // code and ends it with the call and the path: the reason names the file.
  return errorText(error).replace(/ \(os error \d+\)(: \w+ '[^]*')?$/, "")
    .replace(/^E[A-Z0-9]+: ([^]*?)(, \w+( '[^]*')?)?$/, "$1");
}
