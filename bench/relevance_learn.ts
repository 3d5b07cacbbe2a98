/**
 * A learned re-ranker tried on the simulated task builds of `relevance_sim.ts`: a linear model
 * over the signals the ranking already computes (lexical, graph, co-change, history, pairs) and a
 * few a file's path and size give (size, depth, test, and two products), a file without a grammar
 * at `OTHER_FILES` of a positive sum as in the ranking, fitted pairwise (RankNet: a needed file
 * above a file not needed, logistic loss; per token: each pair by the needed file's
 * `tokens^-0.5`) or listwise (ListNet: softmax over the task's candidates) on older commits of the
 * tuning repositories, never a held-out repository's. Deterministic: every weight starts at the
 * ranking's own, full-batch gradient steps, a fixed count and rate, the tasks in a fixed order.
 *
 * ```sh
 * deno run -A bench/relevance_learn.ts [--train-commits 200] [--sets tuned] [--only "l2 0.01"]
 * deno run -A bench/relevance_learn.ts --train-commits 200 --sets tuned --search   # the counts searched
 * deno run -A bench/relevance_learn.ts --train-commits 200 --sets tuned --chance   # the fit by chance
 * deno run -A bench/relevance_learn.ts --train-commits 40 --sets tuned,a,b --misses
 * deno run -A bench/relevance_learn.ts --held-commits 60 --sets tuned,c --at128k --only "=NAME"
 * ```
 *
 * Training: the tuning repositories' tasks 41 to `--train-commits` (the 40 newest are the tuning
 * set `tuned`, which chooses the setting); `a`, `b` and `c` are the held-out repositories' tasks 1
 * to 10, 11 to 40 and 41 to `--held-commits` (read a chosen setting once). `--only "=NAME"` runs
 * that setting alone. `--search` searches the weights for the simulated build's counts on the
 * training tasks; `--chance` keeps the ranking and tries the section's files by a pointwise
 * logistic model's chance over `tokens^0.5`; `--at128k` uses a setting at 128k only; `--misses`
 * prints where the needed files a build misses sit, by class, at each budget. See bench/README.md,
 * "A learned re-ranker, and where 128k is lost (fifteenth session)".
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
import { type Cost, greedy, simulate, type Variant } from "./relevance_sim.ts";
import { partsOf } from "./relevance_sim_rank.ts";
import { argValue, BUDGETS, CACHE, plainBuild, REPOS, TUNED } from "./relevance.ts";
import { DEFAULT_WEIGHTS, OTHER_FILES } from "../pipeline/rank.ts";

/** The features' names, in the order of a feature vector. */
const NAMES = [
  "lexical",
  "graph",
  "co-change",
  "history",
  "pairs",
  "size",
  "depth",
  "test",
  "lexical^2",
  "graph x lexical",
] as const;

const featMemo = new WeakMap<SimTask, Map<string, number[]>>();

/** A file's feature vector (see `NAMES`). */
function featuresOf(task: SimTask): Map<string, number[]> {
  if (featMemo.has(task)) return featMemo.get(task)!;
  const parts = partsOf(task);
  const out = new Map<string, number[]>();
  for (const f of task.files) {
    const p = parts.get(f.path)!;
    const textBytes = Math.max(0, f.bytes - f.path.length - 20);
    const depth = f.path.split("/").length - 1;
    out.set(f.path, [
      p.lex,
      p.graph,
      p.co,
      p.history,
      p.pairs,
      Math.log2(1 + textBytes) / 16,
      Math.min(depth, 8) / 8,
      TEST_PATH.test(f.path) ? 1 : 0,
      p.lex * p.lex,
      p.graph * p.lex,
    ]);
  }
  featMemo.set(task, out);
  return out;
}

/** The ranking's own weights as a model (a file without a grammar at a quarter, near the top). */
function startWeights(): number[] {
  const w = new Array(NAMES.length).fill(0);
  w[0] = 1;
  w[1] = DEFAULT_WEIGHTS.graph;
  w[2] = DEFAULT_WEIGHTS.coChange;
  w[3] = DEFAULT_WEIGHTS.history;
  w[4] = DEFAULT_WEIGHTS.pairs;
  return w;
}

/**
 * A file without a grammar: a positive sum at `OTHER_FILES` of it, a negative one at its inverse
 * (pushed down either way, as the ranking's factor does).
 */
const factorOf = (s: number, code: boolean) => (code ? 1 : s > 0 ? OTHER_FILES : 1 / OTHER_FILES);

const dot = (w: number[], x: number[]) => {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i] * x[i];
  return s;
};

/**
 * A task's candidates: the files with a score, with text and a block, the ranking's first `top`;
 * with `outsideMap`, those a 32k map does not hold (the section never needs to find them).
 */
function candidates(task: SimTask, top: number, outsideMap: boolean): SimFile[] {
  const kept = outsideMap ? simulate(task, 32_000).map.kept : new Set<string>();
  const parts = partsOf(task);
  const base = (f: SimFile) => {
    const p = parts.get(f.path)!;
    return (p.lex + DEFAULT_WEIGHTS.graph * p.graph + DEFAULT_WEIGHTS.coChange * p.co +
      DEFAULT_WEIGHTS.history * p.history + DEFAULT_WEIGHTS.pairs * p.pairs) *
      (p.code ? 1 : OTHER_FILES);
  };
  return task.files.filter((f) =>
    f.tokens !== undefined && f.hasText && base(f) > 0 && !kept.has(f.path)
  )
    .map((f) => ({ f, s: base(f) })).sort((a, b) => b.s - a.s || byPath(a.f, b.f))
    .slice(0, top).map((e) => e.f);
}

interface Fit {
  loss: "pairwise" | "listwise";
  /** Weigh each pair by the needed file's tokens^-0.5 (the fit's value per token). */
  perToken?: boolean;
  iterations: number;
  rate: number;
  l2: number;
  /** Candidates a task: the ranking's first. */
  top: number;
  /** Leave out of the candidates the files a 32k map holds. */
  outsideMap: boolean;
  /** Features used (others held at their start). */
  use: number[];
}

/** Fit the model on `tasks` (deterministic: the tasks in order, full-batch steps). */
function fit(tasks: SimTask[], opts: Fit): number[] {
  const w = startWeights();
  const start = [...w];
  const data = tasks.map((t) => {
    const feats = featuresOf(t);
    const need = new Set(t.needed);
    const cands = candidates(t, opts.top, opts.outsideMap);
    return {
      code: cands.map((f) => f.code),
      value: cands.map((f) => (opts.perToken ? Math.max(f.tokens!, 1) ** -0.5 : 1)),
      xs: cands.map((f) => feats.get(f.path)!),
      ys: cands.map((f): number => (need.has(f.path) ? 1 : 0)),
    };
  }).filter((d) => d.ys.some((y) => y) && d.ys.some((y) => !y));
  const grad = new Array(w.length);
  for (let it = 0; it < opts.iterations; it++) {
    grad.fill(0);
    for (const { xs, ys, code, value } of data) {
      const raw = xs.map((x) => dot(w, x));
      const c = raw.map((r, i) => factorOf(r, code[i]));
      const s = raw.map((r, i) => r * c[i]);
      if (opts.loss === "listwise") {
        // Softmax cross-entropy against the needed files' even share.
        const max = Math.max(...s);
        const e = s.map((v) => Math.exp(v - max));
        const z = e.reduce((a, b) => a + b, 0);
        const pos = ys.reduce((a, b) => a + b, 0);
        for (let i = 0; i < xs.length; i++) {
          const g = e[i] / z - ys[i] / pos;
          for (let k = 0; k < w.length; k++) grad[k] += g * c[i] * xs[i][k] / data.length;
        }
      } else {
        const P = ys.flatMap((y, i) => (y ? [i] : []));
        const N = ys.flatMap((y, i) => (y ? [] : [i]));
        const pairs = P.reduce((a, i) => a + value[i], 0) * N.length;
        for (const i of P) {
          for (const j of N) {
            const g = -value[i] / (1 + Math.exp(s[i] - s[j])) / pairs / data.length;
            for (let k = 0; k < w.length; k++) {
              grad[k] += g * (c[i] * xs[i][k] - c[j] * xs[j][k]);
            }
          }
        }
      }
    }
    for (const k of opts.use) {
      w[k] -= opts.rate * (grad[k] + opts.l2 * (w[k] - start[k]));
    }
  }
  return w;
}

/** A tried file's features for the fit's chance: the model's, and its place in the ranking. */
function placed(x: number[], place: number): number[] {
  return [1, ...x, 1 / place, Math.log(place) / Math.log(100)];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * A pointwise logistic model of a tried file's chance of being needed (the ranking's first 100,
 * the files a 32k map holds left out), from its features and its place: deterministic, weights
 * from 0, full-batch steps.
 */
function fitChance(tasks: SimTask[], iterations: number, rate: number): number[] {
  const rows: { x: number[]; y: number }[] = [];
  for (const t of tasks) {
    const feats = featuresOf(t);
    const need = new Set(t.needed);
    const h = simulate(t, 32_000);
    h.tried.filter((f) => !h.map.kept.has(f.path)).forEach((f, i) =>
      rows.push({ x: placed(feats.get(f.path)!, i + 1), y: need.has(f.path) ? 1 : 0 })
    );
  }
  const w = new Array(NAMES.length + 3).fill(0);
  const grad = new Array(w.length);
  for (let it = 0; it < iterations; it++) {
    grad.fill(0);
    for (const { x, y } of rows) {
      const g = sigmoid(dot(w, x)) - y;
      for (let k = 0; k < w.length; k++) grad[k] += g * x[k] / rows.length;
    }
    for (let k = 0; k < w.length; k++) w[k] -= rate * grad[k];
  }
  return w;
}

/** The section's tries by the model's chance over `tokens^0.5` (the ranking as it is). */
function chanceFit(w: number[]): Variant {
  return {
    select: (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask) => {
      const feats = featuresOf(task);
      let place = 0;
      const value = tried.map((f, i) => {
        if (!costs[i]) return -1;
        place++;
        return sigmoid(dot(w, placed(feats.get(f.path)!, place))) /
          Math.max(costs[i]!.tokens, 1) ** 0.5;
      });
      const order = tried.map((_, i) => i).filter((i) => costs[i])
        .sort((a, b) => value[b] - value[a] || a - b);
      return greedy(order, costs, room);
    },
  };
}

/** The ranking re-sorted by the model (the files with a score; ties by path). */
function modelled(w: number[]): Variant {
  return {
    rerank: (task) => {
      const feats = featuresOf(task);
      const parts = partsOf(task);
      const scored = task.files.filter((f) => {
        const p = parts.get(f.path)!;
        return f.tokens !== undefined && p.lex + p.graph + p.co + p.history + p.pairs > 0;
      });
      const score = (f: SimFile) => {
        const r = dot(w, feats.get(f.path)!);
        return r * factorOf(r, f.code);
      };
      return scored.map((f) => ({ f, s: score(f) }))
        .sort((a, b) => b.s - a.s || byPath(a.f, b.f)).map((e) => e.f);
    },
  };
}

/**
 * The model's weights searched on `tasks` for the simulated build's counts (32k, then 128k):
 * each weight in `NAMES` order tried at multiples of its value (or small values from 0), a
 * change kept only if it holds more; deterministic, at most `rounds` rounds.
 */
function searchCounts(tasks: SimTask[], rounds: number, log: (s: string) => void): number[] {
  const value = (w: number[]) => {
    const v = modelled(w);
    const out = [0, 0];
    for (const t of tasks) {
      out[0] += simulate(t, 32_000, v).found;
      out[1] += simulate(t, 128_000, v).found;
    }
    return out;
  };
  const better = (a: number[], b: number[]) => (a[0] !== b[0] ? a[0] > b[0] : a[1] > b[1]);
  let w = startWeights();
  let best = value(w);
  log(`start ${best.join(" / ")}`);
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (let k = 0; k < w.length; k++) {
      const tries = w[k] !== 0
        ? [0, 0.5, 0.75, 1.5, 2].map((m) => w[k] * m)
        : [-0.2, -0.1, -0.05, 0.05, 0.1, 0.2];
      for (const x of tries) {
        const tryW = w.map((y, i) => (i === k ? Math.round(x * 1000) / 1000 : y));
        if (tryW[k] === w[k]) continue;
        const v = value(tryW);
        if (better(v, best)) {
          (best = v), (w = tryW), (moved = true);
          log(`round ${round} ${NAMES[k]} ${tryW[k]}: ${v.join(" / ")}`);
        }
      }
    }
    if (!moved) break;
  }
  return w;
}

function held(tasks: SimTask[], variant: Variant): number[] {
  const found = [0, 0, 0];
  for (const t of tasks) BUDGETS.forEach((b, i) => (found[i] += simulate(t, b, variant).found));
  return found;
}

/** Where the needed files a build at `budget` misses sit (`relevance_sim.ts`'s simulation). */
function misses(tasks: SimTask[], budget: number, variant: Variant = {}): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (k: string) => (out[k] = (out[k] ?? 0) + 1);
  for (const t of tasks) {
    const h = simulate(t, budget, variant);
    const taken = new Set(h.taken);
    for (const p of t.needed) {
      if (h.map.kept.has(p) || taken.has(p)) continue;
      const f = t.files.find((x) => x.path === p);
      const place = h.ranked.findIndex((x) => x.path === p);
      const tried = h.tried.findIndex((x) => x.path === p);
      if (!f || f.tokens === undefined) add("no block in the plain build");
      else if (place < 0) add("no score");
      else if (tried < 0) add(`ranked below the ${h.tried.length} tried`);
      else if (f.tokens > h.room.tokens) add("larger than the room");
      else if (f.tokens > h.left.tokens) add(`passed over for room, place ${bucket(tried + 1)}`);
      else add("passed over for bytes");
    }
    out["room left (tokens, sum)"] = (out["room left (tokens, sum)"] ?? 0) +
      Math.max(0, h.left.tokens);
  }
  return out;
}

const bucket = (n: number) => (n <= 10 ? "1-10" : n <= 20 ? "11-20" : n <= 50 ? "21-50" : "51+");

async function loadTasks(trainCommits: number, heldCommits: number) {
  const sets: Record<string, SimTask[]> = { train: [], tuned: [], a: [], b: [], c: [] };
  for (const repo of REPOS) {
    const tuned = TUNED.includes(repo.name);
    const tasks = await simTasks(repo, tuned ? trainCommits : heldCommits, {
      cache: CACHE,
      plain: plainBuild,
    });
    for (const t of tasks) {
      const held = t.k < 10 ? sets.a : t.k < 40 ? sets.b : sets.c;
      (tuned ? (t.k < 40 ? sets.tuned : sets.train) : held).push(t);
    }
  }
  return sets;
}

async function main() {
  const sets = await loadTasks(
    Number(argValue("--train-commits") ?? 120),
    Number(argValue("--held-commits") ?? 40),
  );
  const want = (argValue("--sets") ?? "tuned").split(",");
  for (const s of ["train", ...want]) {
    console.log(`${s}: ${sets[s].length} tasks, ${neededFiles(sets[s])} needed files`);
  }
  if (Deno.args.includes("--misses")) {
    for (const s of want) {
      for (const b of BUDGETS) console.log(s, b, JSON.stringify(misses(sets[s], b)));
    }
    return;
  }
  const base = Object.fromEntries(want.map((s) => [s, held(sets[s], {})]));
  const check = Object.fromEntries(want.map((s) => [s, held(sets[s], modelled(startWeights()))]));
  console.log(`| setting | ${want.join(" | ")} |`);
  console.log(`| the build as it is | ${want.map((s) => base[s].join(" / ")).join(" | ")} |`);
  console.log(
    `| check: the start weights | ${want.map((s) => diff(check[s], base[s])).join(" | ")} |`,
  );
  const all = NAMES.map((_, i) => i);
  const signals = [0, 1, 2, 3, 4];
  const settings: [string, Fit][] = [];
  for (const loss of ["pairwise", "listwise"] as const) {
    for (const [useName, use] of [["signals", signals], ["all", all]] as const) {
      for (const l2 of [0, 0.01]) {
        for (const outsideMap of [true, false]) {
          settings.push([
            `${loss} ${useName} l2 ${l2}${outsideMap ? " outside the map" : ""}`,
            {
              loss,
              iterations: 300,
              rate: loss === "pairwise" ? 2 : 1,
              l2,
              top: 100,
              use,
              outsideMap,
            },
          ]);
        }
      }
    }
  }
  for (const outsideMap of [true, false]) {
    settings.push([
      `pairwise all l2 0.01 per token${outsideMap ? " outside the map" : ""}`,
      {
        loss: "pairwise",
        perToken: true,
        iterations: 300,
        rate: 2,
        l2: 0.01,
        top: 100,
        use: all,
        outsideMap,
      },
    ]);
  }
  if (Deno.args.includes("--chance")) {
    const w = fitChance(sets.train, Number(argValue("--iterations") ?? 500), 2);
    console.log(`weights ${w.map((x) => x.toFixed(2)).join(" ")}`);
    const cells = want.map((s) => diff(held(sets[s], chanceFit(w)), base[s]));
    console.log(`| the fit by the model's chance | ${cells.join(" | ")} |`);
    return;
  }
  if (Deno.args.includes("--search")) {
    const w = searchCounts(sets.train, Number(argValue("--rounds") ?? 2), console.log);
    console.log(`weights ${w.join(" ")}`);
    const cells = want.map((s) => diff(held(sets[s], modelled(w)), base[s]));
    console.log(`| count search on train | ${cells.join(" | ")} |`);
    return;
  }
  const only = argValue("--only");
  if (Deno.args.includes("--at128k")) {
    // The model at large budgets only (8k and 32k the ranking as it is): each set's count at
    // 128k, or at each of `--budgets`.
    const [name, opts] = settings.find(([n]) => n === only?.slice(1))!;
    const v = modelled(fit(sets.train, opts));
    const budgets = (argValue("--budgets") ?? "128000").split(",").map(Number);
    for (const s of want) {
      for (const b of budgets) {
        const was = sets[s].reduce((n, t) => n + simulate(t, b).found, 0);
        const found = sets[s].reduce((n, t) => n + simulate(t, b, v).found, 0);
        console.log(`${name} at ${b}, ${s}: ${was} -> ${found}`);
      }
    }
    return;
  }
  for (const [name, opts] of settings) {
    // `--only "=NAME"`: that setting alone.
    if (only && !(only.startsWith("=") ? name === only.slice(1) : name.includes(only))) continue;
    const w = fit(sets.train, opts);
    const cells = want.map((s) => diff(held(sets[s], modelled(w)), base[s]));
    console.log(`| ${name} | ${cells.join(" | ")} | ${w.map((x) => x.toFixed(2)).join(" ")}`);
  }
}

const diff = (x: number[], b: number[]) =>
  x.map((v, i) => `${v >= b[i] ? "+" : ""}${v - b[i]}`).join(" / ");

if (import.meta.main) await main();
