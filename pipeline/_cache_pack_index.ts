/**
 * A stamped pack's index in a file of its own, beside its stamp (`<stamp>.index`): every record
 * line of the pack with where its payload starts and the payload's first line, so a build reads
 * one small file instead of a seek and a read for each record of a pack the size of the project
 * (88,000 of them for a 44,000-file tree: bench/README.md, "A warm rebuild of the monorepo").
 *
 * The file is taken only for the pack as stamped: its header holds the pack file's fingerprint
 * (the stamp's text), the body's length and its crc32, and a reader takes it only when the open
 * pack file has that fingerprint and its stamp says so too. It is written by the reader that read
 * the pack's records from the pack itself, and followed by the pack's writers: a pack touched or
 * appended to while its index file was of the pack as it was gets the appended records' rows and
 * the new fingerprint in the header (written in place: a header of fixed width); a pack stamped
 * anew (renamed into place) or unstamped loses its index file.
 *
 * Layout: a header of {@linkcode HEADER_BYTES} bytes (`slop-pack-index/2 <body length> <crc32>
 * <fingerprint>`, spaces, a newline), then for each record `<name> <sha256> <length> <crc32 or
 * -> <offset> <head>\n`. The head is `-` (none), its bytes in hex digits, or `@<n>`: the same
 * bytes as the n-th head written in hex before it (counted from 0). A view cache entry's head is
 * the same line for most files of a tree (`{"output":{},"plugins":["slop:full@1"],"warnings":[]}`
 * for every file in full view), so a file written whole holds each head once, and its reader
 * decodes it once and gives every record of it the same view of those bytes. Rows appended
 * after a pack's append write their heads in hex. A later row of a name wins, as a later record
 * does in the pack. (Version 1 wrote every head in hex: its files are not taken.)
 *
 * @module
 */

import { crc32 } from "node:zlib";
import { concatBytes, readAt } from "./_bytes.ts";
import { countWork } from "./_work_count.ts";

const MAGIC = "slop-pack-index/2";
/** The header's fixed width: rewritten in place when the pack's fingerprint changes. */
const HEADER_BYTES = 256;
/** Bytes of kept heads held in one buffer (as the pack's own index keeps them). */
const HEAD_ARENA = 64 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A record as the index file holds it (the fields of `PackRecord` of `_cache_pack.ts`). */
export interface IndexedRecord {
  sha256: string;
  crc32?: number;
  offset?: number;
  length: number;
  head?: Uint8Array;
}

/** Where a pack's index file is, given its stamp's path. */
function packIndexPath(stamp: string): string {
  return `${stamp}.index`;
}

/**
 * The records of the index file of the pack whose fingerprint is `print` (the stamp's text, which
 * the caller checked the open pack file has); `undefined` when there is none for that fingerprint,
 * or its body is not the one its header describes.
 *
 * @example
 * ```ts
 * import { readIndexFile } from "./_cache_pack_index.ts";
 * readIndexFile("/no/such/stamp", "1 2 3 4 5\n"); // undefined
 * ```
 */
export function readIndexFile(
  stamp: string,
  print: string,
): Map<string, IndexedRecord> | undefined {
  let bytes: Uint8Array;
  try {
    // Into a buffer of the file's size: one copy of the bytes (the file is 200 bytes a record).
    using file = Deno.openSync(packIndexPath(stamp));
    bytes = new Uint8Array(file.statSync().size);
    if (!readAt(file, 0, bytes)) return undefined;
  } catch {
    return undefined;
  }
  const header = parseHeader(bytes.subarray(0, HEADER_BYTES));
  if (!header || header.print !== print.trim()) return undefined;
  const body = bytes.subarray(HEADER_BYTES);
  if (body.length !== header.length || crc32(body) !== header.crc) return undefined;
  const records = parseRows(body);
  if (records) countWork("pack index file rows", records.size);
  return records;
}

/**
 * The rows of an index file's body; `undefined` when one is malformed. The body is decoded in one
 * call and cut as text: a decoder call a field (six a row) costs more than the pack's seeks the
 * file spares. A head in hex is decoded (and counted: `pack index heads decoded`); a head that
 * names an earlier one is that one's bytes, not a copy.
 */
function parseRows(body: Uint8Array): Map<string, IndexedRecord> | undefined {
  const out = new Map<string, IndexedRecord>();
  const heads = headKeeper();
  const text = decoder.decode(body);
  for (let at = 0; at < text.length;) {
    const end = text.indexOf("\n", at);
    // The five spaces between the six fields, all before the row's end.
    const s1 = text.indexOf(" ", at), s2 = text.indexOf(" ", s1 + 1);
    const s3 = text.indexOf(" ", s2 + 1), s4 = text.indexOf(" ", s3 + 1);
    const s5 = text.indexOf(" ", s4 + 1), s6 = text.indexOf(" ", s5 + 1);
    if (end < 0 || s1 < 0 || s5 < 0 || s5 > end || (s6 >= 0 && s6 < end)) return undefined;
    const length = digits(text, s2 + 1, s3), offset = digits(text, s4 + 1, s5);
    const crc = s4 === s3 + 2 && text[s3 + 1] === "-" ? undefined : hexNumber(text, s3 + 1, s4);
    const head = end === s5 + 2 && text[s5 + 1] === "-" ? undefined : heads(text, s5 + 1, end);
    const sound = s1 > at && s2 > s1 + 1 && length >= 0 && offset >= 0 && crc !== -1;
    if (!sound || head === null) return undefined;
    const name = text.slice(at, s1), sha256 = text.slice(s1 + 1, s2);
    out.set(name, { sha256, crc32: crc, offset, length, head });
    at = end + 1;
  }
  countWork("pack index heads decoded", heads.decoded());
  return out;
}

/** The decimal digits of `text` from `start` to `end` as a number; -1 when they are none. */
function digits(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** Eight hex digits of `text` from `start` to `end` as a number; -1 when they are not. */
function hexNumber(text: string, start: number, end: number): number {
  if (end - start !== 8) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    n = n * 16 + digit;
  }
  return n;
}

/**
 * Write the index file of the pack whose fingerprint is `print` (temp file and rename); failures
 * are ignored (the next build reads the pack's records from the pack).
 *
 * @example
 * ```ts
 * import { readIndexFile, writeIndexFile } from "./_cache_pack_index.ts";
 * const stamp = `${await Deno.makeTempDir()}/stamp`;
 * writeIndexFile(stamp, "1 2 3 4 5\n", new Map([["a", { sha256: "00", length: 1, offset: 9 }]]));
 * readIndexFile(stamp, "1 2 3 4 5\n")?.get("a")?.offset; // 9
 * ```
 */
export function writeIndexFile(
  stamp: string,
  print: string,
  records: Map<string, IndexedRecord>,
): void {
  const body = rowsOf(records, new Map());
  const path = packIndexPath(stamp);
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    using file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
    writeAll(file, headerOf(print, body.length, crc32(body)));
    writeAll(file, body);
    Deno.renameSync(tmp, path);
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch {
      // Not made.
    }
  }
}

/**
 * After a pack whose fingerprint was `before` was appended to (`appended`, the new records) or
 * touched: its index file, when it was of the pack as it was, takes the new records' rows and
 * the pack's new fingerprint (`after`, `undefined`: the pack is no longer stamped, and the
 * index file goes).
 *
 * @example
 * ```ts
 * import { followIndexFile } from "./_cache_pack_index.ts";
 * followIndexFile("/no/such/stamp", { before: "1\n", after: "2\n", appended: new Map() });
 * ```
 */
export function followIndexFile(
  stamp: string,
  moved: { before: string; after?: string; appended: Map<string, IndexedRecord> },
): void {
  const path = packIndexPath(stamp);
  try {
    using file = Deno.openSync(path, { read: true, write: true });
    const head = new Uint8Array(HEADER_BYTES);
    const header = readAt(file, 0, head) ? parseHeader(head) : undefined;
    if (!header || header.print !== moved.before.trim() || moved.after === undefined) {
      if (header) dropIndexFile(stamp);
      return;
    }
    const rows = rowsOf(moved.appended);
    file.seekSync(HEADER_BYTES + header.length, Deno.SeekMode.Start);
    writeAll(file, rows);
    const length = header.length + rows.length;
    // Bytes past the rows (an append cut short before its header was written) go.
    file.truncateSync(HEADER_BYTES + length);
    file.seekSync(0, Deno.SeekMode.Start);
    writeAll(file, headerOf(moved.after, length, crc32(rows, header.crc)));
  } catch {
    // None, or not writable: the next build reads the pack's records from the pack.
  }
}

/**
 * Remove a pack's index file (the pack was stamped anew or unstamped).
 *
 * @example
 * ```ts
 * import { dropIndexFile } from "./_cache_pack_index.ts";
 * dropIndexFile("/no/such/stamp"); // nothing to remove
 * ```
 */
export function dropIndexFile(stamp: string): void {
  try {
    Deno.removeSync(packIndexPath(stamp));
  } catch {
    // None.
  }
}

/**
 * A payload's first line as a pack's index keeps it: up to its first newline (included) within
 * `max` bytes, else `undefined`.
 *
 * @example
 * ```ts
 * import { payloadHead } from "./_cache_pack_index.ts";
 * payloadHead(new TextEncoder().encode("a\nb"), 256)?.length; // 2
 * ```
 */
export function payloadHead(payload: Uint8Array, max: number): Uint8Array | undefined {
  const newline = payload.subarray(0, max).indexOf(10);
  return newline < 0 ? undefined : payload.subarray(0, newline + 1);
}

/**
 * The rows of `records`, each head once in hex and then named by its number (`@<n>`); `written`
 * holds the heads written so far by their hex digits (a new map: this body is a whole file's).
 */
function rowsOf(
  records: Map<string, IndexedRecord>,
  written?: Map<string, number>,
): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, r] of records) {
    if (r.offset === undefined) continue;
    const crc = r.crc32 === undefined ? "-" : r.crc32.toString(16).padStart(8, "0");
    parts.push(
      encoder.encode(
        `${name} ${r.sha256} ${r.length} ${crc} ${r.offset} ${
          r.head ? headField(hexOf(r.head), written) : "-"
        }\n`,
      ),
    );
  }
  return concatBytes(parts);
}

/** A head's field: `@<n>` for a head written before in this body, else its hex digits. */
function headField(hex: string, written: Map<string, number> | undefined): string {
  if (!written) return hex;
  const n = written.get(hex);
  if (n !== undefined) return `@${n}`;
  written.set(hex, written.size);
  return hex;
}

function headerOf(print: string, length: number, crc: number): Uint8Array {
  const text = `${MAGIC} ${length} ${crc} ${print.trim()}`;
  const out = new Uint8Array(HEADER_BYTES).fill(32);
  const bytes = encoder.encode(text);
  if (bytes.length >= HEADER_BYTES) throw new Error("A pack's fingerprint too long for its index");
  out.set(bytes);
  out[HEADER_BYTES - 1] = 10;
  return out;
}

function parseHeader(
  bytes: Uint8Array,
): { length: number; crc: number; print: string } | undefined {
  if (bytes.length !== HEADER_BYTES || bytes[HEADER_BYTES - 1] !== 10) return undefined;
  const [magic, length, crc, ...print] = decoder.decode(bytes).trim().split(" ");
  const n = Number(length), c = Number(crc);
  if (magic !== MAGIC || !Number.isInteger(n) || !Number.isInteger(c)) return undefined;
  return { length: n, crc: c, print: print.join(" ") };
}

/** A head's bytes as hex digits (a row is text, decoded with the others in one call). */
function hexOf(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b];
  return out;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * Heads decoded from hex into shared buffers, in the order the rows give them, and heads named by
 * their number (`@<n>`): the view decoded before (`null`: neither hex nor the number of a head
 * given before). A head is a view of a buffer, not a buffer of its own. `decoded()`: how many
 * were decoded from hex.
 */
function headKeeper(): {
  (text: string, start: number, end: number): Uint8Array | null;
  decoded(): number;
} {
  let arena = new Uint8Array(HEAD_ARENA);
  let used = 0;
  const given: Uint8Array[] = [];
  const keep = (text: string, start: number, end: number) => {
    if (text.charCodeAt(start) === 64) return given[digits(text, start + 1, end)] ?? null;
    const length = (end - start) >> 1;
    if (end - start !== length * 2 || !length) return null;
    if (used + length > arena.length) {
      arena = new Uint8Array(Math.max(HEAD_ARENA, length));
      used = 0;
    }
    const kept = arena.subarray(used, used + length);
    for (let i = 0; i < length; i++) {
      const high = hexDigit(text.charCodeAt(start + 2 * i));
      const low = hexDigit(text.charCodeAt(start + 2 * i + 1));
      if (high < 0 || low < 0) return null;
      kept[i] = high * 16 + low;
    }
    used += length;
    given.push(kept);
    return kept;
  };
  return Object.assign(keep, { decoded: () => given.length });
}

function hexDigit(code: number): number {
  return code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
}
