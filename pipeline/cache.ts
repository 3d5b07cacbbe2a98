/**
 * The content-addressed cache: one file per entry under the cache dir
 * (default `.slop/cache/` in the state dir), named by its key. Any stage can
 * use it through {@linkcode openCache}; the transform stage keys rendered
 * views by plugin name, version, canonical options, path, content hash and
 * the plugin's own `cacheKey` material, and the emit stage keys token counts
 * by text hash and tokenizer.
 *
 * An entry is one header line (`slop-cache/1 <key> <sha256 of payload>`)
 * followed by the JSON payload. A read that finds a wrong header, a wrong
 * hash, a truncated payload or garbage treats the entry as missing (the next
 * `set` rewrites it). Writes go to a temp file in the same folder and are
 * renamed into place, so a reader never sees half an entry, a killed write
 * leaves only a temp file (never a poisoned entry), and several processes can
 * share one cache dir (the last identical write wins).
 *
 * @module
 */

import { join } from "./_path.ts";
import { sha256 } from "./read.ts";
import { headAndText } from "./text_hash.ts";
import {
  appendPack,
  type PackRecord,
  type PackStream,
  readPackIndex,
  readRecord,
  type ReadRecordOptions,
  readStampedIndex,
  saveStampedIndex,
  stampedFile,
  streamPack,
  touchPack,
  unstamp,
  writePack,
} from "./_cache_pack.ts";
import { noteGrowth, pruneCache } from "./_cache_prune.ts";
import { removeQuietly } from "./helpers.ts";
import { countWork } from "./_work_count.ts";
import { cacheWriteReason } from "./_cache_check.ts";

export { parseSize, pruneCache, type PruneResult } from "./_cache_prune.ts";

/** `cache.maxSize` when the config sets none: 1 GiB. */
export const DEFAULT_CACHE_MAX_SIZE = 1024 ** 3;

export { cacheKey, canonicalJson } from "./helpers.ts";
export {
  type CacheStats,
  cacheStats,
  clearCache,
  type LastBuildStats,
  recordBuild,
} from "./_cache_folder.ts";

/** Header tag of an entry file; bump it when the entry format changes. */
const MAGIC = "slop-cache/1";
/** Where the last build's hit counts are kept (beside the entry folders). */
const encoder = new TextEncoder();
// A leading U+FEFF is text kept as it was written (a second byte order mark), not a mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Payloads of entry files a cache object keeps in memory for its pack, in all; the rest are read back. */
const HOLD_BYTES = 8 * 1024 * 1024;

/** Options of {@linkcode openCache}. */
export interface CacheOptions {
  /** `false`: a cache that never hits and never writes (`--no-cache`). @default {true} */
  enabled?: boolean;
  /**
   * Name of a pack (e.g. the project): reads try the pack first, and `flush()` writes the
   * entries this cache object used into it, so the next open reads one file, not one per entry.
   */
  pack?: string;
  /**
   * Let go of the pack's bytes after each `flush()`, keeping only where each record is in the
   * pack file: a later read of a record reads it back from there (and checks it). For an object
   * used build after build by a long-running process (`slop watch`, the build server), which
   * then holds the pack's index instead of a copy of the project. @default {false}
   */
  lean?: boolean;
  /**
   * Bytes the cache folder may hold: after `flush()` writes, the least recently used entries
   * and packs are removed until it fits (see {@linkcode pruneCache}). @default {undefined} no limit
   */
  maxSize?: number;
  /**
   * Name of another pack read from while `pack` has no file yet: its entries serve the reads
   * this pack cannot, and go into this pack at `flush()` as if read from entry files. A project's
   * build after `slop init` wrote its config (a pack of its own) reads the pack its builds
   * without a config wrote, instead of rendering every file again. @default {undefined} none
   */
  seed?: string;
}

/** Hits and misses counted by one opened cache. */
export interface CacheCounts {
  /** `get` calls that found a valid entry. */
  hits: number;
  /** `get` calls that found nothing (or a corrupt entry). */
  misses: number;
  /** Entries found corrupt (and ignored). */
  corrupt: number;
  /** Entries written. */
  writes: number;
}

/** An opened cache. Values are any JSON-serializable data. */
export interface Cache {
  /** Absolute cache folder. */
  readonly dir: string;
  /** Whether the cache reads and writes at all. */
  readonly enabled: boolean;
  /** The value stored under `key`, or `undefined` when missing or corrupt. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Store `value` under `key` (atomically; failures to write are ignored). */
  set(key: string, value: unknown): Promise<void>;
  /** Raw bytes stored with {@linkcode Cache.setBytes}, or `undefined` when missing or corrupt. */
  getBytes(key: string): Promise<Uint8Array | undefined>;
  /**
   * What `decode` makes of the raw bytes stored under `key` (`undefined` when missing or
   * corrupt). The bytes are handed to `decode` at once and may be a view of a buffer the next
   * read reuses: a pack's record is read into it, not into a buffer of its own (a warm build
   * reads the whole project this way, and a buffer a record left the allocator holding).
   */
  getDecoded?<T>(
    key: string,
    decode: (bytes: Uint8Array, place?: PackPlace) => T,
    options?: DecodedReadOptions,
  ): Promise<T | undefined>;
  /**
   * `getDecoded` answered at once, for a cache that reads synchronously: a warm build asks it for
   * each of a big tree's files, and a promise for each was most of a cache hit's cost.
   */
  readDecoded?<T>(
    key: string,
    decode: (bytes: Uint8Array, place?: PackPlace) => T,
    options?: DecodedReadOptions,
  ): T | undefined;
  /**
   * What `decode` makes of the record the pack holds for `key` now (read and checked, with where
   * it is, as `getDecoded` hands them), neither counted as a hit nor kept for the next pack:
   * for a value this process made and holds elsewhere until the cache's writes are done (a cold
   * build's renders, once `flush` wrote the pack). `undefined` when the pack does not hold it.
   */
  packed?<T>(key: string, decode: (bytes: Uint8Array, place: PackPlace) => T): T | undefined;
  /** Store raw bytes under `key` (same format and guarantees as `set`, without JSON). */
  setBytes(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Store `head` then the UTF-8 of `text` under `key`, as {@linkcode Cache.setBytes} of those
   * bytes would, without making them whole where it can (a cold build's pack takes the text in
   * pieces); resolves to the payload's sha256 (`undefined` when nothing was written).
   */
  setText?(key: string, head: Uint8Array, text: string): Promise<string | undefined>;
  /**
   * Start reading the pack (if any) on the runtime's thread pool, once; resolves when it is in
   * memory (or found missing). A build starts it as it opens the cache and awaits it just before
   * its first read, so the pack (the size of the project) is read while the build resolves and
   * looks at files, not by this thread at the first `get`.
   */
  prefetch?(): Promise<void>;
  /** Whether an entry file or pack record exists for `key` (not read nor checked). */
  has(key: string): boolean;
  /**
   * Count `key`'s pack record as used, as a `get` would (a hit, and kept in the next pack),
   * without reading it: for a value the caller knows already (a warm build's token counts are
   * in the last document's record). `false`, with nothing done, when the pack has no record of
   * it (then `get` it).
   */
  keep?(key: string): boolean;
  /** What this cache object has done so far. */
  counts(): CacheCounts;
  /**
   * Store what this object wrote: into the pack (opened with `pack`; rewritten when over a tenth
   * of the used entries were not in it) or entry files; then, with `maxSize`, evict the least
   * recently used entries and packs when the folder has grown past it. Resolves to why what it
   * wrote could not all be stored (the first failed write, `no space left on device`), else
   * undefined: a cache that cannot be written only costs the next build time.
   */
  flush(): Promise<string | undefined>;
  /**
   * Let go of what this object holds open and has not stored: the new pack being written (its
   * temp file closed and removed) and the pack file it reads from (unless lent). For a build
   * that ends without `flush` (it failed); the object is not used after.
   */
  discard?(): void;
}

/** Options of {@linkcode Cache.getDecoded}. */
export interface DecodedReadOptions {
  /**
   * Read only the record's first `head` bytes when its pack is trusted by its stamp (its records
   * are not checked against their sha256, so the rest need not be read to be hashed): `decode`
   * gets them, and the rest through {@linkcode PackPlace.partial} when it needs it. A record
   * that is not in such a pack is read whole, as without it. @default {undefined} read whole
   */
  head?: number;
}

/**
 * Where the bytes `Cache.getDecoded` hands over are in the pack they were read (and checked) from:
 * the pack file, open, and their offset in it. The file stays the one read while it is open, even
 * once another build renames a new pack into its place; a caller that reads it later `borrow`s it
 * (the cache then no longer closes it: the caller does, once).
 */
export interface PackPlace {
  offset: number;
  /**
   * The record's sha256, as checked (or as its stamped pack holds it): a name of its bytes (a part of them handed on is named by it
   * and where the part starts, as the view cache names a render's text).
   */
  sha256: string;
  /** The pack file, from now on the caller's to close (`undefined` once the cache let go of it). */
  borrow(): Deno.FsFile | undefined;
  /**
   * Set when the bytes handed over are only the record's head ({@linkcode DecodedReadOptions.head}):
   * the record's whole length, and a read of all of it (into the buffer the head was read into;
   * `undefined` when it can no longer be read).
   */
  partial?: {
    length: number;
    whole(): Uint8Array | undefined;
    /** The record's crc32 (`undefined`: its line has none, and the record is read whole). */
    crc32?: number;
    /**
     * Tell the cache that bytes read later from the record were not those its crc32 was made of:
     * the pack is no longer trusted by its stamp, here or in the next build (which checks it).
     */
    damaged(): void;
  };
  /**
   * Set for bytes that were not read when the record was (`partial`: a text past its entry's
   * head): they are the record's when `crc32(bytes, check.seed) === check.crc32`, the crc32 of
   * the record's bytes before them being `seed`; a reader of them checks it, and calls
   * `check.damaged()` when they are not.
   */
  check?: { seed: number; crc32: number; damaged(): void };
}

/**
 * Open a cache folder (created on the first write). Keys are any strings;
 * use {@linkcode cacheKey} to make one from parts.
 *
 * @param dir The cache folder, e.g. `config.cache.dir`.
 * @param options `enabled: false` gives a cache that never hits nor writes.
 * @returns The cache.
 *
 * @example Store and read back a value
 * ```ts
 * import { cacheKey, openCache } from "./cache.ts";
 * const cache = openCache(await Deno.makeTempDir());
 * const key = cacheKey(["my-stage", "1", { model: "m" }, "<content sha256>"]);
 * await cache.set(key, { summary: "A parser." });
 * await cache.get(key); // { summary: "A parser." }
 * ```
 */
export function openCache(dir: string, options: CacheOptions = {}): Cache {
  const state: CacheState = {
    dir,
    enabled: options.enabled ?? true,
    options,
    counts: { hits: 0, misses: 0, corrupt: 0, writes: 0 },
    madeDirs: new Set(),
    packPath: options.pack ? join(dir, "packs", sha256(options.pack)) : undefined,
    seedPath: options.pack && options.seed ? join(dir, "packs", sha256(options.seed)) : undefined,
    stampPath: options.pack ? join(dir, "pack-stamps", sha256(options.pack)) : undefined,
    used: new Map(),
    held: 0,
    scratch: new Uint8Array(1 << 16),
    readBuffer: new Uint8Array(0),
    outside: new Set(),
    listedAt: 0,
    streamTried: false,
    restated: new Set(),
    pending: new Map(),
    pendingBytes: 0,
    readFiles: new Set(),
    grown: 0,
  };
  const { enabled, counts } = state;
  return {
    dir,
    enabled,
    get<T>(key: string): Promise<T | undefined> {
      return Promise.resolve(readValue<T>(state, key));
    },
    set(key: string, value: unknown): Promise<void> {
      writeValue(state, key, encoder.encode(JSON.stringify(value === undefined ? null : value)));
      return Promise.resolve();
    },
    getBytes: (key: string) => Promise.resolve(countedRead(state, key, false)),
    getDecoded: (key, decode, options) =>
      Promise.resolve(decodedRead(state, key, decode, options?.head)),
    readDecoded: (key, decode, options) => decodedRead(state, key, decode, options?.head),
    packed: (key, decode) => packedRead(state, key, decode),
    setBytes(key: string, bytes: Uint8Array): Promise<void> {
      writeValue(state, key, bytes);
      return Promise.resolve();
    },
    setText(key: string, head: Uint8Array, text: string): Promise<string | undefined> {
      if (!enabled) return Promise.resolve(undefined);
      const sha = writeText(state, key, { head, text });
      return Promise.resolve(sha);
    },
    has: (key: string): boolean => hasEntry(state, key),
    keep: (key: string): boolean => keepRecord(state, key),
    prefetch(): Promise<void> {
      if (!enabled || !state.packPath || state.pack) return Promise.resolve();
      // The pack's index only (its record lines): the payloads are read as they are used.
      return state.prefetching ??= Promise.resolve().then(() => void packIndex(state));
    },
    counts: () => ({ ...counts }),
    flush: () => flushCache(state),
    discard: () => discardCache(state),
  };
}

/** {@linkcode Cache.discard}: the stream's temp file removed, the pack file closed. */
function discardCache(state: CacheState): void {
  state.stream?.abandon();
  state.stream = undefined;
  state.pending.clear();
  state.pendingBytes = 0;
  closePack(state);
}

/** What an opened cache holds between calls (see {@linkcode openCache}). */
interface CacheState {
  dir: string;
  enabled: boolean;
  options: CacheOptions;
  counts: CacheCounts;
  /** Entry folders this object made. */
  madeDirs: Set<string>;
  /** Why a write failed since the last flush (the first), which `flush` resolves to. */
  unsaved?: string;
  packPath?: string;
  /** The pack of `options.seed`, read while `packPath` has no file (see `seedIndex`). */
  seedPath?: string;
  /** The seed pack's records, once read (none when this pack had a file of its own). */
  seed?: Map<string, PackRecord>;
  /** Whether an entry was read from the seed pack since the last flush (which then writes a pack). */
  seeded?: boolean;
  /** The pack's records, once read. */
  pack?: Map<string, PackRecord>;
  /** The pack file `pack` was read from, open until the next flush (see `packIndex`). */
  packFile?: Deno.FsFile;
  /** Where the pack's stamp is (see `stampedFile` in `_cache_pack.ts`). */
  stampPath?: string;
  /**
   * `packFile` when it had its stamp's fingerprint before and after its index was read: its
   * records are as their writer wrote them, read without checking each against its sha256.
   */
  trusted?: Deno.FsFile;
  /** Whether `pack` was read from the trusted pack itself, so its index file is still to write. */
  indexUnsaved?: boolean;
  /** `PackPlace.partial.damaged`, made once: {@linkcode untrust}. */
  damaged?: () => void;
  /** Whether `packFile` was borrowed (`PackPlace.borrow`): its borrower closes it, not the cache. */
  lent?: boolean;
  /** Where the payload read last is in `packFile`, when it was read from there. */
  place?: PackPlace;
  /** Where records read to be decoded at once go (`getDecoded`, `get`), reused. */
  readBuffer: Uint8Array;
  prefetching?: Promise<void>;
  /**
   * Entries used through this object, for the next pack: a pack's payload, or (for entry files
   * read or written) the payload while they total under {@linkcode HOLD_BYTES}, then a function
   * reading the file back when the pack is written, so a large project's payloads are not all
   * held in memory.
   */
  used: Map<string, UsedEntry>;
  /** Bytes of the payloads `used` holds. */
  held: number;
  /** Where entry files are read back: the pack writer copies each payload before the next read. */
  scratch: Uint8Array;
  /** Entries this object used that the pack did not serve (read from files or written). */
  outside: Set<string>;
  /**
   * The entry folders that exist: a folder that does not exist (and was not made since) holds
   * nothing, so a cold build's misses cost no system call. Listed again at most every 200 ms, for
   * folders other processes make.
   */
  folders?: Set<string>;
  listedAt: number;
  /**
   * With a pack, writes skip the entry files: a build with no pack yet (cold) streams them into
   * the new pack as they come; a build with one holds them (up to {@linkcode HOLD_BYTES}) until
   * `flush`, which rewrites the pack or, for a few (one edited file), writes entry files.
   */
  stream?: PackStream;
  streamTried: boolean;
  /** New values of keys the pack holds. */
  restated: Set<string>;
  pending: Map<string, Uint8Array>;
  pendingBytes: number;
  /** Entry files read this build (touched at flush, for least-recently-used eviction). */
  readFiles: Set<string>;
  /** Bytes this object added to the folder (for the size limit). */
  grown: number;
}

/**
 * An entry used this build, for the next pack: its payload; a function reading it back (an entry
 * file); or, for a record of the pack read (`packFile`), the record itself: data, not a function
 * made for each record (two a file: 100 bytes and more each with its scope).
 */
type UsedEntry = Uint8Array | (() => Uint8Array | undefined) | PackRecord;

function isPackRecord(entry: UsedEntry): entry is PackRecord {
  return !(entry instanceof Uint8Array) && typeof entry !== "function";
}

/** The payload of a {@linkcode UsedEntry}: a pack record's is read from the pack it was indexed in. */
function usedPayload(state: CacheState, entry: UsedEntry): Uint8Array | undefined {
  if (entry instanceof Uint8Array) return entry;
  if (typeof entry === "function") return entry();
  const file = state.packFile;
  return readRecord(file ?? state.packPath!, entry, { trusted: file && file === state.trusted });
}

/** `Cache.getDecoded`: the payload handed to `decode` with where the pack has it, if it does. */
function decodedRead<T>(
  state: CacheState,
  key: string,
  decode: (bytes: Uint8Array, place?: PackPlace) => T,
  head?: number,
): T | undefined {
  state.place = undefined;
  const payload = countedRead(state, key, true, head);
  return payload && decode(payload, state.place);
}

/** `Cache.packed`: the pack's record of `key`, read and checked, handed on with its place. */
function packedRead<T>(
  state: CacheState,
  key: string,
  decode: (bytes: Uint8Array, place: PackPlace) => T,
): T | undefined {
  if (!state.enabled || !state.packPath) return undefined;
  const record = packIndex(state).get(fileName(key));
  if (!record || record.payload || record.offset === undefined) return undefined;
  // The index a flush kept (its records as written) is of the file now at the pack's path: it
  // is opened to be read, and lent (a record that is not as indexed fails its check).
  try {
    state.packFile ??= Deno.openSync(state.packPath);
  } catch {
    return undefined;
  }
  const file = state.packFile;
  if (state.readBuffer.length < record.length) {
    state.readBuffer = new Uint8Array(Math.max(record.length, 2 * state.readBuffer.length));
  }
  const payload = readRecord(file, record, {
    into: state.readBuffer,
    trusted: file === state.trusted,
  });
  if (!payload) return undefined;
  const { offset, sha256 } = record;
  return decode(payload, { offset, sha256, borrow: () => borrowPack(state, file) });
}

/** An entry's payload (`reuse`: see `Cache.getDecoded`), counted as a hit when there is one. */
function countedRead(
  state: CacheState,
  key: string,
  reuse: boolean,
  head?: number,
): Uint8Array | undefined {
  const payload = readEntry(state, key, { reuse, head });
  if (payload !== undefined) state.counts.hits++;
  return payload;
}

/** The JSON value of an entry; counts hits, misses and corrupt entries. */
function readValue<T>(state: CacheState, key: string): T | undefined {
  const payload = readEntry(state, key, { reuse: true });
  if (payload === undefined) return undefined;
  try {
    const value = JSON.parse(decoder.decode(payload)) as T;
    state.counts.hits++;
    return value;
  } catch {
    state.counts.corrupt++;
    state.counts.misses++;
    return undefined;
  }
}

/** Hold an entry's payload for the next pack, or (over {@linkcode HOLD_BYTES}) a read-back. */
function keep(state: CacheState, name: string, payload: Uint8Array): void {
  if (state.held + payload.length > HOLD_BYTES) {
    state.used.set(name, readBack(state, name));
    return;
  }
  state.held += payload.length;
  state.used.set(name, payload);
}

/** A function reading an entry file back (into the one scratch buffer) and checking it. */
function readBack(state: CacheState, name: string): () => Uint8Array | undefined {
  return () => {
    try {
      using file = Deno.openSync(entryPath(state.dir, name));
      const size = file.statSync().size;
      if (state.scratch.length < size) {
        state.scratch = new Uint8Array(Math.max(size, state.scratch.length * 2));
      }
      let at = 0;
      while (at < size) {
        const n = file.readSync(state.scratch.subarray(at, size));
        if (n === null) break;
        at += n;
      }
      return verifyEntry(state.scratch.subarray(0, at), name);
    } catch {
      return undefined;
    }
  };
}

/** The verified payload of an entry; counts misses and corrupt entries. */
function readEntry(
  state: CacheState,
  key: string,
  options: { reuse?: boolean; head?: number } = {},
): Uint8Array | undefined {
  const { counts } = state;
  if (!state.enabled) {
    counts.misses++;
    return undefined;
  }
  const name = fileName(key);
  const fresh = unflushed(state, name);
  if (fresh) return fresh;
  if (state.packPath) {
    const payload = readFromPack(state, state.packPath, name, options);
    if (payload) return payload;
    state.outside.add(name);
    const seeded = readFromSeed(state, name);
    if (seeded) return seeded;
  }
  const prefix = name.slice(0, 2);
  if (!state.folders || (!state.folders.has(prefix) && performance.now() - state.listedAt > 200)) {
    state.folders = existingFolders(state.dir);
    state.listedAt = performance.now();
  }
  if (!state.folders.has(prefix) && !state.madeDirs.has(join(state.dir, prefix))) {
    counts.misses++;
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    // Entries are small and many: a synchronous read costs far less than an async op.
    bytes = Deno.readFileSync(entryPath(state.dir, name));
  } catch {
    counts.misses++;
    return undefined;
  }
  const payload = verifyEntry(bytes, name);
  if (payload === undefined) {
    counts.corrupt++;
    counts.misses++;
  } else {
    state.readFiles.add(name);
    if (state.packPath) keep(state, name, payload);
  }
  return payload;
}

/**
 * A record's head as the pack's index read it (its payload's first line, `PackRecord.head`) when
 * that is all of the `head` bytes asked for that a reader needs: no read of its own. Counted
 * when the index did not keep it (the head is read from the pack).
 */
function keptHead(record: PackRecord, head: number): Uint8Array | undefined {
  if (record.head && record.head.length <= head) return record.head;
  countWork("pack heads read", 1);
  return undefined;
}

/** An entry's payload from the pack, when it holds the entry whole. */
function readFromPack(
  state: CacheState,
  packPath: string,
  name: string,
  { reuse, head }: { reuse?: boolean; head?: number },
): Uint8Array | undefined {
  const whole = (record: PackRecord, file: Deno.FsFile | undefined, unchecked?: boolean) => {
    // Read into the reused buffer (grown to the largest record read so far) when asked.
    if (reuse && !record.payload && state.readBuffer.length < record.length) {
      state.readBuffer = new Uint8Array(Math.max(record.length, 2 * state.readBuffer.length));
    }
    return packPayload(file ?? packPath, record, {
      into: reuse ? state.readBuffer : undefined,
      trusted: file !== undefined && file === state.trusted,
      unchecked,
    });
  };
  const read = (record: PackRecord) => {
    const file = state.packFile;
    // A trusted pack's record is checked by its crc32, which its reader of the rest checks: its
    // head alone is read when that is all asked for.
    const partial = reuse && head !== undefined && head < record.length && !record.payload &&
      record.crc32 !== undefined && file !== undefined && file === state.trusted;
    const payload = partial
      ? keptHead(record, head) ??
        whole({ sha256: record.sha256, offset: record.offset, length: head }, file, true)
      : whole(record, file);
    if (payload && file && !record.payload && record.offset !== undefined) {
      state.place = {
        offset: record.offset,
        sha256: record.sha256,
        borrow: () => borrowPack(state, file),
      };
      if (partial) {
        state.place.partial = {
          length: record.length,
          crc32: record.crc32,
          whole: () => whole(record, file),
          damaged: state.damaged ??= () => untrust(state),
        };
      }
    }
    return payload;
  };
  let record = packIndex(state).get(name);
  let payload = record && read(record);
  if (record && !payload && !record.payload) {
    // A record not where it was: another build rewrote the pack since it was indexed.
    closePack(state);
    record = packIndex(state).get(name);
    payload = record && read(record);
  }
  if (!payload) return undefined;
  // Kept for the next pack as where it is, not as its bytes (read from the pack, which a build
  // does not hold whole): the pack writer reads it back when its turn comes.
  const kept = record!;
  state.used.set(name, kept.payload ? payload : kept);
  return payload;
}

/**
 * An entry's payload from the seed pack, kept for this pack's next write (read back from the seed
 * pack when it is written, as an entry file's is).
 */
function readFromSeed(state: CacheState, name: string): Uint8Array | undefined {
  const record = seedIndex(state)?.get(name);
  const path = state.seedPath;
  if (!record || !path) return undefined;
  const payload = packPayload(path, record);
  if (!payload) return undefined;
  state.used.set(name, record.payload ?? (() => readRecord(path, record)));
  state.seeded = true;
  return payload;
}

/**
 * The seed pack's index: read once, when this cache's own pack has no file (the first build with
 * a new pack name); empty when it has one, or there is no seed.
 */
function seedIndex(state: CacheState): Map<string, PackRecord> | undefined {
  if (!state.seedPath) return undefined;
  return state.seed ??= fileSize(state.packPath!) > 0 ? new Map() : readPackIndex(state.seedPath);
}

/**
 * The pack's index (its record lines, see `readPackIndex`), read once from the pack file, which
 * stays open until the cache is flushed: every payload is read from the file indexed, even once
 * another build has renamed a new pack into its place.
 */
function packIndex(state: CacheState): Map<string, PackRecord> {
  if (state.pack) return state.pack;
  try {
    state.packFile = Deno.openSync(state.packPath!);
  } catch {
    // No pack yet (a cold build), or none readable: an empty index.
  }
  const file = state.packFile;
  const stamped = file && stampedFile(file, state.stampPath!);
  // A stamped pack's records from its index file, one read, not a read for each record.
  const indexed = stamped ? readStampedIndex(file, state.stampPath!) : undefined;
  state.pack = indexed ?? readPackIndex(file ?? state.packPath!);
  // Unchanged while its index was read, too: the index is of the bytes as stamped.
  if (stamped && stampedFile(file, state.stampPath!)) {
    state.trusted = file;
    // Saved when the build writes its cache (`writeFew`), not here: a build that fails before
    // then leaves the state folder as it was.
    state.indexUnsaved = !indexed;
  }
  return state.pack;
}

/**
 * A record of the trusted pack was found changed since its stamp (a text read after its head):
 * its records are checked by their sha256 from now on, and its stamp is removed, so the next
 * build checks them too and writes the pack anew.
 */
function untrust(state: CacheState): void {
  state.trusted = undefined;
  unstamp(state.stampPath!);
}

/** Close the pack file the index was read from; the next use reads the index again. */
function closePack(state: CacheState): void {
  dropPackFile(state);
  state.pack = undefined;
}

/** Let go of the pack file: closed, unless a caller borrowed it (then the caller closes it). */
function dropPackFile(state: CacheState): void {
  if (!state.lent) state.packFile?.close();
  state.packFile = undefined;
  state.trusted = undefined;
  state.lent = false;
}

/** {@linkcode PackPlace.borrow}: the file, no longer closed by the cache (when still its own). */
function borrowPack(state: CacheState, file: Deno.FsFile): Deno.FsFile | undefined {
  if (state.packFile !== file) return undefined;
  state.lent = true;
  return file;
}

/**
 * Before writing entry `name`: note whether the pack holds it, and start streaming a new pack
 * when there is none (a cold build). The stream, while one is open.
 */
function openStream(state: CacheState, name: string): PackStream | undefined {
  const pack = packIndex(state);
  // A new value for a key the pack holds (a list that changed): it must go into the pack,
  // or the pack would serve the old value.
  if (pack.has(name)) state.restated.add(name);
  if (pack.size === 0 && !state.streamTried) {
    state.streamTried = true;
    state.stream = streamPack(state.packPath!, { stamp: state.stampPath });
  }
  return state.stream;
}

function writeValue(state: CacheState, key: string, payload: Uint8Array): void {
  if (!state.enabled) return;
  const name = fileName(key);
  if (state.packPath) {
    const streaming = openStream(state, name);
    if (streaming?.put(name, payload)) {
      state.counts.writes++;
      state.used.delete(name);
      return;
    }
    if (!streaming && state.pendingBytes + payload.length <= HOLD_BYTES) {
      state.pendingBytes += payload.length;
      state.pending.set(name, payload);
      state.used.set(name, payload);
      state.outside.add(name);
      state.counts.writes++;
      return;
    }
  }
  writeFile(state, name, payload);
}

/** {@linkcode writeValue} of `head` and the UTF-8 of `text`: streamed into a new pack, else joined. */
function writeText(
  state: CacheState,
  key: string,
  { head, text }: { head: Uint8Array; text: string },
): string | undefined {
  const name = fileName(key);
  if (state.packPath) {
    const sha = openStream(state, name)?.putText(name, head, text);
    if (sha !== undefined) {
      state.counts.writes++;
      state.used.delete(name);
      return sha;
    }
  }
  const payload = headAndText(head, text);
  writeValue(state, key, payload);
  return sha256(payload);
}

function writeFile(state: CacheState, name: string, payload: Uint8Array): void {
  const folder = join(state.dir, name.slice(0, 2));
  try {
    if (!state.madeDirs.has(folder)) {
      Deno.mkdirSync(folder, { recursive: true });
      state.madeDirs.add(folder);
    }
    // Small synchronous writes cost far less than async ops; the rename keeps them atomic.
    const header = entryHeader(name, payload);
    writeEntrySync(join(folder, name), header, payload);
    state.grown += header.length + payload.length;
    state.counts.writes++;
    if (state.packPath) {
      keep(state, name, payload);
      state.outside.add(name);
    }
  } catch (error) {
    // A cache that cannot be written only costs speed; `flush` tells why.
    state.unsaved ??= cacheWriteReason(error);
  }
}

/** A payload this object wrote and has not flushed yet. */
function unflushed(state: CacheState, name: string): Uint8Array | undefined {
  return state.pending.get(name) ?? state.stream?.get(name);
}

/** See {@linkcode Cache.keep}: a pack record marked used as `readFromPack` marks it. */
function keepRecord(state: CacheState, key: string): boolean {
  if (!state.enabled || !state.packPath) return false;
  const name = fileName(key);
  if (state.pending.has(name) || state.used.has(name)) return false;
  const record = packIndex(state).get(name);
  if (!record) return false;
  state.used.set(name, record.payload ?? record);
  state.counts.hits++;
  return true;
}

function hasEntry(state: CacheState, key: string): boolean {
  if (!state.enabled) return false;
  const name = fileName(key);
  if (state.pending.has(name) || state.stream?.has(name)) return true;
  if (state.packPath && packIndex(state).has(name)) return true;
  if (seedIndex(state)?.has(name)) return true;
  try {
    return Deno.statSync(entryPath(state.dir, name)).isFile;
  } catch {
    return false;
  }
}

/** Replaced records (appended values) take over a quarter of the pack, and over 1 MB. */
function packIsStale(state: CacheState): boolean {
  let live = 0;
  for (const record of packIndex(state).values()) {
    live += record.length + 100;
  }
  const dead = fileSize(state.packPath!) - live;
  return dead > Math.max(1 << 20, live / 4);
}

async function flushCache(state: CacheState): Promise<string | undefined> {
  if (!state.enabled) return undefined;
  try {
    await flushPack(state);
  } catch (error) {
    // The build goes on (the document does not depend on the cache), but is told.
    state.unsaved ??= cacheWriteReason(error);
  } finally {
    // Its records are read back by path from now on (a new pack may have taken its place).
    dropPackFile(state);
  }
  // Entries served from their files were used now: they are the last to be evicted.
  for (const name of state.readFiles) touch(entryPath(state.dir, name));
  state.readFiles.clear();
  const added = state.grown;
  state.grown = 0;
  const { maxSize } = state.options;
  if (maxSize !== undefined && added > 0) {
    if (await noteGrowth(state.dir, added, maxSize)) await pruneCache(state.dir, maxSize);
  }
  const unsaved = state.unsaved;
  state.unsaved = undefined;
  return unsaved;
}

async function flushPack(state: CacheState): Promise<void> {
  const { packPath, options, used } = state;
  if (!packPath) return;
  if (state.stream) {
    const s = state.stream;
    state.stream = undefined;
    // The new pack also keeps what this build read from entry files.
    for (const [name, record] of used) {
      if (s.has(name)) continue;
      const payload = usedPayload(state, record);
      if (payload) s.put(name, payload);
    }
    state.grown += await s.finish();
    state.pack = options.lean ? s.records() : undefined;
  } else if (
    state.seeded || state.outside.size > Math.max(8, used.size / 10) || !stamped(state) ||
    olderRecords(state) ||
    (state.restated.size && packIsStale(state))
  ) {
    await Deno.mkdir(join(state.dir, "packs"), { recursive: true });
    const before = fileSize(packPath);
    const written = await writePack(packPath, used, {
      payloadOf: (entry) => usedPayload(state, entry),
      // A record read unchecked (its pack trusted by its stamp) is checked here, where it is
      // hashed anyway: bytes changed behind the stamp are dropped, not stored as sound.
      storedHash: (entry) => isPackRecord(entry) ? entry.sha256 : undefined,
      stamp: state.stampPath,
    });
    state.grown += fileSize(packPath) - before;
    state.pack = options.lean ? written : undefined;
  } else {
    writeFew(state, packPath);
  }
  state.pending.clear();
  state.pendingBytes = 0;
  state.outside.clear();
  state.streamTried = false;
  state.seeded = false;
  state.restated.clear();
  if (options.lean) unload(state, packPath);
}

/**
 * A few new entries: entry files, and the pack stays (marked as used now); new values of keys it
 * holds are appended to it (the last record of a name wins).
 */
function writeFew(state: CacheState, packPath: string): void {
  // The pack stays: its index file first, of the records as read (saved only while the pack is
  // still as its stamp says), then brought up to date by the append or touch below.
  if (state.indexUnsaved && state.packFile && state.pack) {
    saveStampedIndex(state.packFile, state.stampPath!, state.pack);
  }
  state.indexUnsaved = false;
  const appended = new Map<string, Uint8Array>();
  for (const [name, payload] of state.pending) {
    if (state.restated.has(name)) appended.set(name, payload);
    else writeFile(state, name, payload);
  }
  if (appended.size) state.grown += appendPack(packPath, appended, { stamp: state.stampPath });
  else touchPack(packPath, { stamp: state.stampPath });
  // The pack read stays valid for a cache used again (slop watch): the appended records
  // (the last of a name wins) replace the old ones in memory too.
  for (const [name, payload] of appended) {
    state.pack?.set(name, {
      sha256: sha256(payload),
      length: payload.length,
      payload,
    });
  }
}

/**
 * Whether the pack is as its stamp says (see `stampedFile`), or the system gives no fingerprint
 * to stamp it with. Else the flush writes it anew, once (the new one is stamped): a pack of an
 * older slop, one changed by another program, or one whose last append was cut short, which
 * also must not be appended to (a record after a damaged one would be read as part of it).
 */
function stamped(state: CacheState): boolean {
  try {
    using file = Deno.openSync(state.packPath!);
    const { ino, mtime, ctime } = file.statSync();
    return ino === null || mtime === null || ctime === null || stampedFile(file, state.stampPath!);
  } catch {
    return true;
  }
}

/**
 * Whether the pack holds record lines without a crc32 (an older slop's): written anew once, so
 * that its records are checked by their crc32, not their sha256, and its texts read unread.
 */
function olderRecords(state: CacheState): boolean {
  for (const record of packIndex(state).values()) if (record.crc32 === undefined) return true;
  return false;
}

/**
 * Keep where the pack's records are instead of their bytes (those it holds as read with the
 * pack: the records just written are held without them, appended ones stay whole), and the
 * entries used as functions that read them back (from this pack, else from their entry files)
 * when the next pack is written.
 */
function unload(state: CacheState, packPath: string): void {
  const index = state.pack ?? new Map<string, PackRecord>();
  for (const record of index.values()) {
    if (record.offset !== undefined) record.payload = undefined;
  }
  for (const [name, value] of state.used) {
    if (index.has(name)) state.used.set(name, () => readRecord(packPath, index.get(name)!));
    else if (value instanceof Uint8Array) state.used.set(name, readBack(state, name));
  }
  state.held = 0;
}

/** A pack record's payload, if it is whole: the one read with the pack, else read back by offset. */
function packPayload(
  pack: string | Deno.FsFile,
  record: PackRecord,
  options: ReadRecordOptions = {},
): Uint8Array | undefined {
  if (!record.payload) return readRecord(pack, record, options);
  return sha256(record.payload) === record.sha256 ? record.payload : undefined;
}

/** Size of a file, 0 when there is none. */
function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

/** Mark a file as used now (its modification time orders eviction); errors are ignored. */
function touch(path: string): void {
  try {
    const now = new Date();
    Deno.utimeSync(path, now, now);
  } catch {
    // Missing or read-only: eviction order only.
  }
}

/** Entry file name: the key itself when it is a hex digest, else its sha256. */
function fileName(key: string): string {
  return /^[0-9a-f]{32,128}$/.test(key) ? key : sha256(key);
}

function entryPath(dir: string, name: string): string {
  return join(dir, name.slice(0, 2), name);
}

/** The first line of an entry file (the payload follows it, not copied next to it in memory). */
function entryHeader(name: string, payload: Uint8Array): Uint8Array {
  return encoder.encode(`${MAGIC} ${name} ${sha256(payload)}\n`);
}

/** The payload of an entry file, or undefined when the header or the hash is wrong. */
function verifyEntry(bytes: Uint8Array, name: string): Uint8Array | undefined {
  const newline = bytes.indexOf(10);
  if (newline < 0 || newline > 300) return undefined;
  const header = decoder.decode(bytes.subarray(0, newline)).split(" ");
  if (header.length !== 3 || header[0] !== MAGIC || header[1] !== name) return undefined;
  const payload = bytes.subarray(newline + 1);
  return sha256(payload) === header[2] ? payload : undefined;
}

/** Header and payload meet in this reused buffer: one write, and no new copy per entry. */
let entryScratch = new Uint8Array(1 << 16);

function writeEntrySync(path: string, header: Uint8Array, payload: Uint8Array): void {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const size = header.length + payload.length;
  if (entryScratch.length < size) {
    entryScratch = new Uint8Array(Math.max(size, entryScratch.length * 2));
  }
  entryScratch.set(header);
  entryScratch.set(payload, header.length);
  try {
    Deno.writeFileSync(tmp, entryScratch.subarray(0, size));
    Deno.renameSync(tmp, path);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
}

function existingFolders(dir: string): Set<string> {
  const out = new Set<string>();
  try {
    for (const item of Deno.readDirSync(dir)) if (item.isDirectory) out.add(item.name);
  } catch {
    // No cache yet.
  }
  return out;
}
