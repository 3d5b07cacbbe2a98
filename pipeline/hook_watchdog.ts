/**
 * A plugin hook whose code never returns without awaiting (`render: () => { while (true) {} }`,
 * or such a loop after an `await`) holds the build's thread: a hook's time limit (`timeoutMs`) is
 * a timer, and no timer runs while that code does. In the `slop` command (and so the build server
 * and `slop mcp`), a thread of its own watches the hooks of the config's plugins: when one has held
 * the build's thread for its limit and {@linkcode GRACE_MS} more, the watch says which plugin, hook
 * and file (`[plugin x] Hook "render" ran for over 60 s on "a.ts" without returning`) on stderr,
 * in the server's log ({@linkcode sayStallsIn}) and to the client ({@linkcode lastWords}), and
 * ends the process, which nothing else can stop.
 *
 * The build's thread only writes to memory the two threads share: at each hook of a config's
 * plugin, its message (a few hundred nanoseconds), and twice a second, while such hooks are
 * awaited, that it still turns. slop's own plugins are not watched, so a build without plugins of
 * its config starts no watch at all.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import { watchedProcess } from "./config_watchdog.ts";

/** How long past its limit a hook holds the thread before the process is ended. */
export const GRACE_MS = 2000;

/** The texts the shared memory holds, each in its region. */
const REGIONS = { sync: [0, 4096], oldest: [4096, 4096], log: [8192, 4096], words: [12288, 16384] };
type Region = keyof typeof REGIONS;
const LENGTH_AT: Record<Region, number> = { sync: 0, oldest: 1, log: 2, words: 3 };
const BYTES = 12288 + 16384;

/** Views of the memory shared with the watch's thread. */
export interface Layout {
  buffer: SharedArrayBuffer;
  /** The sync hook's start and limit (ms), the last turn, the oldest awaited hook's deadline. */
  times: Float64Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

/**
 * The views of `buffer`, as both threads read it.
 *
 * @example
 * ```ts
 * import { layout } from "./hook_watchdog.ts";
 * const memory = layout(new SharedArrayBuffer(64 + 28672));
 * ```
 */
export function layout(buffer: SharedArrayBuffer): Layout {
  return {
    buffer,
    times: new Float64Array(buffer, 0, 4),
    lengths: new Int32Array(buffer, 32, 4),
    bytes: new Uint8Array(buffer, 64, BYTES),
  };
}

/**
 * The text last written to `region` ("" when none).
 *
 * @example
 * ```ts
 * import { layout, readText } from "./hook_watchdog.ts";
 * console.log(readText(layout(new SharedArrayBuffer(64 + 28672)), "log") === "");
 * ```
 */
export function readText(at: Layout, region: Region): string {
  const [start] = REGIONS[region];
  const length = Atomics.load(at.lengths, LENGTH_AT[region]);
  return new TextDecoder().decode(at.bytes.slice(start, start + length));
}

const encoder = new TextEncoder();

function writeText(at: Layout, region: Region, text: string): void {
  const [start, size] = REGIONS[region];
  const { written } = encoder.encodeInto(text, at.bytes.subarray(start, start + size));
  Atomics.store(at.lengths, LENGTH_AT[region], written);
}

/** The shared memory and the watch's thread, made at the first watched hook. */
let memory: Layout | undefined;
/** What to write to the log and the client, set before the watch starts. */
const said: { log?: string; words?: string } = {};

function watch(): Layout {
  if (memory) return memory;
  memory = layout(new SharedArrayBuffer(64 + BYTES));
  if (said.log) writeText(memory, "log", said.log);
  if (said.words) writeText(memory, "words", said.words);
  const worker = new Worker(new URL("./_hook_watch_worker.ts", import.meta.url), {
    workerData: memory.buffer,
  });
  worker.unref(); // The watch never keeps the process alive.
  return memory;
}

/**
 * Append what stopped the process to the file at `path` too (the build server's log: a detached
 * server has no stderr, and its client points to the log).
 *
 * @example
 * ```ts
 * import { sayStallsIn } from "./hook_watchdog.ts";
 * sayStallsIn("/tmp/server.log");
 * ```
 */
export function sayStallsIn(path: string): void {
  said.log = path;
  if (memory) writeText(memory, "log", path);
}

/**
 * Write `text` to stdout when a stalled hook ends the process, each `%REASON%` in it the message,
 * escaped for a JSON string (`slop mcp`: an error answer to each call under way); "" for none.
 *
 * @example
 * ```ts
 * import { lastWords } from "./hook_watchdog.ts";
 * lastWords('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"%REASON%"}}\n');
 * ```
 */
export function lastWords(text: string): void {
  said.words = text;
  if (memory) writeText(memory, "words", text);
}

/** The hooks of the config's plugins under way, each with its deadline and message. */
const awaited = new Set<{ deadline: number; message: string }>();
let beating: ReturnType<typeof setInterval> | undefined;

/** Write the first awaited hook (its deadline and message), and that the thread still turns. */
function beat(at: Layout): void {
  at.times[2] = Date.now();
  const first = awaited.values().next().value;
  if (first) writeText(at, "oldest", first.message);
  at.times[3] = first?.deadline ?? 0;
  if (!first && beating !== undefined) {
    clearInterval(beating);
    beating = undefined;
  }
}

/**
 * Run a hook's call `fn` watched, when this process watches (the `slop` command) and `plugin` is a
 * config's: its message is written before it runs, and the hook is counted as awaited until
 * `settled` (returned) is called.
 *
 * @example
 * ```ts
 * import { watchedCall } from "./hook_watchdog.ts";
 * const { value, settled } = watchedCall(() => 1, { limitMs: 1000, message: "demo", watched: true });
 * settled();
 * ```
 */
export function watchedCall<T>(
  fn: () => T,
  options: { limitMs: number; message: string; watched: boolean },
): { value: T; settled: () => void } {
  if (!options.watched || !watchedProcess()) return { value: fn(), settled: () => {} };
  const at = watch();
  const call = { deadline: Date.now() + options.limitMs, message: options.message };
  awaited.add(call);
  if (awaited.size === 1) beat(at);
  if (beating === undefined) {
    const timer = setInterval(() => beat(at), 500);
    Deno.unrefTimer(timer);
    beating = timer;
  }
  // A hook called from another's code: the outer one is the thread's again once this returns.
  const outer = at.times[0] > 0
    ? { start: at.times[0], limit: at.times[1], message: readText(at, "sync") }
    : undefined;
  writeText(at, "sync", options.message);
  at.times[1] = options.limitMs;
  at.times[0] = Date.now();
  const settled = () => {
    awaited.delete(call);
    if (at.times[3] === call.deadline) beat(at);
  };
  try {
    return { value: fn(), settled };
  } catch (error) {
    settled();
    throw error;
  } finally {
    if (outer) writeText(at, "sync", outer.message);
    at.times[1] = outer?.limit ?? 0;
    at.times[0] = outer?.start ?? 0;
  }
}
