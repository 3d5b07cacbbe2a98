/**
 * Child processes that end with slop. A git slop runs (or `bd`, `deno info`, a slop build of its
 * own) is a process of its own: when slop is stopped by a signal sent to it alone (`kill PID`, a
 * supervisor's SIGTERM, a closed terminal's SIGHUP), the child went on, and one waiting on
 * something (a FIFO, a hook) ran for good. While a child runs, slop listens for SIGINT, SIGTERM
 * and SIGHUP: each running child gets SIGTERM, then the signal is sent again to slop with its
 * listening ended, so that it does what it did before (a plain command ends as the signal says;
 * `slop watch` or `slop mcp` stop as their own listeners say).
 *
 * Each child starts as the leader of a process group of its own (a new session, `detached`), and
 * is stopped with its group: what it started in the background (a hook's `sleep &`, a wrapper's
 * helper) ends with it, where it went on before. A child that ends by itself leaves what it
 * started alone (a `bd` may start its daemon on purpose).
 *
 * @module
 */

/** The signals that end slop (or that a long-lived command listens for). */
const SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The children running now. */
const running = new Set<Deno.ChildProcess>();

/** The listener of each signal, while one is installed. */
let listening: Map<Deno.Signal, () => void> | undefined;

/** The children started as leaders of their own process group, stopped with their group. */
const leaders = new WeakSet<Deno.ChildProcess>();

/**
 * Start `command` with `options`, in a process group of its own (not on Windows), stopped with
 * its group (SIGTERM) when slop is stopped by a signal while it runs. slop listens before the
 * child starts: a signal that comes as it starts finds it (the listener runs after this call, as
 * JavaScript does not stop in the middle of one).
 *
 * @example
 * ```ts
 * import { endsWithSlop } from "./_child_reaper.ts";
 * const child = endsWithSlop("git", { args: ["--version"], stdout: "piped" });
 * await child.output();
 * ```
 */
export function endsWithSlop(command: string, options: Deno.CommandOptions): Deno.ChildProcess {
  listen();
  const grouped = Deno.build.os !== "windows";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, { ...options, detached: grouped }).spawn();
    if (grouped) leaders.add(child);
  } catch (error) {
    if (!running.size) stopListening();
    throw error;
  }
  running.add(child);
  child.status.finally(() => {
    running.delete(child);
    if (!running.size) stopListening();
  });
  return child;
}

function listen(): void {
  if (listening || Deno.build.os === "windows") return;
  listening = new Map();
  for (const signal of SIGNALS) {
    const heard = () => void stopChildren(signal);
    try {
      Deno.addSignalListener(signal, heard);
      listening.set(signal, heard);
    } catch {
      // A signal this system or its permissions do not let slop listen for.
    }
  }
}

function stopListening(): void {
  for (const [signal, heard] of listening ?? []) Deno.removeSignalListener(signal, heard);
  listening = undefined;
}

/**
 * Stop every child (SIGTERM, which lets git remove a lock file it holds; SIGKILL for one still
 * there a second later), then take `signal` as slop would have without listening for it.
 */
async function stopChildren(signal: Deno.Signal): Promise<void> {
  const children = [...running];
  running.clear();
  stopListening();
  children.forEach((child) => kill(child, "SIGTERM"));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled(children.map((child) => child.status)),
    new Promise((resolve) => timer = setTimeout(resolve, 1000)),
  ]);
  clearTimeout(timer);
  children.forEach((child) => kill(child, "SIGKILL"));
  Deno.kill(Deno.pid, signal);
}

/**
 * Stop a child that is still running: SIGTERM, which lets it clean up (git removes a lock file it
 * holds: a killed `git diff` may be refreshing the index), then SIGKILL if it is still there a
 * second later. The way every child slop starts is stopped at its deadline.
 *
 * @example
 * ```ts
 * import { endsWithSlop, stopChild } from "./_child_reaper.ts";
 * const child = endsWithSlop("sleep", { args: ["60"] });
 * stopChild(child);
 * await child.status;
 * ```
 */
export function stopChild(child: Deno.ChildProcess): void {
  kill(child, "SIGTERM");
  const late = setTimeout(() => kill(child, "SIGKILL"), 1000);
  child.status.finally(() => clearTimeout(late));
}

/** Send `signal` to a child and, when it leads one, to its process group. */
function kill(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // It has ended already.
  }
  try {
    // What it started in the background: its group, the same number as its own.
    if (leaders.has(child)) Deno.kill(-child.pid, signal);
  } catch {
    // No process is left in the group.
  }
}
