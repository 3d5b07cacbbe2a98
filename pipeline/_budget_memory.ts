/**
 * The budget's memory: the files `slop build` stepped down to fit the token
 * budget, kept in the state dir so the next build steps the same files first
 * (see `budget.ts`). One file per output namespace, persona and preset, as
 * the order memory:
 *
 * ```json
 * {"version":1,"tokens":8000,"steps":[{"path":"big.md","from":"full","to":"skeleton"}]}
 * ```
 *
 * @module
 */

import { join } from "./_path.ts";
import { writeAtomic } from "./emit.ts";
import type { ResolvedConfig, StepDown } from "./types.ts";
import { readSettingTextSync, STATE_FILE_LIMIT } from "./_setting_file.ts";

/**
 * Where a config's budget memory lives.
 */
function budgetMemoryPath(config: ResolvedConfig): string {
  const parts = [config.output.namespace];
  if (config.persona) parts.push(`persona-${config.persona.name}`);
  if (config.preset) parts.push(`preset-${config.preset}`);
  // A task build's map has a budget of its own (pipeline/task.ts): its steps are kept apart.
  if (config.task !== undefined) parts.push("task");
  return join(config.stateDir, "budget", `${parts.join(".")}.json`);
}

/**
 * The previous build's steps; empty when there are none or the file is
 * unreadable (a broken memory only costs stickiness).
 *
 * @example
 * ```ts
 * import { loadBudgetMemory } from "./_budget_memory.ts";
 * // const steps = loadBudgetMemory(config);
 * ```
 */
export function loadBudgetMemory(config: ResolvedConfig): StepDown[] {
  try {
    const data = JSON.parse(readSettingTextSync(budgetMemoryPath(config), STATE_FILE_LIMIT));
    if (data?.version !== 1 || !Array.isArray(data.steps)) return [];
    return data.steps.filter((s: unknown): s is StepDown => {
      const step = s as StepDown;
      return typeof step?.path === "string" && typeof step.from === "string" &&
        typeof step.to === "string";
    }).map(({ path, from, to }: StepDown) => ({ path, from, to }));
  } catch {
    return [];
  }
}

/**
 * Remember a build's steps (an empty list clears the memory).
 *
 * @example
 * ```ts
 * import { writeBudgetMemory } from "./_budget_memory.ts";
 * // await writeBudgetMemory(config, report.steppedDown);
 * ```
 */
export async function writeBudgetMemory(
  config: ResolvedConfig,
  steps: StepDown[],
): Promise<void> {
  const path = budgetMemoryPath(config);
  if (!steps.length) {
    await Deno.remove(path).catch(() => {});
    return;
  }
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const data = { version: 1, tokens: config.budget.tokens, steps };
  await writeAtomic(path, JSON.stringify(data) + "\n");
}
