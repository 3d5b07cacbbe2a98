/**
 * The order memory: where the previous file order of a build comes from
 * (the state dir for `slop build`, only `slop.lock` for `slop check`, else
 * `git log`, else sizes), and where `slop build` keeps it.
 *
 * @module
 */

import { byteParts, knownByteLength } from "./lazy_text.ts";
import { join, shownPath } from "./_path.ts";
import { derived as madeNow, isFileBlock, writeAtomic } from "./helpers.ts";
import { orderStateFromLock, readLock } from "./lock.ts";
import { gitChangeSeed, SEED_COMMITS, warnRefusedOnce } from "./_git_history.ts";
import {
  advanceOrder,
  fileContentKey,
  type OrderEntry,
  type OrderFile,
  type OrderSeed,
  type OrderState,
  type OrderStep,
  reorderState,
} from "./order_state.ts";
import type {
  Block,
  DeriveFn,
  FileOrder,
  FileOrderOptions,
  PlacedBlock,
  RenderedFile,
  ResolvedConfig,
} from "./types.ts";
import { textParts } from "./block_parts.ts";
import { utf8Length } from "./text_hash.ts";
import { fileStamp } from "./helpers.ts";
import { readSettingTextSync, STATE_FILE_LIMIT } from "./_setting_file.ts";

export { isFileBlock };

/** Options of {@linkcode loadPreviousOrder}. */
export interface PreviousOrderOptions {
  /** The least number of commits of `git log` that seed the first order. @default {100} */
  seedCommits?: number;
  /** Told once when git refuses a value of its config (the first order is then by sizes). @default {undefined} */
  warn?: (message: string) => void;
}

/** Where a previous order came from. */
export type OrderOrigin = "state" | "lock" | "git" | "size";

/** The previous order of a build, and where it came from. */
export interface PreviousOrder {
  /** The remembered order, when there is one. */
  state?: OrderState;
  /** Change statistics from `git log`, when there is no remembered order. */
  seed?: Map<string, OrderSeed>;
  /** The decayed number of commits the seed covers. */
  seedWeight?: number;
  /** The count every file of the seed has besides its changes. */
  seedPrior?: number;
  /** `state` (the state dir), `lock` (`slop.lock`), `git` or `size`. */
  origin: OrderOrigin;
}

/**
 * The file holding the order memory of `slop build` for a config: one per
 * output namespace, persona and preset.
 *
 * @example
 * ```ts
 * import { orderStatePath } from "./order_memory.ts";
 * // orderStatePath(config) === "/project/.slop/order/context.json"
 * ```
 */
export function orderStatePath(config: ResolvedConfig): string {
  const parts = [config.output.namespace];
  if (config.persona) parts.push(`persona-${config.persona.name}`);
  if (config.preset) parts.push(`preset-${config.preset}`);
  // Task builds remember the order of their map apart: a build with other views between two
  // task builds does not move it (pipeline/task.ts).
  if (config.task !== undefined) parts.push("task");
  return join(config.stateDir, "order", `${parts.join(".")}.json`);
}

/**
 * Load the previous order: from the state dir (then the lock) when `source`
 * is `state`, only from the lock when it is `lock`; with neither, the
 * `git log` seed, or nothing (order by size).
 *
 * @example
 * ```ts
 * import { loadPreviousOrder } from "./order_memory.ts";
 * // const previous = await loadPreviousOrder(config, "lock");
 * ```
 */
export async function loadPreviousOrder(
  config: ResolvedConfig,
  source: "state" | "lock",
  options: PreviousOrderOptions = {},
): Promise<PreviousOrder> {
  if (source === "state") {
    const state = readOrderState(orderStatePath(config));
    if (state) return { state, origin: "state" };
  }
  // Named as the user knows it (relative to the working folder) in an error.
  const lock = await readLock(config.lock, shownPath(config.lock));
  if (lock) {
    const state = orderStateFromLock(lock);
    if (state.entries.length) return { state, origin: "lock" };
  }
  const seed = await gitChangeSeed(config.root, options.seedCommits ?? SEED_COMMITS, {
    onRefused: (line) => warnRefusedOnce(options.warn, line),
  });
  return seed
    ? { seed: seed.files, seedWeight: seed.weight, seedPrior: seed.prior, origin: "git" }
    : { origin: "size" };
}

/** Whether an entry of a remembered order is whole (a damaged memory is no memory). */
function isOrderEntry(e: Partial<Record<keyof OrderEntry, unknown>>): boolean {
  return typeof e?.path === "string" && typeof e.sha256 === "string" &&
    Number.isFinite(e.changes) && Number.isFinite(e.last) && Number.isFinite(e.bytes);
}

function readOrderState(path: string): OrderState | undefined {
  try {
    const data = JSON.parse(readSettingTextSync(path, STATE_FILE_LIMIT));
    if (data?.version !== 1 || !Array.isArray(data.files)) return undefined;
    // A damaged memory is no memory: the order then starts from the lock, git or sizes.
    if (!data.files.every(isOrderEntry)) return undefined;
    const weight = typeof data.weight === "number" ? { weight: data.weight } : {};
    return { generation: Number(data.generation) || 0, ...weight, entries: data.files };
  } catch {
    return undefined;
  }
}

/** Options of {@linkcode orderFiles}. */
export interface OrderFilesOptions {
  /** Each block's UTF-8 length by index, when known already. @default {undefined} measured */
  lengths?: ArrayLike<number | undefined>;
  /** The build's memo of values made from texts. @default {derived} made now (`helpers.ts`) */
  derived?: DeriveFn;
}

/**
 * The order inputs of a build's file blocks, in block order: each block's UTF-8 length is its
 * own `length` when placed, else `lengths[i]` when known already, else measured; each file's
 * content key and measured length made through `derived` (the build's memo of values made from
 * texts), else made now.
 *
 * @example
 * ```ts
 * import { orderFiles } from "./order_memory.ts";
 * // const files = orderFiles(blocks, result.files);
 * ```
 */
export function orderFiles(
  blocks: Array<Block & { length?: number }>,
  files: RenderedFile[],
  options: OrderFilesOptions = {},
): OrderFile[] {
  const { lengths, derived = madeNow } = options;
  const byPath = new Map(files.map((f) => [f.path, f]));
  return blocks.flatMap((b, i) => {
    if (!isFileBlock(b)) return [];
    const file = byPath.get(b.source!);
    return [{
      path: b.source!,
      sha256: file ? fileContentKey(file, { derived }) : "",
      bytes: b.length ?? lengths?.[i] ?? blockBytes(b, derived),
    }];
  });
}

/**
 * A block's UTF-8 length, measured part by part (a file block's text is not copied whole,
 * `block_parts.ts`), once per text in a resident process (slop watch). There it is kept by the
 * block's longest part (the file's text), not by the joined text: V8 copies a joined string
 * whole (flattens it) to use it as a key, a second copy of every file shown.
 */
function blockBytes(block: Block, derived: DeriveFn): number {
  // A lazy text's length as it is kept, else its bytes (`lazy_text.ts`): not decoded to be measured.
  const known = knownByteLength(block);
  if (known !== undefined) return known;
  const bytes = byteParts(block);
  if (bytes) {
    return bytes.reduce((n, p) => n + (typeof p === "string" ? utf8Length(p) : p.length), 0);
  }
  const parts = textParts(block);
  const measure = () => parts.reduce((n, p) => n + utf8Length(p), 0);
  if (parts.length === 1) return derived(block.text, "utf8 bytes", measure);
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
  // The other parts (heading, fences) are short: they go into the salt, in order.
  const salt = JSON.stringify(parts.map((p) => (p === longest ? null : p)));
  return derived(longest, `utf8 bytes\0${salt}`, measure);
}

/**
 * Remember a build's order in the state dir; gives the written file's stamp (`fileStamp`), taken
 * before it replaced the last one.
 *
 * @example
 * ```ts
 * import { writeOrderState } from "./order_memory.ts";
 * // await writeOrderState(config, state);
 * ```
 */
export async function writeOrderState(
  config: ResolvedConfig,
  state: OrderState,
): Promise<string | undefined> {
  const path = orderStatePath(config);
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const data = {
    version: 1,
    generation: state.generation,
    weight: state.weight,
    files: state.entries,
  };
  // Stamped once renamed (a rename sets the status change time), while it is still this file.
  let ino = "";
  await writeAtomic(
    path,
    JSON.stringify(data) + "\n",
    (tmp) => (ino = fileStamp(tmp)?.split(":")[0] ?? ""),
  );
  const stamp = fileStamp(path);
  return stamp?.startsWith(`${ino}:`) ? stamp : undefined;
}

/**
 * Whether a state written by {@linkcode writeOrderState} reads back as itself (a state
 * {@linkcode loadPreviousOrder} would refuse reads back as none).
 *
 * @example
 * ```ts
 * import { readsBack } from "./order_memory.ts";
 * readsBack({ generation: 1, entries: [] }); // true
 * ```
 */
export function readsBack(state: OrderState): boolean {
  return Number.isFinite(state.generation) && state.entries.every(isOrderEntry) &&
    (state.weight === undefined || Number.isFinite(state.weight));
}

/**
 * The next step of a file order: the previous order advanced by the build's file blocks.
 *
 * @example
 * ```ts
 * import { advanceFrom } from "./order_memory.ts";
 * advanceFrom({ origin: "size" }, [{ path: "a.ts", sha256: "1", bytes: 10 }]).state.entries.length; // 1
 * ```
 */
export function advanceFrom(
  previous: PreviousOrder,
  current: OrderFile[],
  options: FileOrderOptions = {},
): OrderStep {
  return advanceOrder(previous.state, current, previous.seed, {
    keepFirstChanged: options.keepFirstChanged,
    seedWeight: previous.seedWeight,
    seedPrior: previous.seedPrior,
    rate: options.rate,
  });
}

/**
 * The order a build saves: its last advanced order (`step`) as its document has it (`placed`), or
 * `undefined` when it saves none: `slop check` (`source` "lock") never writes state, and a build
 * restricted to PATHS would forget the other files.
 *
 * @example
 * ```ts
 * import { orderToSave } from "./order_memory.ts";
 * // const state = orderToSave(config, { source: "state", step, placed });
 * ```
 */
export function orderToSave(
  config: ResolvedConfig,
  { source, step, placed }: {
    source: "state" | "lock";
    step: OrderStep | undefined;
    placed: PlacedBlock[];
  },
): OrderState | undefined {
  if (!step || source !== "state" || config.paths.length) return undefined;
  return reorderState(step.state, placed.filter(isFileBlock).map((b) => b.source!));
}

/** What {@linkcode fileOrder} orders. */
export interface FileOrderInput {
  /** Where the previous order comes from (see {@linkcode loadPreviousOrder}). */
  source: "state" | "lock";
  /** The build's rendered files. */
  files: RenderedFile[];
  /** The build's memo of values made from texts. @default {derived} made now (`helpers.ts`) */
  derived?: DeriveFn;
  /** The build's warnings (git refusing its config, when the first order reads the history). @default {undefined} */
  warn?: (message: string) => void;
}

/**
 * The file order of one build, handed to ordering rules as `ctx.fileOrder`:
 * `next` advances the previous order (from `source`, see
 * {@linkcode loadPreviousOrder}) by the build's file blocks (`files`, their
 * rendered files), `save` writes the last advanced order, as the document has
 * it, to the state dir (only when `source` is `state` and the build is not
 * restricted to PATHS).
 *
 * @example
 * ```ts
 * import { fileOrder } from "./order_memory.ts";
 * // const paths = await fileOrder(config, { source: "state", files }).next(blocks);
 * ```
 */
export function fileOrder(config: ResolvedConfig, options: FileOrderInput): FileOrder {
  const { source, files, derived, warn } = options;
  let step: OrderStep | undefined;
  return {
    async next(blocks, options = {}) {
      step = undefined;
      const current = orderFiles(blocks, files, { derived });
      if (!current.length) return [];
      const previous = await loadPreviousOrder(config, source, { ...options, warn });
      step = advanceFrom(previous, current, options);
      return step.state.entries.map((e) => e.path);
    },
    async save(placed) {
      const state = orderToSave(config, { source, step, placed });
      if (state) await writeOrderState(config, state);
    },
  };
}
