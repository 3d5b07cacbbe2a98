/**
 * How a task build's budget is shared between the map and the task section,
 * and how many ranked files the section shows or names: the numbers the
 * build (`mapConfig` fits the map), the ranking and the section's choice all
 * read, kept apart so that none of them imports another for a constant.
 *
 * @module
 */

import type { ResolvedConfig } from "./types.ts";

/** The share of the budget the task section may take when `budget.taskShare` is not set. */
export const DEFAULT_TASK_SHARE = 0.5;

/** The most tokens the map takes when `budget.mapTokens` is not set. */
export const DEFAULT_MAP_TOKENS = 16_000;

/** How many ranked files a task section without a budget shows in their own view. */
export const UNBUDGETED_FILES = 10;

/** How many ranked files the task section names at most in its list (and steps down to skeletons). */
export const MAX_TASK_FILES = 50;

/**
 * The map's part of a task build's budget `B`: `B × (1 - budget.taskShare)`,
 * at most `budget.mapTokens` ({@linkcode DEFAULT_TASK_SHARE},
 * {@linkcode DEFAULT_MAP_TOKENS}); it depends on the budget only.
 *
 * @example
 * ```ts
 * import { mapTokens } from "./task.ts";
 * mapTokens({ tokens: 32000 }); // 16000
 * mapTokens({ tokens: 128000 }); // 16000
 * mapTokens({ tokens: 8000, taskShare: 0.25 }); // 6000
 * ```
 */
export function mapTokens(budget: ResolvedConfig["budget"]): number | undefined {
  if (budget.tokens === undefined) return undefined;
  const share = budget.taskShare ?? DEFAULT_TASK_SHARE;
  return Math.min(Math.floor(budget.tokens * (1 - share)), budget.mapTokens ?? DEFAULT_MAP_TOKENS);
}

/**
 * The task section's share of a task build's budget: what the map leaves
 * ({@linkcode mapTokens}); 1 without a budget.
 *
 * @example
 * ```ts
 * import { taskShareOf } from "./task.ts";
 * import type { ResolvedConfig } from "./types.ts";
 * taskShareOf({ budget: { tokens: 64000 } } as ResolvedConfig); // 0.75
 * ```
 */
export function taskShareOf(config: ResolvedConfig): number {
  const tokens = config.budget.tokens;
  return tokens === undefined ? 1 : 1 - mapTokens(config.budget)! / tokens;
}

/**
 * The config the map is fitted with: with a task and a budget, the budget is
 * the map's part ({@linkcode mapTokens}); otherwise the config itself.
 *
 * @example
 * ```ts
 * import { mapConfig } from "./task.ts";
 * import type { ResolvedConfig } from "./types.ts";
 * const config = { task: "fix the parser", budget: { tokens: 32000 } } as ResolvedConfig;
 * mapConfig(config).budget.tokens; // 16000
 * ```
 */
export function mapConfig(config: ResolvedConfig): ResolvedConfig {
  if (config.task === undefined || config.budget.tokens === undefined) return config;
  return { ...config, budget: { ...config.budget, tokens: mapTokens(config.budget) } };
}

/** Tokens the task section takes besides its text: its two headings and a line. */
const TASK_SECTION_TOKENS = 64;

/**
 * The budget with room for a task's text of `textTokens`: a text longer than the task's part of
 * the budget (a pasted issue, a long commit message) would put the map and the text over the
 * budget together, so `mapTokens` is lowered until both fit (the text's own tokens, the section's
 * {@linkcode TASK_SECTION_TOKENS} and a fiftieth for the headings the text's own lines get). The
 * map then depends on this task's length: its prefix is not the one other tasks share. The
 * budget as it is when the text fits its part, or without a budget.
 *
 * @example
 * ```ts
 * import { roomForTaskText } from "./_task_budget.ts";
 * roomForTaskText({ tokens: 32000 }, 900); // { tokens: 32000 }: the text fits its half
 * roomForTaskText({ tokens: 8000 }, 6000); // { tokens: 8000, mapTokens: 1816 }
 * ```
 */
export function roomForTaskText(
  budget: ResolvedConfig["budget"],
  textTokens: number,
): ResolvedConfig["budget"] {
  const map = mapTokens(budget);
  if (map === undefined) return budget;
  const text = textTokens + TASK_SECTION_TOKENS + Math.ceil(textTokens / 50);
  const room = Math.max(0, budget.tokens! - text);
  return room >= map ? budget : { ...budget, mapTokens: room };
}
