/**
 * Work counters: how many steps each stage's inner loops took, by stage name, kept only while a
 * tally runs ({@linkcode tallyWork}). The scaling tests read them to check that work grows
 * linearly with the input whatever its shape: counting steps, unlike timing, cannot flake.
 * Outside a tally, counting is one comparison per call; loops add up their steps and count once.
 *
 * @module
 */

let counts: Map<string, number> | undefined;

/**
 * Add `steps` to `stage`'s count when a tally runs.
 *
 * @example
 * ```ts
 * import { countWork } from "./_work.ts";
 * countWork("dedup", 10);
 * ```
 */
export function countWork(stage: string, steps: number): void {
  if (counts) counts.set(stage, (counts.get(stage) ?? 0) + steps);
}

/**
 * Run `work` (synchronous or not) and return the steps it counted, by stage. Tallies do not nest.
 *
 * @example
 * ```ts
 * import { countWork, tallyWork } from "./_work.ts";
 * const steps = await tallyWork(() => countWork("dedup", 3));
 * steps.get("dedup"); // 3
 * ```
 */
export async function tallyWork(work: () => unknown): Promise<Map<string, number>> {
  if (counts) throw new Error("Work tallies do not nest");
  const mine = new Map<string, number>();
  counts = mine;
  try {
    await work();
  } finally {
    counts = undefined;
  }
  return mine;
}
