/**
 * Tiers of the seed's multi-agent setup, as default views: the orchestrator
 * (tier 1) sees files in full, the tech lead (tier 2) sees summaries with key
 * details, workers (tier 3) see skeletons with their focus files in full
 * (that last rule lives in `chooseView`, since it beats per-file views).
 *
 * @module
 */

import { focusHits, focusMatcher } from "./transform.ts";
import type { ProviderConfig } from "./types.ts";

/** Agent tiers: 1 orchestrator, 2 tech lead, 3 worker. */
export type Tier = 1 | 2 | 3;

/**
 * The default view a tier gives files that set no `view` (a persona's own
 * `defaultView` wins over it): tier 1 `full`; tier 2 `llm_summary` when a
 * provider is configured (its summaries carry key details), else the
 * heuristic `summary`; tier 3 none (every non-focus file is `skeleton`).
 *
 * @example
 * ```ts
 * import { tierDefaultView } from "./personas.ts";
 * tierDefaultView(2, {}); // "summary"
 * tierDefaultView(2, { name: "anthropic" }); // "llm_summary"
 * ```
 */
export function tierDefaultView(
  tier: Tier | undefined,
  provider: ProviderConfig,
): string | undefined {
  if (tier === 1) return "full";
  if (tier === 2) return provider.name ? "llm_summary" : "summary";
  return undefined;
}

/**
 * Warnings for focus entries (persona `focus`, `--focus`) that match none of
 * the build's files: a typo would otherwise silently give a skeleton-only
 * context.
 *
 * @example
 * ```ts
 * import { unmatchedFocus } from "./personas.ts";
 * unmatchedFocus(["src/a.ts", "nope.ts"], ["src/a.ts"]);
 * // ['Focus "nope.ts" matches no file of the build']
 * ```
 */
export function unmatchedFocus(focus: string[], paths: string[]): string[] {
  // The path levels of all entries at once; an entry none matches may still be a substring.
  const hit = focusHits(focus, paths);
  return focus
    .filter((entry, i) => {
      if (hit.has(i)) return false;
      const matches = focusMatcher([entry], paths);
      return !paths.some(matches);
    })
    .map((entry) => `Focus "${entry}" matches no file of the build`);
}
