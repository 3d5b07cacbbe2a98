/**
 * Writing a document that mostly repeats the previous one (a rebuild after
 * an edit): the previous output file is copied by the kernel
 * (`copy_file_range`, no pass through this process), and only the bytes
 * from the first block that differs are written over the copy, which is
 * then cut to the new length: far cheaper than a fresh write of the whole
 * (`bench/README.md`, "Numbers behind code choices"). The previous file is used
 * only while it is exactly the file written then (same inode, size and
 * modification time), and only the leading parts known identical (the same
 * sha256 at the same place) are taken from it; otherwise the document is
 * written whole. A resident process keeps the last document in memory; a
 * `slop build` reads its record from the cache folder.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, dirname, join } from "../pipeline/paths.ts";
import type { StreamedDocument } from "../pipeline/document.ts";
import { countWork, fileStamp, readAt, removeQuietly } from "../pipeline/helpers.ts";
import { tempDocumentPath, writeDocument, type WrittenAhead } from "../pipeline/emit.ts";

/** The last document written: its parts' hashes, and the file it became. */
export interface WrittenDocument {
  /** The sha256 of each part written, in order. */
  hashes: string[];
  /** The UTF-8 length of each part (absent in a record written before slop kept it). */
  lengths?: number[];
  /** The published path. */
  path: string;
  /** Each part's token count by `tokenizer` (absent in a record written before slop kept them). */
  tokens?: { tokenizer: string; counts: number[] };
  /**
   * Each part's name (`blockName()` of `known_blocks.ts`; `""` for a part without one): a later
   * build takes the sha256 and length of a part of the same name without reading it. Absent in a
   * record written before slop kept them.
   */
  names?: string[];
  /** Its inode, size, modification and change time right after publishing (`fileStamp()`). */
  stamp: string;
  /** A copy of the file made ahead, for the next build to patch (see {@linkcode makeDraft}). */
  draft?: Draft;
}

/** A hidden copy of a written document: its path, and its stamp when the copy was complete. */
export interface Draft {
  path: string;
  stamp: string;
}

/**
 * Read the record of the last document a build wrote (`undefined` when there is none).
 *
 * @example
 * ```ts
 * import { loadWritten } from "./patch_write.ts";
 * loadWritten("/no/such/record.json"); // undefined
 * ```
 */
export function loadWritten(path: string): WrittenDocument | undefined {
  try {
    // Its first line is the sha256 of the rest: a record damaged or edited by hand is not used
    // (a block's sha256 and length are taken from it unread, and the last document's bytes by them).
    const text = Deno.readTextFileSync(path);
    const line = text.indexOf("\n");
    if (
      line !== 64 || createHash("sha256").update(text.slice(65)).digest("hex") !== text.slice(0, 64)
    ) {
      return undefined;
    }
    const data = JSON.parse(text.slice(65));
    const ok = typeof data?.path === "string" && typeof data.stamp === "string" &&
      Array.isArray(data.hashes) && data.hashes.every((h: unknown) => typeof h === "string");
    const lengths = Array.isArray(data?.lengths) && data.lengths.length === data.hashes?.length &&
        data.lengths.every((n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0)
      ? data.lengths as number[]
      : undefined;
    const tokens = typeof data?.tokens?.tokenizer === "string" &&
        Array.isArray(data.tokens.counts) && data.tokens.counts.length === data.hashes?.length &&
        data.tokens.counts.every((n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0)
      ? { tokenizer: data.tokens.tokenizer as string, counts: data.tokens.counts as number[] }
      : undefined;
    const names = Array.isArray(data?.names) && data.names.length === data.hashes?.length &&
        data.names.every((n: unknown) => typeof n === "string")
      ? data.names as string[]
      : undefined;
    return ok
      ? {
        path: data.path,
        stamp: data.stamp,
        hashes: data.hashes,
        ...(lengths ? { lengths } : {}),
        ...(tokens ? { tokens } : {}),
        ...(names ? { names } : {}),
      }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Record the document a build wrote (temp file and rename; failures are ignored): a line with
 * the sha256 of the JSON that follows it, so that a damaged record is not used.
 *
 * @example
 * ```ts
 * import { saveWritten } from "./patch_write.ts";
 * await saveWritten(await Deno.makeTempFile(), { path: "/d.md", stamp: "1:2:3", hashes: [] });
 * ```
 */
export async function saveWritten(path: string, written: WrittenDocument): Promise<void> {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    const { hashes, lengths, path: document, stamp, tokens, names } = written;
    const json = JSON.stringify({ hashes, lengths, path: document, stamp, tokens, names });
    await Deno.writeTextFile(tmp, `${createHash("sha256").update(json).digest("hex")}\n${json}`);
    await Deno.rename(tmp, path);
  } catch {
    await Deno.remove(tmp).catch(() => {});
  }
}

/** Below this many identical leading bytes, writing whole is as cheap. */
const MIN_REUSE = 1 << 20;

/**
 * Copy a written document to a hidden temp file beside it (named like the
 * temp files `publish` sweeps when a killed process leaves them), while it is
 * still exactly the file written: a resident process (`slop watch`) makes it
 * while it waits for the next edit, so that rebuild patches the copy instead
 * of copying the whole document first. `undefined` when the document changed
 * or the copy failed (nothing is left behind).
 *
 * @example
 * ```ts
 * import { makeDraft } from "./patch_write.ts";
 * await makeDraft({ path: "/no/such/file.md", stamp: "", hashes: [] }); // undefined
 * ```
 */
export async function makeDraft(written: WrittenDocument): Promise<Draft | undefined> {
  const path = join(
    dirname(written.path),
    `.${basename(written.path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`,
  );
  try {
    if (fileStamp(written.path) !== written.stamp) return undefined;
    await Deno.copyFile(written.path, path);
    const stamp = fileStamp(path);
    // Changed while it was copied: the copy may hold a mix.
    if (!stamp || fileStamp(written.path) !== written.stamp) throw new Error("changed");
    return { path, stamp };
  } catch {
    dropDraft({ path, stamp: "" });
    return undefined;
  }
}

/**
 * Remove a draft that was not used (gone already is fine).
 *
 * @example
 * ```ts
 * import { dropDraft } from "./patch_write.ts";
 * dropDraft({ path: "/no/such/draft.tmp", stamp: "" });
 * ```
 */
export function dropDraft(draft: Draft): void {
  removeQuietly(draft.path); // used (renamed into place) or never made
}

/**
 * Write `parts` (whose sha256 are `hashes`) to `path` from a copy of the
 * previous document when enough of it is the same (its draft, when one was
 * made and is unchanged, else a copy made now); returns `false` (nothing
 * written) when it cannot be used.
 *
 * @example
 * ```ts
 * import { writePatched } from "./patch_write.ts";
 * // if (!writePatched(tmp, parts, previous)) await writeWhole(tmp, parts);
 * ```
 */
export function writePatched(
  path: string,
  parts: Uint8Array[] | StreamedDocument,
  hashes: string[],
  previous: WrittenDocument,
): boolean {
  const lengths = Array.isArray(parts) ? parts.map((p) => p.length) : parts.lengths;
  if (hashes.length !== lengths.length) return false;
  let same = 0;
  let offset = 0;
  while (
    same < lengths.length && same < previous.hashes.length && hashes[same] === previous.hashes[same]
  ) offset += lengths[same++];
  const draft = previous.draft;
  const drafted = draft !== undefined && fileStamp(draft.path) === draft.stamp;
  const intact = fileStamp(previous.path) === previous.stamp;
  if (offset < MIN_REUSE || (!drafted && !intact)) return false;
  try {
    if (drafted) Deno.renameSync(draft.path, path);
    else Deno.copyFileSync(previous.path, path);
    // The scaling tests count the copies made on the build's own path.
    countWork(drafted ? "draft patched" : "last document copied at emit", 1);
    using file = Deno.openSync(path, { write: true });
    file.seekSync(offset, Deno.SeekMode.Start);
    // Blocks after the first change that the last document has too (an edited file's block
    // moved to the end pushes the others back) are copied from its file, not encoded again.
    using old = intact && previous.lengths ? Deno.openSync(previous.path) : undefined;
    const placeOf = old && placesOf(previous, hashes, lengths);
    const copy = old ? rangeCopier(old, file) : undefined;
    // Blocks to encode, from `run` up to the current one: written together (one piece buffer).
    let run = same;
    const encode = (to: number) => {
      if (run === to) return;
      for (const part of Array.isArray(parts) ? parts.slice(run, to) : parts.pieces(run, to)) {
        for (let at = 0; at < part.length;) at += file.writeSync(part.subarray(at));
      }
    };
    let size = offset;
    for (let i = same; i < lengths.length; i++) {
      const place = placeOf?.(i);
      if (copy && place) {
        encode(i);
        run = i + 1;
        copy.add(place.offset, lengths[i]);
      } else copy?.flush();
      size += lengths[i];
    }
    copy?.flush();
    encode(lengths.length);
    file.truncateSync(size);
    return true;
  } catch {
    removeQuietly(path);
    return false;
  }
}

/**
 * `document` as bytes, with the blocks the last written document holds too
 * (the same sha256 and length, `hashes` being this document's) read from
 * its file instead of encoded again: after a file's first edit moves its
 * block to the end, the blocks behind it are hashed from the bytes the last
 * document has (the page cache's), not from their texts. The file is used
 * only while it is exactly the file written (its stamp); otherwise, or
 * without its blocks' lengths, `document` is given back as it is. A read
 * that comes up short (the file changed since) throws: hash `document`
 * itself then.
 *
 * @example
 * ```ts
 * import { withWrittenBlocks } from "./patch_write.ts";
 * import { streamDocument } from "../pipeline/document.ts";
 * const doc = streamDocument([]);
 * withWrittenBlocks(doc, [], undefined) === doc; // true
 * ```
 */
export function withWrittenBlocks(
  document: StreamedDocument,
  hashes: string[],
  previous: WrittenDocument | undefined,
): StreamedDocument {
  const { lengths } = document;
  if (!previous?.lengths || hashes.length !== lengths.length) return document;
  if (fileStamp(previous.path) !== previous.stamp) return document;
  const placeOf = placesOf(previous, hashes, lengths);
  return {
    lengths,
    *pieces(from = 0, to = lengths.length) {
      using file = Deno.openSync(previous.path);
      const buffer = new Uint8Array(1 << 20);
      for (let i = from; i < to;) {
        const place = placeOf(i);
        let j = i + 1;
        if (!place) {
          while (j < to && !placeOf(j)) j++;
          yield* document.pieces(i, j);
          i = j;
          continue;
        }
        // Blocks that follow each other in the last document too: read a megabyte at a time,
        // given block by block (a piece never spans two blocks: the hashes keep a state after each).
        let length = place.length;
        for (
          let next = placeOf(j);
          next && next.offset === place.offset + length;
          next = placeOf(j)
        ) {
          length += next.length;
          j++;
        }
        let read = 0;
        let at = 0;
        let filled = 0;
        for (let k = i; k < j; k++) {
          for (let left = lengths[k]; left > 0;) {
            if (at === filled) {
              filled = Math.min(length - read, buffer.length);
              if (!readAt(file, place.offset + read, buffer.subarray(0, filled))) {
                throw new Error(`The last document "${previous.path}" ended early`);
              }
              read += filled;
              at = 0;
            }
            const n = Math.min(left, filled - at);
            yield buffer.subarray(at, at + n);
            at += n;
            left -= n;
          }
        }
        i = j;
      }
    },
  };
}

/** A run of a document's bytes: a range of the last document's file, or bytes of its own. */
export type DocumentSegment = { offset: number; length: number } | Uint8Array;

/**
 * `document` as segments, in order: the runs of blocks the last written document holds too (the
 * same sha256 and length, as {@linkcode withWrittenBlocks} reads them), each one range of its
 * file, joined where they follow each other there, and the other blocks' bytes (copied). For a
 * thread that hashes the document from the file (`hash_ahead.ts`). `undefined` when the last
 * document cannot be used (none, no lengths, another file now).
 *
 * @example
 * ```ts
 * import { writtenSegments } from "./patch_write.ts";
 * import { streamDocument } from "../pipeline/document.ts";
 * writtenSegments(streamDocument([]), [], undefined); // undefined
 * ```
 */
export function writtenSegments(
  document: StreamedDocument,
  hashes: string[],
  previous: WrittenDocument | undefined,
): DocumentSegment[] | undefined {
  const { lengths } = document;
  if (!previous?.lengths || hashes.length !== lengths.length) return undefined;
  if (fileStamp(previous.path) !== previous.stamp) return undefined;
  const placeOf = placesOf(previous, hashes, lengths);
  const segments: DocumentSegment[] = [];
  let range: { offset: number; length: number } | undefined;
  for (let i = 0; i < lengths.length;) {
    const place = placeOf(i);
    if (place) {
      if (range && range.offset + range.length === place.offset) range.length += place.length;
      else segments.push(range = { ...place });
      i++;
      continue;
    }
    range = undefined;
    let j = i + 1;
    while (j < lengths.length && !placeOf(j)) j++;
    // The pieces are views of the stream's buffer: each copied as it is given.
    for (const piece of document.pieces(i, j)) segments.push(piece.slice());
    i = j;
  }
  return segments;
}

/**
 * Where the `i`-th part of a document (with these `hashes` and `lengths`) is in the written
 * document `written`: the first place of a part with the same sha256 and length, if any. The
 * first few parts asked for are found by a pass over the written hashes (a one-file edit asks for
 * one part, or none: its block last); a map of every hash is made for more (a first edit, whose
 * block moved to the end, asks for every part after it), not for each build of a big tree.
 */
function placesOf(
  written: WrittenDocument,
  hashes: string[],
  lengths: number[],
): (i: number) => { offset: number; length: number } | undefined {
  let places: Map<string, { offset: number; length: number }> | undefined;
  let asked = 0;
  const firstPlace = (hash: string) => {
    if (++asked <= FOUND_BY_PASS) {
      let offset = 0;
      for (let k = 0; k < written.hashes.length; k++) {
        const length = written.lengths![k];
        if (written.hashes[k] === hash) return { offset, length };
        offset += length;
      }
      return undefined;
    }
    if (!places) {
      places = new Map();
      let offset = 0;
      written.hashes.forEach((hash, k) => {
        const length = written.lengths![k];
        if (!places!.has(hash)) places!.set(hash, { offset, length });
        offset += length;
      });
    }
    return places.get(hash);
  };
  return (i) => {
    const place = firstPlace(hashes[i]);
    return place && place.length === lengths[i] ? place : undefined;
  };
}

/** How many parts {@linkcode placesOf} finds by a pass over the written hashes before a map. */
const FOUND_BY_PASS = 4;

/**
 * Copies byte ranges of `from` to the current position of `to`, joining ranges that follow
 * each other into one read and write per megabyte.
 */
function rangeCopier(from: Deno.FsFile, to: Deno.FsFile) {
  let start = 0;
  let length = 0;
  let buffer: Uint8Array | undefined;
  return {
    add(at: number, n: number) {
      if (length && at === start + length) length += n;
      else {
        this.flush();
        start = at;
        length = n;
      }
    },
    flush() {
      buffer ??= new Uint8Array(1 << 20);
      while (length > 0) {
        const want = Math.min(length, buffer.length);
        if (!readAt(from, start, buffer.subarray(0, want))) {
          throw new Error("The last document ended early");
        }
        for (let at = 0; at < want;) at += to.writeSync(buffer.subarray(at, want));
        start += want;
        length -= want;
      }
    },
  };
}

/**
 * Write a document to a hidden temp file in the output folder (`tempDocumentPath`), patched from
 * the last document (`patch`) where it can be, for `publish` to link (its `ahead`): a build
 * prepared ahead does its writing before it is asked for. `undefined` when it cannot be written
 * (`publish` then writes it, and says why it cannot). A temp file older than an hour is taken for
 * a killed build's and removed by the next publication.
 *
 * @example
 * ```ts
 * import { dropAhead, writeAhead } from "./patch_write.ts";
 * import { streamDocument } from "../pipeline/document.ts";
 * const to = { dir: await Deno.makeTempDir(), namespace: "context" };
 * const ahead = await writeAhead(streamDocument([]), to, () => false);
 * if (ahead) dropAhead(ahead);
 * ```
 */
export async function writeAhead(
  document: StreamedDocument,
  to: { dir: string; namespace: string },
  patch: (path: string, document: StreamedDocument) => boolean,
): Promise<WrittenAhead | undefined> {
  const { dir } = to;
  let madeDir: string | undefined;
  try {
    if (fileStamp(dir) === undefined) madeDir = dir;
    Deno.mkdirSync(dir, { recursive: true });
    const path = tempDocumentPath(to);
    try {
      if (!patch(path, document)) await writeDocument(path, document);
    } catch (error) {
      removeQuietly(path);
      throw error;
    }
    const stamp = fileStamp(path);
    if (stamp) return { path, stamp, ...(madeDir ? { madeDir } : {}) };
    dropAhead({ path, stamp: "", madeDir });
  } catch {
    // Written when published, which reports the error.
  }
  return undefined;
}

/**
 * Remove a document written ahead that will not be published (gone already is fine).
 *
 * @example
 * ```ts
 * import { dropAhead } from "./patch_write.ts";
 * dropAhead({ path: "/no/such/file.tmp", stamp: "" });
 * ```
 */
export function dropAhead(ahead: WrittenAhead): void {
  removeQuietly(ahead.path);
  // Not recursive: a folder something else was written to since stays.
  if (ahead.madeDir) removeQuietly(ahead.madeDir);
}
