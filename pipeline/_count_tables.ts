/**
 * The BPE tables the counters count with: where each comes from (this process, a worker that
 * builds it while the build reads files, the machine's file read in the background, the
 * project cache, or gpt-tokenizer's ranks) and where a table built now is stored. A part of
 * `count.ts`, which re-exports what other modules use.
 *
 * @module
 */

import { type Cache, cacheKey } from "./cache.ts";
import type { Tokenizer } from "./types.ts";
import { bpeCounter, type BpeTable, buildBpeTable } from "./_bpe.ts";
import { loadCl100kRanks, loadO200kRanks } from "../deps.ts";
import {
  decodeTable,
  encodeTable,
  machineCacheDir,
  readTableFile,
  readTablePayload,
  tableFile,
  writeTableFile,
} from "./_table_store.ts";

/** The tables this thread loaded, and their counters. */
const tables = new Map<Tokenizer, BpeTable>();
const counters = new Map<Tokenizer, (text: string) => number>();
/** Bump when the table layout changes. */
const TABLE_FORMAT = "bpe-table/1 gpt-tokenizer@3.4.0";

/**
 * The tokenizers whose tables this thread has loaded (a warm build loads none).
 *
 * @example
 * ```ts
 * import { loadedTables } from "./count.ts";
 * loadedTables(); // [] until something is counted
 * ```
 */
export function loadedTables(): Tokenizer[] {
  return [...tables.keys()].sort();
}

/**
 * The counter of a tokenizer's table, made once.
 *
 * @example
 * ```ts
 * import { counterFor, loadTable } from "./_count_tables.ts";
 * counterFor("o200k", await loadTable("o200k"))("hello world"); // 2
 * ```
 */
export function counterFor(tokenizer: Tokenizer, table: BpeTable): (text: string) => number {
  let count = counters.get(tokenizer);
  if (!count) counters.set(tokenizer, count = bpeCounter(table));
  return count;
}

/** Tables being built by a worker, started by {@linkcode prepareCounting}. */
const building = new Map<Tokenizer, Promise<BpeTable | undefined>>();
/** Where this process's tables came from: see {@linkcode tableOrigins}. */
type TableOrigin = "background" | "file" | "other";
const origins = new Map<Tokenizer, TableOrigin>();

/**
 * Where each table this thread loaded came from: `background` (read while the
 * build went on, see {@linkcode prefetchTable}), `file` (the machine's file,
 * read when counting began) or `other` (the project cache, or built from the
 * tokenizer's ranks).
 *
 * @example
 * ```ts
 * import { tableOrigins } from "./count.ts";
 * tableOrigins(); // {} until something is counted
 * ```
 */
export function tableOrigins(): Record<string, string> {
  return Object.fromEntries([...origins].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Stored tables being read in the background (checked payloads), see {@linkcode prefetchTable}. */
const reading = new Map<Tokenizer, Promise<Uint8Array | undefined>>();

/**
 * Start reading the stored table in the background (a warm build that will
 * count the files it read anew): the file is read and checked by the
 * runtime's thread pool while the build renders, composes and orders, so the
 * count stage does not wait for it; the table is made of it only when
 * something is counted. Nothing happens when the table is loaded, being
 * built, or not stored on this machine (it is then found as before).
 *
 * @example
 * ```ts
 * import { prefetchTable } from "./count.ts";
 * prefetchTable("o200k");
 * ```
 */
export function prefetchTable(tokenizer: Tokenizer = "o200k"): void {
  if (tables.has(tokenizer) || building.has(tokenizer) || reading.has(tokenizer)) return;
  const file = machineTable(tokenizer);
  if (file && existsFile(file)) reading.set(tokenizer, readTablePayload(file, TABLE_FORMAT));
}

/**
 * Start building the BPE table in a worker when counting will be needed and
 * the cache cannot give the table (a cold cache, `--no-cache`): the worker
 * loads the tokenizer's ranks while the build reads files, hands the table
 * over and exits, so the ranks never stay in this thread's memory. Costs one
 * existence check when the table is cached.
 *
 * @example
 * ```ts
 * import { prepareCounting } from "./count.ts";
 * prepareCounting("o200k");
 * ```
 */
export function prepareCounting(tokenizer: Tokenizer = "o200k", cache?: Cache): void {
  if (tables.has(tokenizer) || building.has(tokenizer)) return;
  const file = machineTable(tokenizer);
  if (file ? existsFile(file) : cache?.enabled && cache.has(cacheKey([TABLE_FORMAT, tokenizer]))) {
    return;
  }
  building.set(tokenizer, buildInWorker(tokenizer));
}

/** Whether `path` is a file. */
function existsFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The table built by a worker (`_table_worker.ts`); undefined when the worker fails. */
function buildInWorker(tokenizer: Tokenizer): Promise<BpeTable | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_table_worker.ts", import.meta.url).href, { type: "module" });
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise<BpeTable | undefined>((resolve) => {
    worker.onmessage = (event: MessageEvent<{ table?: BpeTable }>) => resolve(event.data.table);
    worker.onerror = (event) => {
      event.preventDefault();
      resolve(undefined);
    };
    worker.postMessage({ tokenizer });
  }).finally(() => worker.terminate());
}

/**
 * The BPE table of a tokenizer (see {@linkcode prepareCounting} for where it
 * comes from), for threads that count with it.
 *
 * @example
 * ```ts
 * import { tableFor } from "./count.ts";
 * (await tableFor("o200k")).pool.length > 0; // true
 * ```
 */
export function tableFor(tokenizer: Tokenizer, cache?: Cache): Promise<BpeTable> {
  return loadTable(tokenizer, cache);
}

/** The table's file in the machine cache (see `_table_store.ts`), if there is one. */
function machineTable(tokenizer: Tokenizer): string | undefined {
  const dir = machineCacheDir();
  return dir === undefined ? undefined : tableFile(dir, tokenizer, TABLE_FORMAT);
}

/** Cache dirs (and tokenizers) known to hold the table. */
const saved = new Set<string>();

/**
 * The BPE table: from this process, else the machine cache, else the
 * project cache, else built from gpt-tokenizer's ranks (and then stored in
 * the machine cache, or where there is none, the project cache).
 *
 * @example
 * ```ts
 * import { loadTable } from "./_count_tables.ts";
 * (await loadTable("o200k")).pool.length > 0; // true
 * ```
 */
export async function loadTable(tokenizer: Tokenizer, cache?: Cache): Promise<BpeTable> {
  const key = cacheKey([TABLE_FORMAT, tokenizer]);
  const where = `${cache?.dir}\0${tokenizer}`;
  const file = machineTable(tokenizer);
  let table = tables.get(tokenizer);
  // Kept in this process: already stored (or not storable) by whoever loaded it.
  let stored = table !== undefined;
  const known = stored;
  if (!table) table = await building.get(tokenizer);
  building.delete(tokenizer);
  // Read in the background from the machine's file: stored already.
  if (!table) {
    // Decoded (copied into shared memory) only now: a build that counts nothing never does.
    const payload = await reading.get(tokenizer);
    stored = (table = payload && decodeTable(payload)) !== undefined;
  }
  const background = reading.delete(tokenizer) && stored && !known;
  if (!table && file) stored = (table = await readTableFile(file, TABLE_FORMAT)) !== undefined;
  if (!table && cache?.enabled) {
    const bytes = await cache.getBytes(key);
    table = bytes && decodeTable(bytes);
    if (table) saved.add(where);
  }
  if (!table) {
    const { ranks, split } = tokenizer === "cl100k"
      ? await loadCl100kRanks()
      : await loadO200kRanks();
    table = buildBpeTable(ranks, split);
  }
  tables.set(tokenizer, table);
  if (!known) origins.set(tokenizer, background ? "background" : stored ? "file" : "other");
  // Built now (here or by the table worker): keep it for every project on this machine.
  if (!stored && file && !saved.has(file)) {
    saved.add(file);
    if (writeTableFile(file, TABLE_FORMAT, table)) return table;
  }
  if (!file && cache?.enabled && !saved.has(where)) {
    saved.add(where);
    await cache.setBytes(key, encodeTable(table));
  }
  return table;
}
