/**
 * Cache packs: the entries one build used, back to back in one file, so the
 * next build of the same project reads one file instead of one per entry.
 * A pack only speeds reads up: every record carries its payload's sha256 and
 * is checked on use, a bad record falls back to the entry file, and packs are
 * written like entries (temp file + rename).
 *
 * A pack as its writer left it need not be checked record by record: the writer stamps it (a
 * small file elsewhere, {@linkcode stampedFile}) with the pack file's fingerprint, and a reader
 * whose open pack file still has that fingerprint takes its records unchecked. slop never
 * writes a pack in place: a pack is renamed into place whole, or grown by an append, which
 * changes its size, and a stamped pack's modification time is set back by {@linkcode BACKDATE_MS},
 * so any later write gives it another one. See bench/README.md, "the pack trusted by its stamp".
 *
 * Layout: `slop-pack/1\n`, then per record `<name> <sha256> <length> <crc32>\n` and the payload.
 * The crc32 (8 hex digits) checks a record of a pack trusted by its stamp at almost no cost: a
 * program that wrote the pack in place and set its times back within the second its stamp holds
 * (a change time is given in whole seconds) keeps the fingerprint, not the bytes. A record line
 * without it (an older slop's) is read as before, checked by its sha256 whether stamped or not;
 * an older slop reads the first three fields.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { join } from "./_path.ts";
import { sha256 } from "./read.ts";
import { concatBytes, readAt, readWhole } from "./_bytes.ts";
import { encodePieces, pieceBuffer } from "./text_hash.ts";
import { countWork } from "./_work_count.ts";
import { readSettingTextSync } from "./_setting_file.ts";
import {
  dropIndexFile,
  followIndexFile,
  type IndexedRecord,
  payloadHead,
  readIndexFile,
  writeIndexFile,
} from "./_cache_pack_index.ts";

const MAGIC = "slop-pack/1\n";
const encoder = new TextEncoder();
// A leading U+FEFF is text kept as it was written (a second byte order mark), not a mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A record of a pack: the payload's sha256, where the payload starts in the
 * pack file and its length, and the payload itself when it is held in memory
 * (a pack's writers give their records without it).
 */
export interface PackRecord {
  sha256: string;
  /** The payload's crc32 (`undefined`: a record line an older slop wrote, without it). */
  crc32?: number;
  /** The payload's byte offset in the pack file (`undefined`: a record not read from one). */
  offset?: number;
  length: number;
  payload?: Uint8Array;
  /**
   * The payload's first line (up to its first newline, included), as the index read it with the
   * record line ({@linkcode readPackIndex}): a reader of a record's head alone needs no read of
   * its own. Absent when the line is longer than {@linkcode HEAD_LINE_MAX} bytes or not in that read.
   */
  head?: Uint8Array;
}

/**
 * Read a pack; a missing or damaged file gives the records before the damage.
 *
 * @example
 * ```ts
 * import { readPack } from "./_cache_pack.ts";
 * readPack("/no/such/pack").size; // 0
 * ```
 */
export function readPack(path: string): Map<string, PackRecord> {
  let bytes: Uint8Array;
  try {
    bytes = readWhole(path);
  } catch {
    return new Map();
  }
  return parsePack(bytes);
}

/**
 * Bytes of a pack read at a time by {@linkcode readPackIndex}, from a record line: the line (at
 * most {@linkcode LINE_MAX} bytes) and the small records after it. Small, because each record
 * line the last read did not hold is read anew: a window much larger than a record copies most
 * of the pack again for its index (bench/README.md, "Numbers that were in code comments").
 */
const INDEX_CHUNK = 4 * 1024;
/** The longest record line a pack holds (a longer one is damage). */
const LINE_MAX = 300;
/**
 * The longest payload's first line a pack index keeps ({@linkcode PackRecord.head}): a view
 * entry's head (54 bytes for a plain full view), not a long warning.
 */
const HEAD_LINE_MAX = 256;
/** Bytes of kept heads held in one buffer (a record's head is a view of it, not a buffer of its own). */
const HEAD_ARENA = 64 * 1024;

/**
 * The records of a pack without their payloads: each record line is read
 * where the one before it ends, the payloads between are skipped, so a build
 * holds the pack's index, never the pack (the size of the project again, for
 * `full` views). A payload is read by {@linkcode readRecord} when it is used,
 * checked by its sha256. A missing or damaged file gives the records before
 * the damage, as {@linkcode readPack} does. Given an open file, it is read
 * from it (and left open: the caller reads the payloads from the same file).
 *
 * @example
 * ```ts
 * import { readPackIndex } from "./_cache_pack.ts";
 * readPackIndex("/no/such/pack").size; // 0
 * ```
 */
export function readPackIndex(from: string | Deno.FsFile): Map<string, PackRecord> {
  const out = new Map<string, PackRecord>();
  let opened: Deno.FsFile | undefined;
  try {
    opened = typeof from === "string" ? Deno.openSync(from) : undefined;
    return indexRecords(opened ?? from as Deno.FsFile, out);
  } catch {
    return out;
  } finally {
    opened?.close();
  }
}

/** Add the records of the pack `file` to `out` (see {@linkcode readPackIndex}). */
function indexRecords(file: Deno.FsFile, out: Map<string, PackRecord>): Map<string, PackRecord> {
  const size = file.statSync().size;
  const chunk = new Uint8Array(INDEX_CHUNK);
  const heads = headArena();
  // `chunk` holds the file's bytes from `base`, `have` of them.
  let base = 0;
  let have = fill(file, 0, chunk);
  if (have < MAGIC.length || decoder.decode(chunk.subarray(0, MAGIC.length)) !== MAGIC) return out;
  for (let at = MAGIC.length; at < size;) {
    // A record line that may not be in the chunk whole: read on from where it starts.
    if (at + LINE_MAX + 1 > base + have && base + have < size) {
      base = at;
      have = fill(file, at, chunk);
    }
    const newline = chunk.subarray(0, have).indexOf(10, at - base);
    if (newline < 0 || newline - (at - base) > LINE_MAX) break;
    const [name, hash, length, crc] = fields(chunk.subarray(at - base, newline));
    const offset = base + newline + 1;
    const n = Number(length);
    if (!name || !hash || !Number.isInteger(n) || offset + n > size) break;
    const head = heads(chunk.subarray(offset - base, Math.min(have, offset - base + n)));
    out.set(name, { sha256: hash, crc32: crcOf(crc), offset, length: n, head });
    at = offset + n;
  }
  return out;
}

/**
 * A keeper of payloads' first lines, copied into shared buffers: given a payload's bytes the index
 * read holds (its start), the line up to its first newline within {@linkcode HEAD_LINE_MAX} bytes,
 * else `undefined`.
 */
function headArena(): (start: Uint8Array) => Uint8Array | undefined {
  let arena = new Uint8Array(HEAD_ARENA);
  let used = 0;
  return (start) => {
    const line = payloadHead(start, HEAD_LINE_MAX);
    if (!line) return undefined;
    const length = line.length;
    if (used + length > arena.length) {
      arena = new Uint8Array(HEAD_ARENA);
      used = 0;
    }
    const head = arena.subarray(used, used + length);
    head.set(line);
    used += length;
    return head;
  };
}

/** Read `file` from `offset` into `into` until it is full or the file ends; the bytes read. */
function fill(file: Deno.FsFile, offset: number, into: Uint8Array): number {
  countWork("pack index reads", 1);
  file.seekSync(offset, Deno.SeekMode.Start);
  let at = 0;
  while (at < into.length) {
    const n = file.readSync(into.subarray(at));
    if (!n) break;
    at += n;
  }
  return at;
}

/**
 * The records of a pack's bytes (read by the caller, as {@linkcode readPack} reads them); damaged
 * bytes give the records before the damage.
 */
function parsePack(bytes: Uint8Array): Map<string, PackRecord> {
  const out = new Map<string, PackRecord>();
  if (decoder.decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) return out;
  let at = MAGIC.length;
  while (at < bytes.length) {
    const newline = bytes.indexOf(10, at);
    if (newline < 0 || newline - at > LINE_MAX) break;
    const [name, hash, length, crc] = fields(bytes.subarray(at, newline));
    const size = Number(length);
    if (!name || !hash || !Number.isInteger(size) || newline + 1 + size > bytes.length) break;
    const offset = newline + 1;
    out.set(name, {
      sha256: hash,
      crc32: crcOf(crc),
      offset,
      length: size,
      payload: bytes.subarray(offset, offset + size),
    });
    at = offset + size;
  }
  return out;
}

/**
 * A record line's first four fields (`line.split(" ")` of its text), each decoded on its own:
 * parts of one decoded line would each keep the whole line alive (held with every record).
 */
function fields(line: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 0; out.length < 4 && at <= line.length;) {
    const space = line.indexOf(32, at);
    const end = space < 0 ? line.length : space;
    out.push(decoder.decode(line.subarray(at, end)));
    at = end + 1;
  }
  return out;
}

/** A record line's crc32 field as a number (`undefined`: none, or not 8 hex digits). */
function crcOf(field: string | undefined): number | undefined {
  return field && /^[0-9a-f]{8}$/.test(field) ? parseInt(field, 16) : undefined;
}

/** A record's line: its name, the payload's sha256, length and crc32. */
function recordLine(name: string, sha: string, length: number, crc: number): Uint8Array {
  return encoder.encode(`${name} ${sha} ${length} ${crc.toString(16).padStart(8, "0")}\n`);
}

/**
 * Whether `bytes` are a record's payload as its line says: by its crc32 when the pack is
 * `trusted` by its stamp and the line has one, else by its sha256.
 */
function sound(bytes: Uint8Array, record: PackRecord, trusted?: boolean): boolean {
  if (trusted && record.crc32 !== undefined) return crc32(bytes) === record.crc32;
  return sha256(bytes) === record.sha256;
}

/** Options of {@linkcode readRecord}. */
export interface ReadRecordOptions {
  /** Read into this buffer when it is large enough (a view of it: valid until it is read into again). */
  into?: Uint8Array;
  /**
   * The pack file is the one its stamp names, as stamped ({@linkcode stampedFile}): the payload
   * is checked by its crc32, not its sha256 (by its sha256 when its line has no crc32).
   * @default {false}
   */
  trusted?: boolean;
  /**
   * Not checked at all: part of a record (its head) read from a `trusted` pack, whose caller
   * checks the rest as it reads it, with the head's crc32. @default {false}
   */
  unchecked?: boolean;
}

/**
 * A record's payload: the one in memory, else read back from the pack file
 * (a path, or the file open) at its offset and checked against its sha256
 * (`undefined` when the file no longer holds it there, e.g. another build
 * rewrote the pack since), unless the file is `trusted`. Read `into` a
 * buffer when it is large enough, else into a new one.
 *
 * @example
 * ```ts
 * import { readRecord, writePack } from "./_cache_pack.ts";
 * const path = await Deno.makeTempFile();
 * const written = await writePack(path, new Map([["a", new Uint8Array([1, 2])]]));
 * readRecord(path, written.get("a")!); // Uint8Array [1, 2]
 * ```
 */
export function readRecord(
  from: string | Deno.FsFile,
  record: PackRecord,
  options: ReadRecordOptions = {},
): Uint8Array | undefined {
  if (record.payload) return record.payload;
  if (record.offset === undefined) return undefined;
  const { into, trusted, unchecked } = options;
  let opened: Deno.FsFile | undefined;
  try {
    opened = typeof from === "string" ? Deno.openSync(from) : undefined;
    const out = into && into.length >= record.length
      ? into.subarray(0, record.length)
      : new Uint8Array(record.length);
    const read = readAt(opened ?? from as Deno.FsFile, record.offset, out);
    countWork("pack bytes read", out.length);
    return read && ((trusted && unchecked) || sound(out, record, trusted)) ? out : undefined;
  } catch {
    return undefined;
  } finally {
    opened?.close();
  }
}

/** A payload, or a function that loads it. */
function defaultPayload<T>(entry: T): Uint8Array | undefined {
  return typeof entry === "function" ? entry() : entry as Uint8Array | undefined;
}

/** Options of {@linkcode writePack}. */
export interface WritePackOptions<T> {
  /** The payload of an entry of another kind (the cache's records of the pack it read). */
  payloadOf?: (entry: T) => Uint8Array | undefined;
  /**
   * The sha256 an entry's payload had when it was stored (a record of a pack read without its
   * check, trusted by its stamp): a payload that hashes otherwise was changed since and is left
   * out, not written under its new sha256. @default {undefined} none known
   */
  storedHash?: (entry: T) => string | undefined;
  /** Where to stamp the pack once it is in place (see {@linkcode stampedFile}). @default {undefined} not stamped */
  stamp?: string;
}

/**
 * Write a pack holding `records` (sorted by name) through a temp file and a
 * rename, record by record (no copy of the whole pack in memory). A record
 * given as a function is loaded when its turn comes (an entry file read
 * back), so a build need not hold every payload until the pack is written; a
 * load that gives `undefined` leaves the record out; `payloadOf` gives another kind of
 * record's payload (the cache's records of the pack it read), and `storedHash` the sha256 it
 * should have (one that differs is left out). Resolves to the records written, without their
 * payloads.
 *
 * @example
 * ```ts
 * import { writePack } from "./_cache_pack.ts";
 * await writePack(await Deno.makeTempFile(), new Map([["a", new Uint8Array([1])]]));
 * ```
 */
export async function writePack<T = Uint8Array | (() => Uint8Array | undefined)>(
  path: string,
  records: Map<string, T>,
  options: WritePackOptions<T> = {},
): Promise<Map<string, PackRecord>> {
  const payloadOf = options.payloadOf ?? defaultPayload;
  const written = new Map<string, PackRecord>();
  removeKilledTemps(join(path, ".."));
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    let made: Deno.FileInfo | undefined;
    try {
      const out = bufferedWriter(file);
      out.put(encoder.encode(MAGIC));
      for (const name of [...records.keys()].sort()) {
        const entry = records.get(name)!;
        const payload = payloadOf(entry);
        if (!payload) continue;
        const hash = sha256(payload);
        if (hash !== (options.storedHash?.(entry) ?? hash)) continue;
        const crc = crc32(payload);
        out.put(recordLine(name, hash, payload.length, crc));
        written.set(name, { sha256: hash, crc32: crc, offset: out.end(), length: payload.length });
        out.put(payload);
      }
      out.flush();
      made = backdated(file);
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
    if (options.stamp) stampRenamed(path, made, options.stamp);
    return written;
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

/** A pack being written record by record (see {@linkcode streamPack}). */
export interface PackStream {
  /** Append a record; `false` when it could not be written. */
  put(name: string, payload: Uint8Array): boolean;
  /**
   * Append a record whose payload is `head` then the UTF-8 of `text`, encoded piece by piece
   * (never held whole); its sha256, or `undefined` when it could not be written.
   */
  putText(name: string, head: Uint8Array, text: string): string | undefined;
  /** Whether a record of that name was appended. */
  has(name: string): boolean;
  /** The payload of an appended record (read back from the temp file). */
  get(name: string): Uint8Array | undefined;
  /** The records appended so far (the last of a name), without their payloads. */
  records(): Map<string, PackRecord>;
  /** Close the temp file and rename it into place; resolves to the pack's size in bytes. */
  finish(): Promise<number>;
  /** Close the temp file and remove it: the pack is not wanted (its build failed). */
  abandon(): void;
}

/**
 * Start writing a pack at `path` through a temp file, records appended as
 * they come (a cold build's entries go here instead of one file each); the
 * pack appears at `path` only on `finish()`. A later record of the same name
 * wins when the pack is read. `undefined` when the temp file cannot be made.
 *
 * @example
 * ```ts
 * import { readPack, streamPack } from "./_cache_pack.ts";
 * const path = (await Deno.makeTempDir()) + "/pack";
 * const stream = streamPack(path)!;
 * stream.put("a", new Uint8Array([1]));
 * await stream.finish();
 * readPack(path).size; // 1
 * ```
 */
export function streamPack(path: string, options: { stamp?: string } = {}): PackStream | undefined {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  let file: Deno.FsFile;
  try {
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    removeKilledTemps(join(path, ".."));
    file = Deno.openSync(tmp, { write: true, read: true, create: true, truncate: true });
  } catch {
    return undefined;
  }
  const stream: Streaming = {
    path,
    tmp,
    file,
    out: bufferedWriter(file),
    stamp: options.stamp,
    failed: false,
    where: new Map(),
    pieces: pieceBuffer(),
  };
  try {
    stream.out.put(encoder.encode(MAGIC));
  } catch (error) {
    stream.failed = true;
    stream.error = error;
  }
  return {
    put: (name, payload) => putRecord(stream, name, payload),
    putText: (name, head, text) => putTextRecord(stream, name, { head, text }),
    has: (name) => stream.where.has(name),
    records: () => new Map(stream.where),
    get: (name) => readStreamed(stream, name),
    finish: () => finishPack(stream),
    abandon: () => abandonPack(stream),
  };
}

/** A pack being written (see {@linkcode streamPack}). */
interface Streaming {
  path: string;
  tmp: string;
  file: Deno.FsFile;
  out: BufferedWriter;
  /** Where the pack is stamped once in place (see {@linkcode stampedFile}). */
  stamp?: string;
  /** Set by a write that failed: nothing more is written and `finish` throws. */
  failed: boolean;
  /** The error of the write that failed (`finish` throws it: a full disk is told as one). */
  error?: unknown;
  /** The records appended so far (the last of a name). */
  where: Map<string, PackRecord>;
  /** Where `putText` encodes its pieces. */
  pieces: ReturnType<typeof pieceBuffer>;
}

/** A file written through a 1 MiB buffer. */
interface BufferedWriter {
  put(bytes: Uint8Array): void;
  flush(): void;
  /** The offset the next byte goes to (the bytes in the file and in the buffer). */
  end(): number;
}

function bufferedWriter(file: Deno.FsFile): BufferedWriter {
  const buffer = new Uint8Array(1 << 20);
  let used = 0;
  /** Bytes in the file (not counting the buffer). */
  let written = 0;
  const flush = () => {
    for (let at = 0; at < used;) at += file.writeSync(buffer.subarray(at, used));
    written += used;
    used = 0;
  };
  const put = (bytes: Uint8Array) => {
    if (used + bytes.length > buffer.length) flush();
    if (bytes.length > buffer.length) {
      for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
      written += bytes.length;
    } else {
      buffer.set(bytes, used);
      used += bytes.length;
    }
  };
  return { put, flush, end: () => written + used };
}

function putRecord(stream: Streaming, name: string, payload: Uint8Array): boolean {
  if (stream.failed) return false;
  try {
    const hash = sha256(payload);
    const crc = crc32(payload);
    stream.out.put(recordLine(name, hash, payload.length, crc));
    stream.where.set(name, {
      sha256: hash,
      crc32: crc,
      offset: stream.out.end(),
      length: payload.length,
    });
    stream.out.put(payload);
    return true;
  } catch (error) {
    stream.failed = true;
    stream.error = error;
    return false;
  }
}

function putTextRecord(
  stream: Streaming,
  name: string,
  { head, text }: { head: Uint8Array; text: string },
): string | undefined {
  if (stream.failed) return undefined;
  try {
    // One pass to hash and measure, one to write: the payload is never made whole.
    const hash = createHash("sha256").update(head);
    let crc = crc32(head);
    let length = 0;
    for (const piece of encodePieces(text, stream.pieces)) {
      hash.update(piece);
      crc = crc32(piece, crc);
      length += piece.length;
    }
    countWork("bytes hashed", length);
    const sha = hash.digest("hex");
    const size = head.length + length;
    stream.out.put(recordLine(name, sha, size, crc));
    stream.where.set(name, { sha256: sha, crc32: crc, offset: stream.out.end(), length: size });
    stream.out.put(head);
    for (const piece of encodePieces(text, stream.pieces)) stream.out.put(piece);
    return sha;
  } catch (error) {
    stream.failed = true;
    stream.error = error;
    return undefined;
  }
}

function readStreamed(stream: Streaming, name: string): Uint8Array | undefined {
  const at = stream.where.get(name);
  if (!at || stream.failed) return undefined;
  try {
    stream.out.flush();
    const out = new Uint8Array(at.length);
    const whole = readAt(stream.file, at.offset!, out);
    stream.file.seekSync(0, Deno.SeekMode.End);
    return whole ? out : undefined;
  } catch {
    return undefined;
  }
}

function abandonPack(stream: Streaming): void {
  stream.failed = true;
  try {
    stream.file.close();
  } catch {
    // Closed already (finished, or abandoned before).
  }
  try {
    Deno.removeSync(stream.tmp);
  } catch {
    // Renamed into place already, or removed.
  }
}

async function finishPack(stream: Streaming): Promise<number> {
  try {
    if (stream.failed) throw stream.error ?? new Error("pack not written");
    stream.out.flush();
    const made = backdated(stream.file);
    stream.file.close();
    await Deno.rename(stream.tmp, stream.path);
    if (stream.stamp) stampRenamed(stream.path, made, stream.stamp);
    return stream.out.end();
  } catch (error) {
    try {
      stream.file.close();
    } catch {
      // Closed already.
    }
    await Deno.remove(stream.tmp).catch(() => {});
    throw error;
  }
}

/**
 * Append records to an existing pack (a later record of a name wins when
 * the pack is read): for the few new values of keys a pack holds, without
 * rewriting it. A write cut short leaves a damaged last record, which a read
 * drops. With a `stamp`, only onto the pack as stamped (so never after such a damaged record),
 * stamped again after. Resolves to the bytes appended (0 when it could not append).
 *
 * @example
 * ```ts
 * import { appendPack, readPack, writePack } from "./_cache_pack.ts";
 * const path = await Deno.makeTempFile();
 * await writePack(path, new Map([["a", new Uint8Array([1])]]));
 * appendPack(path, new Map([["a", new Uint8Array([2])]]));
 * readPack(path).get("a")?.payload; // Uint8Array [2]
 * ```
 */
export function appendPack(
  path: string,
  records: Map<string, Uint8Array>,
  options: { stamp?: string } = {},
): number {
  const parts: Uint8Array[] = [];
  // Each record's row for the pack's index file: its payload's place from the pack's start.
  const rows = new Map<string, IndexedRecord>();
  let end = 0;
  for (const [name, payload] of records) {
    const hash = sha256(payload), crc = crc32(payload);
    const line = recordLine(name, hash, payload.length, crc);
    parts.push(line, payload);
    end += line.length;
    const head = payloadHead(payload, HEAD_LINE_MAX);
    rows.set(name, { sha256: hash, crc32: crc, offset: end, length: payload.length, head });
    end += payload.length;
  }
  const bytes = concatBytes(parts);
  const { stamp } = options;
  try {
    // Only onto a pack that is there and whole at its start.
    using file = Deno.openSync(path, { read: true, append: true });
    const head = new Uint8Array(MAGIC.length);
    if (file.readSync(head) !== MAGIC.length || decoder.decode(head) !== MAGIC) return 0;
    const before = file.statSync();
    // Where the system gives a fingerprint, only onto the pack as stamped.
    if (stamp && fingerprint(before) !== undefined && !sameStamp(before, stamp)) return 0;
    for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
    for (const row of rows.values()) row.offset! += before.size;
    if (stamp) restampFollowed(file, { size: before.size + bytes.length, stamp, before, rows });
    return bytes.length;
  } catch {
    return 0;
  }
}

/**
 * Mark a pack as used now (its modification time orders eviction, set back by
 * {@linkcode BACKDATE_MS}), stamped again when it was as stamped; errors are ignored.
 *
 * @example
 * ```ts
 * import { touchPack } from "./_cache_pack.ts";
 * touchPack("/no/such/pack"); // nothing to touch
 * ```
 */
export function touchPack(path: string, options: { stamp?: string } = {}): void {
  const { stamp } = options;
  try {
    using file = Deno.openSync(path, { read: true, write: true });
    const before = file.statSync();
    if (stamp && sameStamp(before, stamp)) {
      restampFollowed(file, { size: before.size, stamp, before, rows: new Map() });
    } else backdated(file);
  } catch {
    // Missing or read-only: eviction order only.
  }
}

/** How far back a stamped pack's modification time is set (more than `RACY_MS`'s two seconds). */
const BACKDATE_MS = 3000;

/**
 * Whether the open pack `file` has the fingerprint its stamp (the file at `stamp`) holds: the
 * device, inode, size, modification and change time its writer left it with. A pack file with
 * that fingerprint holds the bytes the writer wrote, for slop writes a pack in place only to
 * append (which changes its size), and sets a stamped pack's modification time back
 * ({@linkcode BACKDATE_MS}): any write after the stamp gives the file a later one, on a file
 * system clock as coarse as two seconds.
 *
 * @example
 * ```ts
 * import { stampedFile, writePack } from "./_cache_pack.ts";
 * const dir = await Deno.makeTempDir();
 * await writePack(`${dir}/pack`, new Map([["a", new Uint8Array([1])]]), { stamp: `${dir}/stamp` });
 * using file = Deno.openSync(`${dir}/pack`);
 * stampedFile(file, `${dir}/stamp`); // true
 * ```
 */
export function stampedFile(file: Deno.FsFile, stamp: string): boolean {
  try {
    return sameStamp(file.statSync(), stamp);
  } catch {
    return false;
  }
}

/**
 * The records of the open pack `file` from its index file (`_cache_pack_index.ts`), when the file
 * is as its stamp says and the index file is of it; else `undefined` (read them with
 * {@linkcode readPackIndex}, then {@linkcode saveStampedIndex}).
 *
 * @example
 * ```ts
 * import { readStampedIndex, writePack } from "./_cache_pack.ts";
 * const dir = await Deno.makeTempDir();
 * await writePack(`${dir}/pack`, new Map([["a", new Uint8Array([1])]]), { stamp: `${dir}/stamp` });
 * using file = Deno.openSync(`${dir}/pack`);
 * readStampedIndex(file, `${dir}/stamp`); // undefined: no index file yet
 * ```
 */
export function readStampedIndex(
  file: Deno.FsFile,
  stamp: string,
): Map<string, PackRecord> | undefined {
  try {
    const print = fingerprint(file.statSync());
    if (print === undefined || readSettingTextSync(stamp, 4096) !== print) return undefined;
    return readIndexFile(stamp, print);
  } catch {
    return undefined;
  }
}

/**
 * Save the records of the open pack `file` (as {@linkcode readPackIndex} read them) in its index
 * file, when the file is as its stamp says: the next reader takes them from there
 * ({@linkcode readStampedIndex}).
 *
 * @example
 * ```ts
 * import { readPackIndex, readStampedIndex, saveStampedIndex, writePack } from "./_cache_pack.ts";
 * const dir = await Deno.makeTempDir();
 * await writePack(`${dir}/pack`, new Map([["a", new Uint8Array([1])]]), { stamp: `${dir}/stamp` });
 * using file = Deno.openSync(`${dir}/pack`);
 * saveStampedIndex(file, `${dir}/stamp`, readPackIndex(file));
 * readStampedIndex(file, `${dir}/stamp`)?.size; // 1
 * ```
 */
export function saveStampedIndex(
  file: Deno.FsFile,
  stamp: string,
  records: Map<string, PackRecord>,
): void {
  try {
    const print = fingerprint(file.statSync());
    if (print !== undefined && readSettingTextSync(stamp, 4096) === print) {
      // An index file's temp file of a killed build (the size of 200 bytes a record) goes too.
      removeKilledTemps(join(stamp, ".."));
      writeIndexFile(stamp, print, records);
    }
  } catch {
    // No stamp: nothing to save the index for.
  }
}

function sameStamp(info: Deno.FileInfo, stamp: string): boolean {
  const print = fingerprint(info);
  if (print === undefined) return false;
  try {
    return readSettingTextSync(stamp, 4096) === print;
  } catch {
    return false;
  }
}

/** A file's fingerprint as a stamp holds it (`undefined` where the system gives no inode or times). */
function fingerprint(info: Deno.FileInfo): string | undefined {
  const { dev, ino, size, mtime, ctime } = info;
  if (ino === null || mtime === null || ctime === null) return undefined;
  return `${dev} ${ino} ${size} ${mtime.getTime()} ${ctime.getTime()}\n`;
}

/**
 * Set the open file's modification time back {@linkcode BACKDATE_MS}; its info after
 * (`undefined` when the time could not be set: then it is not stamped).
 */
function backdated(file: Deno.FsFile): Deno.FileInfo | undefined {
  const now = Date.now();
  try {
    file.utimeSync(new Date(now), new Date(now - BACKDATE_MS));
    return file.statSync();
  } catch {
    return undefined;
  }
}

/** Stamp the open pack `file` once backdated, when it is `size` bytes (no one else wrote it). */
function restamp(file: Deno.FsFile, size: number, stamp: string): Deno.FileInfo | undefined {
  const after = backdated(file);
  if (after?.size === size) writeStamp(after, stamp);
  else removeStamp(stamp);
  return after?.size === size ? after : undefined;
}

/**
 * {@linkcode restamp} of a pack that was as stamped (`before`) and has `rows` appended since: its
 * index file, when it was of the pack as it was, follows (the rows and the new fingerprint).
 */
function restampFollowed(
  file: Deno.FsFile,
  { size, stamp, before, rows }: {
    size: number;
    stamp: string;
    before: Deno.FileInfo;
    rows: Map<string, IndexedRecord>;
  },
): void {
  const after = restamp(file, size, stamp);
  const was = fingerprint(before);
  if (was === undefined) return;
  const now = after && fingerprint(after);
  // Only when the stamp now holds the new fingerprint (its write may have failed).
  const stamped = now !== undefined && sameStamp(after!, stamp);
  followIndexFile(stamp, { before: was, after: stamped ? now : undefined, appended: rows });
}

/** Stamp a pack renamed into place at `path`, when it is still the file `made` (inode, size). */
function stampRenamed(path: string, made: Deno.FileInfo | undefined, stamp: string): void {
  try {
    const now = Deno.statSync(path);
    // A new pack: the last one's index file is not of it.
    dropIndexFile(stamp);
    if (made && now.ino === made.ino && now.dev === made.dev && now.size === made.size) {
      writeStamp(now, stamp);
    } else removeStamp(stamp);
  } catch {
    removeStamp(stamp);
  }
}

function writeStamp(info: Deno.FileInfo, stamp: string): void {
  const print = fingerprint(info);
  if (print === undefined) return removeStamp(stamp);
  // Again once what stood in the way is cleared (a folder at the stamp's path, a file at its
  // folder's), else every later build would find the pack unstamped and write it anew.
  for (let attempt = 0; attempt < 2; attempt++) {
    const tmp = `${stamp}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      Deno.mkdirSync(join(stamp, ".."), { recursive: true });
      Deno.writeTextFileSync(tmp, print);
      Deno.renameSync(tmp, stamp);
      return;
    } catch {
      try {
        Deno.removeSync(tmp);
      } catch {
        // Not made.
      }
      clearWay(stamp);
    }
  }
}

/** Remove whatever is at the stamp's path, and a file where its folder goes. */
function clearWay(stamp: string): void {
  removeStamp(stamp);
  try {
    const folder = join(stamp, "..");
    if (!Deno.statSync(folder).isDirectory) Deno.removeSync(folder);
  } catch {
    // No folder yet, or none to remove.
  }
}

/**
 * Remove a pack's stamp: the pack is checked record by record by the next reader, and written
 * anew (stamped) by the next build's flush. For a record found changed behind the stamp.
 *
 * @example
 * ```ts
 * import { unstamp } from "./_cache_pack.ts";
 * unstamp("/no/such/stamp"); // nothing to remove
 * ```
 */
export function unstamp(stamp: string): void {
  removeStamp(stamp);
}

function removeStamp(stamp: string): void {
  dropIndexFile(stamp);
  try {
    Deno.removeSync(stamp, { recursive: true });
  } catch {
    // None.
  }
}

/** How long a temp file of a process that is gone stays: it may be another machine's. */
const QUIET_MS = 60_000;

/** After this long a temp file is a killed write's, whoever wrote it. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Remove the temp files of pack writes that were killed (Ctrl-C, `kill -9`, an out-of-memory
 * kill: no exit handler runs, and a pack is the size of the project's rendered text): named with
 * the id of a process that no longer runs and unchanged for a minute (a process this one cannot
 * see, on another machine sharing the folder, writes its pack steadily), or over an hour old.
 * Where the process table cannot be read (no `/proc`), only the hour counts. A folder holds a
 * few packs, so looking at each pack write is cheap (a build writes one), and a long `slop watch`
 * or build server sees the temp files of builds killed while it runs.
 */
function removeKilledTemps(folder: string): void {
  const now = Date.now();
  const table = isFolder("/proc/self");
  try {
    for (const entry of Deno.readDirSync(folder)) {
      const pid = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(entry.name)?.[1];
      if (!pid || !entry.isFile || pid === String(Deno.pid)) continue;
      const path = join(folder, entry.name);
      try {
        const age = now - (Deno.lstatSync(path).mtime?.getTime() ?? now);
        const gone = table && !isFolder(`/proc/${pid}`);
        if (age > STALE_MS || (gone && age > QUIET_MS)) Deno.removeSync(path);
      } catch {
        // Renamed into place or removed meanwhile, or another user's.
      }
    }
  } catch {
    // The folder cannot be listed: nothing to remove.
  }
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
