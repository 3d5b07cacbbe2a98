/**
 * The persistent, size-aware file order of `../shared/research/ordering.md`
 * as plain data in, plain data out: the previous order is kept up to the first
 * modified or deleted file, the rest (plus new files) is sorted so that big,
 * rarely changing files come first.
 *
 * @module
 */

import { comparePaths, derived } from "./helpers.ts";
import { countWork } from "./_work_count.ts";
import type { DeriveFn, RenderedFile } from "./types.ts";
import { hashText, sha256Parts } from "./text_hash.ts";
import { byteParts, derivedFromText, textBacking } from "./lazy_text.ts";

/** `2^(-1/25)`: a change count halves every 25 changing builds. Written out so every engine agrees. */
export const DECAY = 0.9726549474122855;

/** Added to a change count before it becomes a change probability. */
export const PRIOR = 0.05;

/** Change probabilities are capped here so `1 - p` never reaches 0. */
export const MAX_P = 0.95;

/**
 * How much a file's size weighs in its place: a file of `s` bytes counts as `s ** SIZE_EXPONENT`.
 * Below 1 a big file that changes often no longer sits early for its size alone (measured on
 * six repositories' replays, see `bench/prefix_results.md`).
 */
export const SIZE_EXPONENT = 0.5;

/** The decayed weight of an endless history: `1 / (1 - DECAY)`, about 36.5 changing builds. */
export const FULL_WEIGHT = 1 / (1 - DECAY);

/** One file as the order sees it: its block's bytes and hash. */
export interface OrderFile {
  /** Path relative to root. */
  path: string;
  /** Content key of the file's rendered view ({@linkcode fileContentKey}), not of the source. */
  sha256: string;
  /** Length of the file's block in bytes. */
  bytes: number;
}

/** One file of a remembered order. */
export interface OrderEntry extends OrderFile {
  /** Decayed change count. */
  changes: number;
  /** Generation of the file's last change (lower is older; may be negative when seeded from git). */
  last: number;
}

/** A remembered order: files in document order with their change statistics. */
export interface OrderState {
  /** Counts the builds in which anything changed. */
  generation: number;
  /**
   * Decayed number of changing builds (and seed commits) observed: change
   * counts are divided by it. Absent means an endless history ({@linkcode FULL_WEIGHT}).
   */
  weight?: number;
  /** Files in their last document order. */
  entries: OrderEntry[];
}

/** Change statistics of a file before any order exists (from `git log`). */
export interface OrderSeed {
  /** Decayed change count. */
  changes: number;
  /** Generation of the last change (0 = the newest commit, -n = n commits ago). */
  last: number;
}

/** What {@linkcode advanceOrder} found. */
export interface OrderStep {
  /** The next state; its entries are the new order. */
  state: OrderState;
  /** Index in the previous order of the first modified or deleted file (the cache break). */
  breakAt: number;
  /** Paths whose block changed or that are new. */
  changed: string[];
  /** Paths that are gone. */
  deleted: string[];
}

/** Options of {@linkcode advanceOrder}. */
export interface AdvanceOptions {
  /** Keep the first modified file at its place instead of re-sorting it. @default {false} */
  keepFirstChanged?: boolean;
  /** Commits the seed's counts cover, decayed (see `gitChangeSeed`). @default {FULL_WEIGHT} */
  seedWeight?: number;
  /**
   * The count every file of a seed has besides its changes (see `gitChangeSeed`): with it, the
   * first order is by count over size alone ({@linkcode sortBySeed}). @default {PRIOR}
   */
  seedPrior?: number;
  /**
   * `observed` divides change counts by the decayed number of builds seen so
   * far (a young history learns fast); `window` assumes an endless history,
   * as in the research. @default {"observed"}
   */
  rate?: "observed" | "window";
  /** The share of a file's count that is its pool's mean ({@linkcode POOL_SHARE}). */
  poolShare?: number;
}

/**
 * A file's change probability per changing build, from its decayed count.
 *
 * @example
 * ```ts
 * import { changeProbability } from "./order_state.ts";
 * changeProbability(0) < changeProbability(3); // true
 * ```
 */
export function changeProbability(changes: number, weight: number = FULL_WEIGHT): number {
  return Math.min(MAX_P, (changes + PRIOR) / Math.max(1, weight));
}

/**
 * How much of a file's change count, when the memory sorts it, is the mean count of the files of
 * its kind in its top folder ({@linkcode changePool}: `test/*.ts`, the root's `*.md`): a file that
 * rarely changed among files that change often (a test that was not touched yet) is not taken for
 * a cold one, and one that changed once among files that never do is not taken for a hot one.
 * Measured on six repositories' replays (`bench/prefix_results.md`).
 */
export const POOL_SHARE = 0.25;

/**
 * The files whose mean change count a file's count is pooled with: its top folder and its
 * extension, `test/*.ts`, or `*.md` for the Markdown files at the root.
 *
 * @example
 * ```ts
 * import { changePool } from "./order_state.ts";
 * changePool("test/deep/http.ts"); // "test/*.ts"
 * changePool("README.md"); // "*.md"
 * ```
 */
export function changePool(path: string): string {
  const slash = path.indexOf("/");
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : "";
  return `${slash < 0 ? "" : path.slice(0, slash + 1)}*${extension}`;
}

/** Options of {@linkcode sortBySizeAndVolatility}. */
export interface VolatilitySortOptions {
  /**
   * The files whose mean change count per {@linkcode changePool} is pooled into each file's count
   * (a build's files, of which `entries` may be a part). @default {the entries sorted}
   */
  population?: OrderEntry[];
  /** The share of a file's count that is its pool's mean. @default {POOL_SHARE} */
  poolShare?: number;
}

/**
 * Sort entries by expected cost of sitting early: `p / (sqrt(s) * (1 - p))` ascending
 * (big, rarely changing files first), ties by last change (older first), then path. A file's
 * count is pooled with the mean count of its kind in its top folder ({@linkcode POOL_SHARE}).
 *
 * @example
 * ```ts
 * import { sortBySizeAndVolatility } from "./order_state.ts";
 * sortBySizeAndVolatility([
 *   { path: "small", sha256: "", bytes: 10, changes: 0, last: 0 },
 *   { path: "big", sha256: "", bytes: 1000, changes: 0, last: 0 },
 * ]).map((e) => e.path); // ["big", "small"]
 * ```
 */
export function sortBySizeAndVolatility(
  entries: OrderEntry[],
  weight: number = FULL_WEIGHT,
  options: VolatilitySortOptions = {},
): OrderEntry[] {
  const share = options.poolShare ?? POOL_SHARE;
  const sums = new Map<string, { changes: number; files: number }>();
  for (const e of options.population ?? entries) {
    const pool = changePool(e.path);
    const sum = sums.get(pool) ?? { changes: 0, files: 0 };
    sum.changes += e.changes;
    sum.files += 1;
    sums.set(pool, sum);
  }
  const mean = (path: string) => {
    const sum = sums.get(changePool(path));
    return sum ? sum.changes / sum.files : 0;
  };
  const key = (e: OrderEntry) =>
    volatilityKey(e.changes, e.bytes, { weight, share, mean: share ? mean(e.path) : 0 });
  let compared = 0;
  const sorted = entries
    .map((e) => ({ e, k: key(e) }))
    .sort((a, b) => (
      compared++, a.k - b.k || a.e.last - b.e.last || comparePaths(a.e.path, b.e.path)
    ))
    .map(({ e }) => e);
  countWork("order comparisons", compared);
  return sorted;
}

/**
 * A file's sort key in {@linkcode sortBySizeAndVolatility}: its expected cost of sitting early,
 * `p / (sqrt(s) * (1 - p))`, `p` its change probability from its count pooled with `mean`, its
 * pool's mean count, by `share`. Exported so that an order advanced another way (a resident's,
 * `accel/live_order.ts`) sorts by the same numbers.
 *
 * @example
 * ```ts
 * import { volatilityKey } from "./order_state.ts";
 * volatilityKey(0, 10_000, { weight: 10, share: 0.25, mean: 0 }) < volatilityKey(3, 100, { weight: 10, share: 0.25, mean: 0 }); // true
 * ```
 */
export function volatilityKey(
  changes: number,
  bytes: number,
  { weight, share, mean }: { weight: number; share: number; mean: number },
): number {
  const pooled = share ? (1 - share) * changes + share * mean : changes;
  const p = changeProbability(pooled, weight);
  return p / (Math.max(1, bytes) ** SIZE_EXPONENT * (1 - p));
}

/**
 * The order of files that has no previous order, from the change counts of history (the
 * `git log` seed): `(changes + prior) / sqrt(bytes)` ascending (big, rarely changing files first),
 * ties by path. The key depends on nothing but the file's own counts and size, and one more
 * commit scales every count by the same factor, so the files a commit did not touch keep their
 * order among themselves: a new clone or a CI job without the order memory keeps the prefix up
 * to the first file the commit changed, as a build with the memory does.
 *
 * @example
 * ```ts
 * import { sortBySeed } from "./order_state.ts";
 * sortBySeed([
 *   { path: "hot", sha256: "", bytes: 1000, changes: 5, last: 0 },
 *   { path: "cold", sha256: "", bytes: 100, changes: 0, last: -9 },
 * ], 0.05).map((e) => e.path); // ["cold", "hot"]
 * ```
 */
export function sortBySeed(entries: OrderEntry[], prior: number = PRIOR): OrderEntry[] {
  return entries
    .map((e) => ({ e, k: (e.changes + prior) / Math.max(1, e.bytes) ** SIZE_EXPONENT }))
    .sort((a, b) => a.k - b.k || comparePaths(a.e.path, b.e.path))
    .map(({ e }) => e);
}

/**
 * One build's step of the policy. With a previous order: decay every count
 * (only when something changed), count changed and new files, keep the old
 * order before the first modified or deleted file, and sort the rest plus new
 * files. Without one: sort everything, by the counts of `seed` (git history,
 * {@linkcode sortBySeed}) or, when there is none, by size alone.
 *
 * @example
 * ```ts
 * import { advanceOrder } from "./order_state.ts";
 * const first = advanceOrder(undefined, [
 *   { path: "a", sha256: "1", bytes: 10 },
 *   { path: "b", sha256: "2", bytes: 90 },
 * ]);
 * first.state.entries.map((e) => e.path); // ["b", "a"]
 * ```
 */
export function advanceOrder(
  previous: OrderState | undefined,
  current: OrderFile[],
  seed?: Map<string, OrderSeed>,
  options: AdvanceOptions = {},
): OrderStep {
  if (!previous) return firstOrder(current, { ...options, seed });
  const now = new Map(current.map((f) => [f.path, f]));
  const before = new Map(previous.entries.map((e) => [e.path, e]));
  const changed = current.filter((f) => before.get(f.path)?.sha256 !== f.sha256).map((f) => f.path);
  const deleted = previous.entries.filter((e) => !now.has(e.path)).map((e) => e.path);
  const moved = new Set([...changed, ...deleted]);
  let breakAt = previous.entries.findIndex((e) => moved.has(e.path));
  if (breakAt < 0) breakAt = previous.entries.length;
  const any = changed.length > 0 || deleted.length > 0;
  const generation = previous.generation + (any ? 1 : 0);
  const seen = previous.weight ?? FULL_WEIGHT;
  const weight = any ? seen * DECAY + 1 : seen;
  const changedSet = new Set(changed);
  // Every file's entry is made anew (a resident advances its order in place: `live_order.ts`).
  countWork("order entries", current.length);
  const next = (f: OrderFile): OrderEntry => {
    const old = before.get(f.path);
    const hit = changedSet.has(f.path);
    const decayed = any ? (old?.changes ?? 0) * DECAY : (old?.changes ?? 0);
    return {
      ...f,
      changes: decayed + (hit ? 1 : 0),
      last: hit ? generation : old?.last ?? generation,
    };
  };
  // Keeping the first modified file in place keeps the bytes before its edit in the prefix.
  const first = previous.entries[breakAt];
  const keep = options.keepFirstChanged && first && now.has(first.path) ? breakAt + 1 : breakAt;
  const kept = previous.entries.slice(0, keep).map((e) => next(now.get(e.path)!));
  const keptPaths = new Set(kept.map((e) => e.path));
  const rest = current.filter((f) => !keptPaths.has(f.path)).map(next);
  const w = options.rate === "window" ? FULL_WEIGHT : weight;
  const sorted = sortBySizeAndVolatility(rest, w, {
    population: [...kept, ...rest],
    poolShare: options.poolShare,
  });
  return {
    state: { generation, weight, entries: [...kept, ...sorted] },
    breakAt,
    changed,
    deleted,
  };
}

/**
 * The first build's order: everything sorted, by the counts of `seed` (git history) or, when there
 * is none, by size alone.
 */
function firstOrder(
  current: OrderFile[],
  { seed, ...options }: AdvanceOptions & { seed?: Map<string, OrderSeed> },
): OrderStep {
  let floor = 0;
  for (const s of seed?.values() ?? []) floor = Math.min(floor, s.last);
  floor -= 1;
  const entries = current.map((f): OrderEntry => ({
    ...f,
    changes: seed?.get(f.path)?.changes ?? 0,
    last: seed?.get(f.path)?.last ?? floor,
  }));
  const weight = seed ? options.seedWeight ?? FULL_WEIGHT : 0;
  const w = options.rate === "window" ? FULL_WEIGHT : weight;
  const sorted = seed
    ? sortBySeed(entries, options.seedPrior ?? PRIOR)
    : sortBySizeAndVolatility(entries, w);
  return {
    state: { generation: 0, weight, entries: sorted },
    breakAt: 0,
    changed: [],
    deleted: [],
  };
}

/**
 * Re-order a state's entries to match the final document order (after later
 * rules such as `pinned` moved files), dropping files no longer present.
 *
 * @example
 * ```ts
 * import { reorderState } from "./order_state.ts";
 * const s = { generation: 1, entries: [{ path: "a", sha256: "", bytes: 1, changes: 0, last: 0 }] };
 * reorderState(s, ["a"]).entries.length; // 1
 * ```
 */
export function reorderState(state: OrderState, paths: string[]): OrderState {
  const byPath = new Map(state.entries.map((e) => [e.path, e]));
  return {
    generation: state.generation,
    ...(state.weight !== undefined ? { weight: state.weight } : {}),
    entries: paths.map((p) => byPath.get(p)).filter((e): e is OrderEntry => e !== undefined),
  };
}

/**
 * What decides whether a file "changed" for the order: its view, status and
 * rendered text (so a body edit under the skeleton view is no change), the
 * same whatever the output format. 16 hex digits. `derived`: the build's memo of values made
 * from texts (see `SectionContext.derived`), or made now.
 *
 * @example
 * ```ts
 * import { fileContentKey } from "./order_state.ts";
 * fileContentKey({ path: "a", view: "full", status: "rendered", sha256: "", bytes: 1, text: "x", fenced: true, language: "" }).length; // 16
 * ```
 */
export function fileContentKey(
  file: RenderedFile,
  options: { derived?: DeriveFn } = {},
): string {
  const { head, salt } = contentHead(file);
  // A resident process (slop watch) hashes each rendered text once. Hashed in pieces (the text
  // joined to its head is one more copy of it).
  // A lazy text's bytes are hashed as they are kept (`lazy_text.ts`): not decoded to be encoded.
  // One remembered by the text's bytes (a warm build's unchanged text) is not hashed again.
  if (textBacking(file)) {
    return derivedFromText(file, salt, () => {
      const bytes = byteParts(file);
      return hashText(bytes ? [head, ...bytes] : [head, file.text ?? ""]).sha256.slice(0, 16);
    });
  }
  const derive = options.derived ?? derived;
  return derive(file.text ?? "", head, () => sha256Parts([head, file.text ?? ""]).slice(0, 16));
}

/** What a file's content key hashes before its text, and the salt its memo is kept by. */
interface ContentHead {
  head: string;
  salt: string;
}

/**
 * The head of each view, status, fencing and language, made once: a big tree's every file asks for
 * its own at each build (two strings a file made and hashed again). By view, status, language,
 * then fencing (`false`, `true`, other).
 */
const contentHeads = new Map<string, Map<string, Map<string, ContentHead[]>>>();

function contentHead(file: RenderedFile): ContentHead {
  let byStatus = contentHeads.get(file.view);
  if (!byStatus) contentHeads.set(file.view, byStatus = new Map());
  let byLanguage = byStatus.get(file.status);
  if (!byLanguage) byStatus.set(file.status, byLanguage = new Map());
  let byFence = byLanguage.get(file.language);
  if (!byFence) byLanguage.set(file.language, byFence = []);
  const fence = file.fenced === false ? 0 : file.fenced === true ? 1 : 2;
  if (!byFence[fence]) {
    const head = `${file.view}\n${file.status}\n${file.fenced}\n${file.language}\n`;
    byFence[fence] = { head, salt: `content\0${head}` };
  }
  return byFence[fence];
}
