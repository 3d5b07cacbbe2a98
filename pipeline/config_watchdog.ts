/**
 * A config whose code never returns without awaiting (`while (true) {}` at its top level, or in the
 * function it exports) holds the thread that loads it: the limit on loading a config is a timer,
 * and no timer runs while that code does. In the `slop` command (never in a library's process), a
 * small process watches each load: when the load has not ended a while after its limit, it names
 * the config on stderr and ends slop's process, which nothing else can stop.
 *
 * @module
 */

/** How long after the load's own limit the worker waits before it ends the process. */
const GRACE_MS = 2000;

/** Whether loads are watched besides in the `slop` command (see {@linkcode watchConfigLoads}). */
let watching = false;

/** slop's command: a process whose main module it is is the `slop` command, and is watched. */
const COMMAND = import.meta.url.replace(/pipeline\/[^/]*$/, "cli.ts"); // an address, never imported

/**
 * Whether this process is the `slop` command, or asked for the watch (a config's loads and its
 * plugins' hooks are then watched).
 *
 * @example
 * ```ts
 * import { watchedProcess } from "./config_watchdog.ts";
 * console.log(watchedProcess());
 * ```
 */
export function watchedProcess(): boolean {
  return watching || isCommand;
}

/**
 * Whether this process is the `slop` command, which ends with `Deno.exit()` (a thread of its
 * watches need not end for it to exit).
 *
 * @example
 * ```ts
 * import { watchingCommand } from "./config_watchdog.ts";
 * console.log(watchingCommand());
 * ```
 */
export function watchingCommand(): boolean {
  return isCommand;
}

/** Whether this process's main module is the `slop` command (it never changes). */
const isCommand = (() => {
  try {
    return Deno.mainModule === COMMAND;
  } catch {
    return false;
  }
})();

/**
 * Watch every later config load and plugin hook of this process, as the `slop` command's are (a
 * library's host process should not: a stalled load or hook ends the whole process).
 *
 * @example
 * ```ts
 * import { watchConfigLoads } from "./config_watchdog.ts";
 * watchConfigLoads();
 * ```
 */
export function watchConfigLoads(): void {
  watching = true;
}

/**
 * Start watching one load of the config `display` (limit `ms`); the function returned ends the
 * watch. Does nothing outside the `slop` command unless {@linkcode watchConfigLoads} was called.
 *
 * @example
 * ```ts
 * import { watchLoad } from "./config_watchdog.ts";
 * const done = watchLoad("slop.config.ts", 30_000);
 * done();
 * ```
 */
export function watchLoad(display: string, ms: number): () => void {
  if (!watchedProcess()) return () => {};
  const seconds = `${Math.round(ms / 100) / 10} s`;
  const text = `slop: Invalid config "${display}": Cannot load the config: its code ran for over ` +
    `${seconds} without returning (a loop that never ends?)\n`;
  let child: Deno.ChildProcess;
  try {
    // The watch is a process, not a thread: it starts at once, and its limit runs without this
    // thread. It waits on its stdin, which the load's end closes; at the limit it writes `text`
    // and ends this process (SIGKILL: a signal this thread would have to handle never is).
    child = new Deno.Command("sh", {
      args: ["-c", WATCH, "sh", String((ms + GRACE_MS) / 1000), text, String(Deno.pid)],
      stdin: "piped",
      stdout: "null",
      stderr: "inherit",
    }).spawn();
  } catch {
    return () => {}; // No `sh`, or no permission to run it: the load is unwatched, as before.
  }
  child.unref();
  const stdin = child.stdin.getWriter();
  return () => void stdin.close().catch(() => {});
}

/** The watch: `timeout` ends `cat` at the limit (124), else `cat` ends when its stdin closes. */
const WATCH = 'timeout "$1" cat >/dev/null; [ $? -eq 124 ] && printf %s "$2" >&2 && kill -9 "$3"';
