/**
 * Read stage: each target is read exactly once into its text (UTF-8, UTF-16 behind a byte order
 * mark, or an older encoding detected: `_text_decode.ts`) and the sha256 of its bytes. A file
 * that is missing, unreadable, outside the root, over its size limit, binary or generated gets a
 * problem on it; none stops the build. `readTarget()` runs the steps for one file: its `lstat`,
 * a symbolic link followed (`followLink`), the bytes read where it was looked for (`readBytes`,
 * `placeCheck`: `_read_bytes.ts`), then the text judged (`withText`: `_read_text.ts`).
 *
 * @module
 */

import { countWork } from "./_work_count.ts";
import type { ResolvedConfig, SourceFile, Target } from "./types.ts";
import { type FileStat, fileStat } from "./file_stat.ts";
import { sha256Hex } from "./helpers.ts";
import { svgReason } from "./_default_skips.ts";
import {
  followLink,
  lookError,
  placeCheck,
  readBytes,
  ruleFileNote,
  withSep,
} from "./_read_bytes.ts";
import { withText } from "./_read_text.ts";
export { type Decoded, decodeText } from "./_text_decode.ts";

export {
  readByContent,
  readNamedGenerated,
  sizedTarget,
  skipByText,
  TEXT_SKIP_RULES_VERSION,
} from "./_read_text.ts";

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
  return sha256Hex(data);
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
  options: ReadEachOptions = {},
): Promise<SourceFile[]> {
  return await readEach(targets, (target) => readTarget(target, config), options);
}

/** Options of {@linkcode readEach}. */
export interface ReadEachOptions {
  /**
   * Told the number of files read so far, after each; what it throws (a cancelled build) stops
   * the reads: the files under way end, no other is begun, and the stage throws it.
   * @default {undefined} not told
   */
  onEach?: (done: number) => void;
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
  options: ReadEachOptions = {},
): Promise<SourceFile[]> {
  const { onEach } = options;
  const out = new Array<SourceFile>(targets.length);
  let next = 0;
  let done = 0;
  let stopped: { error: unknown } | undefined;
  async function worker() {
    while (!stopped && next < targets.length) {
      const i = next++;
      out[i] = await read(targets[i]);
      try {
        onEach?.(++done);
      } catch (error) {
        stopped ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  if (stopped) throw stopped.error;
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

/** Why a file outside the root is not read. */
const LEAVES_ROOT = "path leaves the root (set allowOutsideRoot to allow it)";

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
  if (leavesRoot(target, config)) return fail("error", LEAVES_ROOT);
  const limit = sizeLimit(target, config);
  let info: FileStat;
  try {
    info = lstat ?? fileStat(await Deno.lstat(target.absPath));
  } catch (error) {
    return fail("error", lookError(error));
  }
  // Symbolic links are followed: the file read is their target, the one checked.
  let path = target.absPath;
  if (info.isSymlink) {
    const followed = await followLink(target, config);
    if (typeof followed === "string") return fail("error", followed);
    if ("skip" in followed) return fail("skipped", followed.skip);
    ({ info, real: path } = followed);
  } else if (!config.allowOutsideRoot && !target.absPath.startsWith(withSep(config.root))) {
    return fail("error", LEAVES_ROOT);
  }
  if (info.isDirectory) return fail("skipped", "is a directory");
  if (!info.isFile) return fail("skipped", "not a regular file");
  if (info.size > limit) {
    return { ...fail("skipped", overLimit(target, { size: info.size, limit })), size: info.size };
  }
  // The open file must be where it was looked for (a folder above it swapped for a link).
  const place = placeCheck(target, { linked: path !== target.absPath ? path : undefined, config });
  const read = readBytes(path, { size: info.size, limit, place });
  if (typeof read === "string") return fail("error", read + ruleFileNote(target.path, read));
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
  // The bytes are not kept: once hashed and decoded nothing reads them.
  const { bytes } = read;
  return await withText(
    { ...base, sha256: sha256(bytes), size: bytes.length, mtimeMs: info.mtime },
    bytes,
  );
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
