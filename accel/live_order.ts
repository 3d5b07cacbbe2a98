/**
 * A resident's file order in columns: the order state of `pipeline/order_state.ts` as one slot
 * per path (its content key, block length, change count and last change in arrays by slot) and
 * the order as a list of slots. A build advances it as `advanceOrder()` advances a state, to the
 * same order and the same numbers, without a record per file: every count is decayed in one pass
 * over an array, the files that changed get their new values, and the files after the first
 * change sorted from the last order (where it still holds, a sort finds it in one pass).
 *
 * Each build's order is a new set of arrays (copies of the last, a few MB on a big tree, none of
 * them a record the collector walks): a build that is not saved (a prepared build let go, a
 * build of some paths) leaves the last order as it was.
 *
 * @module
 */

import { comparePaths, countWork } from "../pipeline/helpers.ts";
import {
  type AdvanceOptions,
  changePool,
  DECAY,
  FULL_WEIGHT,
  type OrderEntry,
  type OrderState,
  POOL_SHARE,
  volatilityKey,
} from "../pipeline/order_state.ts";

/** The paths the orders of one state file have held: a slot each, with its change pool. */
interface Slots {
  of: Map<string, number>;
  paths: string[];
  /** Each slot's change pool (`changePool()`), by number. */
  pools: number[];
  poolOf: Map<string, number>;
}

/** A file order in columns (see the module's doc); the arrays by slot, `order` the slots in order. */
export interface LiveOrder {
  slots: Slots;
  generation: number;
  weight?: number;
  order: Int32Array;
  sha256: string[];
  bytes: Float64Array;
  changes: Float64Array;
  last: Float64Array;
}

/** A build's files as the order sees them, in block order: each one's slot, content key and length. */
export interface LiveFiles {
  slots: Int32Array;
  sha256: string[];
  bytes: Float64Array;
}

/**
 * The slot of each path in `paths` (a new one for a path not seen yet), the paths' content keys
 * and lengths as columns for {@linkcode advanceLive}; `undefined` when a path is there twice
 * (`advanceOrder()` then decides).
 *
 * @example
 * ```ts
 * import { liveFiles, liveOrder } from "./live_order.ts";
 * const live = liveOrder({ generation: 0, entries: [] })!;
 * liveFiles(live, ["a.ts"], ["k1"], [10])?.slots.length; // 1
 * ```
 */
export function liveFiles(
  live: LiveOrder,
  paths: ArrayLike<string>,
  sha256: string[],
  bytes: ArrayLike<number>,
): LiveFiles | undefined {
  const slots = Int32Array.from({ length: paths.length }, (_, i) => slotOf(live.slots, paths[i]));
  const seen = new Uint8Array(live.slots.paths.length);
  for (const s of slots) {
    if (seen[s]) return undefined;
    seen[s] = 1;
  }
  return { slots, sha256, bytes: Float64Array.from(bytes) };
}

function slotOf(slots: Slots, path: string): number {
  let slot = slots.of.get(path);
  if (slot === undefined) {
    slot = slots.paths.length;
    slots.of.set(path, slot);
    slots.paths.push(path);
    const pool = changePool(path);
    let id = slots.poolOf.get(pool);
    if (id === undefined) slots.poolOf.set(pool, id = slots.poolOf.size);
    slots.pools.push(id);
  }
  return slot;
}

/**
 * A plain order state in columns; `slots`: the slots of an earlier live order of the same file,
 * taken again (its paths keep their numbers).
 *
 * @example
 * ```ts
 * import { liveOrder } from "./live_order.ts";
 * liveOrder({ generation: 1, entries: [{ path: "a", sha256: "k", bytes: 3, changes: 1, last: 1 }] })?.order.length; // 1
 * ```
 */
export function liveOrder(state: OrderState, slots?: Slots): LiveOrder | undefined {
  const table = slots ?? { of: new Map(), paths: [], pools: [], poolOf: new Map() };
  const order = new Int32Array(state.entries.length);
  state.entries.forEach((e, i) => (order[i] = slotOf(table, e.path)));
  const size = table.paths.length;
  // A state with a path twice (not one a build writes) is advanced by `advanceOrder()`.
  const seen = new Uint8Array(size);
  for (const s of order) {
    if (seen[s]) return undefined;
    seen[s] = 1;
  }
  const live: LiveOrder = {
    slots: table,
    generation: state.generation,
    ...(state.weight !== undefined ? { weight: state.weight } : {}),
    order,
    sha256: new Array(size),
    bytes: new Float64Array(size),
    changes: new Float64Array(size),
    last: new Float64Array(size),
  };
  state.entries.forEach((e, i) => {
    const s = order[i];
    live.sha256[s] = e.sha256;
    live.bytes[s] = e.bytes;
    live.changes[s] = e.changes;
    live.last[s] = e.last;
  });
  return live;
}

/**
 * The plain state of a live order (its entries as `advanceOrder()` makes them), to write.
 *
 * @example
 * ```ts
 * import { liveOrder, liveState } from "./live_order.ts";
 * const state = { generation: 1, weight: 1, entries: [{ path: "a", sha256: "k", bytes: 3, changes: 1, last: 1 }] };
 * liveState(liveOrder(state)!); // the same state
 * ```
 */
export function liveState(live: LiveOrder): OrderState {
  const { slots: { paths }, sha256, bytes, changes, last } = live;
  const entries = Array.from(live.order, (s): OrderEntry => ({
    path: paths[s],
    sha256: sha256[s],
    bytes: bytes[s],
    changes: changes[s],
    last: last[s],
  }));
  const weight = live.weight !== undefined ? { weight: live.weight } : {};
  return { generation: live.generation, ...weight, entries };
}

/** What {@linkcode advanceLive} gives: the next order, and its paths in order. */
export interface LiveStep {
  live: LiveOrder;
  paths: string[];
}

/**
 * `advanceOrder(previous, current, undefined, options)` of a live order: the same order and
 * numbers (`current`: the build's files from {@linkcode liveFiles}), one record made per changed
 * file only.
 *
 * @example
 * ```ts
 * import { advanceLive, liveFiles, liveOrder } from "./live_order.ts";
 * const live = liveOrder({ generation: 0, weight: 0, entries: [
 *   { path: "a", sha256: "1", bytes: 90, changes: 0, last: -1 },
 *   { path: "b", sha256: "2", bytes: 10, changes: 0, last: -1 },
 * ] })!;
 * advanceLive(live, liveFiles(live, ["a", "b"], ["9", "2"], [90, 10])!).paths; // ["b", "a"]
 * ```
 */
export function advanceLive(
  previous: LiveOrder,
  current: LiveFiles,
  options: Pick<AdvanceOptions, "keepFirstChanged" | "rate" | "poolShare"> = {},
): LiveStep {
  const { slots } = previous;
  const size = slots.paths.length;
  const { was, now, hit, changed, breakAt, any } = changesOf(previous, current);
  const generation = previous.generation + (any ? 1 : 0);
  const seen = previous.weight ?? FULL_WEIGHT;
  const weight = any ? seen * DECAY + 1 : seen;
  // Each file's values as `advanceOrder()`'s `next()` makes them, in one pass over the columns.
  const sha256 = previous.sha256.slice();
  const bytes = grown(previous.bytes, size);
  const changes = grown(previous.changes, size);
  const last = grown(previous.last, size);
  for (let i = 0; i < current.slots.length; i++) {
    const s = current.slots[i];
    const old = was[s] ? previous.changes[s] : 0;
    const decayed = any ? old * DECAY : old;
    changes[s] = decayed + (hit[s] ? 1 : 0);
    last[s] = hit[s] ? generation : was[s] ? previous.last[s] : generation;
    bytes[s] = current.bytes[i];
    if (hit[s]) sha256[s] = current.sha256[i];
  }
  countWork("order entries", changed);
  // The previous order up to the first change (and that file, kept in place when asked).
  const first = previous.order[breakAt];
  const keep = options.keepFirstChanged && first !== undefined && now[first]
    ? breakAt + 1
    : breakAt;
  const kept = previous.order.subarray(0, keep);
  const inKept = new Uint8Array(size);
  for (const s of kept) inKept[s] = 1;
  const rest: number[] = [];
  for (const s of current.slots) if (!inKept[s]) rest.push(s);
  const share = options.poolShare ?? POOL_SHARE;
  const w = options.rate === "window" ? FULL_WEIGHT : weight;
  const keys = restKeys(slots, [kept, rest], { changes, bytes, weight: w, share });
  const compare = (a: number, b: number) =>
    keys[a] - keys[b] || last[a] - last[b] || comparePaths(slots.paths[a], slots.paths[b]);
  const sorted = sortedRest(previous.order.subarray(keep), rest, { hit, now, compare });
  const order = new Int32Array(keep + sorted.length);
  order.set(kept);
  order.set(sorted, keep);
  const live: LiveOrder = { slots, generation, weight, order, sha256, bytes, changes, last };
  return { live, paths: Array.from(order, (s) => slots.paths[s]) };
}

/**
 * What changed from `previous` to `current`: which slots were and are in the order, which are new
 * or have another content key (`hit`), and where the previous order first meets a deleted or
 * changed file (`breakAt`).
 */
function changesOf(previous: LiveOrder, current: LiveFiles) {
  const size = previous.slots.paths.length;
  const was = new Uint8Array(size);
  for (const s of previous.order) was[s] = 1;
  const now = new Uint8Array(size);
  // Changed: a new path, or another content key (the slots of `current`, in its order).
  const hit = new Uint8Array(size);
  let changed = 0;
  for (let i = 0; i < current.slots.length; i++) {
    const s = current.slots[i];
    now[s] = 1;
    if (!was[s] || previous.sha256[s] !== current.sha256[i]) {
      hit[s] = 1;
      changed++;
    }
  }
  let deleted = 0;
  let breakAt = -1;
  for (let k = 0; k < previous.order.length; k++) {
    const s = previous.order[k];
    if (!now[s]) deleted++;
    if (breakAt < 0 && (!now[s] || hit[s])) breakAt = k;
  }
  if (breakAt < 0) breakAt = previous.order.length;
  return { was, now, hit, changed, breakAt, any: changed > 0 || deleted > 0 };
}

/**
 * The volatility key of each slot of `parts`' last part (the files to sort): each pool's mean count
 * is summed over the kept files then the rest, in `advanceOrder()`'s order (a float sum depends on
 * its order).
 */
function restKeys(
  slots: Slots,
  parts: ArrayLike<number>[],
  values: { changes: Float64Array; bytes: Float64Array; weight: number; share: number },
): Float64Array {
  const { changes, bytes, weight, share } = values;
  const pools = slots.poolOf.size;
  const sums = new Float64Array(pools);
  const files = new Float64Array(pools);
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const s = part[i];
      sums[slots.pools[s]] += changes[s];
      files[slots.pools[s]]++;
    }
  }
  const keys = new Float64Array(slots.paths.length);
  const rest = parts[parts.length - 1];
  for (let i = 0; i < rest.length; i++) {
    const s = rest[i];
    const pool = slots.pools[s];
    const mean = share ? sums[pool] / files[pool] : 0;
    keys[s] = volatilityKey(changes[s], bytes[s], { weight, share, mean });
  }
  return keys;
}

/** `from` copied into an array of `size` (a new path's slot is past the previous arrays' end). */
function grown(from: Float64Array, size: number): Float64Array {
  const to = new Float64Array(size);
  to.set(from.subarray(0, Math.min(from.length, size)));
  return to;
}

/**
 * The rest of the order sorted by `compare` (a total order: ties end on the path, so any sort
 * gives the order `advanceOrder()` gives): handed to the sort in the previous order, the files
 * that did not change first and the changed and new ones after them. The runtime's sort (a
 * merge sort that finds the runs already in order) then does about one comparison a file where
 * the last order still holds, where the rest in block order took some `n log n`.
 */
function sortedRest(
  before: Int32Array,
  rest: number[],
  { hit, now, compare }: {
    hit: Uint8Array;
    now: Uint8Array;
    compare: (a: number, b: number) => number;
  },
): number[] {
  const input: number[] = [];
  for (const s of before) if (now[s] && !hit[s]) input.push(s);
  for (const s of rest) if (hit[s]) input.push(s);
  let compared = 0;
  input.sort((a, b) => (compared++, compare(a, b)));
  countWork("order comparisons", compared);
  return input;
}

/**
 * `reorderState()` of a live order: its files in the order of `paths` (the document's, after
 * later rules moved some), those no longer present dropped.
 *
 * @example
 * ```ts
 * import { liveOrder, reorderLive } from "./live_order.ts";
 * const live = liveOrder({ generation: 0, entries: [
 *   { path: "a", sha256: "1", bytes: 1, changes: 0, last: 0 },
 *   { path: "b", sha256: "2", bytes: 1, changes: 0, last: 0 },
 * ] })!;
 * reorderLive(live, ["b", "a"]).order; // Int32Array [1, 0]
 * ```
 */
export function reorderLive(live: LiveOrder, paths: string[]): LiveOrder {
  const { slots, order } = live;
  // The document's order is the advanced one unless a rule moved a file after it (pinned files).
  if (paths.length === order.length && paths.every((p, i) => slots.paths[order[i]] === p)) {
    return live;
  }
  const inOrder = new Uint8Array(slots.paths.length);
  for (const s of order) inOrder[s] = 1;
  const next: number[] = [];
  for (const p of paths) {
    const s = slots.of.get(p);
    if (s !== undefined && inOrder[s]) next.push(s);
  }
  return { ...live, order: Int32Array.from(next) };
}
