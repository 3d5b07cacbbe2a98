/**
 * Parallel code views: tree-sitter parsing is CPU-bound and runs on one
 * thread, so when a build queues enough code to render, a small pool of Deno
 * Workers (one per other core, each loading web-tree-sitter and the grammars
 * itself) takes files from a shared queue while this thread takes them too.
 * Small builds never start a worker. Every thread runs the same engine
 * (`renderCode`), so the output bytes do not depend on where a file was
 * rendered.
 *
 * A worker's clock starts when it gets a file, not when the file is queued:
 * a file that takes longer than `timeoutMs` on a worker fails with a
 * `ClockError`, which fails the build (the worker is replaced): by default
 * past the parse deadline, which the work budget keeps every parse far from. A worker that cannot start or crashes leaves its
 * files to this thread, and no other worker starts until the pool is idle.
 * Idle workers are stopped, so a finished build holds no thread.
 *
 * A build that knows early which files it will render asks the pool to get
 * ready (`prepare`): while the build still scans, this thread loads the
 * grammars and the workers start and load theirs. No worker takes a file
 * before the burst of files has joined the queue (so it takes the largest),
 * and workers started for a build stay until the build says it is done.
 *
 * Tree-sitter memory grows to a thread's largest tree and never shrinks, so
 * when a burst has two or more large files ({@linkcode LARGE_FILE}), this
 * thread keeps the largest and starts it last, once the workers' files left
 * (read from a counter each worker updates while it parses) are at most
 * {@linkcode LARGE_START} of it: the workers get every file still queued, and
 * a worker that rendered a large file stops when it has answered them, which
 * frees its tree-sitter memory while this thread still builds its own tree.
 *
 * @module
 */

import { languageFor, languageOf } from "../../grammars/languages.ts";
// Not `parser.ts`: the pool needs nothing of `deps.ts` before its first parser.
import {
  abortsHere,
  type CompiledModules,
  compiledModules,
  type GrammarUrls,
  grammarUrls,
  modulesNow,
  parserFor,
  warmUp,
} from "../../grammars/tree_sitter.ts";
import { type CodeView, renderCode, type RenderCodeOptions, useSharedRenderer } from "./_code.ts";
import { recentRuns } from "./_code_recent.ts";
import { PARSE_DEADLINE_MS } from "./_parse_deadline.ts";
import { ClockError } from "../../pipeline/helpers.ts";

/** Options of {@linkcode codePool}. */
export interface CodePoolOptions {
  /** Threads to render with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  threads?: number;
  /** Queued characters that make the pool start its workers. @default {262144} */
  minChars?: number;
  /** Milliseconds one file may take on a worker. @default {POOL_TIMEOUT_MS} */
  timeoutMs?: number;
  /** The worker module (tests point it elsewhere). @default {"./_code_worker.ts"} */
  workerUrl?: string | URL;
  /** Milliseconds a `prepare` keeps idle workers after the pool's last file when the build never says it is done. @default {10000} */
  holdMs?: number;
}

/** Renders code views in parallel (see {@linkcode codePool}). */
export interface CodePool {
  /** Render like `renderCode`, on whichever thread is free first. */
  render(path: string, text: string, options?: RenderCodeOptions): Promise<CodeView | undefined>;
  /** Workers running now (0 when idle). */
  readonly workers: number;
  /** Workers that said they loaded and were told where the grammars are: a file sent starts. */
  readonly loaded: number;
  /**
   * Files rendered so far, by where, and the files whose parse made a worker's runtime abort
   * (each stopped that worker).
   */
  readonly rendered: { thisThread: number; workers: number; workerAborts: number };
  /**
   * Get ready for files about to be rendered: load their grammars on this thread and, when they
   * are enough characters for workers, start the workers (which load the grammars too). Idle
   * workers stay until the returned function is called (or the pool is idle for
   * {@linkcode PREPARE_HOLD_MS}).
   */
  prepare(files: PreparedFile[]): () => void;
}

/** A file a build will render (see {@linkcode CodePool.prepare}). */
export interface PreparedFile {
  /** Its path (the grammar comes from the extension). */
  path: string;
  /** Its length in characters. */
  chars: number;
}

/**
 * The longest a `prepare` keeps idle workers when the build never says it is done, counted from
 * the pool's last file: a budget's step renders come in batches for as long as the budget runs
 * (minutes on a big tree), and a worker started again for each batch loads its runtime and
 * grammars again.
 */
const PREPARE_HOLD_MS = 10_000;

interface Job {
  id: number;
  path: string;
  text: string;
  options: RenderCodeOptions;
  resolve: (view: CodeView | undefined) => void;
  reject: (error: Error) => void;
}

interface Lane {
  worker: Worker;
  jobs: Map<number, Job>;
  chars: number;
  /** Characters of every file sent to the worker. */
  sent: number;
  /** Characters of them the worker has parsed (it updates the counter as it parses). */
  progress: Int32Array;
  /** A large file was sent to the worker: its tree-sitter memory is large. */
  large: boolean;
  /** The worker was asked to stop once its files are answered (it takes no more). */
  closing: boolean;
  /** The worker said it loaded. */
  ready: boolean;
  /** The worker was told where the runtime and the grammars are (files wait until then). */
  told: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** What a worker posts: `{ ready: true }` once loaded, then one answer per file. */
interface Answer {
  ready?: boolean;
  id?: number;
  view?: CodeView;
  error?: string;
  /** The error is a clock's stop (a `ClockError`). */
  clock?: boolean;
  /** The worker's tree-sitter runtime aborted on this file: the worker stops. */
  aborted?: boolean;
}

/**
 * Milliseconds one file may take on a worker by default: its parse's deadline and a minute for
 * the rest (the walk, which the work budget bounds as it does the parse).
 */
const POOL_TIMEOUT_MS = PARSE_DEADLINE_MS + 60_000;

/** A worker that has not loaded after this long is given up (its files go to this thread). */
const STARTUP_MS = 60_000;

/**
 * The hook timeout of the code views: a file may wait this long in the
 * pool's queue; its work is bounded by the pool's own `timeoutMs`.
 */
export const CODE_VIEW_TIMEOUT_MS: number = 6 * 60 * 60 * 1000;

/**
 * A worker holds one file waiting behind the one it renders, so it does not wait while this
 * thread parses a file of its own, and no more: files sent to a worker cannot be taken back, so a
 * longer backlog leaves this thread idle at the end of the build while the worker finishes it.
 */
const LANE_FILES = 2;
/** A worker is given a second file only under this many characters; a file as large holds it alone. */
const LANE_CHARS = 256 * 1024;
/**
 * A file this long makes a large tree (about 20 bytes of tree-sitter memory a character, which
 * the thread keeps after the tree is deleted): with two of them in a burst, this thread keeps the
 * largest for itself (see the module's notes).
 */
export const LARGE_FILE: number = 1024 * 1024;
/**
 * This thread starts the large file it keeps when the workers' characters left, on average, are
 * at most this share of it: the workers finish early, and a worker's tree-sitter memory is freed
 * before this thread's tree is whole (a larger share: less time, more memory at once).
 */
const LARGE_START = 0.5;

/**
 * A pool of code-view renderers. Built-in views share one
 * ({@linkcode renderCodeShared}).
 *
 * @example
 * ```ts
 * import { codePool } from "./_code_pool.ts";
 * const pool = codePool({ threads: 1 });
 * const view = await pool.render("a.py", "def f(x):\n    return x\n");
 * view?.text; // "def f(x):\n    ...\n"
 * ```
 */
export function codePool(options: CodePoolOptions = {}): CodePool {
  const pool: PoolState = {
    threads: Math.max(1, Math.floor(options.threads ?? navigator.hardwareConcurrency ?? 1)),
    minChars: options.minChars ?? 256 * 1024,
    timeoutMs: options.timeoutMs ?? POOL_TIMEOUT_MS,
    workerUrl: String(options.workerUrl ?? new URL("./_code_worker.ts", import.meta.url)),
    holdMs: options.holdMs ?? PREPARE_HOLD_MS,
    lastBusy: 0,
    queue: [],
    queuedChars: 0,
    lanes: [],
    broken: false,
    aborted: 0,
    mainRunning: false,
    settled: false,
    nextId: 0,
    sorted: true,
    mainRendering: false,
    rendered: { thisThread: 0, workers: 0, workerAborts: 0 },
    holds: 0,
    grammars: new Set(),
  };
  return {
    render(path, text, renderOptions = {}) {
      if (!languageOf(path, text)) return Promise.resolve(undefined);
      pool.lastBusy = performance.now();
      return new Promise((resolve, reject) => {
        pool.queue.push({ id: pool.nextId++, path, text, options: renderOptions, resolve, reject });
        pool.sorted = false;
        pool.queuedChars += text.length;
        pump(pool);
      });
    },
    get workers() {
      return pool.lanes.length;
    },
    get loaded() {
      return pool.lanes.filter((lane) => lane.ready && lane.told && !lane.closing).length;
    },
    rendered: pool.rendered,
    prepare: (files) => prepare(pool, files),
  };
}

/** What a pool holds: its settings, the queue, the lanes (workers) and this thread's loop. */
interface PoolState {
  threads: number;
  minChars: number;
  timeoutMs: number;
  workerUrl: string;
  holdMs: number;
  /** When the pool last had a file queued or rendering (`performance.now()`). */
  lastBusy: number;
  queue: Job[];
  queuedChars: number;
  lanes: Lane[];
  broken: boolean;
  /** Workers stopped since the pool was last idle because their runtime aborted. */
  aborted: number;
  mainRunning: boolean;
  /** The files of this burst have joined the queue: workers may take them (the largest first). */
  settled: boolean;
  nextId: number;
  sorted: boolean;
  /** This thread is rendering a file (`mainRunning`: its loop exists, maybe between files). */
  mainRendering: boolean;
  /** Resumes this thread's loop when the pool stops while it waits for events. */
  wake?: () => void;
  rendered: { thisThread: number; workers: number; workerAborts: number };
  /** Lets this thread see worker messages between two of its own files (timers are clamped). */
  channel?: MessageChannel;
  /** Builds that prepared and are not done yet: idle workers stay while any is. */
  holds: number;
  /** Grammars of the prepared files: a worker loads them as it starts, before its first file. */
  grammars: Set<string>;
  /** The burst's largest file, kept for this thread (see {@linkcode LARGE_FILE}). */
  kept?: Job;
}

/** {@linkcode CodePool.prepare}. */
function prepare(pool: PoolState, files: PreparedFile[]): () => void {
  const wanted = new Set<string>();
  let chars = 0;
  for (const file of files) {
    const spec = languageFor(file.path);
    if (!spec) continue;
    wanted.add(spec.grammar);
    chars += file.chars;
  }
  if (!wanted.size) return () => {};
  // Compiled now when they can be (the workers are given them, this thread's loading below
  // uses them); a failure is reported by the loading below.
  modulesOrNothing(wanted);
  // A grammar that fails to load is not kept: the render that needs it retries and reports.
  for (const grammar of wanted) {
    pool.grammars.add(grammar);
    if (!workersOnly(pool)) parserFor(grammar).then(warmUp, () => {});
  }
  pool.holds++;
  // Workers start now, while the build still scans: they take no file before the burst has
  // joined the queue, so they take the largest.
  startLanes(pool, chars);
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    // Not `stopWhenIdle` while other holds remain: it would mark the pool busy now, and each
    // hold left to its timer would wait `holdMs` more after the one before it.
    if (--pool.holds === 0) stopWhenIdle(pool);
  };
  // Held on while files come: the hold ends once the pool has been idle for `holdMs`.
  const expire = () => {
    const idle = performance.now() - pool.lastBusy;
    if (!busy(pool) && idle >= pool.holdMs) return release();
    timer = unref(setTimeout(expire, busy(pool) ? pool.holdMs : pool.holdMs - idle));
  };
  // Unref'd: a hold never keeps a process alive by itself (a worker it keeps does, for `holdMs`).
  let timer = unref(setTimeout(expire, pool.holdMs));
  return release;
}

/** The timer, which no longer keeps the process alive (a worker it waits for still does). */
function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  // `setTimeout` gives Node's `Timeout` object, which `Deno.unrefTimer` takes (not its number).
  Deno.unrefTimer(timer as unknown as number);
  return timer;
}

/** Start the workers when `chars` characters to render are enough for them. */
function startLanes(pool: PoolState, chars: number): void {
  if (pool.broken || pool.threads < 2 || (chars < pool.minChars && !workersOnly(pool))) return;
  while (pool.lanes.length < pool.threads - 1 && !pool.broken) startLane(pool);
}

function pump(pool: PoolState): void {
  if (pool.queue.length) startLanes(pool, pool.queuedChars);
  for (const lane of pool.lanes) feed(pool, lane);
  if (!pool.mainRunning && pool.queue.length && !workersOnly(pool)) {
    pool.mainRunning = true;
    runMain(pool).then(() => pump(pool));
  }
}

/** The largest file queued (the queue is not empty). */
function peek(pool: PoolState): Job {
  if (!pool.sorted) {
    pool.queue.sort((a, b) => b.text.length - a.text.length || a.id - b.id);
    pool.sorted = true;
  }
  return pool.queue[0];
}

/** Workers take the largest file queued, this thread the smallest (it comes back to feed them sooner). */
function take(pool: PoolState, largest: boolean): Job | undefined {
  if (pool.queue.length) peek(pool);
  const job = largest ? pool.queue.shift() : pool.queue.pop();
  if (job) pool.queuedChars -= job.text.length;
  return job;
}

async function runMain(pool: PoolState): Promise<void> {
  // Let every file of this burst join the queue first (a macrotask: the files arrive through
  // chains of promises), so the pool sees the whole batch and its workers take the largest.
  await new Promise((resolve) => setTimeout(resolve, 0));
  pool.settled = true;
  pool.kept = keepLargest(pool);
  for (const lane of pool.lanes) feed(pool, lane);
  for (let job = nextJob(pool); job; job = nextJob(pool)) {
    pool.mainRendering = true;
    try {
      const view = await renderCode(job.path, job.text, job.options);
      pool.rendered.thisThread++;
      job.resolve(view);
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      pool.mainRendering = false;
    }
    if (!pool.queue.length && !pool.kept) break;
    if (pool.lanes.length) await yieldToEvents(pool);
  }
  // In the same tick as the last file settles: idle workers stop before its caller runs on.
  pool.mainRunning = false;
  pool.settled = false;
  stopWhenIdle(pool);
}

/** With workers, the burst's largest file when another is large too (it leaves the queue). */
function keepLargest(pool: PoolState): Job | undefined {
  if (!pool.lanes.length || pool.queue.length < 2) return undefined;
  peek(pool);
  if (pool.queue[1].text.length < LARGE_FILE) return undefined;
  const job = pool.queue.shift()!;
  pool.queuedChars -= job.text.length;
  return job;
}

/**
 * This thread leaves the files to the workers once its own runtime aborted: the memory of an
 * aborted runtime stays reserved on this thread, a worker's is freed when it stops.
 */
function workersOnly(pool: PoolState): boolean {
  return abortsHere() > 0 && pool.threads > 1 && !pool.broken;
}

/** This thread's next file: the one it keeps once the workers' work left is small enough, else the smallest. */
function nextJob(pool: PoolState): Job | undefined {
  const kept = pool.kept;
  if (workersOnly(pool)) {
    pool.kept = undefined;
    if (kept) requeue(pool, [kept]);
    return undefined;
  }
  if (kept && (!pool.queue.length || workLeft(pool) <= kept.text.length * LARGE_START)) {
    pool.kept = undefined;
    handOut(pool);
    return kept;
  }
  return take(pool, false);
}

/** Characters the workers have left, queued ones included, per worker. */
function workLeft(pool: PoolState): number {
  const open = pool.lanes.filter((l) => !l.closing);
  if (!open.length) return 0;
  let chars = pool.queuedChars;
  for (const lane of open) chars += Math.max(0, lane.sent - Atomics.load(lane.progress, 0));
  return chars / open.length;
}

/**
 * This thread is about to render its large file and will not feed the workers for a while:
 * they get every file queued (the least loaded first), and one with a large tree stops once done.
 */
function handOut(pool: PoolState): void {
  const open = pool.lanes.filter((l) => l.told && !l.closing);
  while (pool.queue.length && open.length) {
    const left = (l: Lane) => l.sent - Atomics.load(l.progress, 0);
    post(pool, open.reduce((a, b) => left(b) < left(a) ? b : a), take(pool, true)!);
  }
  for (const lane of pool.lanes.filter((l) => l.large && !l.closing)) {
    lane.closing = true;
    if (lane.jobs.size) lane.worker.postMessage({ close: true });
    else retire(pool, lane);
  }
}

/** Remove a lane whose worker stops (or has stopped) by itself. */
function retire(pool: PoolState, lane: Lane): void {
  clearTimeout(lane.timer);
  lane.worker.terminate();
  pool.lanes = pool.lanes.filter((l) => l !== lane);
}

function yieldToEvents(pool: PoolState): Promise<void> {
  if (!pool.channel) return Promise.resolve();
  const port = pool.channel;
  return new Promise((resolve) => {
    pool.wake = resolve;
    port.port1.onmessage = () => {
      pool.wake = undefined;
      resolve();
    };
    port.port2.postMessage(0);
  });
}

function startLane(pool: PoolState): void {
  let worker: Worker;
  try {
    worker = new Worker(pool.workerUrl, { type: "module" });
  } catch {
    pool.broken = true;
    return;
  }
  pool.channel ??= new MessageChannel();
  const lane: Lane = {
    worker,
    jobs: new Map(),
    chars: 0,
    sent: 0,
    progress: new Int32Array(new SharedArrayBuffer(4)),
    large: false,
    closing: false,
    ready: false,
    told: false,
  };
  pool.lanes.push(lane);
  introduceSoon(pool, lane);
  // Loading the module and the runtime is not a file's work: the clock starts when the worker is ready.
  lane.timer = setTimeout(() => {
    pool.broken = true;
    drop(pool, lane);
  }, STARTUP_MS);
  worker.onmessage = (event: MessageEvent<Answer>) => answered(pool, lane, event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    pool.broken = true;
    drop(pool, lane);
  };
}

/**
 * Tell a new worker where the runtime and the grammars are, so it loads them without `deps.ts`,
 * and the modules this thread compiled (the worker instantiates them: one copy of the machine
 * code); its first file waits for that. The prepared grammars and the runtime are compiled now if
 * need be: the worker loads them while this thread scans, instead of waiting for this thread to
 * load its own.
 */
function introduceSoon(pool: PoolState, lane: Lane): void {
  const introduce = (urls: GrammarUrls, modules?: CompiledModules) => {
    lane.worker.postMessage({
      urls,
      modules,
      grammars: [...pool.grammars],
      progress: lane.progress,
    });
    lane.told = true;
  };
  const tell = (urls?: GrammarUrls, modules?: CompiledModules) => {
    if (!pool.lanes.includes(lane)) return;
    if (urls) introduce(urls, modules);
    else lane.told = true;
    pump(pool);
  };
  const now = pool.grammars.size ? modulesOrNothing(pool.grammars) : undefined;
  if (now) introduce(now.urls, now.modules);
  else {
    Promise.all([grammarUrls(), compiledModules()]).then(
      ([urls, modules]) => tell(urls, modules),
      () => tell(),
    );
  }
}

/** A worker's message: it loaded, or a file's view (or error). */
function answered(pool: PoolState, lane: Lane, answer: Answer): void {
  if (answer.ready) {
    lane.ready = true;
    arm(pool, lane);
    pump(pool);
    stopWhenIdle(pool);
    return;
  }
  const job = lane.jobs.get(answer.id!);
  if (!job) return;
  lane.jobs.delete(job.id);
  lane.chars -= job.text.length;
  arm(pool, lane);
  if (answer.error !== undefined) {
    job.reject(answer.clock ? new ClockError(answer.error) : new Error(answer.error));
  } else {
    pool.rendered.workers++;
    job.resolve(answer.view);
  }
  if (answer.aborted) return restartLane(pool, lane);
  if (lane.closing && !lane.jobs.size) retire(pool, lane);
  pump(pool);
  stopWhenIdle(pool);
}

function feed(pool: PoolState, lane: Lane): void {
  if (!lane.told || !(pool.settled || workersOnly(pool)) || lane.closing) return;
  while (
    pool.queue.length &&
    (lane.jobs.size === 0 || (lane.jobs.size < LANE_FILES && lane.chars < LANE_CHARS))
  ) {
    // A large file waits for a loaded worker: by then the burst has joined the queue, so the
    // worker takes the largest of them, not the first large one to arrive.
    if (!lane.ready && peek(pool).text.length >= LANE_CHARS) break;
    post(pool, lane, take(pool, true)!);
  }
}

function post(pool: PoolState, lane: Lane, job: Job): void {
  lane.jobs.set(job.id, job);
  lane.chars += job.text.length;
  lane.sent += job.text.length;
  if (job.text.length >= LARGE_FILE) lane.large = true;
  if (lane.jobs.size === 1) arm(pool, lane);
  lane.worker.postMessage({ id: job.id, path: job.path, text: job.text, options: job.options });
}

/** The clock runs while the lane has work: from its first file, restarted at each answer. */
function arm(pool: PoolState, lane: Lane): void {
  if (!lane.ready) return;
  clearTimeout(lane.timer);
  lane.timer = undefined;
  if (!lane.jobs.size) return;
  lane.timer = setTimeout(() => {
    const [first] = lane.jobs.values();
    lane.jobs.delete(first.id);
    first.reject(new ClockError(`No result within ${pool.timeoutMs} ms`));
    drop(pool, lane);
  }, pool.timeoutMs);
}

/** Stop a lane and give its files back to the queue (this thread renders them if no worker can). */
function drop(pool: PoolState, lane: Lane): void {
  retire(pool, lane);
  requeue(pool, [...lane.jobs.values()]);
  lane.jobs.clear();
  pump(pool);
  stopWhenIdle(pool);
}

/**
 * Most workers whose runtime may abort before the pool is next idle: the last of them is not
 * replaced, and the files left are rendered on this thread.
 */
const MAX_ABORTED_WORKERS = 4;

/**
 * Stop a worker whose runtime aborted (its memory is freed with it) and give its files back to
 * the queue: a new worker takes them, up to {@linkcode MAX_ABORTED_WORKERS}.
 */
function restartLane(pool: PoolState, lane: Lane): void {
  pool.rendered.workerAborts++;
  if (++pool.aborted >= MAX_ABORTED_WORKERS) pool.broken = true;
  drop(pool, lane);
}

/** Put files back in the queue. */
function requeue(pool: PoolState, jobs: Job[]): void {
  pool.queue.push(...jobs);
  pool.sorted = false;
  for (const job of jobs) pool.queuedChars += job.text.length;
}

/** Files are queued or rendering. */
function busy(pool: PoolState): boolean {
  return pool.queue.length > 0 || pool.mainRendering || pool.lanes.some((l) => l.jobs.size > 0);
}

function stopWhenIdle(pool: PoolState): void {
  if (busy(pool)) return;
  pool.lastBusy = performance.now();
  if (pool.holds) return;
  for (const lane of pool.lanes) {
    clearTimeout(lane.timer);
    lane.worker.terminate();
  }
  pool.lanes = [];
  pool.channel?.port1.close();
  pool.channel?.port2.close();
  pool.channel = undefined;
  pool.broken = false;
  pool.aborted = 0;
  const resume = pool.wake;
  pool.wake = undefined;
  resume?.();
}

/** {@linkcode modulesNow}, or undefined when a `.wasm` cannot be read (the loading that needs it reports). */
function modulesOrNothing(grammars: Iterable<string>): ReturnType<typeof modulesNow> {
  try {
    return modulesNow(grammars);
  } catch {
    return undefined;
  }
}

let shared: CodePool | undefined;
const recent = recentRuns();

/**
 * Render with the process's shared pool (what `skeleton`, `outline` and
 * `masked` use); while a build is prepared, a file rendered again with the
 * same text and options (the budget's step from `skeleton` to `outline`)
 * takes the run kept of the last ones (`_code_recent.ts`).
 *
 * @example
 * ```ts
 * import { renderCodeShared } from "./_code_pool.ts";
 * const view = await renderCodeShared("a.py", "def f(x):\n    return x\n");
 * view?.text; // "def f(x):\n    ...\n"
 * ```
 */
export function renderCodeShared(
  path: string,
  text: string,
  options: RenderCodeOptions = {},
): Promise<CodeView | undefined> {
  shared ??= codePool();
  const pool = shared;
  return recent.run(path, text, options, () => pool.render(path, text, options));
}

// The code views (`renderOrFallback` of `_code.ts`) render with the shared pool.
useSharedRenderer(renderCodeShared);

/**
 * Get the process's shared pool ready for files a build is about to render
 * with a code view (see {@linkcode CodePool.prepare}); call the returned
 * function when the build's transform stage is over.
 *
 * @example
 * ```ts
 * import { prepareCodeShared } from "./_code_pool.ts";
 * const done = prepareCodeShared([{ path: "a.py", chars: 20 }]);
 * done();
 * ```
 */
export function prepareCodeShared(files: PreparedFile[]): () => void {
  shared ??= codePool();
  const release = shared.prepare(files);
  const close = recent.open();
  return () => {
    release();
    close();
  };
}
