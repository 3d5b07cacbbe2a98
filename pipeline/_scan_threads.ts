/**
 * The secret scan on several threads: files in batches, handed to this thread and to Deno
 * Workers (`_scan_worker.ts`) as each is free, with the same results as a scan on one thread;
 * the workers can then count the texts they kept for the count stage (`accel/precount.ts`).
 * `secrets.ts` (the stage) decides what to scan and applies the results.
 *
 * @module
 */

import { textBacking, textLength } from "./lazy_text.ts";
import { type Redaction, redactText } from "./_scan.ts";
import type { BpeTable } from "./count.ts";
import type { SourceFile } from "./types.ts";
import { countWork } from "./_work_count.ts";

/** Below this many characters to scan, a worker costs more than it saves. */
const PARALLEL_SCAN_CHARS = 1024 * 1024;

/** Characters per batch handed to a thread. */
const SCAN_BATCH_CHARS = 256 * 1024;

/** Characters of batches a worker has in hand, at least two batches (see `workerLane`). */
const IN_HAND_CHARS = 4 * SCAN_BATCH_CHARS;

/**
 * The most characters of texts a scan worker keeps at once to count them next (see
 * `accel/scan_handoff.ts`); the others are sent to it again when they are counted,
 * a batch at a time. Each kept text is a copy in the worker's heap: without a bound, a big tree's
 * worker held the half of the tree it scanned until the counting reached it (bench/README.md,
 * "Monorepo scale").
 */
const KEEP_CHARS = 8 * 1024 * 1024;
let keepChars = KEEP_CHARS;

/**
 * Set the most characters of texts a scan worker keeps to count (tests use a smaller tree than
 * the default needs); returns the bound before.
 *
 * @example
 * ```ts
 * import { setScanKeepChars } from "./_scan_threads.ts";
 * const before = setScanKeepChars(64 * 1024);
 * setScanKeepChars(before);
 * ```
 */
export function setScanKeepChars(chars: number): number {
  const before = keepChars;
  keepChars = chars;
  return before;
}

/**
 * Below this many characters to scan, a worker is started only to count the texts it scans next
 * (files shown whole, `accel/scan_handoff.ts`): it loads its module too late to
 * take a fair share of a smaller scan (bench/README.md, "The secret scan").
 */
const SOLO_SCAN_CHARS = 16 * 1024 * 1024;

/**
 * How many of `workers` scan workers to start for a scan of `total` characters, of which
 * `counted` are of texts they would count next (see {@linkcode SOLO_SCAN_CHARS}).
 *
 * @example
 * ```ts
 * import { scanWorkers } from "./_scan_threads.ts";
 * scanWorkers(3_000_000, 0, 1); // 0: this thread scans alone
 * scanWorkers(3_000_000, 3_000_000, 1); // 1: it counts them next
 * scanWorkers(12_000_000, 0, 1); // 0
 * scanWorkers(24_000_000, 0, 1); // 1
 * ```
 */
export function scanWorkers(total: number, counted: number, workers: number): number {
  if (total < PARALLEL_SCAN_CHARS) return 0;
  return total >= SOLO_SCAN_CHARS || counted >= PARALLEL_SCAN_CHARS ? workers : 0;
}

export type ScanResult = { text?: string; findings: Redaction["findings"] };
/**
 * A worker's answer for one text: its result (`kept`: the worker kept the text to count it), or
 * the text handed back (secretlint scans it).
 */
export type WorkerResult = (ScanResult & { kept?: boolean }) | { handBack: true };

/**
 * Scan files with this thread and, for large scans (see {@linkcode scanWorkers}), workers:
 * batches in path order go to whichever thread is free. Each text is scanned by the same
 * rules wherever it runs, so the results are those of a scan in one thread.
 * A worker hands back the short texts secretlint must scan (few): this thread
 * scans them, so only this thread, whose modules are loaded already, loads
 * secretlint (unless a worker meets a large one, which it scans itself).
 * Workers keep the texts of files that `keep` accepts, to count them next: the helpers it gives
 * hold them, by the index of each file's helper (`owner`); stop them when done with them.
 *
 * @example
 * ```ts
 * import { scanAll } from "./_scan_threads.ts";
 * // const { results, helpers } = await scanAll(files, rules, { workers: 4 });
 * // helpers.forEach((h) => h.stop());
 * ```
 */
export async function scanAll(
  files: SourceFile[],
  rules: Record<string, string>,
  options: ScanAllOptions = {},
): Promise<
  { results: Map<SourceFile, ScanResult>; helpers: CountHelper[]; owner: Map<SourceFile, number> }
> {
  const { keep = () => false, onScanned = () => {}, ahead } = options;
  const state: ScanState = {
    out: new Map(),
    owner: new Map(),
    rules,
    keep,
    onScanned: (file) => {
      try {
        onScanned(file);
      } catch (error) {
        // The caller gives up (a cancelled build): no batch more is begun.
        state.stopped ??= { error };
      }
    },
    batches: [],
    next: 0,
    handedBack: [],
    inFlight: new Set(),
  };
  // Files a worker scanned as they were read: their results are taken, the others scanned now.
  const started = ahead ? await takeAhead(state, files, ahead) : [];
  stopIfStopped(state, started);
  if (ahead) files = files.filter((file) => !state.out.has(file));
  const total = files.reduce((n, f) => n + textLength(f), 0);
  const threads = options.workers ?? navigator.hardwareConcurrency ?? 1;
  const workers = Math.max(1, Math.floor(threads)) - 1;
  if (!started.length && (workers === 0 || total < PARALLEL_SCAN_CHARS)) {
    await scanHere(state, files);
    stopIfStopped(state, []);
    return { results: state.out, helpers: [], owner: state.owner };
  }
  const counted = files.reduce((n, f) => n + (keep(f) ? textLength(f) : 0), 0);
  state.batches = scanBatches(files);
  const helpers = started.length
    ? started
    : Array.from({ length: scanWorkers(total, counted, workers) }, () => scanWorker());
  const lanes = helpers.map((helper, index) => workerLane(state, { helper, index }));
  lanes.forEach((fill) => fill());
  await scanOnThisThread(state, helpers.length > 0);
  stopIfStopped(state, helpers);
  return { results: state.out, helpers, owner: state.owner };
}

/** Once the files under way are scanned: what `onScanned` threw, thrown, the helpers stopped. */
function stopIfStopped(state: ScanState, helpers: CountHelper[]): void {
  if (!state.stopped) return;
  helpers.forEach((helper) => helper.stop());
  throw state.stopped.error;
}

/** Options of {@linkcode scanAll}. */
export interface ScanAllOptions {
  /** Threads to scan with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** The files whose texts the workers keep, to count them next. @default {() => false} none */
  keep?: (file: SourceFile) => boolean;
  /** Told each file as its scan ends (for progress). @default {() => {}} */
  onScanned?: (file: SourceFile) => void;
  /**
   * Files scanned ahead by workers as they were read (`accel/scan_ahead.ts`): their results are taken
   * (the same as a scan of their texts now) and those workers scan the others.
   * @default {undefined} none
   */
  ahead?: ScanAhead;
}

/**
 * A scan begun before the secrets stage, on workers, as files were read: what {@linkcode scanAll}
 * takes of it. Made by `scanAhead()` of `accel/scan_ahead.ts`.
 */
export interface ScanAhead {
  /** Wait for the answers of the jobs sent; returns the workers (the scan's from now on). */
  settle(): Promise<ScanHelper[]>;
  /**
   * A file's result when its text, as read, was scanned ahead (by its path, content hash and
   * length); `undefined` otherwise (not sent, handed back for secretlint, or another text).
   */
  take(file: SourceFile): ScanResult | undefined;
}

/**
 * The results {@linkcode ScanAhead} has of `files`, set in `state` (each file told scanned);
 * returns the workers that scanned them.
 */
async function takeAhead(
  state: ScanState,
  files: SourceFile[],
  ahead: ScanAhead,
): Promise<ScanHelper[]> {
  const helpers = await ahead.settle();
  let chars = 0;
  for (const file of files) {
    const result = ahead.take(file);
    if (!result) continue;
    state.out.set(file, result);
    state.onScanned(file);
    chars += textLength(file);
  }
  countWork("characters scanned ahead", chars);
  return helpers;
}

/** What {@linkcode scanAll}'s lanes share: the results, the batches and the batches in flight. */
interface ScanState {
  out: Map<SourceFile, ScanResult>;
  /** The helper (worker) that scanned each file and kept its text. */
  owner: Map<SourceFile, number>;
  rules: Record<string, string>;
  keep: (file: SourceFile) => boolean;
  onScanned: (file: SourceFile) => void;
  batches: SourceFile[][];
  /** The first batch not taken yet. */
  next: number;
  /** Texts the workers handed back (secretlint scans them). */
  handedBack: SourceFile[];
  inFlight: Set<Promise<void>>;
  /** What `onScanned` threw: the scan takes no batch more. */
  stopped?: { error: unknown };
}

/** Scan a batch on this thread. */
async function scanHere(state: ScanState, batch: SourceFile[]): Promise<void> {
  for (const file of batch) {
    if (state.stopped) return;
    countWork("characters scanned here", textLength(file));
    const result = await redactText(file.text!, file.path, { rules: state.rules });
    // A clean text is not kept with its result (it is the file's own, read again if lazy).
    state.out.set(file, result.findings.length ? result : { findings: [] });
    state.onScanned(file);
  }
}

/**
 * A worker's lane: `fill` hands it batches. Each worker keeps two batches in hand or more, up to
 * {@linkcode IN_HAND_CHARS} (about 50 ms of scanning), so it does not wait for this thread, which
 * hands batches over only between its own (and is the one the collector's threads and other
 * processes hold up): with one large batch in hand a worker waited for this thread's own large
 * batch to end (bench/README.md, "twenty-eighth session, cold41"). A batch of one large file is
 * scanned alone (the next large one may go to this thread).
 */
function workerLane(
  state: ScanState,
  lane: { helper: ScanHelper; index: number },
): () => void {
  const { helper, index } = lane;
  const { batches, inFlight } = state;
  let jobs = 0;
  let chars = 0;
  const fill = () => {
    while (!state.stopped && state.next < batches.length && (jobs < 2 || chars < IN_HAND_CHARS)) {
      const batch = batches[state.next++];
      const size = batchChars(batch);
      jobs++;
      chars += size;
      const done: Promise<void> = helper.scan(batch, state.keep, state.rules).then(
        (results) =>
          batch.forEach((file, i) => {
            const result = results[i];
            if ("handBack" in result) return void state.handedBack.push(file);
            const { kept, ...scanned } = result;
            state.out.set(file, scanned);
            state.onScanned(file);
            // A text the worker did not keep (it keeps a bounded share) is sent to be counted.
            if (kept) state.owner.set(file, index);
          }),
        () => scanHere(state, batch), // a worker that fails leaves its batch to this thread
      ).then(() => {
        inFlight.delete(done);
        jobs--;
        chars -= size;
        fill();
      });
      inFlight.add(done);
    }
  };
  return fill;
}

/**
 * This thread takes batches too (the texts handed back first), letting the workers' answers
 * in after each (a worker that waits for its next batch leaves its texts to count to this
 * thread) and other stages' loads, every YIELD_MS of its scanning when it scans alone.
 */
async function scanOnThisThread(state: ScanState, withHelpers: boolean): Promise<void> {
  let yielded = performance.now();
  for (;;) {
    if (state.stopped) {
      // The batches under way end (their workers' answers), then the scan throws.
      await Promise.all(state.inFlight);
      break;
    }
    const batch = state.handedBack.length
      ? state.handedBack.splice(0)
      : state.batches[state.next++];
    if (batch) {
      await scanHere(state, batch);
      if (!withHelpers && performance.now() - yielded < YIELD_MS) continue;
      await yieldToEvents();
      yielded = performance.now();
    } else if (state.inFlight.size) await Promise.race(state.inFlight);
    else break;
  }
}

/**
 * Files in batches of about {@linkcode SCAN_BATCH_CHARS} characters (in path order within a
 * batch; a larger file alone), largest batch first: the largest files are scanned first, by
 * different threads, instead of the last large one keeping one thread busy while the others
 * wait. Each text is scanned whole wherever it goes, so the order changes no result.
 *
 * @example
 * ```ts
 * import { scanBatches } from "./_scan_threads.ts";
 * const large = { text: "x".repeat(300_000) };
 * scanBatches([{ text: "a" }, large])[0][0] === large; // true
 * ```
 */
export function scanBatches<T extends { text?: string }>(files: T[]): T[][] {
  const batches: T[][] = [];
  let open: T[] = [];
  let size = 0;
  for (const file of files) {
    const length = textLength(file);
    if (length >= SCAN_BATCH_CHARS) {
      batches.push([file]);
      continue;
    }
    open.push(file);
    size += length;
    if (size >= SCAN_BATCH_CHARS) {
      batches.push(open);
      open = [];
      size = 0;
    }
  }
  if (open.length) batches.push(open);
  // Stable: batches of equal size stay in path order.
  return batches
    .map((batch, i) => ({ batch, i, size: batchChars(batch) }))
    .sort((a, b) => b.size - a.size || a.i - b.i)
    .map((b) => b.batch);
}

function batchChars(batch: Array<{ text?: string }>): number {
  return batch.reduce((n, f) => n + textLength(f), 0);
}

/**
 * A text a helper counts: the text, or the characters `start` to `end` of the text whose UTF-8
 * is `bytes` (decoded by the helper).
 */
export type CountText = string | { bytes: Uint8Array; start: number; end: number };

/** A thread that counts texts with a table (a scan worker, once its scan is done). */
export interface CountHelper {
  /**
   * Counts of the `[path, start, end, last]` spans of texts the thread kept from its scan (-1 for
   * one it does not hold; `last`: the text's last span, it may be let go), then of `texts`.
   */
  count(
    job: {
      spans: Array<[string, number, number, boolean?]>;
      texts: CountText[];
      /** The job's flag (0: free): the helper sets it to 1 before counting, or answers -2s if set. */
      claims?: { flags: Int32Array; index: number };
      /** The buffers of `texts`' bytes, moved to the helper (not copied). */
      moved?: ArrayBuffer[];
    },
    table: BpeTable,
  ): Promise<number[]>;
  /** Stop the thread. */
  stop(): void;
}

/** A scan worker: it scans, then counts (a {@linkcode CountHelper}). */
export interface ScanHelper extends CountHelper {
  /**
   * Scan `files`; the worker keeps the texts of those `keep` accepts (to count them), and adds 1
   * to `done[0]` once it has answered.
   */
  scan(
    files: SourceFile[],
    keep: (file: SourceFile) => boolean,
    rules: Record<string, string>,
    done?: Int32Array,
  ): Promise<WorkerResult[]>;
}

/**
 * Start a scan worker (`_scan_worker.ts`); one that cannot start rejects every job.
 *
 * @example
 * ```ts
 * import { scanWorker } from "./_scan_threads.ts";
 * const worker = scanWorker();
 * worker.stop();
 * ```
 */
export function scanWorker(): ScanHelper {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_scan_worker.ts", import.meta.url).href, { type: "module" });
  } catch (error) {
    return {
      scan: () => Promise.reject(error),
      count: () => Promise.reject(error),
      stop: () => {},
    };
  }
  // deno-lint-ignore no-explicit-any
  const waiting = new Map<number, { resolve(r: any): void; reject(e: Error): void }>();
  let ids = 0;
  let broken: Error | undefined;
  let tableSent = false;
  worker.onmessage = (
    event: MessageEvent<
      { id: number; results?: WorkerResult[]; counts?: number[]; error?: string }
    >,
  ) => {
    const job = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    const answer = event.data.results ?? event.data.counts;
    if (answer) job?.resolve(answer);
    else job?.reject(new Error(`Secret scan failed: ${event.data.error}`));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    broken = new Error(`Secret scan failed: ${event.message}`);
    for (const job of waiting.values()) job.reject(broken);
    waiting.clear();
  };
  return {
    scan: (files, keep, rules, done) =>
      new Promise<WorkerResult[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        const moved: ArrayBuffer[] = [];
        const items = files.map((f) => scanItem(f, keep(f), moved));
        worker.postMessage({ id, rules, items, keepChars, done }, moved);
      }),
    count: ({ spans, texts, claims, moved = [] }, table) =>
      new Promise<number[]>((resolve, reject) => {
        if (broken) return reject(broken);
        const id = ids++;
        waiting.set(id, { resolve, reject });
        // The table (a few MB) is copied to the worker once, with its first count.
        worker.postMessage(
          { id, table: tableSent ? undefined : table, spans, texts, claims },
          moved,
        );
        tableSent = true;
      }),
    stop: () => worker.terminate(),
  };
}

/**
 * A file as a scan worker is handed it: its text, or, for a text kept out of memory (a lazy text,
 * `lazy_text.ts`), a copy of its UTF-8 bytes (moved to the worker, `moved`), which the worker
 * decodes: this thread does not decode it to send it, nor leave that copy as garbage in its heap.
 */
function scanItem(
  file: SourceFile,
  keep: boolean,
  moved: ArrayBuffer[],
): { path: string; text?: string; bytes?: Uint8Array; keep: boolean } {
  // Valid until the next text's bytes are read: copied at once.
  const bytes = textBacking(file)?.bytes?.().slice();
  if (!bytes) return { path: file.path, text: file.text, keep };
  moved.push(bytes.buffer);
  return { path: file.path, bytes, keep };
}

/**
 * Let queued events run: workers' answers, and the loads other stages started (grammars, whose
 * code workers wait for them). A timer's turn lets them in, where a MessageChannel turn or
 * `setImmediate` let few or none in during a build (bench/README.md, "The secret scan").
 */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Scanning time (ms) between two of this thread's {@linkcode yieldToEvents} when it scans alone
 * (a timer's turn costs a few ms even when nothing waits); with a worker it yields after each
 * batch, so the worker is never left waiting for one (bench/README.md, "The secret scan").
 */
const YIELD_MS = 10;
