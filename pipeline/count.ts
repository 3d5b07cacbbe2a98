/**
 * Token counts for many texts: served from the content-hash cache when it
 * has them (keyed by text sha256 + tokenizer), the rest counted in parallel
 * by this thread and a Deno Worker per other core, with slop's compact BPE
 * counter (`_bpe.ts`: gpt-tokenizer's ranks and split pattern in typed
 * arrays; the table itself is cached, so a rebuild that counts one edited
 * file never imports the tokenizer's rank module). Large texts are cut at lines where the
 * tokenizer's pre-split always breaks, so one big file does not leave a core
 * idle; the sum of the pieces is the exact count of the whole. Nothing loads
 * a tokenizer when every count is cached.
 *
 * @module
 */

import { type Cache, cacheKey } from "./cache.ts";
import { sha256 } from "./read.ts";
import type { Tokenizer } from "./types.ts";
import { bpeCounter, type BpeTable, buildBpeTable } from "./_bpe.ts";
import { splitForCounting } from "./_count_cuts.ts";

export { countableSpan, earlySpan, isCountCut, splitForCounting } from "./_count_cuts.ts";
export type { BpeTable } from "./_bpe.ts";
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

/**
 * Below this many characters to count, workers cost more than they save: a worker's start, heap
 * and cold counter against this thread's warm one (bench/README.md, "Where the time goes").
 */
const PARALLEL_MIN_CHARS = 1024 * 1024;
let parallelMinChars = PARALLEL_MIN_CHARS;

/**
 * The threads (this one and workers) that count `chars` characters, of at
 * most `workers` (default: one per core): one below {@linkcode PARALLEL_MIN_CHARS}.
 *
 * @example
 * ```ts
 * import { countThreads } from "./count.ts";
 * countThreads(600_000, 2); // 1: zod's skeleton blocks, this thread alone
 * countThreads(3_700_000, 2); // 2: the Python stdlib's
 * ```
 */
export function countThreads(chars: number, workers?: number): number {
  const threads = Math.max(1, Math.floor(workers ?? navigator.hardwareConcurrency ?? 1));
  return chars < parallelMinChars ? 1 : threads;
}

/**
 * Set the characters to count from which workers are used (tests use a
 * smaller project than the default needs); returns the limit before.
 *
 * @example
 * ```ts
 * import { setParallelCountChars } from "./count.ts";
 * const before = setParallelCountChars(1024);
 * setParallelCountChars(before);
 * ```
 */
export function setParallelCountChars(chars: number): number {
  const before = parallelMinChars;
  parallelMinChars = chars;
  return before;
}
/** Texts longer than this are cut into pieces for the workers. */
const PIECE_CHARS = 256 * 1024;

/** Options of {@linkcode countMany}. */
export interface CountOptions {
  /** Tokenizer. @default {"o200k"} */
  tokenizer?: Tokenizer;
  /** Cache for counts (none: count everything). */
  cache?: Cache;
  /** Threads to count with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** The texts' sha256 (hex of their UTF-8 bytes), in order, when the caller has them. */
  hashes?: string[];
  /**
   * Told, as counts are found, the share (0 to 1) of the distinct texts whose count is known so
   * far: from the cache or counted (a progress bar's measure: a big tree's cold count takes
   * minutes). No text is read for it. @default {undefined}
   */
  onProgress?: (share: number) => void;
}

/** What {@linkcode countMany} returns. */
export interface CountResult {
  /** Token count by the text's sha256 (hex of its UTF-8 bytes). */
  counts: Map<string, number>;
  /** Distinct texts whose count came from the cache. */
  hits: number;
  /** Distinct texts counted now. */
  misses: number;
}

/**
 * Count the tokens of many texts, by text sha256: the cache's counts, the others counted
 * ({@linkcode countTexts}) and stored in the cache.
 *
 * @example
 * ```ts
 * import { countMany } from "./count.ts";
 * const { counts } = await countMany(["hello world"], { workers: 1 });
 * [...counts.values()]; // [2]
 * ```
 */
export async function countMany(
  texts: ArrayLike<string>,
  options: CountOptions = {},
): Promise<CountResult> {
  const { tokenizer = "o200k", cache } = options;
  const byHash = hashIndexes(texts, options.hashes);
  const tell = countProgress(byHash.size, options.onProgress);
  const { counts, missing } = await cachedCounts([...byHash.keys()], { tokenizer, cache });
  const hits = counts.size;
  tell(hits);
  const textOf = (hash: string) => texts[byHash.get(hash)!];
  await countInto(counts, missing, { textOf, tokenizer, workers: options.workers, cache, tell });
  await storeCounts(missing, counts, { tokenizer, cache });
  return { counts, hits, misses: missing.length };
}

/**
 * Count the texts of `hashes` ({@linkcode countTexts}) into `counts`; `tell` is told, as they are
 * taken, a share of one for each.
 *
 * @example
 * ```ts
 * import { countInto } from "./count.ts";
 * const counts = new Map<string, number>();
 * await countInto(counts, ["h"], { textOf: () => "hello world", tokenizer: "o200k", workers: 1 });
 * counts.get("h"); // 2
 * ```
 */
export async function countInto(
  counts: Map<string, number>,
  hashes: string[],
  options: {
    textOf: (hash: string) => string;
    tokenizer: Tokenizer;
    workers?: number;
    cache?: Cache;
    tell?: (texts: number) => void;
  },
): Promise<void> {
  const { tell } = options;
  let told = 0;
  const found = await countTexts(hashes.map(options.textOf), {
    tokenizer: options.tokenizer,
    workers: options.workers,
    cache: options.cache,
    onCounted: tell && ((share) => {
      const now = share * hashes.length;
      tell(now - told);
      told = now;
    }),
  }).finally(releaseCounting);
  hashes.forEach((hash, i) => counts.set(hash, found[i]));
}

/**
 * Each distinct text's index by its sha256 (`hashes[i]` when given, else hashed here). The texts
 * are read by index when counted: `texts` may read them from disk one by one
 * (`pipeline/lazy_text.ts`), and none is held here meanwhile.
 *
 * @example
 * ```ts
 * import { hashIndexes } from "./count.ts";
 * hashIndexes(["a", "b", "a"]).size; // 2
 * ```
 */
export function hashIndexes(texts: ArrayLike<string>, hashes?: string[]): Map<string, number> {
  const byHash = new Map<string, number>();
  for (let i = 0; i < texts.length; i++) byHash.set(hashes?.[i] ?? sha256(texts[i]), i);
  return byHash;
}

/**
 * The cache's token counts of texts by their sha256, and the sha256 of those it lacks, sorted.
 *
 * @example
 * ```ts
 * import { cachedCounts } from "./count.ts";
 * const { missing } = await cachedCounts(["ab12"], {});
 * missing; // ["ab12"]: no cache
 * ```
 */
export async function cachedCounts(
  hashes: string[],
  options: { tokenizer?: Tokenizer; cache?: Cache },
): Promise<{ counts: Map<string, number>; missing: string[] }> {
  const { tokenizer = "o200k", cache } = options;
  const counts = new Map<string, number>();
  const missing: string[] = [];
  await Promise.all(hashes.map(async (hash) => {
    const n = cache ? await cache.get<number>(tokenCountKey(tokenizer, hash)) : undefined;
    if (isCount(n)) counts.set(hash, n);
    else missing.push(hash);
  }));
  return { counts, missing: missing.sort() };
}

/**
 * Whether a value read back (from the cache, a file) is a token count.
 *
 * @example
 * ```ts
 * import { isCount } from "./count.ts";
 * [isCount(3), isCount(-1), isCount("3")]; // [true, false, false]
 * ```
 */
export function isCount(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/**
 * Store the counts of `hashes` (taken from `counts`) in the cache.
 *
 * @example
 * ```ts
 * import { storeCounts } from "./count.ts";
 * await storeCounts(["ab12"], new Map([["ab12", 2]]), {}); // no cache: nothing stored
 * ```
 */
export async function storeCounts(
  hashes: string[],
  counts: Map<string, number>,
  options: { tokenizer?: Tokenizer; cache?: Cache },
): Promise<void> {
  const { tokenizer = "o200k", cache } = options;
  if (!cache) return;
  await Promise.all(
    hashes.map((hash) => cache.set(tokenCountKey(tokenizer, hash), counts.get(hash))),
  );
}

/**
 * A progress callback's teller: given how many more of the `total` texts have their count (a
 * share of one for the texts being counted), it tells `onProgress` the share of all found so far.
 *
 * @example
 * ```ts
 * import { countProgress } from "./count.ts";
 * const tell = countProgress(4, (share) => console.log(share));
 * tell(1); // 0.25
 * ```
 */
export function countProgress(
  total: number,
  onProgress?: (share: number) => void,
): (texts: number) => void {
  if (!onProgress) return () => {};
  let done = 0;
  return (texts) => {
    done += texts;
    onProgress(total ? Math.min(1, done / total) : 1);
  };
}

/**
 * The token counter of a tokenizer, its table loaded as {@linkcode countTexts} loads it.
 *
 * @example
 * ```ts
 * import { tokenCounter } from "./count.ts";
 * (await tokenCounter("o200k"))("hello world"); // 2
 * ```
 */
export async function tokenCounter(
  tokenizer: Tokenizer,
  cache?: Cache,
): Promise<(text: string) => number> {
  return counterFor(tokenizer, await loadTable(tokenizer, cache));
}

/**
 * Count texts, in parallel when there is enough to count. The result is the
 * same as counting each text whole in one thread.
 *
 * @example
 * ```ts
 * import { countTexts } from "./count.ts";
 * await countTexts(["hello world", ""], { workers: 1 }); // [2, 0]
 * ```
 */
export async function countTexts(
  texts: string[],
  options: {
    tokenizer?: Tokenizer;
    workers?: number;
    cache?: Cache;
    /** Told the share (0 to 1) of the texts, or of their pieces, taken to be counted so far. */
    onCounted?: (share: number) => void;
  } = {},
): Promise<number[]> {
  const tokenizer = options.tokenizer ?? "o200k";
  if (!texts.length) return [];
  const total = texts.reduce((n, t) => n + t.length, 0);
  const workers = countThreads(total, options.workers);
  const told = options.onCounted ?? (() => {});
  if (workers === 1) {
    releaseCounting();
    const count = counterFor(tokenizer, await loadTable(tokenizer, options.cache));
    return texts.map((text, i) => {
      const n = count(text);
      told((i + 1) / texts.length);
      return n;
    });
  }
  // Workers start (unless started during the transform) while this thread loads the table.
  const helpers = spares.splice(0, workers - 1);
  while (helpers.length < workers - 1) helpers.push(startWorker());
  const table = await loadTable(tokenizer, options.cache);
  const count = counterFor(tokenizer, table);
  // Cut, largest pieces first, so the last ones taken are small.
  const pieces: Array<{ text: number; body: string }> = [];
  texts.forEach((text, i) => {
    for (const body of splitForCounting(text, PIECE_CHARS)) pieces.push({ text: i, body });
  });
  pieces.sort((a, b) => b.body.length - a.body.length);
  const found = await shareCounting(pieces.map((p) => p.body), count, table, {
    helpers,
    onTaken: told,
  });
  const out = new Array<number>(texts.length).fill(0);
  pieces.forEach((piece, i) => (out[piece.text] += found[i]));
  return out;
}

/**
 * Count texts with this thread and the helpers together: each thread takes
 * the next text from a shared index until none is left, so a helper that
 * starts late or runs on a busy core takes fewer texts. Each count is stored
 * at its text's index, so the counts are those of one thread whichever
 * thread counted which text; texts a failed helper took are counted here.
 * This thread waits only for helpers still counting a text it took.
 */
async function shareCounting(
  texts: string[],
  count: (text: string) => number,
  table: BpeTable,
  { helpers, onTaken }: { helpers: Helper[]; onTaken: (share: number) => void },
): Promise<number[]> {
  const next = new Int32Array(new SharedArrayBuffer(4));
  const counts = new Int32Array(new SharedArrayBuffer(4 * texts.length)).fill(-1);
  // A helper that cannot start (no permission, no Worker) leaves its texts to this thread.
  const pending = helpers.map((helper) => helper.share(texts, table, next, counts).catch(() => {}));
  // The share of the texts taken by any thread so far, told as this thread takes its next one.
  for (let i = Atomics.add(next, 0, 1); i < texts.length; i = Atomics.add(next, 0, 1)) {
    onTaken(i / texts.length);
    Atomics.store(counts, i, count(texts[i]));
  }
  onTaken(1);
  // A helper still counting is waited for; one that took nothing yet (still starting) is not.
  if (counts.some((_, i) => Atomics.load(counts, i) < 0)) await Promise.all(pending);
  helpers.forEach((helper) => helper.stop());
  return texts.map((text, i) => {
    const n = Atomics.load(counts, i);
    return n < 0 ? count(text) : n;
  });
}

/** Count workers started before counting began, see {@linkcode prestartCounting}. */
const spares: Helper[] = [];

/**
 * Start the count workers ahead of the count stage once the text still to
 * count (`chars`, e.g. the views rendered anew so far) is enough for
 * {@linkcode countTexts} to use them: their module loads while the build
 * renders, composes and orders. Does nothing below that, with one thread,
 * or when they are started. {@linkcode countMany} uses them and ends the
 * ones it does not use; {@linkcode releaseCounting} ends them when the
 * build stops before counting.
 *
 * @example
 * ```ts
 * import { prestartCounting, releaseCounting } from "./count.ts";
 * prestartCounting(1000, 2); // too little: nothing starts
 * releaseCounting();
 * ```
 */
export function prestartCounting(chars: number, workers?: number): void {
  const threads = countThreads(chars, workers);
  if (threads === 1 || spares.length >= threads - 1) return;
  while (spares.length < threads - 1) spares.push(startWorker());
}

/**
 * End the count workers {@linkcode prestartCounting} started that no count
 * used (an idle worker keeps the process alive).
 *
 * @example
 * ```ts
 * import { releaseCounting } from "./count.ts";
 * releaseCounting();
 * ```
 */
export function releaseCounting(): void {
  for (const helper of spares.splice(0)) helper.stop();
}

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

function counterFor(tokenizer: Tokenizer, table: BpeTable): (text: string) => number {
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

function existsFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

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
 */
async function loadTable(tokenizer: Tokenizer, cache?: Cache): Promise<BpeTable> {
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

interface Helper {
  share(texts: string[], table: BpeTable, next: Int32Array, counts: Int32Array): Promise<void>;
  stop(): void;
}

function startWorker(): Helper {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_count_worker.ts", import.meta.url).href, { type: "module" });
  } catch (error) {
    return { share: () => Promise.reject(error), stop: () => {} };
  }
  // An error before `share` (the module failed to load) is kept for `share` to report.
  let early: string | undefined;
  worker.onerror = (event) => {
    event.preventDefault();
    early = event.message;
  };
  return {
    share: (texts, table, next, counts) =>
      new Promise<void>((resolve, reject) => {
        if (early) return reject(new Error(`Token counting failed: ${early}`));
        worker.onmessage = (event: MessageEvent<{ done?: boolean; error?: string }>) => {
          if (event.data.done) resolve();
          else reject(new Error(`Token counting failed: ${event.data.error}`));
        };
        worker.onerror = (event) => {
          event.preventDefault();
          reject(new Error(`Token counting failed: ${event.message}`));
        };
        worker.postMessage({ table, texts, next, counts });
      }).finally(() => worker.terminate()),
    stop: () => worker.terminate(),
  };
}

/**
 * The cache key of a text's token count: the tokenizer and the sha256 of its UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { tokenCountKey } from "./count.ts";
 * tokenCountKey("o200k", "ab12"); // a key of the content-hash cache
 * ```
 */
export function tokenCountKey(tokenizer: Tokenizer, sha256: string): string {
  return cacheKey(["tokens", tokenizer, sha256]);
}
