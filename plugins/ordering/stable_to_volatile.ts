/**
 * The `stable_to_volatile` rule: static blocks first, then stable, then
 * volatile. The sort is stable, so sections keep their order and files keep
 * the order earlier rules gave them.
 *
 * @module
 */

import type { Block, OrderingPlugin, Stability } from "../../pipeline/types.ts";

/** Options of {@linkcode stableToVolatileOrdering} (none yet). */
export type StableToVolatileOptions = Record<never, never>;

const RANK: Record<Stability, number> = { static: 0, stable: 1, volatile: 2 };

/**
 * Sort blocks by stability, keeping every section together with its heading first.
 */
function sortByStability(blocks: Block[]): Block[] {
  const sectionRank = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  blocks.forEach((b, i) => {
    sectionRank.set(b.section, Math.min(sectionRank.get(b.section) ?? 9, RANK[b.stability]));
    if (!firstSeen.has(b.section)) firstSeen.set(b.section, i);
  });
  // Each block's keys are looked up once, not at every comparison.
  return blocks
    .map((block, index) => ({
      block,
      index,
      rank: sectionRank.get(block.section)!,
      first: firstSeen.get(block.section)!,
      heading: Number(block.heading ?? false),
      stability: RANK[block.stability],
    }))
    .sort((a, b) =>
      a.rank - b.rank || a.first - b.first || b.heading - a.heading ||
      a.stability - b.stability || a.index - b.index
    )
    .map(({ block }) => block);
}

/**
 * The `stable_to_volatile` ordering plugin.
 *
 * @example
 * ```ts
 * import { stableToVolatileOrdering } from "./stable_to_volatile.ts";
 * stableToVolatileOrdering().name; // "slop:stable_to_volatile"
 * ```
 */
export function stableToVolatileOrdering(
  _options: StableToVolatileOptions = {},
): OrderingPlugin {
  return {
    kind: "ordering",
    name: "slop:stable_to_volatile",
    order: (blocks) => sortByStability(blocks),
  };
}
