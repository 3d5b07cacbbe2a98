/**
 * The `volatility` rule: inside the files section, the persistent,
 * size-aware order (`ctx.fileOrder`, see `pipeline/order_state.ts`). The previous order comes
 * from the state dir (`slop build`) or only from `slop.lock` (`slop check`);
 * with neither, from `git log`, else by size.
 *
 * @module
 */

import { isFileBlock } from "../../pipeline/helpers.ts";
import type { Block, OrderContext, OrderingPlugin } from "../../pipeline/types.ts";

/** Options of {@linkcode volatilityOrdering}. */
export interface VolatilityOptions {
  /** The least number of commits of `git log` that seed the first order (the window starts at an anchor commit at least this old). @default {100} */
  seedCommits?: number;
  /**
   * Keep the first modified file at its place (the bytes before its edit stay
   * in the prefix) instead of re-sorting it with the rest. @default {false}
   */
  keepFirstChanged?: boolean;
  /**
   * `observed`: change counts over the builds seen so far; `window`: over an
   * endless window, as in the research. @default {"observed"}
   */
  rate?: "observed" | "window";
}

/**
 * The `volatility` ordering plugin. Register it after `stable_to_volatile`:
 * it only permutes the file blocks among their own positions.
 *
 * @example
 * ```ts
 * import { volatilityOrdering } from "./volatility.ts";
 * volatilityOrdering().name; // "slop:volatility"
 * ```
 */
export function volatilityOrdering(options: VolatilityOptions = {}): OrderingPlugin {
  return {
    kind: "ordering",
    name: "slop:volatility",
    async order(blocks: Block[], ctx: OrderContext) {
      const paths = await ctx.fileOrder.next(blocks, options);
      if (!paths.length) return blocks;
      const slots = blocks.flatMap((b, i) => isFileBlock(b) ? [i] : []);
      const byPath = new Map(slots.map((i) => [blocks[i].source!, blocks[i]]));
      const out = [...blocks];
      paths.forEach((path, k) => (out[slots[k]] = byPath.get(path)!));
      return out;
    },
    async commit(placed, ctx) {
      await ctx.fileOrder.save(placed);
    },
  };
}
