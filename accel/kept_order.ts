/**
 * The file order of a build in a resident process (`slop watch`, the build
 * server): the same order as `pipeline/order_memory.ts`'s `fileOrder()`, with
 * the order state this process last wrote kept in memory in columns
 * (`live_order.ts`) and advanced there while its file is still the one
 * written, and the lengths of the blocks it placed before taken from its block
 * memo (the same text), not measured again.
 *
 * @module
 */

import {
  advanceFrom,
  type FileOrderInput,
  isFileBlock,
  loadPreviousOrder,
  orderFiles,
  orderStatePath,
  orderToSave,
  readsBack,
  writeOrderState,
} from "../pipeline/order_memory.ts";
import { countWork, fileStamp } from "../pipeline/helpers.ts";
import { knownOnce } from "./_same_text.ts";
import { fileContentKey, type OrderState, type OrderStep } from "../pipeline/order_state.ts";
import {
  advanceLive,
  type LiveFiles,
  liveFiles,
  type LiveOrder,
  liveOrder,
  liveState,
  reorderLive,
} from "./live_order.ts";
import type { BlockMemo, Memo } from "../pipeline/memo.ts";
import type {
  Block,
  DeriveFn,
  FileOrder,
  RecordFn,
  RenderedFile,
  ResolvedConfig,
} from "../pipeline/types.ts";

/**
 * An order state this process wrote, in columns (`live_order.ts`), with its file's stamp (inode,
 * size, modification time) right after: the next build advances it while the file is still the
 * one written, instead of reading and checking the file again and making every entry anew.
 */
export interface KeptOrder {
  live: LiveOrder;
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
  /**
   * Values made from records (`Resident.fromRecord`): an unchanged file's content key, kept by its
   * record (the same from build to build), else made from its text.
   */
  fromRecord?: RecordFn;
}

/**
 * The file order of one build (see `fileOrder()` in `pipeline/order_memory.ts`), with what a
 * resident process keeps: the order it wrote last advanced in columns (`advanceLive()`), to the
 * order and the numbers `advanceFrom()` gives.
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
  let advanced: LiveOrder | undefined;
  return {
    async next(blocks, options = {}) {
      step = advanced = undefined;
      const known = source === "state" ? keptOrder(config, kept.orders) : undefined;
      if (known) {
        const current = liveInputs(blocks, files, kept, known.live);
        if (current?.slots.length === 0) return [];
        if (current) {
          // The options `advanceFrom()` reads, and no others (a rule's object may hold more).
          const { keepFirstChanged, rate } = options;
          const next = advanceLive(known.live, current, { keepFirstChanged, rate });
          advanced = next.live;
          return next.paths;
        }
      }
      const current = keptOrderFiles(blocks, files, kept);
      if (!current.length) return [];
      const previous = known
        ? { state: liveState(known.live), origin: "state" as const }
        : await loadPreviousOrder(config, source, { ...options, warn });
      step = advanceFrom(previous, current, options);
      return step.state.entries.map((e) => e.path);
    },
    async save(placed) {
      const path = orderStatePath(config);
      const paths = () => placed.filter(isFileBlock).map((b) => b.source!);
      let live: LiveOrder | undefined;
      let state: OrderState | undefined;
      if (advanced) {
        // As `orderToSave()`: `slop check` and builds of some paths write no order.
        if (source !== "state" || config.paths.length) return;
        live = reorderLive(advanced, paths());
        state = liveState(live);
      } else {
        state = orderToSave(config, { source, step, placed });
        if (!state) return;
      }
      const before = kept.orders.get(path);
      kept.orders.delete(path);
      const stamp = await writeOrderState(config, state);
      // Kept as the next build would read it back (a state it would refuse is read and refused).
      if (!stamp || !readsBack(state)) return;
      // A big tree's paths that left it: the columns start anew once most of their slots are gone.
      const slots = before?.live.slots;
      const fresh = !slots || slots.paths.length > 2 * state.entries.length + 1024;
      live ??= liveOrder(state, fresh ? undefined : slots);
      if (live) kept.orders.set(path, { live, stamp });
    },
  };
}

/** The order this process wrote last for `config`, while its file is the one written. */
function keptOrder(config: ResolvedConfig, orders: Map<string, KeptOrder>): KeptOrder | undefined {
  const path = orderStatePath(config);
  const known = orders.get(path);
  return known && fileStamp(path) === known.stamp ? known : undefined;
}

/**
 * The build's file blocks as columns for `advanceLive()`: their paths, content keys and lengths
 * as `keptOrderFiles()` gives them (a block whose length is not known is measured by
 * `orderFiles()`); `undefined` when a path is there twice. With `fromRecord`, a block's content
 * key and length are kept with its record (a file's block is the same record from build to build
 * while its render is, and a block record's text never changes): an unchanged file's are one look,
 * its file not looked up by path.
 */
function liveInputs(
  blocks: Block[],
  files: RenderedFile[],
  kept: Pick<OrderKept, "blocks" | "derived" | "known" | "fromRecord">,
  live: LiveOrder,
): LiveFiles | undefined {
  const known = kept.known ?? knownOnce(kept.blocks);
  const { derived, fromRecord } = kept;
  const keyOf = (file: RenderedFile) => {
    countWork("content keys", 1);
    return fileContentKey(file, { derived });
  };
  // The file of a block whose record does not hold its values: found by a pass over the files for
  // the first few (an edit's), by a map of every path made once for more (a first build's).
  let misses = 0;
  let byPath: Map<string, RenderedFile> | undefined;
  const fileOf = (path: string) => {
    if (++misses <= FOUND_BY_PASS) return files.find((f) => f.path === path);
    countWork("order files by path", files.length);
    byPath ??= new Map(files.map((f) => [f.path, f]));
    return byPath.get(path);
  };
  const paths: string[] = [];
  const keys: string[] = [];
  const lengths: number[] = [];
  for (const block of blocks as Array<Block & { length?: number }>) {
    if (!isFileBlock(block)) continue;
    const held = fromRecord?.(block, "order input", (): OrderInput => ({}));
    if (held?.key !== undefined && held.length !== undefined) {
      paths.push(block.source!);
      keys.push(held.key);
      lengths.push(held.length);
      continue;
    }
    const file = fileOf(block.source!);
    const length = block.length ?? known(block)?.length;
    if (file && length !== undefined) {
      const key = fromRecord ? fromRecord(file, "content key", () => keyOf(file)) : keyOf(file);
      if (held) Object.assign(held, { key, length });
      paths.push(block.source!);
      keys.push(key);
      lengths.push(length);
      continue;
    }
    const [measured] = orderFiles([block], file ? [file] : [], { derived });
    paths.push(measured.path);
    keys.push(measured.sha256);
    lengths.push(measured.bytes);
  }
  return liveFiles(live, paths, keys, lengths);
}

/** How many files {@linkcode liveInputs} finds by a pass over the build's files before a map. */
const FOUND_BY_PASS = 4;

/** What the order keeps with a file's block record: its file's content key and its length. */
interface OrderInput {
  key?: string;
  length?: number;
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
