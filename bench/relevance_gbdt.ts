/**
 * A nonlinear re-ranker tried on the simulated task builds of `relevance_sim.ts`: small
 * gradient-boosted trees (logistic loss, a file needed or not) over the signals the ranking
 * computes and a few the path, the size and the ranking's own order give, with honest
 * validation: the settings are chosen leaving one tuning repository out at a time (fit on the
 * other three, counted on it), and the chosen setting is fitted on the four tuning repositories
 * and read once on the held-out repositories' tasks and on a fifth set of repositories used
 * nowhere else. Deterministic: quantile bins from sorted values, splits tried in a fixed order,
 * no sampling, no seed.
 *
 * ```sh
 * deno run -A bench/relevance_gbdt.ts --make REPO:N[,REPO:N]    # make tasks' data only
 * deno run -A bench/relevance_gbdt.ts --misses [--sets tuned,a,b] # where the 32k misses sit
 * deno run -A bench/relevance_gbdt.ts --loo [--train-commits 100] # settings, one repository out
 * deno run -A bench/relevance_gbdt.ts --final NAME [--sets a,b,c,fresh] [--fresh REPO,REPO]
 * ```
 *
 * See bench/README.md, "Boosted trees, held out by repository (sixteenth session)".
 *
 * @module
 */

import {
  byPath,
  neededFiles,
  type SimFile,
  type SimTask,
  simTasks,
  TEST_PATH,
} from "./_relevance_sim_data.ts";
import { type Cost, greedy, rankScores, simulate, type Variant } from "./relevance_sim.ts";
import { partsOf } from "./relevance_sim_rank.ts";
import { argValue, BUDGETS, CACHE, FRESH_REPOS, plainBuild, REPOS, TUNED } from "./relevance.ts";

/** The features' names, in the order of a feature vector. */
const NAMES = [
  "lexical",
  "graph",
  "co-change",
  "history",
  "pairs",
  "code",
  "size",
  "depth",
  "test",
  "place",
  "score over the best",
  "lexical over the best",
  "task says test",
  "same folder as the first",
  "same extension as the first",
  "task tokens",
  "files in the tree",
] as const;

/** How many of the ranking's files the model re-sorts (the section tries 100). */
const TOP = 100;

const ext = (p: string) => (p.includes(".") ? p.slice(p.lastIndexOf(".")) : "");
const dir = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");

const rowsMemo = new WeakMap<SimTask, { files: SimFile[]; xs: number[][] }>();

/** The ranking's first `TOP` files with text, and each one's feature vector (see `NAMES`). */
function rowsOf(task: SimTask): { files: SimFile[]; xs: number[][] } {
  if (rowsMemo.has(task)) return rowsMemo.get(task)!;
  const ranked = simulate(task, 8_000).ranked.filter((f) => f.hasText).slice(0, TOP);
  const parts = partsOf(task);
  const scores = rankScores(task);
  const best = scores.get(ranked[0]?.path) ?? 1;
  const bestLex = Math.max(1e-9, ...ranked.map((f) => parts.get(f.path)!.lex));
  const saysTest = /\btests?\b|\bspec\b/i.test(task.message) ? 1 : 0;
  const first = ranked[0]?.path ?? "";
  const xs = ranked.map((f, i) => {
    const p = parts.get(f.path)!;
    const textBytes = Math.max(0, f.bytes - f.path.length - 20);
    return [
      p.lex,
      p.graph,
      p.co,
      p.history,
      p.pairs,
      f.code ? 1 : 0,
      Math.log2(1 + textBytes) / 16,
      Math.min(f.path.split("/").length - 1, 8) / 8,
      TEST_PATH.test(f.path) ? 1 : 0,
      Math.log(i + 1) / Math.log(TOP),
      (scores.get(f.path) ?? 0) / best,
      p.lex / bestLex,
      saysTest,
      dir(f.path) === dir(first) ? 1 : 0,
      ext(f.path) === ext(first) ? 1 : 0,
      Math.log2(1 + task.taskTokens) / 10,
      Math.log2(1 + task.files.length) / 14,
    ];
  });
  const out = { files: ranked, xs };
  rowsMemo.set(task, out);
  return out;
}

/** A tree: a leaf value, or a split of feature `f` at bin threshold `t` (`x <= cut` goes left). */
type Tree = { v: number } | { f: number; cut: number; l: Tree; r: Tree };

/** A boosted model: a start logit and trees, each scaled by the rate already. */
export interface Model {
  base: number;
  trees: Tree[];
}

/** How a model is fitted. */
interface Setting {
  rounds: number;
  depth: number;
  rate: number;
  /** Least hessian (about p(1-p) summed) in a leaf. */
  minHess: number;
  lambda: number;
  /** Features used. */
  use: number[];
  /** Bins a feature. */
  bins: number;
  /**
   * `lambda`: LambdaMART's pairwise gradients (each needed file against each other file of its
   * task, weighed by the change in NDCG of swapping them) in place of the logistic loss.
   */
  loss?: "logistic" | "lambda";
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function predictTree(t: Tree, x: number[]): number {
  while ("f" in t) t = x[t.f] <= t.cut ? t.l : t.r;
  return t.v;
}

/** The model's logit for a feature vector. */
function predict(m: Model, x: number[]): number {
  let s = m.base;
  for (const t of m.trees) s += predictTree(t, x);
  return s;
}

/**
 * Fit boosted trees on rows `xs` with labels `ys` (deterministic); `groups` are the rows of each
 * task, in order (for the pairwise loss).
 */
function fitTrees(xs: number[][], ys: number[], s: Setting, groups: [number, number][]): Model {
  const n = xs.length;
  // Cuts: up to `bins - 1` quantiles of each feature's sorted distinct values.
  const cuts = s.use.map((f) => {
    const vals = [...new Set(xs.map((x) => x[f]))].sort((a, b) => a - b);
    if (vals.length <= s.bins) return vals.slice(0, -1);
    const sorted = xs.map((x) => x[f]).sort((a, b) => a - b);
    const out: number[] = [];
    for (let k = 1; k < s.bins; k++) {
      const v = sorted[Math.floor((k * n) / s.bins)];
      if (out.length === 0 || v > out[out.length - 1]) out.push(v);
    }
    return out.filter((v) => v < vals[vals.length - 1]);
  });
  // Each row's bin per used feature.
  const binOf = s.use.map((f, u) =>
    Uint16Array.from(xs, (x) => {
      const c = cuts[u];
      let lo = 0, hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x[f] <= c[mid]) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    })
  );
  const pos = ys.reduce((a, b) => a + b, 0);
  const lambda = s.loss === "lambda";
  const base = lambda ? 0 : Math.log(Math.max(pos, 1) / Math.max(n - pos, 1));
  const raw = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: Tree[] = [];
  const build = (rows: Int32Array, depth: number): Tree => {
    let G = 0, H = 0;
    for (const i of rows) (G += g[i], H += h[i]);
    const leaf = { v: (-G / (H + s.lambda)) * s.rate };
    if (depth === 0 || H < 2 * s.minHess) return leaf;
    const parent = (G * G) / (H + s.lambda);
    let best = { gain: 1e-9, u: -1, bin: -1 };
    for (let u = 0; u < s.use.length; u++) {
      const nb = cuts[u].length + 1;
      if (nb < 2) continue;
      const hg = new Float64Array(nb);
      const hh = new Float64Array(nb);
      const bu = binOf[u];
      for (const i of rows) (hg[bu[i]] += g[i], hh[bu[i]] += h[i]);
      let gl = 0, hl = 0;
      for (let b = 0; b < nb - 1; b++) {
        gl += hg[b];
        hl += hh[b];
        const gr = G - gl, hr = H - hl;
        if (hl < s.minHess || hr < s.minHess) continue;
        const gain = (gl * gl) / (hl + s.lambda) + (gr * gr) / (hr + s.lambda) - parent;
        if (gain > best.gain) best = { gain, u, bin: b };
      }
    }
    if (best.u < 0) return leaf;
    const bu = binOf[best.u];
    const left = rows.filter((i) => bu[i] <= best.bin);
    const right = rows.filter((i) => bu[i] > best.bin);
    return {
      f: s.use[best.u],
      cut: cuts[best.u][best.bin],
      l: build(left, depth - 1),
      r: build(right, depth - 1),
    };
  };
  const all = Int32Array.from({ length: n }, (_, i) => i);
  for (let r = 0; r < s.rounds; r++) {
    if (lambda) lambdaGradients(raw, ys, groups, g, h);
    else {
      for (let i = 0; i < n; i++) {
        const p = sigmoid(raw[i]);
        g[i] = p - ys[i];
        h[i] = Math.max(p * (1 - p), 1e-6);
      }
    }
    const t = build(all, s.depth);
    trees.push(t);
    for (let i = 0; i < n; i++) raw[i] += predictTree(t, xs[i]);
  }
  return { base, trees };
}

/**
 * LambdaMART's gradients and hessians for scores `raw`: within each task, each needed file `i`
 * and other file `j` push `i` up and `j` down by `|ΔNDCG| / (1 + e^(s_i - s_j))`.
 */
function lambdaGradients(
  raw: Float64Array,
  ys: number[],
  groups: [number, number][],
  g: Float64Array,
  h: Float64Array,
): void {
  g.fill(0);
  h.fill(1e-6);
  for (const [from, to] of groups) {
    const idx = Array.from({ length: to - from }, (_, k) => from + k)
      .sort((a, b) => raw[b] - raw[a] || a - b);
    const rank = new Map(idx.map((i, r) => [i, r]));
    const pos = idx.filter((i) => ys[i]).length;
    if (pos === 0 || pos === idx.length) continue;
    let ideal = 0;
    for (let r = 0; r < pos; r++) ideal += 1 / Math.log2(r + 2);
    const disc = (i: number) => 1 / Math.log2(rank.get(i)! + 2);
    for (let i = from; i < to; i++) {
      if (!ys[i]) continue;
      for (let j = from; j < to; j++) {
        if (ys[j]) continue;
        const delta = Math.abs(disc(i) - disc(j)) / ideal;
        const rho = 1 / (1 + Math.exp(raw[i] - raw[j]));
        g[i] -= rho * delta;
        g[j] += rho * delta;
        const w = rho * (1 - rho) * delta;
        h[i] += w;
        h[j] += w;
      }
    }
  }
}

/** Fit a model on `tasks`' rows (the ranking's first `TOP` files; needed or not). */
function fitOn(tasks: SimTask[], s: Setting): Model {
  const xs: number[][] = [];
  const ys: number[] = [];
  const groups: [number, number][] = [];
  for (const t of tasks) {
    const need = new Set(t.needed);
    const r = rowsOf(t);
    const from = xs.length;
    r.files.forEach((f, i) => (xs.push(r.xs[i]), ys.push(need.has(f.path) ? 1 : 0)));
    groups.push([from, xs.length]);
  }
  return fitTrees(xs, ys, s, groups);
}

/** How the model is used in the build. */
interface Use {
  /** Re-sort the ranking's first `TOP` by the model's chance. */
  rerank: boolean;
  /** The section tries files by chance over `tokens^alpha` (else the build's `fitOrder`). */
  alpha?: number;
}

function chances(m: Model, task: SimTask): Map<string, number> {
  const r = rowsOf(task);
  return new Map(r.files.map((f, i) => [f.path, sigmoid(predict(m, r.xs[i]))]));
}

/** A simulation variant that uses model `m` per task (`modelOf` picks it, e.g. by repository). */
function variantOf(modelOf: (t: SimTask) => Model, use: Use): Variant {
  const memo = new WeakMap<SimTask, Map<string, number>>();
  const p = (t: SimTask) => {
    if (!memo.has(t)) memo.set(t, chances(modelOf(t), t));
    return memo.get(t)!;
  };
  const v: Variant = {};
  if (use.rerank) {
    v.rerank = (task, ranked) => {
      const c = p(task);
      const head = ranked.filter((f) => c.has(f.path));
      const place = new Map(ranked.map((f, i) => [f.path, i]));
      head.sort((a, b) =>
        c.get(b.path)! - c.get(a.path)! || place.get(a.path)! - place.get(b.path)! ||
        byPath(a, b)
      );
      return [...head, ...ranked.filter((f) => !c.has(f.path))];
    };
  }
  if (use.alpha !== undefined) {
    const alpha = use.alpha;
    v.select = (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask) => {
      const c = p(task);
      const value = tried.map((f, i) =>
        costs[i] ? (c.get(f.path) ?? 0) / Math.max(costs[i]!.tokens, 1) ** alpha : -1
      );
      const order = tried.map((_, i) => i).filter((i) => costs[i])
        .sort((a, b) => value[b] - value[a] || a - b);
      return greedy(order, costs, room);
    };
  }
  return v;
}

function held(tasks: SimTask[], variant: Variant): number[] {
  const found = [0, 0, 0];
  for (const t of tasks) BUDGETS.forEach((b, i) => (found[i] += simulate(t, b, variant).found));
  return found;
}

const diff = (x: number[], base: number[]) =>
  x.map((v, i) => (v - base[i] >= 0 ? "+" : "") + (v - base[i])).join(" / ");

/** Where each needed file a build at 32k misses sits: ranking or fit. */
function misses(tasks: SimTask[], budget: number): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (k: string) => (out[k] = (out[k] ?? 0) + 1);
  for (const t of tasks) {
    const h = simulate(t, budget);
    const taken = new Set(h.taken);
    for (const p of t.needed) {
      if (h.map.kept.has(p)) {
        add("held: in the map");
        continue;
      }
      if (taken.has(p)) {
        add("held: in the section");
        continue;
      }
      const f = t.files.find((x) => x.path === p);
      const place = h.tried.findIndex((x) => x.path === p);
      const rankedAt = h.ranked.findIndex((x) => x.path === p);
      if (!f || f.tokens === undefined) add("missed: no block in the plain build");
      else if (rankedAt < 0) add("missed, ranking: no score");
      else if (place < 0) add("missed, ranking: below the 100 tried");
      else if (f.tokens > h.room.tokens) add("missed, fit: larger than the section's room");
      else if (place < 10) {
        // Ranked high: would it fit if the section took it first?
        add(
          `missed, fit: place 1-10, ${
            f.tokens > h.room.tokens / 2 ? "over" : "under"
          } half the room`,
        );
      } else if (place < 20) add("missed, ranking: place 11-20");
      else add("missed, ranking: place 21-100");
    }
  }
  return out;
}

async function loadRepo(name: string, commits: number): Promise<SimTask[]> {
  const repo = [...REPOS, ...FRESH_REPOS].find((r) => r.name === name) ?? { name, tuned: false };
  return await simTasks(repo, commits, { cache: CACHE, plain: plainBuild });
}

const SETTINGS: [string, Setting][] = [];
{
  const all = NAMES.map((_, i) => i);
  const signals = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  for (const [useName, use] of [["all", all], ["signals", signals]] as const) {
    for (const depth of [2, 3, 4]) {
      for (const rounds of [50, 150]) {
        SETTINGS.push([`lambda ${useName} depth ${depth} rounds ${rounds}`, {
          rounds,
          depth,
          rate: 0.1,
          minHess: 1,
          lambda: 1,
          use: [...use],
          bins: 32,
          loss: "lambda",
        }]);
        SETTINGS.push([`${useName} depth ${depth} rounds ${rounds}`, {
          rounds,
          depth,
          rate: 0.1,
          minHess: 5,
          lambda: 1,
          use: [...use],
          bins: 32,
        }]);
      }
    }
  }
}

const USES: [string, Use][] = [
  ["re-sort", { rerank: true }],
  ["re-sort, fit p/t^1", { rerank: true, alpha: 1 }],
  ["fit p/t^0.5", { rerank: false, alpha: 0.5 }],
  ["fit p/t^0.75", { rerank: false, alpha: 0.75 }],
];

async function main() {
  const make = argValue("--make");
  if (make) {
    for (const spec of make.split(",")) {
      const [name, n] = spec.split(":");
      const tasks = await loadRepo(name, Number(n));
      console.log(`${name}: ${tasks.length} tasks`);
    }
    return;
  }
  const trainCommits = Number(argValue("--train-commits") ?? 100);
  const heldCommits = Number(argValue("--held-commits") ?? 40);
  const sets: Record<string, SimTask[]> = { train: [], tuned: [], a: [], b: [], c: [], fresh: [] };
  for (const repo of REPOS) {
    const tuned = TUNED.includes(repo.name);
    for (const t of await loadRepo(repo.name, tuned ? trainCommits : heldCommits)) {
      if (tuned) (t.k < 40 ? sets.tuned : sets.train).push(t);
      else (t.k < 10 ? sets.a : t.k < 40 ? sets.b : sets.c).push(t);
    }
  }
  const fresh = argValue("--fresh")?.split(",") ?? FRESH_REPOS.map((r) => r.name);
  for (const name of fresh) {
    sets.fresh.push(...await loadRepo(name, Number(argValue("--fresh-commits") ?? 40)));
  }
  const want = (argValue("--sets") ?? "tuned,a,b").split(",");
  for (const s of ["train", ...want]) {
    console.log(`${s}: ${sets[s].length} tasks, ${neededFiles(sets[s])} needed files`);
  }
  if (Deno.args.includes("--misses")) {
    for (const s of want) {
      for (const b of [32_000, 128_000]) {
        const m = misses(sets[s], b);
        console.log(`\n${s} ${b}:`);
        for (const k of Object.keys(m).sort()) console.log(`  ${k}: ${m[k]}`);
      }
    }
    return;
  }
  const tuningTasks = [...sets.train, ...sets.tuned];
  if (Deno.args.includes("--loo")) {
    // Each setting fitted on three tuning repositories and counted on the fourth's tasks (all
    // of them, 1 to `--train-commits`), summed over the four.
    const only = argValue("--only");
    // `--old`: counted on the older tasks only (41 to `--train-commits`), which no hand-set
    // weight of the ranking was chosen on.
    const evalTasks = Deno.args.includes("--old") ? sets.train : tuningTasks;
    const base = held(evalTasks, {});
    console.log(
      `\nleave one tuning repository out: ${evalTasks.length} tasks, ${
        evalTasks.reduce((n, t) => n + t.needed.length, 0)
      } needed files; the build as it is ${base.join(" / ")}`,
    );
    console.log(`| setting | ${USES.map((u) => u[0]).join(" | ")} |`);
    for (const [name, s] of SETTINGS) {
      // `--only TEXT`: the settings whose name holds TEXT; `^TEXT`: whose name starts with it.
      if (only && !(only.startsWith("^") ? name.startsWith(only.slice(1)) : name.includes(only))) {
        continue;
      }
      const models = new Map(
        TUNED.map((r) => [r, fitOn(tuningTasks.filter((t) => t.repo !== r), s)]),
      );
      const cells = USES.map(([, use]) =>
        diff(held(evalTasks, variantOf((t) => models.get(t.repo)!, use)), base)
      );
      console.log(`| ${name} | ${cells.join(" | ")} |`);
    }
    return;
  }
  const final = argValue("--final");
  if (final) {
    const [sName, uName] = final.split(" / ");
    const s = SETTINGS.find((x) => x[0] === sName)?.[1];
    const use = USES.find((x) => x[0] === uName)?.[1];
    if (!s || !use) throw new Error(`[bench] Unknown setting "${final}"`);
    const m = fitOn(tuningTasks, s);
    const v = variantOf(() => m, use);
    console.log(`| set | the build as it is | ${final} |`);
    for (const name of want) {
      const base = held(sets[name], {});
      console.log(`| ${name} | ${base.join(" / ")} | ${diff(held(sets[name], v), base)} |`);
    }
    // Determinism: a second fit gives the same chances.
    const m2 = fitOn(tuningTasks, s);
    const same = JSON.stringify(m) === JSON.stringify(m2);
    console.log(`second fit identical: ${same}`);
  }
}

if (import.meta.main) await main();
