/**
 * The threads that count tokens: how many a count uses (this one alone below
 * {@linkcode PARALLEL_MIN_CHARS}), the count workers (`_count_worker.ts`), started ahead while
 * the build renders, and the sharing of texts between this thread and them. A part of
 * `count.ts`, which re-exports what other modules use.
 *
 * @module
 */

import type { BpeTable } from "./_bpe.ts";

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

/**
 * Count texts with this thread and the helpers together: each thread takes
 * the next text from a shared index until none is left, so a helper that
 * starts late or runs on a busy core takes fewer texts. Each count is stored
 * at its text's index, so the counts are those of one thread whichever
 * thread counted which text; texts a failed helper took are counted here.
 * This thread waits only for helpers still counting a text it took.
 *
 * @example
 * ```ts
 * import { shareCounting } from "./_count_threads.ts";
 * import { counterFor, loadTable } from "./_count_tables.ts";
 * const table = await loadTable("o200k");
 * const count = counterFor("o200k", table);
 * await shareCounting(["hello world"], count, table, { helpers: [], onTaken: () => {} }); // [2]
 * ```
 */
export async function shareCounting(
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

/**
 * `n` count workers: those {@linkcode prestartCounting} started first, then new ones.
 *
 * @example
 * ```ts
 * import { countHelpers } from "./_count_threads.ts";
 * countHelpers(0); // []
 * ```
 */
export function countHelpers(n: number): Helper[] {
  const helpers = spares.splice(0, n);
  while (helpers.length < n) helpers.push(startWorker());
  return helpers;
}

/** A count worker: it counts its share of texts, or stops. */
export interface Helper {
  share(texts: string[], table: BpeTable, next: Int32Array, counts: Int32Array): Promise<void>;
  stop(): void;
}

/** Start a count worker (`_count_worker.ts`); one that cannot start fails its `share`. */
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
