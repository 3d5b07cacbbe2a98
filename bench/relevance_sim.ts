/**
 * Task builds simulated, in seconds instead of the real builds' minutes: for
 * each task of the relevance bench, what `slop build --task T --budget B`
 * holds in full, computed from the files' tokens and scores as the build
 * chooses (`_task_map.ts` keeps the map's files, `_task_fit.ts` orders the
 * task section's tries, each held to the section's tokens and, when the map
 * has half of the budget, to the map's bytes), with a variant of the ranking,
 * the fit or the map. It prints R@8k / R@32k / R@128k for each variant, tuned
 * and held-out repositories apart, and the bounds: what the map alone holds,
 * and an oracle (the map, then the needed files smallest first in the room).
 *
 * ```sh
 * deno run -A bench/relevance_sim.ts [--commits 10] [--tuned-commits 40] [--held-from 0]
 * ```
 *
 * Held out: the bench's six held-out repositories (`--commits` each); tuned:
 * psf/requests, sindresorhus/got, spf13/cobra and google/gson
 * (`--tuned-commits` each); `--held-from K` leaves out each held-out
 * repository's K newest tasks. The first run makes each task's data (trees as the
 * bench's, cached in `bench/.cache/relevance/sim/`). Where it stands against
 * real builds: bench/README.md, "Task builds".
 *
 * @module
 */

import { keptFiles } from "../pipeline/_task_map.ts";
import { fitOrder, triedEnough } from "../pipeline/_task_fit.ts";
import { historyScores } from "../pipeline/_rank_history.ts";
import { taskProse, taskTerms } from "../pipeline/_rank_terms.ts";
import { DEFAULT_WEIGHTS, OTHER_FILES } from "../pipeline/rank.ts";
import { type SimFile, type SimTask, simTasks } from "./_relevance_sim_data.ts";
import { type HistoryOptions, historyRerank, namer } from "./_relevance_sim_history.ts";
import { argValue, BUDGETS, CACHE, FRESH_REPOS, plainBuild, REPOS, TUNED } from "./relevance.ts";
import { join } from "node:path";

/** What a variant changes; each absent part is the build as it is. */
export interface Variant {
  /** Reorders the ranking (files with a score, best first). */
  rerank?: (task: SimTask, ranked: SimFile[]) => SimFile[];
  /** The ranking without its history signal (`RankWeights.history` 0), before `rerank`. */
  noHistory?: boolean;
  /** The ranking without its word-pair signal (`RankWeights.pairs` 0), before `rerank`. */
  noPairs?: boolean;
  /** The map's share of the budget (`1 - taskShare`). @default {0.5} */
  mapShare?: number;
  /** `budget.mapTokens`. @default {16000} */
  mapTokens?: number;
  /** How many ranked files the section tries in full at most (the build's `MAX_FIT_FILES`). @default {200} */
  maxFit?: number;
  /** Every one of the `maxFit` files tried, not only as many as `triedEnough` asks for (the build before). */
  allTried?: boolean;
  /** The order the section tries its files in (`fitOrder`). */
  fit?: (costs: (number | undefined)[]) => number[];
  /** The map's kept files among the changed ones only, when any changed (the build before the nineteenth session). */
  mapChangedOnly?: boolean;
  /** The fit with every file as code (`fitOrder` without `code`: the build before the nineteenth session). */
  allCode?: boolean;
  /** The map without the large files' factor of `keptFiles` (the build before the eighteenth session). */
  mapAsBefore?: boolean;
  /** The map's kept files given its room (default: `keptFiles` on co-change). */
  map?: (task: SimTask, room: number) => Set<string>;
  /**
   * The section's files in full: the indices of `tried` (the ranking's first files, best
   * first; a cost is undefined for a file the map holds) it takes within `room`, in the order
   * taken. Default: `fit`'s order, each file that fits.
   */
  select?: (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask) => number[];
}

/** Tokens and bytes: a file's cost in the section, or the section's room. */
export interface Cost {
  tokens: number;
  bytes: number;
}

/** What a simulated build of one task at one budget holds. */
export interface Held {
  /** Needed files in full. */
  found: number;
  /** Needed files in the map. */
  inMap: number;
  /** Needed files the oracle holds. */
  oracle: number;
  /** The map's files in full, its tokens (with its heading) and its bytes. */
  map: { kept: Set<string>; tokens: number; bytes: number };
  /** The files the section tried in full (best first) and the paths it took, in the order taken. */
  tried: SimFile[];
  taken: string[];
  /** The section's room for files, and what was left of it. */
  room: Cost;
  left: Cost;
  /** The files with a score, best first, as the section saw them. */
  ranked: SimFile[];
}

const byPath = (a: SimFile, b: SimFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The section's headings and list, about (the build counts them; the simulation estimates). */
const HEADINGS = 40;

/**
 * The files the map keeps in full within `room` tokens, as the build chooses them (`sectionRoom`:
 * the budget less the map's part; absent, as before the eighteenth session).
 */
function mapFiles(
  task: SimTask,
  room: number,
  sectionRoom?: number,
  changedOnly = false,
): Set<string> {
  const files = task.files.filter((f) => f.tokens !== undefined);
  const changes = new Map(files.filter((f) => f.co > 0).map((f) => [f.path, f.co]));
  // `changedOnly`: the files no commit changed are not candidates when some are (the build
  // before the nineteenth session).
  const candidates = files.filter((f) => !changedOnly || !changes.size || changes.has(f.path))
    .map((f) => ({ path: f.path, tokens: f.tokens!, code: f.code }));
  return new Set(keptFiles(candidates, changes, room, { sectionRoom }));
}

/** Simulate the task build of `task` at `budget` with `variant`. */
export function simulate(task: SimTask, budget: number, variant: Variant = {}): Held {
  const mapShare = variant.mapShare ?? 0.5;
  const mapTokens = Math.min(Math.floor(budget * mapShare), variant.mapTokens ?? 16_000);
  const files = task.files.filter((f) => f.tokens !== undefined);
  const kept = variant.map?.(task, mapTokens - 3) ??
    mapFiles(
      task,
      mapTokens - 3,
      variant.mapAsBefore ? undefined : budget - mapTokens,
      variant.mapChangedOnly,
    );
  let mapBytes = 0;
  let mapUsed = 3;
  for (const f of files) if (kept.has(f.path)) (mapBytes += f.bytes, mapUsed += f.tokens!);
  let ranked = variant.noHistory
    ? rankedWithout(files)
    : rankedWithHistory(task, files, !variant.noPairs);
  if (variant.rerank) ranked = variant.rerank(task, ranked);
  // As the build: the first files with text (the map's among them, with no cost to try).
  let top = ranked.filter((f) => f.hasText).slice(0, variant.maxFit ?? 200);
  const room = () => ({
    tokens: Math.min(budget - mapTokens, budget - mapUsed) - task.taskTokens - HEADINGS,
    bytes: mapShare <= 0.5 && budget * mapShare <= (variant.mapTokens ?? 16_000)
      ? mapBytes * (1 - mapShare) / mapShare - task.message.length - 150
      : Infinity,
  });
  if (!variant.allTried) {
    // As the build: files in ranking order until `triedEnough` (the map's cost nothing).
    let n = 0;
    let tokens = 0;
    for (; n < top.length && !triedEnough(n, tokens, room().tokens); n++) {
      if (!kept.has(top[n].path)) tokens += top[n].tokens!;
    }
    top = top.slice(0, n);
  }
  const costs = top.map((f) =>
    kept.has(f.path) ? undefined : { tokens: f.tokens!, bytes: f.bytes }
  );
  const code = variant.allCode ? undefined : top.map((f) => f.code);
  const picked = variant.select?.(top, costs, room(), task) ??
    greedy(
      variant.fit?.(costs.map((c) => c?.tokens)) ?? fitOrder(costs.map((c) => c?.tokens), { code }),
      costs,
      room(),
    );
  const left = room();
  for (const i of picked) (left.tokens -= costs[i]!.tokens, left.bytes -= costs[i]!.bytes);
  const taken = picked.map((i) => top[i].path);
  const inSection = new Set(taken);
  const inMap = task.needed.filter((p) => kept.has(p)).length;
  const found = inMap + task.needed.filter((p) => inSection.has(p)).length;
  // The oracle: the needed files the map does not hold, smallest first, in the same room.
  const rest = files.filter((f) => task.needed.includes(f.path) && !kept.has(f.path));
  const free = room();
  let oracle = inMap;
  for (const f of rest.sort((a, b) => a.tokens! - b.tokens! || byPath(a, b))) {
    if (f.tokens! > free.tokens || f.bytes > free.bytes) continue;
    free.tokens -= f.tokens!;
    free.bytes -= f.bytes;
    oracle++;
  }
  return {
    found,
    inMap,
    oracle,
    map: { kept, tokens: mapUsed, bytes: mapBytes },
    tried: top,
    taken,
    room: room(),
    left,
    ranked,
  };
}

/** The indices of `order` taken one by one while each fits in `room` (the others passed over). */
export function greedy(order: number[], costs: (Cost | undefined)[], room: Cost): number[] {
  const left = { ...room };
  const taken: number[] = [];
  for (const i of order) {
    const c = costs[i]!;
    if (c.tokens > left.tokens || c.bytes > left.bytes) continue;
    left.tokens -= c.tokens;
    left.bytes -= c.bytes;
    taken.push(i);
  }
  return taken;
}

/** The files with a score, best first (ties by path). */
function rankedWithout(files: SimFile[]): SimFile[] {
  return files.filter((f) => f.score > 0).sort((a, b) => b.score - a.score || byPath(a, b));
}

const withHistory = new WeakMap<SimTask, SimFile[]>();
const withHistoryNoPairs = new WeakMap<SimTask, SimFile[]>();
const historyScore = new WeakMap<SimTask, Map<string, number>>();

/** Each ranked file's score as `slop rank` gives it (history text included), by path. */
export function rankScores(task: SimTask): Map<string, number> {
  rankedWithHistory(task, task.files.filter((f) => f.tokens !== undefined));
  return historyScore.get(task)!;
}

/**
 * The ranking as `slop rank` gives it: the data's score (every signal but history and word
 * pairs) plus the history and word-pair signals as `rankFiles` adds them (`_rank_history.ts`,
 * `_rank_pairs.ts`, the default weights, a file without a grammar at `OTHER_FILES`), over every
 * file of the tree. `pairs` false leaves the word pairs out (the ranking before them).
 */
function rankedWithHistory(task: SimTask, files: SimFile[], pairs = true): SimFile[] {
  const memo = pairs ? withHistory : withHistoryNoPairs;
  if (memo.has(task)) return memo.get(task)!;
  const paths = task.files.map((f) => f.path).sort(byCodeUnit);
  const history = task.log.map((changed, age) => ({ paths: changed, message: task.messages[age] }));
  const h = historyScores(paths, taskTerms(taskProse(task.message)), history);
  const at = new Map(paths.map((p, i) => [p, h.score[i]]));
  const w = DEFAULT_WEIGHTS.history;
  const wp = pairs ? DEFAULT_WEIGHTS.pairs : 0;
  const score = (f: SimFile) =>
    f.score + (w * at.get(f.path)! + wp * (f.pairs ?? 0)) * (f.code ? 1 : OTHER_FILES);
  const ranked = files.filter((f) => score(f) > 0)
    .sort((a, b) => score(b) - score(a) || byPath(a, b));
  memo.set(task, ranked);
  if (pairs) historyScore.set(task, new Map(ranked.map((f) => [f.path, score(f)])));
  return ranked;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** R@8k / R@32k / R@128k of `tasks` under `variant`, and of the map alone and the oracle. */
export function recall(tasks: SimTask[], variant: Variant = {}) {
  const sums = { found: [0, 0, 0], inMap: [0, 0, 0], oracle: [0, 0, 0] };
  let needed = 0;
  for (const task of tasks) {
    needed += task.needed.length;
    BUDGETS.forEach((b, i) => {
      const held = simulate(task, b, variant);
      for (const key of ["found", "inMap", "oracle"] as const) sums[key][i] += held[key];
    });
  }
  const cell = (xs: number[]) => xs.map((x) => (x / needed).toFixed(3)).join(" / ");
  return { found: cell(sums.found), inMap: cell(sums.inMap), oracle: cell(sums.oracle) };
}

/** Needed files of the ranking's first `k` moved to its head: a perfect order of the first k. */
function perfectTop(k: number) {
  return (task: SimTask, ranked: SimFile[]) => {
    const head = ranked.slice(0, k);
    const needed = head.filter((f) => task.needed.includes(f.path));
    return [...needed, ...head.filter((f) => !needed.includes(f)), ...ranked.slice(k)];
  };
}

/** A path that is a test by its name or folder. */
function isTest(path: string): boolean {
  return /(^|\/)(tests?|__tests__|spec)\//.test(path) ||
    /(^|\/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.\w+$|Tests?\.\w+$/.test(path);
}

/** The name a test and its source share (`test_x.py`, `XTest.java`, `x.test.ts`: `x`). */
function stem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return name.replace(/^test_|_test$|\.test$|\.spec$|Tests?$/, "").toLowerCase();
}

/** Re-sorted by `score` (ties by path). */
function sortBy(ranked: SimFile[], score: (f: SimFile) => number): SimFile[] {
  return ranked.toSorted((a, b) => score(b) - score(a) || byPath(a, b));
}

/** A test and its source paired by name: the first `k` files lend `share` of their score. */
function paired(k: number, share: number) {
  return (_task: SimTask, ranked: SimFile[]) => {
    const lent = new Map<string, number>();
    for (const top of ranked.slice(0, k)) {
      for (const f of ranked) {
        if (f === top || stem(f.path) !== stem(top.path) || isTest(f.path) === isTest(top.path)) {
          continue;
        }
        lent.set(f.path, Math.max(lent.get(f.path) ?? 0, top.score * share));
      }
    }
    return sortBy(ranked, (f) => Math.max(f.score, lent.get(f.path) ?? 0));
  };
}

/** The code files the task names first (above the best file's score). */
function namedFirst(task: SimTask, ranked: SimFile[]): SimFile[] {
  const names = namer(task.message);
  const floor = (ranked[0]?.score ?? 0) * 1.01;
  return sortBy(ranked, (f) => (f.code && names(f.path) ? Math.max(f.score, floor) : f.score));
}

/** The section's try order with other exponents (`_task_fit.ts`: 1.2 and 0.5). */
function fitWith(decay: number, size: number) {
  return (costs: (number | undefined)[]) => {
    const value = (i: number) => (i + 1) ** -decay / Math.max(costs[i]!, 1) ** size;
    const order = costs.flatMap((c, i) => (c === undefined ? [] : [i]));
    return order.sort((a, b) => value(b) - value(a) || a - b);
  };
}

/** The map's files by co-change with another decay a commit (the build's: 0.973). */
function mapDecay(decay: number) {
  return (task: SimTask, room: number) => {
    const sums = new Map<string, number>();
    task.log.forEach((paths, age) => {
      if (paths.length > 30) return;
      for (const p of paths) sums.set(p, (sums.get(p) ?? 0) + decay ** age);
    });
    const files = task.files.filter((f) => f.tokens !== undefined);
    const candidates = files.map((f) => ({ path: f.path, tokens: f.tokens!, code: f.code }));
    return new Set(keptFiles(candidates, sums, room));
  };
}

/** The variants measured (bench/README.md, "Task builds"). */
export const VARIANTS: [string, Variant][] = [
  ["the build as it is", {}],
  ["the build without the history signal (as it was)", { noHistory: true }],
  ["the ranking's first 10 in a perfect order", { rerank: perfectTop(10) }],
  ["the ranking's first 20 in a perfect order", { rerank: perfectTop(20) }],
  ["the ranking's first 50 in a perfect order", { rerank: perfectTop(50) }],
  ["every file with a score in a perfect order", { rerank: perfectTop(Infinity) }],
  ["test and source paired: the first file lends 0.8", { rerank: paired(1, 0.8), noHistory: true }],
  ["test and source paired: the first 3 lend 0.8", { rerank: paired(3, 0.8), noHistory: true }],
  ["the code files the task names first", { rerank: namedFirst, noHistory: true }],
  ["fit: place^-0.8 / tokens^0.5", { fit: fitWith(0.8, 0.5) }],
  ["fit: place^-2 / tokens^1", { fit: fitWith(2, 1) }],
  ["fit: place^-1.2 / tokens^0.3", { fit: fitWith(1.2, 0.3) }],
  ["fit: 300 files tried instead of 200", { maxFit: 300 }],
  ["fit: 100 files tried (the build before the seventeenth session)", { maxFit: 100 }],
  ["map: co-change decay 0.9 a commit", { map: mapDecay(0.9) }],
  ["map: co-change decay 0.99 a commit", { map: mapDecay(0.99) }],
  ["map: 55% of the budget, mapTokens 24,000", { mapShare: 0.55, mapTokens: 24_000 }],
  ["map: 60% of the budget, mapTokens 24,000", { mapShare: 0.6, mapTokens: 24_000 }],
  ...historyVariants(),
];

/** History text as a signal (`_relevance_sim_history.ts`; bench/README.md, "History text as a signal"). */
function historyVariants(): [string, Variant][] {
  const recent: HistoryOptions = { mode: "file", maxFiles: 10, decay: 0.99 };
  const rows: [string, HistoryOptions, number][] = [
    ["history: BM25 over each file's past messages", { mode: "file" }, 0.03],
    ["history: BM25 over each file's past messages", { mode: "file" }, 0.05],
    ["history: BM25 over each file's past messages", { mode: "file" }, 0.1],
    ["history: BM25 over each file's past messages", { mode: "file" }, 0.2],
    ["history: the same, commits of at most 10 files, 0.99^age", recent, 0.05],
    ["history: the same, commits of at most 10 files, 0.99^age", recent, 0.1],
    ["history: the same, commits of at most 10 files, 0.99^age", recent, 0.12],
    [
      "history: the same, the co-touched files' paths as words",
      { mode: "file", coPaths: true },
      0.03,
    ],
    ["history: the same, only files no task word reaches", { mode: "file", zeroLex: true }, 0.1],
    ["history: each past message's BM25 lent to its files", { mode: "commit" }, 0.1],
    ["history: the same over the commit's files (BugLocator)", { mode: "commit", alpha: 1 }, 0.2],
    ["history: BM25 over each folder's past messages", { mode: "dir" }, 0.1],
    ["history: co-change with the code files the task names", { mode: "named" }, 0.05],
  ];
  return rows.map(([name, options, w]) => [`${name}, weight ${w}`, {
    noHistory: true,
    rerank: historyRerank(options, w),
  }]);
}

async function main() {
  const value = (name: string) => {
    const given = argValue(name);
    return given === undefined ? undefined : Number(given);
  };
  const source = {
    cache: join(import.meta.dirname!, ".cache", "relevance"),
    plain: plainBuild,
  };
  const tuned: SimTask[] = [];
  const held: SimTask[] = [];
  for (const repo of REPOS) {
    const isTuned = TUNED.includes(repo.name);
    const commits = isTuned ? value("--tuned-commits") ?? 40 : value("--commits") ?? 10;
    const tasks = await simTasks(repo, commits, source);
    // `--held-from K`: the held-out repositories' tasks from the K+1st on (a fresh set).
    (isTuned ? tuned : held).push(
      ...tasks.filter((t) => isTuned || t.k >= (value("--held-from") ?? 0)),
    );
  }
  const files = (tasks: SimTask[]) => tasks.reduce((n, t) => n + t.needed.length, 0);
  console.log(
    `| variant | tuned (${tuned.length} tasks, ${files(tuned)} files) | held out (${held.length} ` +
      `tasks, ${files(held)} files) |\n|---|---|---|`,
  );
  const base = [recall(tuned), recall(held)];
  console.log(`| the map alone | ${base[0].inMap} | ${base[1].inMap} |`);
  console.log(`| oracle: the map, then the needed files | ${base[0].oracle} | ${base[1].oracle} |`);
  for (const [name, variant] of VARIANTS) {
    console.log(`| ${name} | ${recall(tuned, variant).found} | ${recall(held, variant).found} |`);
  }
}

/**
 * Simulate each of `variants` on the tasks of the repositories `--names` lists (all by default),
 * `--commits` each, and print a Markdown table of the needed files each holds at each budget, as
 * differences from the build as it is (`--only WORD`: the variants whose name holds it).
 *
 * @example
 * ```ts
 * import { compareVariants } from "./relevance_sim.ts";
 * // await compareVariants([["past commits, weight 0.05", { weights: { pastCommits: 0.05 } }]]);
 * ```
 */
export async function compareVariants(
  variants: Array<[string, Variant & { at?: number }]>,
): Promise<void> {
  const names = argValue("--names")?.split(",");
  const commits = Number(argValue("--commits") ?? 10);
  const only = argValue("--only");
  const repos = [];
  for (const repo of [...REPOS, ...FRESH_REPOS]) {
    if (names && !names.includes(repo.name)) continue;
    repos.push({
      name: repo.name,
      tasks: await simTasks(repo, commits, { cache: CACHE, plain: plainBuild }),
    });
  }
  const held = (tasks: SimTask[], v: Variant & { at?: number }) =>
    BUDGETS.map((b) =>
      tasks.reduce((n, t) => n + simulate(t, b, v.at && v.at !== b ? {} : v).found, 0)
    );
  const base = repos.map((r) => held(r.tasks, {}));
  const total = (rows: number[][]) => BUDGETS.map((_, i) => rows.reduce((n, r) => n + r[i], 0));
  const needed = repos.reduce((n, r) => n + r.tasks.reduce((m, t) => m + t.needed.length, 0), 0);
  const diff = (x: number[], b: number[]) =>
    x.map((v, i) => `${v >= b[i] ? "+" : ""}${v - b[i]}`).join(" / ");
  console.log(`| variant | ${repos.map((r) => r.name).join(" | ")} | total (${needed} needed) |`);
  console.log(`|---|${repos.map(() => "---|").join("")}---|`);
  console.log(
    `| the build as it is | ${base.map((b) => b.join(" / ")).join(" | ")} | ${
      total(base).join(" / ")
    } |`,
  );
  for (const [name, variant] of variants) {
    if (only && !name.includes(only)) continue;
    // Each variant on fresh copies of the tasks: the simulation memoizes its rankings by task.
    const rows = repos.map((r) => held(r.tasks.map((t) => ({ ...t })), variant));
    const cells = rows.map((x, k) => diff(x, base[k]));
    console.log(`| ${name} | ${cells.join(" | ")} | ${diff(total(rows), total(base))} |`);
  }
}

if (import.meta.main) await main();

/**
 * Print a Markdown table of variants against the build as it is: a column a set, a cell the
 * needed files each variant holds at each budget more (+) or fewer (-) than the build.
 *
 * @example
 * ```ts
 * import { printVariants } from "./relevance_sim.ts";
 * printVariants(["a"], {
 *   label: (s) => s,
 *   held: (_s, v: number) => [v, v, v],
 *   variants: [["one more", 1]],
 *   base: 0,
 * });
 * ```
 */
export function printVariants<V>(
  want: string[],
  options: {
    label: (set: string) => string;
    held: (set: string, variant: V) => number[];
    variants: Array<[string, V]>;
    base: V;
    only?: string[];
  },
): void {
  const { label, held, variants, only } = options;
  const base = want.map((s) => held(s, options.base));
  console.log(`| variant | ${want.map(label).join(" | ")} |`);
  console.log(`|---|${want.map(() => "---|").join("")}`);
  console.log(`| the build as it is | ${base.map((b) => b.join(" / ")).join(" | ")} |`);
  for (const [name, variant] of variants) {
    if (only && !only.some((o) => name.includes(o))) continue;
    const cells = want.map((s, k) =>
      held(s, variant).map((x, i) => `${x >= base[k][i] ? "+" : ""}${x - base[k][i]}`).join(" / ")
    );
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
}
