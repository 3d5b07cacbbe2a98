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
import { sep } from "./_path.ts";
import type { ResolvedConfig, SourceFile, Target } from "./types.ts";
import { type FileStat, fileStat } from "./file_stat.ts";
import { decodeText } from "./_text_decode.ts";
import { isLfsPointer, LFS_POINTER_REASON } from "./_lfs_pointer.ts";
import { linkTargetSkip } from "./_link_targets.ts";

/**
 * A record of what earlier builds read, handed to the read stage (a session of
 * `accel/stat_index.ts`): a file it knows unchanged is taken with its recorded
 * hash and no text instead of being read.
 */
export interface ReadIndex {
  /** The recorded hash of `path` when its fingerprint is unchanged. */
  lookup(path: string, info: FileStat): string | undefined;
  /** The record of a file a watcher saw no change of (taken without an `lstat`), if any. */
  trusted(target: Target): { sha256: string; size: number; mtime: number } | undefined;
  /** Record a file this build read and hashed. */
  record(path: string, info: FileStat, sha256: string): void;
  /** Mark a file taken from the record: its text is read later, when a stage needs it. */
  defer(file: SourceFile, config: ResolvedConfig): void;
}

/** sha256 of bytes or text, hex. */
export function sha256(data: Uint8Array | string): string {
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
  options: {
    index?: ReadIndex;
    /** `lstat`s taken by the resolve stage a moment ago, by path (not looked at again). */
    lstats?: Map<string, FileStat>;
    /** Called with each file as it is read (a speed layer may keep its text elsewhere). */
    onRead?: (source: SourceFile) => void;
  } = {},
): Promise<SourceFile[]> {
  const out = new Array<SourceFile>(targets.length);
  // Files known unchanged are taken at once; the others are read (or looked at) in parallel.
  const left: number[] = [];
  for (let i = 0; i < targets.length; i++) {
    const known = knownTarget(targets[i], config, options.index, options.lstats);
    if (known) out[i] = known;
    else left.push(i);
  }
  let next = 0;
  async function worker() {
    while (next < left.length) {
      const i = left[next++];
      out[i] = await readTarget(targets[i], config, options.index, options.lstats);
      options.onRead?.(out[i]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, left.length) }, worker));
  return out;
}

/**
 * What {@linkcode readTarget} gives for a file the stat index knows unchanged (trusted, or
 * looked at by the resolve stage with the same fingerprint), without a task turn; `undefined`
 * for any other file (it is read, or its problem found, by `readTarget`).
 */
function knownTarget(
  target: Target,
  config: ResolvedConfig,
  index?: ReadIndex,
  lstats?: Map<string, FileStat>,
): SourceFile | undefined {
  if (target.skip) return skipped(target);
  if (!index || target.path.startsWith("../") || target.path.startsWith("/")) return undefined;
  const limit = target.entry.maxBytes ?? config.maxFileSize;
  const trusted = index.trusted(target);
  if (trusted && trusted.size <= limit) {
    return fromIndex(target, config, index, trusted.sha256, trusted.size, trusted.mtime);
  }
  const info = lstats?.get(target.path);
  const rootPrefix = config.root.endsWith(sep) ? config.root : config.root + sep;
  // A symbolic link, folder, special or large file, or one outside the root: `readTarget`.
  if (!info?.isFile || info.size > limit || !target.absPath.startsWith(rootPrefix)) {
    return undefined;
  }
  const known = index.lookup(target.path, info);
  if (!known) return undefined;
  return fromIndex(target, config, index, known, info.size, info.mtime);
}

/** A file the resolve stage skipped (a generated file the config does not name): never read. */
function skipped(target: Target): SourceFile {
  return {
    ...target,
    sha256: "",
    size: 0,
    mtimeMs: 0,
    error: { status: "skipped", reason: target.skip! },
  };
}

/** A file as the stat index knows it: its recorded hash, no text (read later if needed). */
function fromIndex(
  target: Target,
  config: ResolvedConfig,
  index: ReadIndex,
  sha256: string,
  size: number,
  mtimeMs: number,
): SourceFile {
  const file = { ...target, sha256, size, mtimeMs };
  index.defer(file, config);
  return file;
}

/**
 * Read one target. With a stat index session, a file whose fingerprint is
 * unchanged is not read: it comes back with the recorded hash and no text
 * (see `accel/stat_index.ts`).
 */
export async function readTarget(
  target: Target,
  config: ResolvedConfig,
  index?: ReadIndex,
  lstats?: Map<string, FileStat>,
): Promise<SourceFile> {
  if (target.skip) return skipped(target);
  const base = { ...target, sha256: "", size: 0, mtimeMs: 0 };
  const fail = (status: "error" | "skipped", reason: string): SourceFile => ({
    ...base,
    error: { status, reason },
  });
  const rootPrefix = config.root.endsWith(sep) ? config.root : config.root + sep;
  if (!config.allowOutsideRoot && (target.path.startsWith("../") || target.path.startsWith("/"))) {
    return fail("error", "path leaves the root (set allowOutsideRoot to allow it)");
  }
  // A file a watcher saw no change of (slop watch) is taken as recorded, not even looked at.
  const trusted = index?.trusted(target);
  const limit = target.entry.maxBytes ?? config.maxFileSize;
  if (trusted && trusted.size <= limit) {
    return fromIndex(target, config, index!, trusted.sha256, trusted.size, trusted.mtime);
  }
  let info: FileStat;
  try {
    // With an index, most files are only looked at: a synchronous lstat costs far less.
    info = lstats?.get(target.path) ??
      fileStat(index ? Deno.lstatSync(target.absPath) : await Deno.lstat(target.absPath));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return fail("error", "file not found");
    return fail("error", `cannot read file: ${message(error)}`);
  }
  // Symbolic links are always read (their target's fingerprint is not recorded).
  const link = info.isSymlink;
  if (link) {
    const followed = await followLink(target, config);
    if (typeof followed === "string") return fail("error", followed);
    if ("skip" in followed) return fail("skipped", followed.skip);
    info = followed;
  } else if (!config.allowOutsideRoot && !target.absPath.startsWith(rootPrefix)) {
    return fail("error", "path leaves the root (set allowOutsideRoot to allow it)");
  }
  if (info.isDirectory) return fail("skipped", "is a directory");
  if (!info.isFile) return fail("skipped", "not a regular file");
  if (info.size > limit) {
    return {
      ...fail("skipped", `file is ${info.size} bytes, over the limit of ${limit} bytes`),
      size: info.size,
    };
  }
  const known = link ? undefined : index?.lookup(target.path, info);
  if (known) {
    return fromIndex(target, config, index!, known, info.size, info.mtime);
  }
  const bytes = await readBytes(target.absPath);
  if (typeof bytes === "string") return fail("error", bytes);
  const file = await decodedFile(base, bytes, { limit, mtimeMs: info.mtime });
  if (!link && !file.error) index?.record(target.path, info, file.sha256);
  return file;
}

/** What a symbolic link leads to, when it may be read: its target's info, or why not. */
async function followLink(
  target: Target,
  config: ResolvedConfig,
): Promise<FileStat | { skip: string } | string> {
  let real: string;
  try {
    real = await Deno.realPath(target.absPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "broken symbolic link";
    if (error instanceof Deno.errors.FilesystemLoop) return "symbolic link loop";
    return `cannot follow symbolic link: ${message(error)}`;
  }
  const realRoot = await Deno.realPath(config.root).catch(() => config.root);
  if (!config.allowOutsideRoot) {
    const prefix = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
    // A link to the root folder itself (`a/up -> ..`) stays inside: it is a folder of the project.
    if (real !== realRoot && !real.startsWith(prefix)) {
      return "symbolic link leaves the root (set allowOutsideRoot to allow it)";
    }
  }
  // A link to a file the defaults leave out (`.env`, `.git/config`) is left out as its target.
  const skip = linkTargetSkip(real, realRoot, target.explicit);
  if (skip) return { skip };
  return fileStat(await Deno.stat(target.absPath));
}

/** A file's bytes, or why they cannot be read. */
async function readBytes(path: string): Promise<Uint8Array | string> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "file not found";
    if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
    return `cannot read file: ${message(error)}`;
  }
}

/** A file read: its hash and text, or skipped when it grew over the limit or is binary. */
async function decodedFile(
  base: SourceFile,
  bytes: Uint8Array,
  { limit, mtimeMs }: { limit: number; mtimeMs: number },
): Promise<SourceFile> {
  // The raw bytes are not kept: once hashed and decoded nothing reads them, and held to the
  // secret scan they were a second copy of the project beside its texts.
  const file: SourceFile = { ...base, sha256: sha256(bytes), size: bytes.length, mtimeMs };
  if (bytes.length > limit) {
    return {
      ...file,
      error: { status: "skipped", reason: `file grew over the limit of ${limit} bytes` },
    };
  }
  const decoded = await decodeText(bytes);
  if ("binary" in decoded) return { ...file, error: { status: "skipped", reason: decoded.binary } };
  if (isLfsPointer(decoded.text, bytes.length)) {
    return { ...file, error: { status: "skipped", reason: LFS_POINTER_REASON } };
  }
  file.text = decoded.text;
  return file;
}

function message(error: unknown): string {
  // Deno ends a system error with its code, the call and the path: the reason names the file.
  return errorText(error).replace(/ \(os error \d+\)(: \w+ '[^]*')?$/, "");
}
