/**
 * Token counts started early: when the secret scan runs on workers (a large
 * cold build), those workers go on to count the files' texts while this
 * thread renders, composes and orders, instead of a counting worker starting
 * afterwards. What they count is each text's middle, between its first and
 * last line start where the o200k/cl100k pre-split always breaks (see
 * `splitForCounting`), so a block that holds the text is counted as its own
 * head, that known middle and its tail, with the same result as counting the
 * block whole. A middle is used only where it is found in the block at two
 * such line starts; otherwise the block is counted as before.
 *
 * @module
 */

import type { BpeTable } from "./_bpe.ts";

/** A thread that counts texts with a table (a scan worker). */
export interface CountHelper {
  /**
   * Counts of the `[path, start, end]` spans of texts the thread kept from its scan (-1 for one it
   * does not hold), then of `texts`.
   */
  count(
    job: { spans: Array<[string, number, number]>; texts: string[] },
    table: BpeTable,
  ): Promise<number[]>;
  /** Stop the thread. */
  stop(): void;
}

interface Job {
  paths: string[];
  /** The middles (slices of this thread's texts). */
  texts: string[];
  /** The spans of the middles in their texts. */
  spans: Array<[string, number, number]>;
}

interface Known {
  middle: string;
  tokens: number;
}

/** Characters per batch handed to a thread. */
const BATCH_CHARS = 256 * 1024;
/** Texts shorter than this are counted with their block (their head and tail are most of them). */
const MIN_CHARS = 2048;

/** Blocks counted from early counts since the last {@linkcode startPrecount}. */
let served = 0;

/**
 * How many blocks the last early counting served (for tests and timings).
 *
 * @example
 * ```ts
 * import { precountServed } from "./_precount.ts";
 * precountServed(); // 0 before any build
 * ```
 */
export function precountServed(): number {
  return served;
}

/** Counting in progress, by tokenizer. */
const runs = new Map<string, Run>();

interface Run {
  queues: Job[][];
  shared: Job[];
  known: Map<string, Known>;
  inFlight: Set<Promise<void>>;
  helpers: CountHelper[];
}

/**
 * The span of a text from its first to its last possible cut: a line start
 * (after the first character, before the end) whose character is neither
 * whitespace nor `/`; or the text's start when its first character is
 * neither, and its end when it ends with a newline (whether those two cut
 * the block is checked where the block is known, by {@linkcode knownCount}).
 * `undefined` when there is no such span.
 *
 * @example
 * ```ts
 * import { countableSpan } from "./_precount.ts";
 * countableSpan("/* a *\/\nx = 1\ny = 2"); // [8, 14]
 * countableSpan("{\n  \"a\": 1\n}\n"); // [0, 13]
 * ```
 */
export function countableSpan(text: string): [number, number] | undefined {
  let start = text.length && !/[\s/]/.test(text[0]) ? 0 : -1;
  for (
    let nl = text.indexOf("\n");
    start < 0 && nl >= 0 && nl + 1 < text.length;
    nl = text.indexOf("\n", nl + 1)
  ) {
    if (!/[\s/]/.test(text[nl + 1])) start = nl + 1;
  }
  if (start < 0) return undefined;
  if (text.endsWith("\n")) return text.length > start ? [start, text.length] : undefined;
  for (
    let nl = text.lastIndexOf("\n", text.length - 2);
    nl >= start;
    nl = text.lastIndexOf("\n", nl - 1)
  ) {
    if (!/[\s/]/.test(text[nl + 1])) return nl + 1 > start ? [start, nl + 1] : undefined;
    if (nl === 0) break;
  }
  return undefined;
}

/**
 * Start counting the middles of `files`' texts on `helpers` (which are
 * stopped when done or drained); the counts wait for
 * {@linkcode knownCount}.
 *
 * @example
 * ```ts
 * import { startPrecount } from "./_precount.ts";
 * // startPrecount(files, "o200k", helpers, table);
 * ```
 */
export function startPrecount(
  files: Array<{ path: string; text: string; helper?: number }>,
  tokenizer: string,
  helpers: CountHelper[],
  table: BpeTable,
): void {
  stopRun(tokenizer);
  served = 0;
  // One queue per helper (the texts it scanned and kept: sent as spans) and one shared (texts).
  const queues: Job[][] = helpers.map(() => []);
  const shared: Job[] = [];
  const run: Run = { queues, shared, known: new Map(), inFlight: new Set(), helpers };
  runs.set(tokenizer, run);
  const open = new Map<Job[], { job: Job; size: number }>();
  for (const file of files) {
    if (file.text.length < MIN_CHARS) continue;
    const span = countableSpan(file.text);
    if (!span) continue;
    const queue = file.helper !== undefined && queues[file.helper] ? queues[file.helper] : shared;
    let at = open.get(queue);
    if (!at) open.set(queue, at = { job: { paths: [], texts: [], spans: [] }, size: 0 });
    at.job.paths.push(file.path);
    at.job.texts.push(file.text.slice(span[0], span[1]));
    at.job.spans.push([file.path, span[0], span[1]]);
    at.size += span[1] - span[0];
    if (at.size >= BATCH_CHARS) {
      queue.push(at.job);
      open.delete(queue);
    }
  }
  for (const [queue, at] of open) queue.push(at.job);
  if (!shared.length && queues.every((q) => !q.length)) {
    helpers.forEach((h) => h.stop());
    run.helpers = [];
    return;
  }
  // Each helper keeps two batches in hand: its own first, then shared ones.
  const send = (helper: CountHelper, own: Job[]) => {
    const mine = own.shift();
    const next = mine ?? shared.shift();
    if (!next) {
      // All counted: stop the threads now (a build that fails before it counts never waits).
      if (!run.inFlight.size && run.queues.every((q) => !q.length)) {
        run.helpers.forEach((h) => h.stop());
        run.helpers = [];
      }
      return;
    }
    const job = mine ? { spans: next.spans, texts: [] } : { spans: [], texts: next.texts };
    const done: Promise<void> = helper.count(job, table).then(
      (counts) =>
        next.paths.forEach((p, i) => {
          if (counts[i] >= 0) run.known.set(p, { middle: next.texts[i], tokens: counts[i] });
        }),
      () => {}, // a helper that fails leaves these to be counted with their blocks
    ).then(() => {
      run.inFlight.delete(done);
      send(helper, own);
    });
    run.inFlight.add(done);
  };
  helpers.forEach((helper, i) => {
    send(helper, queues[i]);
    send(helper, queues[i]);
  });
}

/**
 * Wait for the early counts of `tokenizer`, counting the batches no helper
 * has taken yet on this thread with `count`, then stop the helpers.
 *
 * @example
 * ```ts
 * import { finishPrecount } from "./_precount.ts";
 * await finishPrecount("o200k", (text) => text.length);
 * ```
 */
export async function finishPrecount(
  tokenizer: string,
  count: (text: string) => number,
): Promise<void> {
  const run = runs.get(tokenizer);
  if (!run) return;
  // What no helper has taken yet is counted here (this thread has every text).
  for (const queue of [run.shared, ...run.queues]) {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { paths, texts } = job;
      paths.forEach((p, i) => run.known.set(p, { middle: texts[i], tokens: count(texts[i]) }));
      await Promise.resolve();
    }
  }
  while (run.inFlight.size) await Promise.race(run.inFlight);
  run.helpers.forEach((h) => h.stop());
  run.helpers = [];
}

/**
 * The count of `block` from the early count of `path`'s text when the block
 * holds that text's middle at two safe line starts (`count` counts the head
 * and tail); `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { knownCount } from "./_precount.ts";
 * knownCount("o200k", "a.py", "### a.py\n", (t) => t.length); // undefined: nothing counted early
 * ```
 */
export function knownCount(
  tokenizer: string,
  path: string | undefined,
  block: string,
  count: (text: string) => number,
): number | undefined {
  const known = path === undefined ? undefined : runs.get(tokenizer)?.known.get(path);
  if (!known) return undefined;
  const at = block.indexOf(known.middle);
  const end = at + known.middle.length;
  if (at <= 0 || end >= block.length || !cut(block, at) || !cut(block, end)) return undefined;
  served++;
  return count(block.slice(0, at)) + known.tokens + count(block.slice(end));
}

/**
 * Whether counts of `tokenizer` were started early.
 *
 * @example
 * ```ts
 * import { hasPrecount } from "./_precount.ts";
 * hasPrecount("o200k"); // false
 * ```
 */
export function hasPrecount(tokenizer: string): boolean {
  return runs.has(tokenizer);
}

/**
 * Forget the early counts of `tokenizer` (they hold the texts) and stop
 * their helpers.
 *
 * @example
 * ```ts
 * import { stopRun } from "./_precount.ts";
 * stopRun("o200k");
 * ```
 */
export function stopRun(tokenizer: string): void {
  const run = runs.get(tokenizer);
  if (!run) return;
  run.helpers.forEach((h) => h.stop());
  runs.delete(tokenizer);
}

/** A line start whose character is neither whitespace nor `/`. */
function cut(text: string, at: number): boolean {
  return text[at - 1] === "\n" && !/[\s/]/.test(text[at]);
}
