/**
 * Simulated prefix reuse over recorded change metadata (`histories/*.json`:
 * for each of 50 consecutive commits, the changed paths with their status
 * and the size of every file), for several file orders. A document is the
 * files' blocks in order; the share of a build is the bytes of its blocks
 * that form a byte-identical prefix of the previous build, over its size.
 *
 * @module
 */

import { advanceOrder, type OrderState } from "../pipeline/order_state.ts";
import { comparePaths } from "../pipeline/resolve.ts";

/** One recorded commit. */
export interface HistoryCommit {
  idx: number;
  /** Changed paths: `M` modified, `A` added, `D` deleted. */
  changed: Array<{ st: string; p: string }>;
  /** Change counts over the commits before this one. */
  churn: Record<string, number>;
  /** Size in bytes of every file at this commit. */
  sizes: Record<string, number>;
}

/** Median and p10 of one order over one history. */
export interface SimResult {
  /** Order name. */
  order: string;
  /** Median share (0-1), the break at the start of the first changed file. */
  median: number;
  /** 10th percentile share. */
  p10: number;
  /** Median share when the bytes before a mid-file edit are kept too. */
  medianMid: number;
  /** p10 of that. */
  p10Mid: number;
}

const BINARY = /\.(png|jpe?g|gif|ico|webp|svg|woff2?|ttf|eot|pdf|zip|gz|mp4|mp3|wasm)$/i;

/** Bytes a file's block takes besides its content (`### path`, fence lines). */
function blockSize(path: string, size: number): number {
  return size + path.length + 20;
}

type Orderer = (
  files: Array<{ path: string; bytes: number; hash: string }>,
  commit: HistoryCommit,
) => string[];

function pathOrder(): Orderer {
  return (files) => files.map((f) => f.path).sort(comparePaths);
}

function churnOrder(): Orderer {
  // Repomix's sort: ascending change count over the recent commits, ties by path.
  return (files, commit) =>
    files.map((f) => f.path).sort((a, b) =>
      (commit.churn[a] ?? 0) - (commit.churn[b] ?? 0) || comparePaths(a, b)
    );
}

function stickyOrder(): Orderer {
  let previous: Map<string, string> | undefined;
  let order: string[] = [];
  return (files) => {
    const now = new Map(files.map((f) => [f.path, f.hash]));
    if (!previous) order = [...now.keys()].sort(comparePaths);
    else {
      const kept = order.filter((p) => now.has(p) && previous!.get(p) === now.get(p));
      const keptSet = new Set(kept);
      order = [...kept, ...[...now.keys()].filter((p) => !keptSet.has(p)).sort(comparePaths)];
    }
    previous = now;
    return order;
  };
}

function volatilityOrder(
  keepFirstChanged = false,
  rate: "observed" | "window" = "observed",
): Orderer {
  let state: OrderState | undefined;
  return (files, commit) => {
    const current = files.map((f) => ({ path: f.path, sha256: f.hash, bytes: f.bytes }));
    const seed = state ? undefined : new Map(
      Object.entries(commit.churn).map(([p, c]) => [p, { changes: c, last: 0 }]),
    );
    // The recorded churn counts cover the last 100 commits, undecayed.
    state = advanceOrder(state, current, seed, { keepFirstChanged, rate, seedWeight: 100 }).state;
    return state.entries.map((e) => e.path);
  };
}

/** The orders the simulation compares. */
export const SIM_ORDERS: Record<string, () => Orderer> = {
  "path order": pathOrder,
  "change count ascending (Repomix's sort)": churnOrder,
  "sticky (changed and new files last)": stickyOrder,
  "size-aware, research rate (endless window)": () => volatilityOrder(false, "window"),
  "slop volatility (advanceOrder)": () => volatilityOrder(),
  "slop volatility, first changed file kept in place": () => volatilityOrder(true),
  "slop volatility, kept in place, research rate": () => volatilityOrder(true, "window"),
};

/**
 * Replay one history under one order.
 *
 * @example
 * ```ts
 * import { simulate, SIM_ORDERS } from "./_prefix_sim.ts";
 * // const r = simulate(history, "path order", SIM_ORDERS["path order"]());
 * ```
 */
export function simulate(history: HistoryCommit[], name: string, orderer: Orderer): SimResult {
  const version = new Map<string, number>();
  let prev: { order: string[]; bytes: Map<string, number>; hash: Map<string, string> } | undefined;
  const shares: number[] = [];
  const mids: number[] = [];
  for (const commit of history) {
    for (const c of commit.changed) version.set(c.p, commit.idx);
    const files = Object.entries(commit.sizes)
      .filter(([p]) => !BINARY.test(p))
      .map(([path, size]) => ({
        path,
        bytes: blockSize(path, size),
        hash: `${path}@${version.get(path) ?? -1}`,
      }));
    const order = orderer(files, commit);
    const bytes = new Map(files.map((f) => [f.path, f.bytes]));
    const hash = new Map(files.map((f) => [f.path, f.hash]));
    if (prev) {
      const total = files.reduce((n, f) => n + f.bytes, 0);
      let shared = 0;
      let partial = 0;
      for (let i = 0; i < order.length && i < prev.order.length; i++) {
        const p = order[i];
        if (p !== prev.order[i]) break;
        if (prev.hash.get(p) !== hash.get(p)) {
          // Same file in the same place, edited: the heading and, on average, half the body survive.
          partial = Math.min(bytes.get(p)!, prev.bytes.get(p)!) / 2;
          break;
        }
        shared += bytes.get(p)!;
      }
      shares.push(total ? shared / total : 1);
      mids.push(total ? (shared + partial) / total : 1);
    }
    prev = { order, bytes, hash };
  }
  return {
    order: name,
    median: quantile(shares, 0.5),
    p10: quantile(shares, 0.1),
    medianMid: quantile(mids, 0.5),
    p10Mid: quantile(mids, 0.1),
  };
}

/**
 * The q-quantile of values (linear interpolation).
 *
 * @example
 * ```ts
 * import { quantile } from "./_prefix_sim.ts";
 * quantile([1, 2, 3], 0.5); // 2
 * ```
 */
export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/**
 * How many files of `after` left their place among the files `keep` picks: the length of the
 * picked files less their longest run in `before`'s order (found in n log n).
 *
 * @example
 * ```ts
 * import { moved } from "./_prefix_sim.ts";
 * moved(["a", "b", "c"], ["b", "a", "c"], () => true); // 1
 * ```
 */
export function moved(before: string[], after: string[], keep: (p: string) => boolean): number {
  const a = before.filter(keep);
  const b = after.filter(keep);
  const at = new Map(a.map((p, i) => [p, i]));
  // The longest run of `b` in `a`'s order stays; the rest moved.
  const tails: number[] = [];
  for (const x of b.map((p) => at.get(p)!)) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return b.length - tails.length;
}
