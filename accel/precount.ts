/**
 * Token counts started early: when the secret scan runs on workers (a large
 * cold build), those workers go on to count the files' texts while this
 * thread renders, composes and orders, instead of a counting worker starting
 * afterwards. What they count is each text's middle, between its first and
 * last line start where the o200k/cl100k pre-split always breaks (see
 * `pipeline/_count_cuts.ts`), so a block that holds the text is counted as its own
 * head, that known middle and its tail, with the same result as counting the
 * block whole. A middle is used only where it is found in the block at two
 * such line starts; otherwise the block is counted as before. Long middles are
 * cut into pieces at such line starts (their counts add up), and a batch
 * handed to a worker that has not begun it is taken back by this thread (a
 * flag per batch in shared memory), so one large file or one slow worker does
 * not hold the build up.
 *
 * @module
 */

import {
  type BpeTable,
  earlySpan,
  isCountCut,
  splitForCounting,
  tableFor,
} from "../pipeline/count.ts";
import type { Cache } from "../pipeline/cache.ts";
import type { KnownCount } from "./count_known.ts";
import type { CountHelper, CountText } from "../pipeline/secrets.ts";
import type { ScanHandOff } from "./scan_handoff.ts";
import type { Tokenizer } from "../pipeline/types.ts";
import { type TextBacking, textBacking } from "../pipeline/lazy_text.ts";
import { countWork } from "../pipeline/helpers.ts";

/**
 * A piece of a text: the piece itself, or where it is in a text read when used (a lazy text,
 * `pipeline/lazy_text.ts`): the early counts then hold no text of their own until they are used.
 */
type Piece = string | { backing: TextBacking; start: number; end: number };

function pieceText(piece: Piece): string {
  return typeof piece === "string" ? piece : piece.backing.read().slice(piece.start, piece.end);
}

/**
 * A piece as a helper is handed it: the piece itself, or, for a piece of a lazy text, a copy of
 * the UTF-8 bytes it is cut from (only its own, when the text is ASCII: one byte a character),
 * moved to the helper (`moved`), which decodes them. This thread does not decode the text to send
 * it, nor leave that copy as garbage in its heap (the texts of the files this thread scanned, a
 * big tree's half).
 */
function pieceToSend(piece: Piece, moved: ArrayBuffer[]): CountText {
  if (typeof piece === "string") return piece;
  const { backing, start, end } = piece;
  const bytes = backing.bytes?.();
  if (!bytes) return pieceText(piece);
  // Valid until the next text's bytes are read: copied at once.
  const ascii = bytes.length === backing.length;
  const sent = ascii ? bytes.slice(start, end) : bytes.slice();
  moved.push(sent.buffer);
  return ascii ? { bytes: sent, start: 0, end: end - start } : { bytes: sent, start, end };
}

function pieceLength(piece: Piece): number {
  return typeof piece === "string" ? piece.length : piece.end - piece.start;
}

interface Job {
  /** The file of each piece. */
  paths: string[];
  /** The pieces of the middles (slices of this thread's texts). */
  texts: Piece[];
  /** The spans of the pieces in their texts (the last piece of a text marked). */
  spans: Array<[string, number, number, boolean?]>;
}

/**
 * What a text has around its middle: the text before it and after it (a line or so each, kept
 * as copies) and the middle's first and last characters. A lazy block of that text is counted
 * from them without reading the text.
 */
interface Edges {
  prefix: string;
  suffix: string;
  first: string;
  last: string;
}

interface Known {
  edges?: Edges;
  middle: Piece;
  /** Where the middle starts in its text. */
  start: number;
  tokens: number;
}

/** A middle whose pieces are being counted. */
interface Partial {
  edges?: Edges;
  middle: Piece;
  /** Where the middle starts in its text. */
  start: number;
  tokens: number;
  /** Pieces not counted yet. */
  left: number;
  /** A piece could not be counted: the block is counted as before. */
  failed: boolean;
}

/** Characters per batch handed to a thread. */
const BATCH_CHARS = 256 * 1024;
/**
 * Shared batches (texts this helper did not keep) handed to a helper ahead of its answers: this
 * thread, rendering, lets answers in only between its stages and at {@linkcode precountTurn}'s
 * turns, and a helper with two left idle for most of the transform (bench/README.md, "Monorepo
 * scale"). Each is a copy of its texts (their bytes, for lazy texts) until counted: 16 are about
 * 4M characters.
 */
const SHARED_AHEAD = 16;
/** Middles longer than this are cut into pieces, so one large file does not keep one thread busy. */
const PIECE_CHARS = 256 * 1024;

/** Blocks counted from early counts since the last {@linkcode startPrecount}. */
let served = 0;

/**
 * How many blocks the last early counting served (for tests and timings).
 *
 * @example
 * ```ts
 * import { precountServed } from "./precount.ts";
 * precountServed(); // 0 before any build
 * ```
 */
export function precountServed(): number {
  return served;
}

/** Characters handed to the last {@linkcode startPrecount}'s counting. */
let given = 0;

/**
 * How many characters the last early counting was given to count (for tests and timings).
 *
 * @example
 * ```ts
 * import { precountGiven } from "./precount.ts";
 * precountGiven(); // 0 before any build
 * ```
 */
export function precountGiven(): number {
  return given;
}

/**
 * Rendering time (ms) between two turns of {@linkcode precountTurn}: a turn costs this thread a
 * few ms of waiting, and {@linkcode SHARED_AHEAD} batches are about 100 ms of a helper's counting.
 */
const TURN_MS = 50;
/** When the last turn of {@linkcode precountTurn} ended. */
let lastTurn = 0;

/**
 * A turn of the event loop (a timer's: a MessageChannel turn lets no worker's answer in) when
 * {@linkcode TURN_MS} have passed since the last one and a helper may wait for its next shared
 * batch; `undefined` otherwise. This thread lets the helpers' answers in, and hands each the next
 * batch, only where it waits: a transform that renders without waiting left them idle once their
 * batches were counted (bench/README.md, "twenty-sixth session, mono35").
 *
 * @example
 * ```ts
 * import { precountTurn } from "./precount.ts";
 * precountTurn(); // undefined: no early counts under way
 * ```
 */
export function precountTurn(): Promise<void> | undefined {
  if (performance.now() - lastTurn < TURN_MS) return undefined;
  const waiting = [...runs.values()].some((run) => run.helpers.length && run.shared.length);
  if (!waiting) return undefined;
  countWork("early count turns", 1);
  return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
    lastTurn = performance.now();
  });
}

/** Counting in progress, by tokenizer. */
const runs = new Map<string, Run>();

interface Run {
  queues: Job[][];
  shared: Job[];
  known: Map<string, Known>;
  partial: Map<string, Partial>;
  inFlight: Set<Promise<void>>;
  helpers: CountHelper[];
  /** Jobs handed to helpers, by claim index; this thread takes those no helper has begun. */
  sent: Job[];
  /** One flag per sent job, shared with the helpers: 0 free, 1 a helper's, 2 this thread's. */
  flags: Int32Array;
  /** The count stage waits for the counts ({@linkcode finishPrecount} has begun). */
  finishing?: boolean;
}

/**
 * Start counting the middles of `files`' texts on `helpers` (which are
 * stopped when done or drained); the counts wait for
 * {@linkcode knownCount}.
 *
 * @example
 * ```ts
 * import { startPrecount } from "./precount.ts";
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
  given = 0;
  // One queue per helper (the texts it scanned and kept: sent as spans) and one shared (texts).
  const queues: Job[][] = helpers.map(() => []);
  const shared: Job[] = [];
  const run: Run = {
    queues,
    shared,
    known: new Map(),
    partial: new Map(),
    inFlight: new Set(),
    helpers,
    sent: [],
    flags: new Int32Array(0),
  };
  runs.set(tokenizer, run);
  queueFiles(run, files);
  if (!shared.length && queues.every((q) => !q.length)) {
    helpers.forEach((h) => h.stop());
    run.helpers = [];
    return;
  }
  // Each helper is handed all its own batches at once (spans of texts it holds: nothing copied;
  // this thread lets answers in only between its stages) and SHARED_AHEAD shared ones, then one
  // shared batch per answer. Whatever no helper has begun by the end is taken back by this thread.
  const jobs = [shared, ...queues].reduce((n, q) => n + q.length, 0);
  run.flags = new Int32Array(new SharedArrayBuffer(4 * jobs));
  helpers.forEach((helper, i) => {
    for (let job = queues[i].shift(); job; job = queues[i].shift()) {
      sendJob(run, { helper, next: job, mine: true, table });
    }
    for (let n = 0; n < SHARED_AHEAD && shared.length; n++) {
      sendJob(run, { helper, next: shared.shift()!, mine: false, table });
    }
  });
}

/**
 * Queue the early spans of `files` in batches of about BATCH_CHARS: a file a helper kept goes to
 * that helper's queue (sent as spans), any other to the shared one (sent as texts), in pieces.
 */
function queueFiles(
  run: Run,
  files: Array<{ path: string; text: string; helper?: number }>,
): void {
  const { queues, shared } = run;
  const open = new Map<Job[], { job: Job; size: number }>();
  for (const file of files) {
    // A lazy text is read again when its pieces are used, not held by the counts meanwhile; its
    // plan was made as it was read (`noteEarlyPlan`), so it is not read here.
    const backing = textBacking(file);
    const noted = backing && plans.get(backing);
    const plan = noted === undefined ? planFor(file.text, backing !== undefined) : noted;
    if (!plan) continue;
    const { span, lengths } = plan;
    const queue = file.helper !== undefined && queues[file.helper] ? queues[file.helper] : shared;
    given += span[1] - span[0];
    run.partial.set(file.path, {
      edges: plan.edges,
      middle: backing ? { backing, start: span[0], end: span[1] } : plan.middle!,
      start: span[0],
      tokens: 0,
      left: lengths.length,
      failed: false,
    });
    let start = span[0];
    lengths.forEach((length, i) => {
      let at = open.get(queue);
      if (!at) open.set(queue, at = { job: { paths: [], texts: [], spans: [] }, size: 0 });
      const end = start + length;
      at.job.paths.push(file.path);
      at.job.texts.push(
        backing ? { backing, start, end } : plan.middle!.slice(start - span[0], end - span[0]),
      );
      at.job.spans.push(
        i === lengths.length - 1 ? [file.path, start, end, true] : [file.path, start, end],
      );
      at.size += length;
      start = end;
      if (at.size >= BATCH_CHARS) {
        queue.push(at.job);
        open.delete(queue);
      }
    });
  }
  for (const [queue, at] of open) queue.push(at.job);
}

/** Where a text's middle is, the lengths of its pieces, and (a lazy text's) its edges. */
interface EarlyPlan {
  span: [number, number];
  lengths: number[];
  edges?: Edges;
  /** The middle itself (a text that is not lazy). */
  middle?: string;
}

/** The plans of lazy texts made as they were read (`null`: the text has no middle to count). */
const plans = new WeakMap<TextBacking, EarlyPlan | null>();

/**
 * Make the early counts' plan of a lazy text (`pipeline/lazy_text.ts`) while it is at hand (as it
 * is read), so that handing it to the early counts does not read it again.
 *
 * @example
 * ```ts
 * import { noteEarlyPlan } from "./precount.ts";
 * noteEarlyPlan({ read: () => "x\n", length: 2 }, "x\n");
 * ```
 */
export function noteEarlyPlan(backing: TextBacking, text: string): void {
  const plan = planFor(text, true);
  if (plan) plan.middle = undefined;
  plans.set(backing, plan ?? null);
}

function planFor(text: string, lazy: boolean): EarlyPlan | undefined {
  const span = earlySpan(text);
  if (!span) return undefined;
  const middle = text.slice(span[0], span[1]);
  const lengths = splitForCounting(middle, PIECE_CHARS).map((piece) => piece.length);
  return { span, lengths, edges: lazy ? edgesOf(text, span) : undefined, middle };
}

/** Edges above this many characters are not kept (the text is read to count its block). */
const EDGE_CHARS = 256;

/** A text's {@linkcode Edges} around `span`, as copies (a slice would keep the whole text). */
function edgesOf(text: string, [start, end]: [number, number]): Edges | undefined {
  if (start + text.length - end > EDGE_CHARS) return undefined;
  // Sliced from a join made flat: a copy of the piece, not a view of the whole text.
  const copy = (s: string) => (" " + s).slice(1);
  return {
    prefix: copy(text.slice(0, start)),
    suffix: copy(text.slice(end)),
    first: text[start],
    last: text[end - 1],
  };
}

/**
 * Send a batch to a helper (spans when the helper holds the texts: `mine`), and when it
 * answers the next shared batch; when all are counted the helpers stop.
 */
function sendJob(
  run: Run,
  send: { helper: CountHelper; next: Job; mine: boolean; table: BpeTable },
): void {
  const { helper, next, mine, table } = send;
  const shared = run.shared;
  const claims = { flags: run.flags, index: run.sent.push(next) - 1 };
  const moved: ArrayBuffer[] = [];
  const job = mine
    ? { spans: next.spans, texts: [], claims }
    : { spans: [], texts: next.texts.map((piece) => pieceToSend(piece, moved)), claims, moved };
  const done: Promise<void> = helper.count(job, table).then(
    (counts) => {
      next.paths.forEach((p, i) => counted(run, p, counts[i]));
      if (counts[0] !== -2) {
        countCharacters(next, run.finishing ? "helpers, at count" : "helpers, ahead");
      }
    },
    // A helper that fails leaves these to be counted with their blocks.
    () => next.paths.forEach((p) => counted(run, p, -1)),
  ).then(() => {
    run.inFlight.delete(done);
    const more = shared.shift();
    if (more) sendJob(run, { helper, next: more, mine: false, table });
    else if (!run.inFlight.size && run.queues.every((q) => !q.length)) {
      // All counted: stop the threads now (a build that fails before it counts never waits).
      run.helpers.forEach((h) => h.stop());
      run.helpers = [];
    }
  });
  run.inFlight.add(done);
}

/** Count a job's characters as work (`countWork`), by who counted them: `by`. */
function countCharacters(job: Job, by: string): void {
  countWork(`early characters counted: ${by}`, job.spans.reduce((n, [, s, e]) => n + e - s, 0));
}

/**
 * Wait for the early counts of `tokenizer`, counting the batches no helper
 * has taken yet on this thread with `count`, then stop the helpers.
 *
 * @example
 * ```ts
 * import { finishPrecount } from "./precount.ts";
 * await finishPrecount("o200k", (text) => text.length);
 * ```
 */
export async function finishPrecount(
  tokenizer: string,
  count: (text: string) => number,
): Promise<void> {
  const run = runs.get(tokenizer);
  if (!run) return;
  run.finishing = true;
  // What no helper has taken yet is counted here (this thread has every text).
  for (const queue of [run.shared, ...run.queues]) {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { paths, texts } = job;
      paths.forEach((p, i) => counted(run, p, count(pieceText(texts[i]))));
      countCharacters(job, "this thread");
      // A task boundary where the helpers' answers come in (a MessageChannel turn lets none in),
      // so they are handed the next batches meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  // Then the jobs handed to helpers that none has begun, last first (the helpers go from the first).
  for (let i = run.sent.length - 1; i >= 0; i--) {
    if (Atomics.compareExchange(run.flags, i, 0, 2) !== 0) continue;
    const { paths, texts } = run.sent[i];
    paths.forEach((p, k) => counted(run, p, count(pieceText(texts[k]))));
    countCharacters(run.sent[i], "this thread");
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
 * import { knownCount } from "./precount.ts";
 * knownCount("o200k", "a.py", "### a.py\n", (t) => t.length); // undefined: nothing counted early
 * ```
 */
export function knownCount(
  tokenizer: string,
  path: string | undefined,
  whole: string | (() => string),
  count: (text: string) => number,
  parts?: string[],
): number | undefined {
  const known = path === undefined ? undefined : runs.get(tokenizer)?.known.get(path);
  if (!known) return undefined;
  if (parts?.length === 3) {
    const n = knownInParts(known, parts, count);
    if (n !== undefined) return n;
  }
  // The block whole, read only now (a lazy text's, `lazy_text.ts`, is read from disk).
  const block = typeof whole === "string" ? whole : whole();
  const middle = pieceText(known.middle);
  const at = block.indexOf(middle);
  const end = at + middle.length;
  if (at <= 0 || end >= block.length || !isCountCut(block, at) || !isCountCut(block, end)) {
    return undefined;
  }
  served++;
  return count(block.slice(0, at)) + known.tokens + count(block.slice(end));
}

/**
 * {@linkcode knownCount} of a block joined from `[head, text, tail]` where the middle is the
 * text's own (by position): read part by part, so the block is never copied whole. `undefined`
 * when the middle is not there or not at two safe line starts of the block.
 */
function knownInParts(
  known: Known,
  parts: string[],
  count: (text: string) => number,
): number | undefined {
  const head = parts[0];
  const tail = parts[2];
  // The parts of a lazy block whose file's text is the one counted early (the same record)
  // hold that middle there, and its edges tell the rest: the text is not read.
  const same = typeof known.middle !== "string" &&
    (parts as { backing?: TextBacking }).backing === known.middle.backing;
  if (same && known.edges) return knownByEdges(known, known.edges, [head, tail], count);
  const text = parts[1];
  const start = known.start;
  const end = start + pieceLength(known.middle);
  if (end > text.length) return undefined;
  if (!same && text.slice(start, end) !== pieceText(known.middle)) return undefined;
  // The characters around each end of the middle, in the block.
  const before = start > 0 ? text[start - 1] : head[head.length - 1];
  const after = end < text.length ? text[end] : tail[0];
  if (before === undefined || after === undefined) return undefined;
  if (!isCountCut(before + text[start], 1) || !isCountCut(text[end - 1] + after, 1)) {
    return undefined;
  }
  served++;
  return count(head + text.slice(0, start)) + known.tokens + count(text.slice(end) + tail);
}

/** {@linkcode knownInParts} of a lazy block of the text counted early, from that text's edges. */
function knownByEdges(
  known: Known,
  edges: Edges,
  [head, tail]: [string, string],
  count: (text: string) => number,
): number | undefined {
  const before = edges.prefix ? edges.prefix[edges.prefix.length - 1] : head[head.length - 1];
  const after = edges.suffix ? edges.suffix[0] : tail[0];
  if (before === undefined || after === undefined) return undefined;
  if (!isCountCut(before + edges.first, 1) || !isCountCut(edges.last + after, 1)) {
    return undefined;
  }
  served++;
  return count(head + edges.prefix) + known.tokens + count(edges.suffix + tail);
}

/** Early counts about to start (their table still loading), by tokenizer. */
const starting = new Map<string, Promise<void>>();

/**
 * Say that early counts of `tokenizer` start when `start` settles (it loads
 * the table first): {@linkcode precountReady} waits for it, so a count stage
 * that comes sooner still takes them, however busy the machine is.
 */
function precountStarting(tokenizer: string, start: Promise<unknown>): void {
  const settled = start.then(() => {}, () => {});
  starting.set(tokenizer, settled);
  settled.then(() => starting.get(tokenizer) === settled && starting.delete(tokenizer));
}

/**
 * Whether counts of `tokenizer` were started early, once those about to
 * start (see {@linkcode precountStarting}) have.
 */
async function precountReady(tokenizer: string): Promise<boolean> {
  await starting.get(tokenizer);
  return runs.has(tokenizer);
}

/**
 * Forget the early counts of `tokenizer` (they hold the texts) and stop
 * their helpers.
 *
 * @example
 * ```ts
 * import { stopRun } from "./precount.ts";
 * stopRun("o200k");
 * ```
 */
export function stopRun(tokenizer: string): void {
  const run = runs.get(tokenizer);
  if (!run) return;
  run.helpers.forEach((h) => h.stop());
  runs.delete(tokenizer);
}

/**
 * Add the count of one piece of `path`'s middle (-1: not counted; -2: counted by the other thread,
 * ignored); a complete middle is known.
 */
function counted(run: Run, path: string, tokens: number): void {
  const part = run.partial.get(path);
  if (!part || tokens === -2) return;
  if (tokens < 0) part.failed = true;
  else part.tokens += tokens;
  if (--part.left > 0) return;
  run.partial.delete(path);
  if (!part.failed) {
    run.known.set(path, {
      middle: part.middle,
      start: part.start,
      tokens: part.tokens,
      edges: part.edges,
    });
  }
}

/**
 * The secret scan's hand-off ({@linkcode ScanHandOff}): its workers count the kept texts of
 * `tokenizer` early, once the table is loaded. `keep`: the files whose blocks will hold their
 * text whole.
 *
 * @example
 * ```ts
 * import { countEarly } from "./precount.ts";
 * // await redactHandingOff(sources, rules, { cache, handOff: countEarly("o200k", cache, keep) });
 * ```
 */
export function countEarly(
  tokenizer: Tokenizer,
  cache: Cache | undefined,
  keep: ScanHandOff["keep"],
): ScanHandOff {
  return {
    keep,
    take(files, helpers) {
      // The count stage waits for these to start if it comes first (see `precountReady`).
      precountStarting(
        tokenizer,
        tableFor(tokenizer, cache).then(
          (table) => startPrecount(files, tokenizer, helpers, table),
          () => helpers.forEach((h) => h.stop()),
        ),
      );
    },
  };
}

/** The count stage's side of early counts (see {@linkcode earlyKnown}). */
export interface EarlyKnown {
  /** The i-th block's count from its file's early count (`KnownCountOptions.known`). */
  known: KnownCount;
  /** The count stage is done: forget the early counts and stop their workers. */
  done(): Promise<void>;
}

/**
 * Take blocks' counts from the early counts of their files: `sources[i]` is the i-th block's
 * file (a file block's path), `parts[i]` the parts it was joined from (`block_parts.ts`).
 *
 * @example
 * ```ts
 * import { earlyKnown } from "./precount.ts";
 * const early = earlyKnown("o200k", ["a.py"], [undefined]);
 * await early.known(0, () => "### a.py\n", () => Promise.resolve((t) => t.length)); // undefined
 * await early.done();
 * ```
 */
export function earlyKnown(
  tokenizer: Tokenizer,
  sources: Array<string | undefined>,
  parts: Array<string[] | undefined>,
): EarlyKnown {
  let ready: Promise<((text: string) => number) | undefined> | undefined;
  // Once asked for: wait for the early counts to start, then for those not done yet.
  const start = (counter: () => Promise<(text: string) => number>) =>
    ready ??= (async () => {
      if (!sources.some((s) => s !== undefined) || !await precountReady(tokenizer)) {
        return undefined;
      }
      const count = await counter();
      await finishPrecount(tokenizer, count);
      return count;
    })();
  return {
    async known(index, text, counter) {
      const count = await start(counter);
      return count && knownCount(tokenizer, sources[index], text, count, parts[index]);
    },
    async done() {
      if (ready ? await ready : await precountReady(tokenizer)) stopRun(tokenizer);
    },
  };
}
