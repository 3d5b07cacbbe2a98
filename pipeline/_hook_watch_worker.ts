/**
 * The thread that watches plugin hooks (see `hook_watchdog.ts`): four times a second it reads what
 * the build's thread last wrote to the shared memory, and when a hook has held that thread past its
 * limit and the grace, it says so (stderr, the log, the last words) and ends the process. Outside
 * the `slop` command (`linger` false), it ends itself once no hook has run for a second, so that
 * it never keeps a process alive for long.
 *
 * @module
 */

import { clock, GRACE_MS, type Layout, layout, readText } from "./_hook_watch_memory.ts";

/** How long, outside the `slop` command, the watch waits with no hook under way before it ends. */
const IDLE_MS = 1000;

/** The worker's own scope (the module is type-checked as a window's). */
const scope = self as unknown as {
  onmessage: (
    event: MessageEvent<{ buffer: SharedArrayBuffer; linger: boolean; clock: number }>,
  ) => void;
  postMessage: (message: string) => void;
  close: () => void;
};

scope.onmessage = (event) => {
  const memory = layout(event.data.buffer);
  // The build's thread's clock as read here: this thread's, shifted by the two readings at the
  // start (the message's way between them only makes it late, so a stall is never seen early).
  const shift = event.data.clock - clock();
  let idleSince = clock() + shift;
  const timer = setInterval(() => {
    const now = clock() + shift;
    const reason = stalled(memory, now);
    if (reason) stop(memory, reason);
    if (memory.times[0] > 0 || memory.times[3] > 0) idleSince = now;
    else if (!event.data.linger && now - idleSince > IDLE_MS) {
      clearInterval(timer);
      scope.postMessage("ended");
      scope.close();
    }
  }, 250);
};

/** The message of the hook that holds the build's thread too long, if one does. */
function stalled(at: Layout, now: number): string | undefined {
  const [syncStart, syncLimit, beat, oldestDeadline] = at.times;
  // A hook's own code is running (called, not yet returned): the thread is in it.
  if (syncStart > 0 && now > syncStart + syncLimit + GRACE_MS) return readText(at, "sync");
  // A hook is awaited past its limit and the thread has not turned since: no timer could fail it.
  if (oldestDeadline > 0 && beat < oldestDeadline && now > oldestDeadline + GRACE_MS) {
    return readText(at, "oldest");
  }
  return undefined;
}

/** Say why on every channel the process has, then end it (the build's thread cannot be stopped). */
function stop(memory: Layout, reason: string): void {
  const line = new TextEncoder().encode(`slop: ${reason}\n`);
  try {
    Deno.stderr.writeSync(line);
  } catch {
    // No stderr (a detached server): the log and the last words say it.
  }
  const log = readText(memory, "log");
  try {
    if (log) {
      Deno.writeTextFileSync(log, `${new Date().toISOString()} stopped: ${reason}\n`, {
        append: true,
      });
    }
  } catch {
    // A log that cannot be written.
  }
  const words = readText(memory, "words");
  try {
    if (words) {
      const said = words.replaceAll("%REASON%", JSON.stringify(reason).slice(1, -1));
      Deno.stdout.writeSync(new TextEncoder().encode(said));
    }
  } catch {
    // A client that is gone.
  }
  Deno.kill(Deno.pid, "SIGKILL");
}
