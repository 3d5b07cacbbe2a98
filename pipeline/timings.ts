/**
 * Stage timings for `slop build --timings`: a clock that stages mark as they
 * end, and the table printed to stderr ("why is my build slow"). The first
 * line is the process's startup (runtime boot and module loading, from the
 * process start to the clock's creation).
 *
 * @module
 */

/** A clock of build stages. */
export interface StageClock {
  /** End the current stage under `name` (its time runs from the previous mark). */
  mark(name: string): void;
  /** Stage names and milliseconds, in the order marked (the same name twice adds up). */
  stages(): Array<{ stage: string; ms: number }>;
}

/**
 * Start a clock; the time before it (since the process started) is the `startup` stage,
 * unless `startup: false` (a long-running process's later builds).
 *
 * @example
 * ```ts
 * import { stageClock, timingsText } from "./timings.ts";
 * const clock = stageClock();
 * clock.mark("config");
 * console.error(timingsText(clock));
 * ```
 */
export function stageClock(options: { startup?: boolean } = {}): StageClock {
  const out = new Map<string, number>(
    options.startup === false ? [] : [["startup", performance.now()]],
  );
  let last = performance.now();
  return {
    mark(name: string) {
      const now = performance.now();
      out.set(name, (out.get(name) ?? 0) + now - last);
      last = now;
    },
    stages: () => [...out].map(([stage, ms]) => ({ stage, ms })),
  };
}

/**
 * The timings table: one line per stage (milliseconds, share of the total), then the total.
 *
 * @example
 * ```ts
 * import { stageClock, timingsText } from "./timings.ts";
 * timingsText(stageClock()).startsWith("timings:"); // true
 * ```
 */
export function timingsText(clock: StageClock): string {
  const stages = clock.stages();
  const total = stages.reduce((n, s) => n + s.ms, 0);
  const width = Math.max(...stages.map((s) => s.stage.length), "total".length);
  const line = (name: string, ms: number) =>
    `  ${name.padEnd(width)} ${ms.toFixed(1).padStart(8)} ms ${
      total ? `${Math.round((ms / total) * 100)}%`.padStart(4) : ""
    }`;
  return ["timings:", ...stages.map((s) => line(s.stage, s.ms)), line("total", total)].join("\n");
}
