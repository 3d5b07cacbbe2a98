/**
 * The task section's room: the most tokens and bytes the document may hold
 * with the section in, and what one block of it costs. The section's choice
 * spends this room block by block; the stage checks the assembled document
 * against the same limits.
 *
 * @module
 */

import { totalTokens } from "./budget.ts";
import { cachedTokens } from "./_cached_tokens.ts";
import { DEFAULT_TASK_SHARE, taskShareOf } from "./_task_budget.ts";
import type { Cache } from "./cache.ts";
import type { PlacedBlock, ResolvedConfig } from "./types.ts";

/** The most tokens and bytes the document may have once the task section is in. */
export interface Limits {
  tokens: number;
  bytes: number;
}

/**
 * What the document may hold with the task section, given it without the section's files
 * (`placed`): the budget, the section at most its share of the budget in tokens, and at most its
 * share of the document in bytes (the map before it holds the rest) while the map has its share.
 *
 * @example
 * ```ts
 * import { sectionLimits } from "./_task_room.ts";
 * // const limits = sectionLimits(placed, config); // { tokens: 32000, bytes: 61000 }
 * ```
 */
export function sectionLimits(placed: PlacedBlock[], config: ResolvedConfig): Limits {
  const budget = config.budget.tokens ?? Infinity;
  const share = taskShareOf(config);
  const mapBytes = bytesOf(placed.slice(0, placed.findIndex((b) => b.id === "task")));
  // In bytes only while the map has its share: past `mapTokens` the budget is the task's.
  const byBytes = share < 1 && share <= (config.budget.taskShare ?? DEFAULT_TASK_SHARE);
  const other = placed.filter((b) => b.section !== "task");
  return {
    tokens: Math.min(budget, Math.floor(budget * share) + totalTokens(other)),
    bytes: byBytes ? bytesOf(other) + Math.floor(mapBytes * share / (1 - share)) : Infinity,
  };
}

/**
 * Whether `cost` fits in what is `left`.
 *
 * @example
 * ```ts
 * import { fits } from "./_task_room.ts";
 * fits({ tokens: 100, bytes: 400 }, { tokens: 90, bytes: 500 }); // false
 * ```
 */
export function fits(left: Limits, cost: Limits): boolean {
  return cost.tokens <= left.tokens && cost.bytes <= left.bytes;
}

/**
 * Take `cost` from what is `left`.
 *
 * @example
 * ```ts
 * import { take } from "./_task_room.ts";
 * const left = { tokens: 100, bytes: 400 };
 * take(left, { tokens: 90, bytes: 300 }); // left is { tokens: 10, bytes: 100 }
 * ```
 */
export function take(left: Limits, cost: Limits): void {
  left.tokens -= cost.tokens;
  left.bytes -= cost.bytes;
}

/**
 * Tokens and UTF-8 bytes of a text (its tokens kept in `cache`, when given, by its sha256).
 *
 * @example
 * ```ts
 * import { costOf } from "./_task_room.ts";
 * // await costOf("- src/a.py\n", "cl100k"); // { tokens: 5, bytes: 11 }
 * ```
 */
export async function costOf(
  text: string,
  tokenizer: ResolvedConfig["budget"]["tokenizer"],
  cache?: Cache,
) {
  return {
    tokens: await cachedTokens(text, { tokenizer, cache }),
    bytes: utf8.encode(text).length,
  };
}

const utf8 = new TextEncoder();

/**
 * Bytes of placed blocks.
 *
 * @example
 * ```ts
 * import { bytesOf } from "./_task_room.ts";
 * // bytesOf(placed); // the document's length in bytes
 * ```
 */
export function bytesOf(blocks: PlacedBlock[]): number {
  return blocks.reduce((n, b) => n + b.length, 0);
}
