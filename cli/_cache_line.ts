/**
 * The build summary's cache line: the provider's prefix tokens, its
 * breakpoints and the input cost of a cold and a warm call. Each count says
 * what it counts: slop's own tokenizer by name, or how the provider's tokens
 * were estimated when its tokenizer is not public.
 *
 * @module
 */

import type { CachePlan } from "../pipeline/cache_plan.ts";
import type { ModelInfo } from "../pipeline/types.ts";
import { formatDollars } from "../pipeline/figures.ts";
import { formatCount } from "../pipeline/figures.ts";

/**
 * One summary line for a cache plan.
 *
 * @example
 * ```ts
 * import { cacheLine } from "./_cache_line.ts";
 * // cacheLine(result.cache!);
 * // "cache (anthropic claude-haiku-4-5, ttl 5m): prefix ~12,345 tokens (o200k × 1.2, estimated), 3 breakpoints; ..."
 * ```
 */
export function cacheLine(plan: CachePlan): string {
  const provider = plan.provider.replace(/^slop:/, "");
  const n = plan.breakpoints.length;
  const cached = plan.prefixTokens >= plan.model.minCacheTokens
    ? `${n} breakpoint${n === 1 ? "" : "s"}`
    : `below the ${formatCount(plan.model.minCacheTokens)}-token minimum, not cached`;
  return `cache (${provider} ${plan.model.model}, ttl ${plan.ttl}): prefix ${
    modelTokenCount(plan.prefixTokens, plan.model)
  }, ${cached}; input cost per call: cold ${formatDollars(plan.cost.cold)}, warm ${
    formatDollars(plan.cost.warm)
  }`;
}

/**
 * A count of a model's tokens that says what it counts: exact counts name their tiktoken
 * encoding, estimates start with `~` and say what they were made from (the o200k count or the
 * characters, times the model's factor), so they are not mistaken for slop's own count.
 *
 * @example
 * ```ts
 * import { modelTokenCount } from "./_cache_line.ts";
 * const info = {
 *   model: "m", minCacheTokens: 1024, ttls: ["5m"], breakpoints: false,
 *   tokenizer: "o200k-estimate" as const, tokenFactor: 1.2,
 *   prices: { input: 1, output: 1, cacheRead: 0.1 },
 * };
 * modelTokenCount(1399, info); // "~1,399 tokens (o200k × 1.2, estimated)"
 * ```
 */
export function modelTokenCount(
  tokens: number,
  model: Pick<ModelInfo, "tokenizer" | "tokenFactor">,
): string {
  const n = formatCount(tokens);
  if (model.tokenizer === "o200k" || model.tokenizer === "cl100k") {
    return `${n} ${model.tokenizer} tokens`;
  }
  const from = model.tokenizer === "o200k-estimate" ? "o200k" : "characters";
  const factor = model.tokenFactor ?? 1;
  return `~${n} tokens (${factor === 1 ? from : `${from} × ${factor}`}, estimated)`;
}
