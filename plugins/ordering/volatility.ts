/**
 * The `volatility` rule: inside the files section, the persistent,
 * size-aware order (see `pipeline/order_state.ts`). The previous order comes
 * from the state dir (`slop build`) or only from `slop.lock` (`slop check`);
 * with neither, from `git log`, else by size.
 *
 * @module
 */

import {
  isFileBlock,
  loadPreviousOrder,
  orderFiles,
  writeOrderState,
} from "../../pipeline/order_memory.ts";
import { advanceOrder, type OrderStep, reorderState } from "../../pipeline/order_state.ts";
import type { Block, OrderContext, OrderingPlugin } from "../../pipeline/types.ts";

/** Options of {@linkcode volatilityOrdering}. */
export interface VolatilityOptions {
  /** Commits of `git log` that seed the first order. @default {200} */
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
  let step: OrderStep | undefined;
  return {
    kind: "ordering",
    name: "slop:volatility",
    async order(blocks: Block[], ctx: OrderContext) {
      step = undefined;
      const slots = blocks.flatMap((b, i) => isFileBlock(b) ? [i] : []);
      if (!slots.length) return blocks;
      const previous = await loadPreviousOrder(ctx.config, ctx.orderSource, options);
      step = advanceOrder(previous.state, orderFiles(blocks, ctx.files), previous.seed, {
        keepFirstChanged: options.keepFirstChanged,
        seedWeight: previous.seedWeight,
        rate: options.rate,
      });
      const byPath = new Map(slots.map((i) => [blocks[i].source!, blocks[i]]));
      const out = [...blocks];
      step.state.entries.forEach((e, k) => (out[slots[k]] = byPath.get(e.path)!));
      return out;
    },
    async commit(placed, ctx) {
      // `slop check` never writes state; a build restricted to PATHS would forget the rest.
      if (!step || ctx.orderSource !== "state" || ctx.config.paths.length) return;
      const paths = placed.filter(isFileBlock).map((b) => b.source!);
      await writeOrderState(ctx.config, reorderState(step.state, paths));
    },
  };
}
