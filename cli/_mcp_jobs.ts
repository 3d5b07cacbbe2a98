/**
 * The calls of `slop mcp`, run one at a time, each answered within a time limit. MCP clients
 * give up on a call after about 60 s (the SDK's default request timeout, Claude Desktop's and
 * Claude Code's fixed limits) and then cancel it, while the first build of a big project takes
 * minutes. So a call whose work has not ended when the limit comes gets a reply that says so
 * (how far the work got, or what it waits behind) and asks to call again; the work goes on. The
 * calls with the same tool and arguments share one run: an identical call that comes while it
 * runs, or after it ended unclaimed, waits on it (again up to the limit) and gets its result.
 * A run stops when every call waiting on it was cancelled, unless a reply said it goes on.
 *
 * @module
 */

import {
  CancelledError,
  type ProgressFn,
  throwIfCancelled,
  type ToolOutput,
} from "./_mcp_tools.ts";
import { canonicalJson } from "../pipeline/helpers.ts";

/** How far a run got, as its last progress said. */
export interface Progress {
  done: number;
  total: number;
  message: string;
}

/** A call answered before its run ended: the run goes on (or waits for its turn). */
export interface Pending {
  /** `running`: the run started; `queued`: it waits for the one before it to end. */
  state: "running" | "queued";
  /** The run's last progress, when it told any. */
  progress?: Progress;
  /** When queued: the tool whose run goes on now, and its progress. */
  ahead?: { tool: string; progress?: Progress };
}

/** What a call got: the run's output or error, or a reply that the run goes on. */
export type Outcome =
  | { output: ToolOutput; earlier: boolean }
  | { error: unknown; earlier: boolean }
  | { pending: Pending };

/** A call's part: its run's key, work and tool, and how long it waits. */
export interface Call {
  /** The tool's name. */
  tool: string;
  /** The call's arguments (an identical call has equal ones, in any key order). */
  args: unknown;
  /** Told of the run's progress while this call waits (the call's `progressToken`). */
  progress?: ProgressFn;
  /** Aborts when the client cancels this call. */
  signal?: AbortSignal;
  /** How long the call waits before its reply says the run goes on; 0 waits for the end. */
  waitMs: number;
}

/** The work of a run: told progress and stopped through a signal. */
export type Work = (progress: ProgressFn, signal: AbortSignal) => Promise<ToolOutput>;

/** One run of a tool, shared by the identical calls that wait on it. */
interface Run {
  tool: string;
  /** Settles when the work ends, never rejects. */
  ended: Promise<{ output: ToolOutput } | { error: unknown }>;
  finished: boolean;
  started: boolean;
  /** A call was answered that the run goes on: its result is kept for the next identical call. */
  promised: boolean;
  progress?: Progress;
  /** The calls that wait on it now, each with its progress (when it asked for it). */
  waiting: Set<{ progress?: ProgressFn }>;
  stop: AbortController;
}

/** Unclaimed results kept at most; the oldest goes first. */
const KEPT_RESULTS = 8;

/** The runs not yet claimed, by key (a Map keeps them in the order they came). */
const runs = new Map<string, Run>();

/** The run that has the turn now. */
let current: Run | undefined;

/** The end of the last work queued: each work starts after it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Run `work` after everything queued before it (over every session of the HTTP mode): builds
 * share the process's caches and counting threads. A resource read is not queued: it reads the
 * last written build, which a build never changes.
 */
function serial<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => {});
  return next;
}

/**
 * Wait on the run of `call`'s tool and arguments (started now with `work` when there is none)
 * up to `call.waitMs`: its output or error, or what the run is doing when the time ran out.
 * `earlier` says the run began before a reply that it goes on.
 *
 * @example
 * ```ts
 * import { callShared } from "./_mcp_jobs.ts";
 * const outcome = await callShared(
 *   { tool: "demo", args: {}, waitMs: 0 },
 *   () => Promise.resolve({ texts: ["done"], data: {} }),
 * );
 * ```
 */
export async function callShared(call: Call, work: Work): Promise<Outcome> {
  // Keys sorted: equal arguments sent in any key order are one run.
  const key = `${call.tool} ${canonicalJson(call.args)}`;
  let run = runs.get(key);
  if (run?.finished) runs.delete(key);
  else if (!run || run.stop.signal.aborted) run = startRun(key, call.tool, work);
  const waiter = { progress: call.progress };
  run.waiting.add(waiter);
  const ended = await waitFor(run, call);
  run.waiting.delete(waiter);
  if (ended === "cancelled") {
    // Nobody else waits, and no reply said the run goes on: it stops at its next step.
    if (!run.waiting.size && !run.promised && !run.finished) cancelRun(key, run);
    throw new CancelledError("The client cancelled the call");
  }
  if (ended === "time") {
    run.promised = true;
    const ahead = current && current !== run ? current : undefined;
    return {
      pending: {
        state: run.started ? "running" : "queued",
        ...(run.progress ? { progress: run.progress } : {}),
        ...(ahead && !run.started ? { ahead: { tool: ahead.tool, progress: ahead.progress } } : {}),
      },
    };
  }
  if (runs.get(key) === run) runs.delete(key);
  return { ...ended, earlier: run.promised };
}

/** Start a run: queued, its progress told to every call that waits on it. */
function startRun(key: string, tool: string, work: Work): Run {
  const run: Run = {
    tool,
    finished: false,
    started: false,
    promised: false,
    waiting: new Set(),
    stop: new AbortController(),
    ended: Promise.resolve({ error: undefined }),
  };
  const tell: ProgressFn = (done, total, message) => {
    run.progress = { done, total, message };
    for (const waiter of run.waiting) waiter.progress?.(done, total, message);
  };
  run.ended = serial(() => {
    // Every call that waited was cancelled before its turn: it does not start.
    throwIfCancelled(run.stop.signal);
    run.started = true;
    current = run;
    return work(tell, run.stop.signal);
  }).then((output) => ({ output }), (error) => ({ error })).then((ended) => {
    run.finished = true;
    if (current === run) current = undefined;
    if (runs.get(key) === run && run.promised && !run.waiting.size) keepOnly(KEPT_RESULTS);
    return ended;
  });
  runs.set(key, run);
  return run;
}

/** Drop a cancelled run: the next identical call starts another. */
function cancelRun(key: string, run: Run): void {
  run.stop.abort();
  if (runs.get(key) === run) runs.delete(key);
}

/** The oldest unclaimed results past `most`, dropped. */
function keepOnly(most: number): void {
  const finished = [...runs].filter(([, run]) => run.finished);
  for (const [key] of finished.slice(0, Math.max(0, finished.length - most))) runs.delete(key);
}

/** What ends a call's wait first: its run, its time limit, or its cancelling. */
function waitFor(
  run: Run,
  call: Call,
): Promise<{ output: ToolOutput } | { error: unknown } | "time" | "cancelled"> {
  if (call.signal?.aborted) return Promise.resolve("cancelled");
  const { promise, resolve } = Promise.withResolvers<
    { output: ToolOutput } | { error: unknown } | "time" | "cancelled"
  >();
  const timer = call.waitMs > 0 ? setTimeout(() => resolve("time"), call.waitMs) : undefined;
  const cancelled = () => resolve("cancelled");
  call.signal?.addEventListener("abort", cancelled, { once: true });
  run.ended.then(resolve);
  return promise.finally(() => {
    clearTimeout(timer);
    call.signal?.removeEventListener("abort", cancelled);
  });
}
