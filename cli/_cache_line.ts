/**
 * The build summary's cache line: the provider's prefix tokens, its
 * breakpoints and the input cost of a cold and a warm call.
 *
 * @module
 */

import type { CachePlan } from "../pipeline/cache_plan.ts";

/**
 * One summary line for a cache plan.
 *
 * @example
 * ```ts
 * import { cacheLine } from "./_cache_line.ts";
 * // cacheLine(result.cache!);
 * // "cache (anthropic claude-haiku-4-5, ttl 5m): prefix ~12,345 tokens, 3 breakpoints; ..."
 * ```
 */
export function cacheLine(plan: CachePlan): string {
  const estimate = plan.model.tokenizer.endsWith("-estimate") ? "~" : "";
  const provider = plan.provider.replace(/^slop:/, "");
  const n = plan.breakpoints.length;
  const cached = plan.prefixTokens >= plan.model.minCacheTokens
    ? `${n} breakpoint${n === 1 ? "" : "s"}`
    : `below the ${plan.model.minCacheTokens}-token minimum, not cached`;
  return `cache (${provider} ${plan.model.model}, ttl ${plan.ttl}): prefix ${estimate}${
    plan.prefixTokens.toLocaleString("en-US")
  } tokens, ${cached}; input cost per call: cold ${dollars(plan.cost.cold)}, warm ${
    dollars(plan.cost.warm)
  }`;
}

function dollars(n: number): string {
  return `$${n < 0.01 ? n.toFixed(6) : n.toFixed(4)}`;
}
