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

import { watchedProcess, watchingCommand } from "./config_watchdog.ts";
import {
  clock,
  type Layout,
  layout,
  LENGTH_AT,
  readText,
  type Region,
  REGIONS,
  SHARED_BYTES,
  UNSAID_AT,
} from "./_hook_watch_memory.ts";

const encoder = new TextEncoder();

function writeText(at: Layout, region: Region, text: string): void {
  const [start, size] = REGIONS[region];
  const { written } = encoder.encodeInto(text, at.bytes.subarray(start, start + size));
  Atomics.store(at.lengths, LENGTH_AT[region], written);
}

/**
 * Write whole `words`, in order, while they fit in their region (one that does not is left out, and
 * a later, shorter one may still fit), and how many were left out: a word cut short would be, to
 * the client, a reply that is no JSON.
 */
function writeWords(at: Layout, words: readonly string[]): void {
  const [start, size] = REGIONS.words;
  let written = 0;
  let unsaid = 0;
  for (const word of words) {
    // Encoded only while room is left: thousands of calls under way cost no more than 16 KB.
    const bytes = size - written >= MIN_WORD_BYTES ? encoder.encode(word) : undefined;
    if (!bytes || written + bytes.length > size) {
      unsaid++;
      continue;
    }
    at.bytes.set(bytes, start + written);
    written += bytes.length;
  }
  Atomics.store(at.lengths, LENGTH_AT.words, written);
  Atomics.store(at.lengths, UNSAID_AT, unsaid);
}

/** Below this much room, no JSON-RPC reply fits (`{"jsonrpc":"2.0","id":0,"error":…}`). */
const MIN_WORD_BYTES = 48;

/** The shared memory and the watch's thread, made at the first watched hook. */
let memory: Layout | undefined;
/** What to write to the log and the client, set before the watch starts. */
const said: { log?: string; words?: readonly string[] } = {};

function watch(): Layout {
  if (memory) return memory;
  memory = layout(new SharedArrayBuffer(SHARED_BYTES));
  if (said.log) writeText(memory, "log", said.log);
  if (said.words) writeWords(memory, said.words);
  // A web worker starts at a third of the cost of a `node:worker_threads` one, but keeps its
  // process alive: the `slop` command ends with `Deno.exit()` whatever runs, and in a process of
  // another's the watch ends itself once no hook has run for a second.
  const worker = new Worker(new URL("./_hook_watch_worker.ts", import.meta.url), {
    type: "module",
  });
  // The times are this thread's monotonic clock: a wall clock steps (NTP, a laptop's sleep), and
  // a step between a hook's start and the watch's look would end a process that is well. The
  // worker's clock starts elsewhere: it reads this one's as its own less what it read at the start.
  worker.postMessage({ buffer: memory.buffer, linger: watchingCommand(), clock: clock() });
  worker.onmessage = () => (memory = undefined); // it ended itself: the next hook starts another
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
 * Write `words` to stdout when a stalled hook ends the process, each NUL character in them the
 * message, escaped for a JSON string (`slop mcp`: an error answer to each call under way; JSON
 * escapes a NUL, so none is in an id). The words are kept whole, in order, while they fit in 16 KB;
 * how many did not is said on stderr. `[]` for none.
 *
 * @example
 * ```ts
 * import { lastWords } from "./hook_watchdog.ts";
 * lastWords(['{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"\0"}}\n']);
 * ```
 */
export function lastWords(words: readonly string[]): void {
  said.words = words;
  if (memory) writeWords(memory, words);
}

/** A hook of a config's plugin under way: when it fails for taking too long, and its message. */
interface Awaited {
  deadline: number;
  message: string;
}

/** The hooks of the config's plugins under way, in the order they began. */
const awaited = new Set<Awaited>();
/** The hook whose deadline and message the shared memory holds as the oldest under way. */
let published: Awaited | undefined;
let beating = false;

/** Write the oldest hook under way (its deadline and message), or that none is. */
function publishOldest(at: Layout): void {
  published = awaited.values().next().value;
  if (published) writeText(at, "oldest", published.message);
  at.times[3] = published?.deadline ?? 0;
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
  if (!beating) {
    // Twice a second, that the thread still turns, in the memory of the watch of the time (a new
    // one after the last ended itself); unref'd: it never keeps the process alive.
    beating = true;
    Deno.unrefTimer(setInterval(() => memory && (memory.times[2] = clock()), 500));
  }
  at.times[2] = clock();
  const call = { deadline: clock() + options.limitMs, message: options.message };
  awaited.add(call);
  if (!published) publishOldest(at);
  // A hook called from another's code: the outer one is the thread's again once this returns.
  const outer = at.times[0] > 0
    ? { start: at.times[0], limit: at.times[1], message: readText(at, "sync") }
    : undefined;
  writeText(at, "sync", options.message);
  at.times[1] = options.limitMs;
  at.times[0] = clock();
  const settled = () => {
    awaited.delete(call);
    if (published === call) publishOldest(at);
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
