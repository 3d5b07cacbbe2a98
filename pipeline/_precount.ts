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
  /** Counts of each text. */
  count(texts: string[], table: BpeTable): Promise<number[]>;
  /** Stop the thread. */
  stop(): void;
}

interface Job {
  paths: string[];
  texts: string[];
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
  queue: Job[];
  known: Map<string, Known>;
  inFlight: Set<Promise<void>>;
  helpers: CountHelper[];
}

/**
 * The span of a text between its first and last line start (after the first
 * character, before the end) whose character is neither whitespace nor `/`;
 * `undefined` when there are not two.
 *
 * @example
 * ```ts
 * import { countableSpan } from "./_precount.ts";
 * countableSpan("/* a *\/\nx = 1\ny = 2\n"); // [8, 14]
 * ```
 */
export function countableSpan(text: string): [number, number] | undefined {
  let start = -1;
  for (
    let nl = text.indexOf("\n");
    nl >= 0 && nl + 1 < text.length;
    nl = text.indexOf("\n", nl + 1)
  ) {
    if (!/[\s/]/.test(text[nl + 1])) {
      start = nl + 1;
      break;
    }
  }
  if (start < 0) return undefined;
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
  files: Array<{ path: string; text: string }>,
  tokenizer: string,
  helpers: CountHelper[],
  table: BpeTable,
): void {
  stopRun(tokenizer);
  served = 0;
  const run: Run = { queue: [], known: new Map(), inFlight: new Set(), helpers };
  runs.set(tokenizer, run);
  let job: Job = { paths: [], texts: [] };
  let size = 0;
  for (const file of files) {
    if (file.text.length < MIN_CHARS) continue;
    const span = countableSpan(file.text);
    if (!span) continue;
    job.paths.push(file.path);
    job.texts.push(file.text.slice(span[0], span[1]));
    size += span[1] - span[0];
    if (size >= BATCH_CHARS) {
      run.queue.push(job);
      job = { paths: [], texts: [] };
      size = 0;
    }
  }
  if (job.paths.length) run.queue.push(job);
  if (!run.queue.length) {
    helpers.forEach((h) => h.stop());
    run.helpers = [];
    return;
  }
  // Each helper keeps two batches in hand.
  const send = (helper: CountHelper) => {
    const next = run.queue.shift();
    if (!next) return;
    const done: Promise<void> = helper.count(next.texts, table).then(
      (counts) =>
        next.paths.forEach((p, i) =>
          run.known.set(p, { middle: next.texts[i], tokens: counts[i] })
        ),
      () => {}, // a helper that fails leaves these to be counted with their blocks
    ).then(() => {
      run.inFlight.delete(done);
      send(helper);
    });
    run.inFlight.add(done);
  };
  for (const helper of helpers) {
    send(helper);
    send(helper);
  }
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
  for (let job = run.queue.shift(); job; job = run.queue.shift()) {
    job.paths.forEach((p, i) =>
      run.known.set(p, { middle: job!.texts[i], tokens: count(job!.texts[i]) })
    );
    await Promise.resolve();
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
