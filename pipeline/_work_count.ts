/**
 * Work counted by stage, for the scaling tests: a stage counts its steps with `countWork()`, and
 * a test reads them with `tallyWork()`. Plugins reach both through `helpers.ts`.
 *
 * @module
 */

/** Work counted by stage while a tally runs (see {@linkcode tallyWork}). */
let workCounts: Map<string, number> | undefined;

/**
 * Count `steps` of work done by `stage` (e.g. `"code"`: parser steps and tree nodes), for the
 * scaling tests: kept only while a tally runs ({@linkcode tallyWork}), one comparison otherwise.
 * A loop adds up its steps and counts them once. Counting steps, unlike timing, cannot flake.
 *
 * @example
 * ```ts
 * import { countWork } from "./_work_count.ts";
 * countWork("code", 120);
 * ```
 */
export function countWork(stage: string, steps: number): void {
  if (workCounts) workCounts.set(stage, (workCounts.get(stage) ?? 0) + steps);
}

/**
 * Run `work` (synchronous or not) and return the steps it counted with {@linkcode countWork},
 * by stage. Tallies do not nest; work done on other threads is not counted.
 *
 * @example
 * ```ts
 * import { countWork, tallyWork } from "./_work_count.ts";
 * const steps = await tallyWork(() => countWork("dedup", 3));
 * steps.get("dedup"); // 3
 * ```
 */
export async function tallyWork(work: () => unknown): Promise<Map<string, number>> {
  if (workCounts) throw new Error("Work tallies do not nest");
  const mine = new Map<string, number>();
  workCounts = mine;
  try {
    await work();
  } finally {
    workCounts = undefined;
  }
  return mine;
}
