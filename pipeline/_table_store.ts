/**
 * The compact BPE tables (`_bpe.ts`) on disk, once per machine: a table is
 * derived only from the pinned tokenizer package, so every project shares
 * one copy instead of rebuilding it from gpt-tokenizer's ranks (CPU, and a
 * rank module far larger than the table in memory) on each cold build.
 *
 * Where: `$SLOP_CACHE_HOME`, else `$XDG_CACHE_HOME/slop`, else
 * `~/.cache/slop` (`%LOCALAPPDATA%\slop` on Windows). A file is named by
 * tokenizer and table format (which names the tokenizer package version),
 * holds one header line `slop-bpe/1 <format> <sha256 of payload>` and the
 * payload, is written through a temp file and a rename, and is checked on
 * every read: a wrong header, a wrong hash or a short file is ignored and
 * rebuilt. Tables live in shared memory, so the counting workers use the one
 * copy this thread read.
 *
 * @module
 */

import { join } from "./_path.ts";
import { sha256 } from "./read.ts";
import type { BpeTable } from "./_bpe.ts";
import { concatBytes } from "./_bytes.ts";
import { removeQuietly } from "./helpers.ts";

const MAGIC = "slop-bpe/1";

/**
 * The per-machine cache folder of slop (tables derived from pinned
 * packages), or `undefined` when there is no home to put it in.
 *
 * @example
 * ```ts
 * import { machineCacheDir } from "./_table_store.ts";
 * machineCacheDir(); // e.g. "/home/me/.cache/slop"
 * ```
 */
export function machineCacheDir(): string | undefined {
  try {
    const own = Deno.env.get("SLOP_CACHE_HOME");
    if (own) return own;
    const xdg = Deno.env.get("XDG_CACHE_HOME");
    if (xdg) return join(xdg, "slop");
    const local = Deno.env.get("LOCALAPPDATA");
    if (Deno.build.os === "windows" && local) return join(local, "slop");
    const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
    return home ? join(home, ".cache", "slop") : undefined;
  } catch {
    return undefined; // no --allow-env
  }
}

/**
 * The file a table is stored in.
 *
 * @example
 * ```ts
 * import { tableFile } from "./_table_store.ts";
 * tableFile("/c", "o200k", "bpe-table/1 gpt-tokenizer@3.4.0"); // "/c/bpe-o200k-<16 hex>.bin"
 * ```
 */
export function tableFile(dir: string, tokenizer: string, format: string): string {
  return join(dir, `bpe-${tokenizer}-${sha256(format).slice(0, 16)}.bin`);
}

/**
 * Read and check a stored table; `undefined` when missing or damaged.
 *
 * @example
 * ```ts
 * import { readTableFile } from "./_table_store.ts";
 * await readTableFile("/no/such/file", "bpe-table/1"); // undefined
 * ```
 */
export async function readTableFile(path: string, format: string): Promise<BpeTable | undefined> {
  const payload = await readTablePayload(path, format);
  return payload && decodeTable(payload);
}

/**
 * {@linkcode readTableFile} up to the table: the file is read by the
 * runtime's thread pool, so a build can go on while it loads; the checked
 * payload is returned, and {@linkcode decodeTable} makes the table of it when
 * it turns out to be needed.
 *
 * @example
 * ```ts
 * import { readTablePayload } from "./_table_store.ts";
 * await readTablePayload("/no/such/file", "bpe-table/1"); // undefined
 * ```
 */
export async function readTablePayload(
  path: string,
  format: string,
): Promise<Uint8Array | undefined> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const size = (await file.stat()).size;
    const head = new Uint8Array(Math.min(size, HEADER_MAX + 1));
    if (!await fill(file, head)) return undefined;
    const at = layout(head, size);
    if (!at) return undefined;
    const payload = new Uint8Array(new SharedArrayBuffer(at.length));
    await file.seek(at.start, Deno.SeekMode.Start);
    if (!await fill(file, payload)) return undefined;
    // Hashed by node:crypto, synchronously: Web Crypto takes no view of shared memory.
    return at.header === headerOf(format, sha256(payload)) ? payload : undefined;
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/** The longest header line a table file has. */
const HEADER_MAX = 300;

/**
 * A stored table's header line and where its payload lies, from the file's
 * first bytes; `undefined` when there is no header line. The payload is then
 * read straight into shared memory, at its start: aligned for the rank
 * arrays and what the counting workers are given, so the table is made of it
 * without a copy (a file read whole, then copied, would hold the table twice
 * at the peak of a build that counts).
 */
function layout(
  head: Uint8Array,
  size: number,
): { header: string; start: number; length: number } | undefined {
  const newline = head.indexOf(10);
  if (newline < 0 || newline > HEADER_MAX) return undefined;
  const header = new TextDecoder().decode(head.subarray(0, newline));
  return { header, start: newline + 1, length: size - newline - 1 };
}

/** Read `into` whole from `file`'s position, on the runtime's thread pool; false when the file ends first. */
async function fill(file: Deno.FsFile, into: Uint8Array): Promise<boolean> {
  for (let at = 0; at < into.length;) {
    const n = await file.read(into.subarray(at));
    if (n === null) return false;
    at += n;
  }
  return true;
}

/** The header line (without its newline) of a table of `format` whose payload has `hash`. */
function headerOf(format: string, hash: string): string {
  return `${MAGIC} ${format} ${hash}`.replaceAll("\n", " ");
}

/**
 * Store a table atomically (temp file + rename); errors are ignored (a
 * table that cannot be stored is built again next time).
 *
 * @example
 * ```ts
 * import { writeTableFile } from "./_table_store.ts";
 * import { buildBpeTable } from "./_bpe.ts";
 * const table = buildBpeTable(["a", "b"], /[a-z]/gu);
 * writeTableFile(await Deno.makeTempDir() + "/t.bin", "test", table);
 * ```
 */
export function writeTableFile(path: string, format: string, table: BpeTable): boolean {
  const payload = encodeTable(table);
  const header = new TextEncoder().encode(headerOf(format, sha256(payload)) + "\n");
  const bytes = new Uint8Array(header.length + payload.length);
  bytes.set(header);
  bytes.set(payload, header.length);
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    Deno.writeFileSync(tmp, bytes);
    Deno.renameSync(tmp, path);
    return true;
  } catch {
    removeQuietly(tmp);
    return false;
  }
}

/**
 * A table as bytes: a head of four lengths, the three rank arrays, the pool
 * and the split pattern's JSON.
 *
 * @example
 * ```ts
 * import { decodeTable, encodeTable } from "./_table_store.ts";
 * import { buildBpeTable } from "./_bpe.ts";
 * decodeTable(encodeTable(buildBpeTable(["a"], /a/gu)))?.pool.length; // 1
 * ```
 */
export function encodeTable(t: BpeTable): Uint8Array {
  const pattern = new TextEncoder().encode(JSON.stringify(t.pattern));
  const head = new Uint32Array([t.slots.length, t.offsets.length, t.pool.length, pattern.length]);
  const parts = [
    new Uint8Array(head.buffer),
    new Uint8Array(t.slots.buffer, t.slots.byteOffset, t.slots.byteLength),
    new Uint8Array(t.offsets.buffer, t.offsets.byteOffset, t.offsets.byteLength),
    new Uint8Array(t.lengths.buffer, t.lengths.byteOffset, t.lengths.byteLength),
    t.pool,
    pattern,
  ];
  return concatBytes(parts);
}

/**
 * A table from {@linkcode encodeTable}'s bytes, copied into shared memory;
 * `undefined` when the bytes do not hold one.
 *
 * @example
 * ```ts
 * import { decodeTable } from "./_table_store.ts";
 * decodeTable(new Uint8Array(3)); // undefined
 * ```
 */
export function decodeTable(bytes: Uint8Array): BpeTable | undefined {
  try {
    if (bytes.length < 16) return undefined;
    // In shared memory and aligned (workers get this one copy, not each their own): a payload
    // read by readTablePayload is already, other bytes are copied.
    let data = bytes;
    if (!(bytes.buffer instanceof SharedArrayBuffer) || bytes.byteOffset !== 0) {
      data = new Uint8Array(new SharedArrayBuffer(bytes.length));
      data.set(bytes);
    }
    const [slots, ranks, pool, pattern] = new Uint32Array(data.buffer, 0, 4);
    if (16 + (slots + 2 * ranks) * 4 + pool + pattern !== data.length) return undefined;
    let at = 16;
    const take = (n: number) => new Int32Array(data.buffer, (at += n * 4) - n * 4, n);
    const table: BpeTable = {
      slots: take(slots),
      offsets: take(ranks),
      lengths: take(ranks),
      pool: data.subarray(at, at + pool),
      pattern: JSON.parse(new TextDecoder().decode(data.slice(at + pool, at + pool + pattern))),
    };
    return table;
  } catch {
    return undefined;
  }
}
