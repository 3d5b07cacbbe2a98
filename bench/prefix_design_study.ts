/**
 * Order designs that were measured against the order memory and not kept, replayed over the
 * captured blocks of several repositories (`prefix_block_sim.ts`'s capture of the last `--capture`
 * commits): the last 50 commits (the window of the replay tables) and the 49 pairs before them
 * (held out). Each design is the memory's step (`advanceOrder`: the previous order kept up to the
 * first changed file) with the files after the break sorted another way.
 *
 * ```sh
 * deno run -A bench/prefix_design_study.ts [--repos DIR,DIR] [--capture 100] [--only NAME,NAME]
 * ```
 *
 * Without `--repos` it reads the six mirrors of `bench/prefix_results.md` under `/work/.mirror/`.
 *
 * @module
 */

import {
  advanceOrder,
  changePool,
  changeProbability,
  FULL_WEIGHT,
  MAX_P,
  type OrderEntry,
  type OrderState,
  type OrderStep,
  POOL_SHARE,
  SIZE_EXPONENT,
} from "../pipeline/order_state.ts";
import { seedFromLog } from "../pipeline/_git_history.ts";
import { comparePaths } from "../pipeline/helpers.ts";
import { type Capture, capture, type Orderer, replayOrder } from "./prefix_block_sim.ts";
import { quantile } from "./_prefix_sim.ts";

/** How a design differs from the memory's sort of the files after the break. */
export interface Design {
  /** Recency: `a × 2^(-age / h)` added to a file's change probability (`age` in changing builds). */
  recency?: { a: number; h: number };
  /** A change in a build that changed `n` files counts `min(1, sweep / n)`. */
  sweep?: number;
  /** Hysteresis: the key's class (its logarithm to this base, floored), ties by the previous place. */
  hysteresis?: number;
  /** The half-life of a change count in changing builds (the memory's is 25). */
  halfLife?: number;
}

/** The designs of `bench/prefix_results.md`. */
export const DESIGNS: Record<string, Design> = {
  "memory (kept)": {},
  "recency 0.1, half-life 2": { recency: { a: 0.1, h: 2 } },
  "recency 0.1, half-life 1": { recency: { a: 0.1, h: 1 } },
  "recency 0.2, half-life 1": { recency: { a: 0.2, h: 1 } },
  "recency 0.4, half-life 1": { recency: { a: 0.4, h: 1 } },
  "recency 0.4, half-life 2": { recency: { a: 0.4, h: 2 } },
  "sweeps weigh 6 / files changed": { sweep: 6 },
  "hysteresis, factor 2": { hysteresis: 2 },
  "hysteresis, factor 1.5": { hysteresis: 1.5 },
  "hysteresis, factor 4": { hysteresis: 4 },
  "counts halve every 8": { halfLife: 8 },
  "counts halve every 12": { halfLife: 12 },
  "counts halve every 18": { halfLife: 18 },
  "counts halve every 40": { halfLife: 40 },
};

/** The step's counts and weight with another half-life, and sweeps weighed down. */
function recount(previous: OrderState, step: OrderStep, d: Design): OrderState {
  const decay = 2 ** (-1 / (d.halfLife ?? 25));
  const any = step.changed.length + step.deleted.length > 0;
  const hit = new Set(step.changed);
  const weigh = Math.min(1, (d.sweep ?? Infinity) / Math.max(1, step.changed.length));
  const old = new Map(previous.entries.map((e) => [e.path, e.changes]));
  const entries = step.state.entries.map((e) => {
    const was = old.get(e.path) ?? 0;
    return { ...e, changes: any ? was * decay + (hit.has(e.path) ? weigh : 0) : was };
  });
  const seen = previous.weight ?? FULL_WEIGHT;
  return { ...step.state, weight: any ? seen * decay + 1 : seen, entries };
}

/** The sort key of one design for the files after the break. */
function designKey(state: OrderState, d: Design): (e: OrderEntry) => number {
  const sums = new Map<string, { changes: number; files: number }>();
  for (const e of state.entries) {
    const sum = sums.get(changePool(e.path)) ?? { changes: 0, files: 0 };
    sum.changes += e.changes;
    sum.files += 1;
    sums.set(changePool(e.path), sum);
  }
  const weight = state.weight ?? FULL_WEIGHT;
  return (e) => {
    const pool = sums.get(changePool(e.path))!;
    const pooled = (1 - POOL_SHARE) * e.changes + POOL_SHARE * pool.changes / pool.files;
    let p = changeProbability(pooled, weight);
    const r = d.recency;
    if (r) p = Math.min(MAX_P, p + r.a * 2 ** (-(state.generation - e.last) / r.h));
    const key = p / (Math.max(1, e.bytes) ** SIZE_EXPONENT * (1 - p));
    return d.hysteresis ? Math.floor(Math.log(key) / Math.log(d.hysteresis)) : key;
  };
}

/** The memory with the files after the break sorted by `d`. */
export function designed(d: Design): Orderer {
  let state: OrderState | undefined;
  return ({ files, history }) => {
    const seed = state ? undefined : seedFromLog(history);
    const step = advanceOrder(state, files, seed?.files, {
      seedWeight: seed?.weight,
      seedPrior: seed?.prior,
    });
    if (!state) {
      state = step.state;
      return state.entries.map((e) => e.path);
    }
    const before = new Map(state.entries.map((e, i) => [e.path, i]));
    const next = recount(state, step, d);
    const key = designKey(next, d);
    const place = (e: OrderEntry) => d.hysteresis ? before.get(e.path) ?? Infinity : 0;
    const tail = next.entries.slice(step.breakAt).map((e) => ({ e, k: key(e), at: place(e) }))
      .sort((a, b) =>
        a.k - b.k || (a.at === b.at ? 0 : a.at < b.at ? -1 : 1) || a.e.last - b.e.last ||
        comparePaths(a.e.path, b.e.path)
      ).map((x) => x.e);
    state = { ...next, entries: [...next.entries.slice(0, step.breakAt), ...tail] };
    return state.entries.map((e) => e.path);
  };
}

const MIRRORS = [
  "psf+requests",
  "pallets+flask",
  "encode+httpx",
  "sindresorhus+got",
  "tj+commander.js",
  "expressjs+express",
].map((name) => `/work/.mirror/${name}/repo`);

const pct = (x: number) => (x * 100).toFixed(1);

/** Median / p10 / mean of a design over one window. */
function cell(data: Capture, d: Design): number[] {
  const shares = replayOrder(data, designed(d));
  return [
    quantile(shares, 0.5),
    quantile(shares, 0.1),
    shares.reduce((a, b) => a + b, 0) / shares.length,
  ];
}

async function main() {
  let repos = MIRRORS;
  let size = 100;
  let only: string[] | undefined;
  for (let i = 0; i < Deno.args.length; i++) {
    const a = Deno.args[i];
    if (a === "--repos") repos = Deno.args[++i].split(",");
    else if (a === "--capture") size = Number(Deno.args[++i]);
    else if (a === "--only") only = Deno.args[++i].split(",");
    else throw new Error(`[bench] Unknown argument "${a}"`);
  }
  if (!(size >= 52)) throw new Error(`[bench] Invalid --capture "${size}": need at least 52`);
  const captures = [];
  for (const repo of repos) captures.push(await capture(repo, size));
  const windows = { "last 50": [-50, undefined], "older 49": [-100, -50] } as const;
  const names = repos.map((r) => r.split("/").at(-2)?.split("+").at(-1) ?? r);
  console.log(`| design | window | ${names.join(" | ")} | average |`);
  console.log(`| --- | --- | ${names.map(() => "---").join(" | ")} | --- |`);
  for (const [name, d] of Object.entries(DESIGNS)) {
    if (only && !only.includes(name)) continue;
    for (const [label, [from, to]] of Object.entries(windows)) {
      const cells = captures.map((c) => cell({ ...c, commits: c.commits.slice(from, to) }, d));
      const mean = [0, 1, 2].map((k) => cells.reduce((n, c) => n + c[k], 0) / cells.length);
      const show = (c: number[]) => c.map(pct).join("/");
      console.log(`| ${name} | ${label} | ${cells.map(show).join(" | ")} | ${show(mean)} |`);
    }
  }
}

if (import.meta.main) await main();
