/**
 * The file order of a build in a resident process (`slop watch`, the build
 * server): the same order as `pipeline/order_memory.ts`'s `fileOrder()`, with
 * the order state this process last wrote taken from memory while its file is
 * still the one written, and the lengths of the blocks it placed before taken
 * from its block memo (the same text), not measured again.
 *
 * @module
 */

import {
  advanceFrom,
  type FileOrderInput,
  loadPreviousOrder,
  orderFiles,
  orderStatePath,
  orderToSave,
  type PreviousOrder,
  type PreviousOrderOptions,
  readsBack,
  writeOrderState,
} from "../pipeline/order_memory.ts";
import { fileStamp } from "../pipeline/helpers.ts";
import { knownOnce } from "./_same_text.ts";
import type { OrderState, OrderStep } from "../pipeline/order_state.ts";
import type { BlockMemo, Memo } from "../pipeline/memo.ts";
import type {
  Block,
  DeriveFn,
  FileOrder,
  RenderedFile,
  ResolvedConfig,
} from "../pipeline/types.ts";

/**
 * An order state this process wrote, with its file's stamp (inode, size, modification time)
 * right after: the next build takes it from memory while the file is still the one written,
 * instead of reading and checking it again.
 */
export interface KeptOrder {
  state: OrderState;
  stamp: string;
}

/**
 * What a resident keeps for the file order: the states it wrote, by path, its block memo and its
 * memo of values made from texts (the files' content keys).
 */
export interface OrderKept {
  orders: Map<string, KeptOrder>;
  blocks: Memo<BlockMemo>;
  derived: DeriveFn;
  /** The build's lookup of the block memo (`knownOnce()` of `_same_text.ts`), else one made now. */
  known?: (block: Block) => BlockMemo | undefined;
}

/**
 * The file order of one build (see `fileOrder()` in `pipeline/order_memory.ts`), with what a
 * resident process keeps.
 *
 * @example
 * ```ts
 * import { keptFileOrder } from "./kept_order.ts";
 * // const order = keptFileOrder(config, { source: "state", files, kept: resident });
 * ```
 */
export function keptFileOrder(
  config: ResolvedConfig,
  input: Omit<FileOrderInput, "derived"> & { kept: OrderKept },
): FileOrder {
  const { source, files, kept, warn } = input;
  let step: OrderStep | undefined;
  return {
    async next(blocks, options = {}) {
      step = undefined;
      const current = keptOrderFiles(blocks, files, kept);
      if (!current.length) return [];
      const previous = await keptPreviousOrder(config, source, { ...options, warn }, kept.orders);
      step = advanceFrom(previous, current, options);
      return step.state.entries.map((e) => e.path);
    },
    async save(placed) {
      const state = orderToSave(config, { source, step, placed });
      if (!state) return;
      const path = orderStatePath(config);
      kept.orders.delete(path);
      const stamp = await writeOrderState(config, state);
      // Kept as the next build would read it back (a state it would refuse is read and refused).
      if (stamp && readsBack(state)) kept.orders.set(path, { state, stamp });
    },
  };
}

/**
 * `orderFiles()` of `pipeline/order_memory.ts`, each block's length taken from the block memo
 * while its text is the one the memo holds (a block placed by an earlier build), and the values
 * made from texts from the resident's memo of them.
 *
 * @example
 * ```ts
 * import { keptOrderFiles } from "./kept_order.ts";
 * // const current = keptOrderFiles(blocks, files, resident);
 * ```
 */
export function keptOrderFiles(
  blocks: Block[],
  files: RenderedFile[],
  kept: Pick<OrderKept, "blocks" | "derived" | "known">,
): ReturnType<typeof orderFiles> {
  const known = kept.known ?? knownOnce(kept.blocks);
  const lengths = blocks.map((b) => known(b)?.length);
  return orderFiles(blocks, files, { lengths, derived: kept.derived });
}

/** The previous order, the state this process wrote taken from memory while its file is unchanged. */
async function keptPreviousOrder(
  config: ResolvedConfig,
  source: "state" | "lock",
  options: PreviousOrderOptions,
  orders: Map<string, KeptOrder>,
): Promise<PreviousOrder> {
  if (source === "state") {
    const path = orderStatePath(config);
    const known = orders.get(path);
    if (known && fileStamp(path) === known.stamp) return { state: known.state, origin: "state" };
  }
  return await loadPreviousOrder(config, source, options);
}
