/**
 * The thread that watches plugin hooks (see `hook_watchdog.ts`): four times a second it reads what
 * the build's thread last wrote to the shared memory, and when a hook has held that thread past its
 * limit and the grace, it says so (stderr, the log, the last words) and ends the process. Outside
 * the `slop` command (`linger` false), it ends itself once no hook has run for a second, so that
 * it never keeps a process alive for long.
 *
 * @module
 */

import {
  clock,
  GRACE_MS,
  type Layout,
  layout,
  readText,
  REGIONS,
  UNSAID_AT,
} from "./_hook_watch_memory.ts";

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
  say(`slop: ${reason}\n`);
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
      const said = words.replaceAll("\0", JSON.stringify(reason).slice(1, -1));
      writeAll(Deno.stdout, new TextEncoder().encode(said));
    }
  } catch {
    // A client that is gone.
  }
  const unsaid = Atomics.load(memory.lengths, UNSAID_AT);
  if (unsaid > 0) {
    const kb = REGIONS.words[1] / 1024;
    say(
      unsaid === 1
        ? `slop: 1 call under way was not answered: its reply does not fit in the ${kb} KB kept for the last replies\n`
        : `slop: ${unsaid} calls under way were not answered: their replies do not fit in the ${kb} KB kept for the last replies\n`,
    );
  }
  Deno.kill(Deno.pid, "SIGKILL");
}

/** Write `text` to stderr, if the process has one (a detached server has not: its log says it). */
function say(text: string): void {
  try {
    writeAll(Deno.stderr, new TextEncoder().encode(text));
  } catch {
    // No stderr.
  }
}

/** Write all of `bytes` (one write to a pipe may take only part). */
function writeAll(to: { writeSync(bytes: Uint8Array): number }, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += to.writeSync(bytes.subarray(at));
}
