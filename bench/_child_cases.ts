/**
 * Runs a fuzzer's numbered cases in child processes (the fuzzer's own script with `--child
 * --start N`), so that a case that hangs or takes its process down is one finding and the run goes
 * on from the next case in a new child. A child prints one JSON object a line: the fuzzer's
 * `message` hook says which lines start a case and which finish one.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** What a fuzzer does with its children's lines. */
export interface CaseEvents {
  /**
   * One JSON line of a child: returns the case it starts (`{ started }`; the watch on its time
   * starts again), the case it finished (`{ finished }`), or nothing for any other line.
   */
  message(line: Record<string, unknown>): { started: number } | { finished: number } | void;
  /**
   * The child ended inside case `i`, or between the case before it and `i`: killed after the
   * timeout (`hung`), else it died (`stderr` is the end of what it printed there).
   */
  lost(i: number, why: { hung: boolean; stderr: string }): void;
}

/** Where {@linkcode runCases} starts and stops, and how long a case may take. */
export interface CaseRange {
  /** The fuzzer's own arguments, passed to every child. */
  args: string[];
  /** Seconds a case may run before its child is killed. */
  timeout: number;
  /** The first case. */
  start: number;
  /** One past the last case. */
  rounds: number;
}

/**
 * Runs cases `start` to `rounds - 1` of the fuzzer at `script` (a module URL) in children,
 * starting a new child after the case a child was lost in.
 *
 * @example
 * ```ts
 * import { runCases } from "./_child_cases.ts";
 * // await runCases(import.meta.url, { args: [], timeout: 60, start: 0, rounds: 100 }, events);
 * ```
 */
export async function runCases(
  script: string,
  range: CaseRange,
  events: CaseEvents,
): Promise<void> {
  let next = range.start;
  while (next < range.rounds) {
    const from = next;
    const proc = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", fileURLToPath(script), ...range.args, "--child", "--start", String(from)],
      stdout: "piped",
      stderr: "piped",
      env: { CI: "true", NO_COLOR: "1" },
    }).spawn();
    const stderr = new Response(proc.stderr).text();
    // The case started and not finished: none between two cases (then the next is to come).
    let current: number | undefined;
    let hung = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        hung = true;
        try {
          proc.kill("SIGKILL");
        } catch { /* gone */ }
      }, range.timeout * 1000);
    };
    watch();
    for await (const line of jsonLines(proc.stdout)) {
      const said = events.message(line);
      if (said && "started" in said) {
        current = said.started;
        watch();
      } else if (said && "finished" in said) {
        next = said.finished + 1;
        current = undefined;
        // The time until the next case starts is that case's.
        watch();
      }
    }
    clearTimeout(timer);
    const { success } = await proc.status;
    // Lost: the case the child ended in, or, killed or dead between two cases (or gone before
    // its first), the next one, which it was preparing; the run goes on after it. A child that
    // hangs or dies after its last case (on its way out: a handle left open) is charged to that
    // last case.
    const lost = current ?? (hung || !success || next === from ? next : undefined);
    if (lost !== undefined) {
      events.lost(Math.min(lost, range.rounds - 1), { hung, stderr: (await stderr).slice(-400) });
      next = lost + 1;
    }
  }
}

/** The JSON objects of a stream, one a line; other lines are passed over. */
async function* jsonLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<Record<string, unknown>> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith("{")) continue;
      try {
        yield JSON.parse(line);
      } catch { /* a line cut short by a kill */ }
    }
  }
}
