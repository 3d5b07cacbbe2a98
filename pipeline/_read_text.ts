/**
 * What a file's bytes hold, once read: its text, or a skip for what they hold (binary, a Git LFS
 * pointer, a generated file, judged the same for the same bytes: {@linkcode skipByText}), and
 * the data limit its size or text decides (`readByContent`, `sizedTarget`). A part of `read.ts`,
 * which re-exports what the speed layer uses.
 *
 * @module
 */

import { sep } from "./_path.ts";
import type { SourceFile, Target } from "./types.ts";
import { decodeText } from "./_text_decode.ts";
import { isLfsPointer, LFS_POINTER_REASON } from "./_lfs_pointer.ts";
import { compiledOutput, generatedTextReason, projectPathFrom } from "./_generated_text.ts";
import { judgedByText, largeTextLimit, limitByText } from "./data_files.ts";
import { readBytes } from "./_read_bytes.ts";

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

/**
 * A file read and hashed, with its text: or skipped for what its bytes hold (binary, a Git LFS
 * pointer, a header that says it is generated), with the data limit its text decides.
 *
 * @example
 * ```ts
 * import { withText } from "./_read_text.ts";
 * // const file = await withText({ ...target, sha256, size, mtimeMs }, bytes);
 * ```
 */
export async function withText(file: SourceFile, bytes: Uint8Array): Promise<SourceFile> {
  const decoded = await decodeText(bytes);
  if ("binary" in decoded) return skippedByText(file, decoded.binary, false);
  if (isLfsPointer(decoded.text, bytes.length)) {
    return skippedByText(file, LFS_POINTER_REASON, false);
  }
  const generated = file.judgeGenerated &&
    generatedTextReason(file.path, decoded.text, { sourceOf: (map) => sourceOf(file, map) });
  if (generated) {
    // A compiler's output is skipped only while its source or map is in the project: that
    // verdict looks at other files, so it is not one of its text alone.
    if (compiledOutput(file.path, decoded.text)) {
      return { ...file, error: { status: "skipped", reason: generated } };
    }
    return skippedByText(file, generated, true);
  }
  file.text = decoded.text;
  // Plain text over the data limit is summarized by what it holds: prose or code has a limit
  // of its own.
  if (readByContent(file, bytes.length)) {
    const limit = limitByText(file.path, decoded.text);
    if (limit === undefined) delete file.dataLimit;
    else file.dataLimit = limit;
  } else {
    const sized = sizedTarget(file, bytes.length);
    if (sized !== file) file.dataLimit = sized.dataLimit;
  }
  return file;
}
