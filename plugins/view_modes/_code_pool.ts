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
 * a file that takes longer than `timeoutMs` on a worker fails with an error
 * (the worker is replaced). A worker that cannot start or crashes leaves its
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

import { languageFor } from "../../grammars/languages.ts";
// Not `parser.ts`: the pool needs nothing of `deps.ts` before its first parser.
import {
  type CompiledModules,
  compiledModules,
  type GrammarUrls,
  grammarUrls,
  modulesNow,
  parserFor,
  warmUp,
} from "../../grammars/tree_sitter.ts";
import { type CodeView, renderCode, type RenderCodeOptions, useSharedRenderer } from "./_code.ts";

/** Options of {@linkcode codePool}. */
export interface CodePoolOptions {
  /** Threads to render with (this one and workers); 1: no workers. @default {navigator.hardwareConcurrency} */
  threads?: number;
  /** Queued characters that make the pool start its workers. @default {262144} */
  minChars?: number;
  /** Milliseconds one file may take on a worker. @default {60000} */
  timeoutMs?: number;
  /** The worker module (tests point it elsewhere). @default {"./_code_worker.ts"} */
  workerUrl?: string | URL;
}

/** Renders code views in parallel (see {@linkcode codePool}). */
export interface CodePool {
  /** Render like `renderCode`, on whichever thread is free first. */
  render(path: string, text: string, options?: RenderCodeOptions): Promise<CodeView | undefined>;
  /** Workers running now (0 when idle). */
  readonly workers: number;
  /** Files rendered so far, by where. */
  readonly rendered: { thisThread: number; workers: number };
  /**
   * Get ready for files about to be rendered: load their grammars on this thread and, when they
   * are enough characters for workers, start the workers (which load the grammars too). Idle
   * workers stay until the returned function is called (or {@linkcode PREPARE_HOLD_MS} pass).
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

/** The longest a `prepare` keeps idle workers when the build never says it is done. */
export const PREPARE_HOLD_MS = 10_000;

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
}

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
export const LARGE_START = 0.5;

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
  const threads = Math.max(1, Math.floor(options.threads ?? navigator.hardwareConcurrency ?? 1));
  const minChars = options.minChars ?? 256 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const workerUrl = String(options.workerUrl ?? new URL("./_code_worker.ts", import.meta.url));
  const queue: Job[] = [];
  let queuedChars = 0;
  let lanes: Lane[] = [];
  let broken = false;
  let mainRunning = false;
  /** The files of this burst have joined the queue: workers may take them (the largest first). */
  let settled = false;
  let nextId = 0;
  let sorted = true;
  /** This thread is rendering a file (`mainRunning`: its loop exists, maybe between files). */
  let mainRendering = false;
  /** Resumes this thread's loop when the pool stops while it waits for events. */
  let wake: (() => void) | undefined;
  const rendered = { thisThread: 0, workers: 0 };
  // Lets this thread see worker messages between two of its own files (timers are clamped).
  let channel: MessageChannel | undefined;
  /** Builds that prepared and are not done yet: idle workers stay while any is. */
  let holds = 0;
  /** Grammars of the prepared files: a worker loads them as it starts, before its first file. */
  const grammars = new Set<string>();
  /** The burst's largest file, kept for this thread (see {@linkcode LARGE_FILE}). */
  let kept: Job | undefined;

  /** Start the workers when `chars` characters to render are enough for them. */
  function startLanes(chars: number): void {
    if (broken || threads < 2 || chars < minChars) return;
    while (lanes.length < threads - 1 && !broken) startLane();
  }

  function pump(): void {
    if (queue.length) startLanes(queuedChars);
    for (const lane of lanes) feed(lane);
    if (!mainRunning && queue.length) {
      mainRunning = true;
      runMain().then(pump);
    }
  }

  /** The largest file queued (the queue is not empty). */
  function peek(): Job {
    if (!sorted) {
      queue.sort((a, b) => b.text.length - a.text.length || a.id - b.id);
      sorted = true;
    }
    return queue[0];
  }

  /** Workers take the largest file queued, this thread the smallest (it comes back to feed them sooner). */
  function take(largest: boolean): Job | undefined {
    if (queue.length) peek();
    const job = largest ? queue.shift() : queue.pop();
    if (job) queuedChars -= job.text.length;
    return job;
  }

  async function runMain(): Promise<void> {
    // Let every file of this burst join the queue first (a macrotask: the files arrive through
    // chains of promises), so the pool sees the whole batch and its workers take the largest.
    await new Promise((resolve) => setTimeout(resolve, 0));
    settled = true;
    kept = keepLargest();
    for (const lane of lanes) feed(lane);
    for (let job = next(); job; job = next()) {
      mainRendering = true;
      try {
        const view = await renderCode(job.path, job.text, job.options);
        rendered.thisThread++;
        job.resolve(view);
      } catch (error) {
        job.reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        mainRendering = false;
      }
      if (!queue.length && !kept) break;
      if (lanes.length) await yieldToEvents();
    }
    // In the same tick as the last file settles: idle workers stop before its caller runs on.
    mainRunning = false;
    settled = false;
    stopWhenIdle();
  }

  /** With workers, the burst's largest file when another is large too (it leaves the queue). */
  function keepLargest(): Job | undefined {
    if (!lanes.length || queue.length < 2) return undefined;
    peek();
    if (queue[1].text.length < LARGE_FILE) return undefined;
    const job = queue.shift()!;
    queuedChars -= job.text.length;
    return job;
  }

  /** This thread's next file: the one it keeps once the workers' work left is small enough, else the smallest. */
  function next(): Job | undefined {
    if (kept && (!queue.length || workLeft() <= kept.text.length * LARGE_START)) {
      const job = kept;
      kept = undefined;
      handOut();
      return job;
    }
    return take(false);
  }

  /** Characters the workers have left, queued ones included, per worker. */
  function workLeft(): number {
    const open = lanes.filter((l) => !l.closing);
    if (!open.length) return 0;
    let chars = queuedChars;
    for (const lane of open) chars += Math.max(0, lane.sent - Atomics.load(lane.progress, 0));
    return chars / open.length;
  }

  /**
   * This thread is about to render its large file and will not feed the workers for a while:
   * they get every file queued (the least loaded first), and one with a large tree stops once done.
   */
  function handOut(): void {
    const open = lanes.filter((l) => l.told && !l.closing);
    while (queue.length && open.length) {
      const left = (l: Lane) => l.sent - Atomics.load(l.progress, 0);
      post(open.reduce((a, b) => left(b) < left(a) ? b : a), take(true)!);
    }
    for (const lane of lanes.filter((l) => l.large && !l.closing)) {
      lane.closing = true;
      if (lane.jobs.size) lane.worker.postMessage({ close: true });
      else retire(lane);
    }
  }

  /** Remove a lane whose worker stops (or has stopped) by itself. */
  function retire(lane: Lane): void {
    clearTimeout(lane.timer);
    lane.worker.terminate();
    lanes = lanes.filter((l) => l !== lane);
  }

  function yieldToEvents(): Promise<void> {
    if (!channel) return Promise.resolve();
    const port = channel;
    return new Promise((resolve) => {
      wake = resolve;
      port.port1.onmessage = () => {
        wake = undefined;
        resolve();
      };
      port.port2.postMessage(0);
    });
  }

  function startLane(): void {
    let worker: Worker;
    try {
      worker = new Worker(workerUrl, { type: "module" });
    } catch {
      broken = true;
      return;
    }
    channel ??= new MessageChannel();
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
    // Where the runtime and the grammars are, so the worker loads them without `deps.ts`, and the
    // modules this thread compiled (the worker instantiates them: one copy of the machine code);
    // its first file waits for that.
    const introduce = (urls: GrammarUrls, modules?: CompiledModules) => {
      worker.postMessage({ urls, modules, grammars: [...grammars], progress: lane.progress });
      lane.told = true;
    };
    const tell = (urls?: GrammarUrls, modules?: CompiledModules) => {
      if (!lanes.includes(lane)) return;
      if (urls) introduce(urls, modules);
      else lane.told = true;
      pump();
    };
    lanes.push(lane);
    // The prepared grammars and the runtime, compiled now if need be: the worker loads them
    // while this thread scans, instead of waiting for this thread to load its own.
    const now = grammars.size ? modulesOrNothing(grammars) : undefined;
    if (now) introduce(now.urls, now.modules);
    else {
      Promise.all([grammarUrls(), compiledModules()]).then(
        ([urls, modules]) => tell(urls, modules),
        () => tell(),
      );
    }
    // Loading the module and the runtime is not a file's work: the clock starts when the worker is ready.
    lane.timer = setTimeout(() => {
      broken = true;
      drop(lane);
    }, STARTUP_MS);
    worker.onmessage = (event: MessageEvent<Answer>) => {
      if (event.data.ready) {
        lane.ready = true;
        arm(lane);
        pump();
        stopWhenIdle();
        return;
      }
      const job = lane.jobs.get(event.data.id!);
      if (!job) return;
      lane.jobs.delete(job.id);
      lane.chars -= job.text.length;
      arm(lane);
      if (event.data.error !== undefined) job.reject(new Error(event.data.error));
      else {
        rendered.workers++;
        job.resolve(event.data.view);
      }
      if (lane.closing && !lane.jobs.size) retire(lane);
      pump();
      stopWhenIdle();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      broken = true;
      drop(lane);
    };
  }

  function feed(lane: Lane): void {
    if (!lane.told || !settled || lane.closing) return;
    while (
      queue.length &&
      (lane.jobs.size === 0 || (lane.jobs.size < LANE_FILES && lane.chars < LANE_CHARS))
    ) {
      // A large file waits for a loaded worker: by then the burst has joined the queue, so the
      // worker takes the largest of them, not the first large one to arrive.
      if (!lane.ready && peek().text.length >= LANE_CHARS) break;
      post(lane, take(true)!);
    }
  }

  function post(lane: Lane, job: Job): void {
    lane.jobs.set(job.id, job);
    lane.chars += job.text.length;
    lane.sent += job.text.length;
    if (job.text.length >= LARGE_FILE) lane.large = true;
    if (lane.jobs.size === 1) arm(lane);
    lane.worker.postMessage({ id: job.id, path: job.path, text: job.text, options: job.options });
  }

  /** The clock runs while the lane has work: from its first file, restarted at each answer. */
  function arm(lane: Lane): void {
    if (!lane.ready) return;
    clearTimeout(lane.timer);
    lane.timer = undefined;
    if (!lane.jobs.size) return;
    lane.timer = setTimeout(() => {
      const [first] = lane.jobs.values();
      lane.jobs.delete(first.id);
      first.reject(new Error(`No result within ${timeoutMs} ms`));
      drop(lane);
    }, timeoutMs);
  }

  /** Stop a lane and give its files back to the queue (this thread renders them if no worker can). */
  function drop(lane: Lane): void {
    retire(lane);
    const jobs = [...lane.jobs.values()];
    queue.push(...jobs);
    sorted = false;
    for (const job of jobs) queuedChars += job.text.length;
    lane.jobs.clear();
    pump();
    stopWhenIdle();
  }

  function stopWhenIdle(): void {
    if (holds || queue.length || mainRendering || lanes.some((l) => l.jobs.size)) return;
    for (const lane of lanes) {
      clearTimeout(lane.timer);
      lane.worker.terminate();
    }
    lanes = [];
    channel?.port1.close();
    channel?.port2.close();
    channel = undefined;
    broken = false;
    const resume = wake;
    wake = undefined;
    resume?.();
  }

  return {
    render(path, text, renderOptions = {}) {
      if (!languageFor(path)) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, path, text, options: renderOptions, resolve, reject });
        sorted = false;
        queuedChars += text.length;
        pump();
      });
    },
    get workers() {
      return lanes.length;
    },
    rendered,
    prepare(files) {
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
        grammars.add(grammar);
        parserFor(grammar).then(warmUp, () => {});
      }
      holds++;
      // Workers start now, while the build still scans: they take no file before the burst has
      // joined the queue, so they take the largest.
      startLanes(chars);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        clearTimeout(timer);
        holds--;
        stopWhenIdle();
      };
      const timer = setTimeout(release, PREPARE_HOLD_MS);
      return release;
    },
  };
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

/**
 * Render with the process's shared pool (what `skeleton`, `outline` and
 * `masked` use).
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
  return shared.render(path, text, options);
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
  return shared.prepare(files);
}
