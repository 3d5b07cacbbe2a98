/**
 * Task relevance: how many of the files a task needs a document of B tokens
 * holds in full, for tasks taken from real histories (see
 * `_relevance_tasks.ts`): each commit's message is the task, the source files
 * it modified are what it needs, the tree at its parent is the project.
 *
 * For each strategy and budget (8k, 32k, 128k o200k tokens) it prints
 * Recall@B (needed files in full in the document, over all needed files) and
 * the all-needed-in rate (tasks whose every needed file is in full).
 *
 * Strategies that give an order are measured as "greedy full in that order":
 * the plain build's non-file blocks first, then each file's full block (its
 * tokens as the plain build counted them) in order, a file that does not fit
 * left out and the next one tried, never over B. A strategy can instead build
 * a real document (see {@linkcode Strategy}).
 *
 * ```sh
 * deno task bench:relevance [--commits 40] [--repos psf+requests,sindresorhus+got] [--write]
 * ```
 *
 * `--weights lexical=1,path=1,graph=1,coChange=0.1,history=0.1,pairs=0.1` ranks with other
 * weights; `--map-full X` builds the task builds with `budget.mapFull` X (`0`: the map steps
 * every file down alike);
 * `--write` writes `bench/relevance_results.md`; `--misses` prints, after the tables, each
 * needed file slop's rank does not hold in full at 32k or 128k, where it ranked and why, and the
 * misses counted by class, then each needed file the real task build does not hold in full at 32k
 * or 128k and where its manifest put it (see `_relevance_misses.ts`); `--no-build` leaves out the
 * real task builds (the slow strategy) and measures the orders only.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { collectTasks, type RelevanceTask, treeAt } from "./_relevance_tasks.ts";
import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { type RankedFile, rankFiles, type RankInput, type RankWeights } from "../pipeline/rank.ts";
import { coChangeFromLog, recentHistory } from "../pipeline/co_change.ts";
import { mapTokens } from "../pipeline/task.ts";
import { rankInputs } from "../cli/rank.ts";
import { definedNames } from "../plugins/view_modes/code_views.ts";
import {
  oracleInSection,
  shareLines,
  type TaskBuildStrategy,
  taskBuildStrategy,
} from "./_task_build.ts";
import { MissTally } from "./_relevance_misses.ts";

const BENCH = dirname(fileURLToPath(import.meta.url));
/** Where the relevance benches keep their trees, builds and the simulation's data. */
export const CACHE: string = join(BENCH, ".cache", "relevance");
const MIRRORS = "/work/.mirror";

/**
 * The repositories, and which ones the weights were tuned on (the others are held out). The
 * `extra` ones (more tuning data, other languages) run only when `--repos` names them.
 */
export const REPOS: { name: string; tuned: boolean; extra?: boolean }[] = [
  { name: "psf+requests", tuned: true },
  { name: "sindresorhus+got", tuned: true },
  { name: "pallets+flask", tuned: false },
  { name: "encode+httpx", tuned: false },
  { name: "tj+commander.js", tuned: false },
  { name: "expressjs+express", tuned: false },
  { name: "pallets+click", tuned: false },
  { name: "koajs+koa", tuned: false },
  { name: "spf13+cobra", tuned: true, extra: true },
  { name: "google+gson", tuned: true, extra: true },
];

/** The repositories the weights were tuned on, in `REPOS`' order (the simulations fit on them). */
export const TUNED: string[] = REPOS.filter((r) => r.tuned).map((r) => r.name);

/**
 * Repositories read by no tuning of the ranking, the fit or a re-ranker (the sixteenth session's
 * fifth set, `bench/relevance_gbdt.ts --fresh`): they run only when `--repos` names them, and the
 * simulation scripts, which read `REPOS`, never see them.
 */
export const FRESH_REPOS: { name: string; tuned: boolean }[] = [
  { name: "Yelp+detect-secrets", tuned: false },
  { name: "changesets+changesets", tuned: false },
  { name: "go-chi+chi", tuned: false },
  { name: "sinatra+sinatra", tuned: false },
  { name: "h5py+h5py", tuned: false },
  { name: "sharkdp+fd", tuned: false },
  { name: "square+moshi", tuned: false },
];

const KNOWN = [...REPOS, ...FRESH_REPOS];

/** Budgets measured, in o200k tokens. */
export const BUDGETS = [8_000, 32_000, 128_000];

/** What a plain build (zero config, no task) of a tree gives: its file order and tokens. */
export interface PlainBuild {
  /** File blocks' paths in document order (the task-blind order). */
  order: string[];
  /** Tokens of each file's full block. */
  tokens: Record<string, number>;
  /** Tokens of the blocks that are not files (headings, tree). */
  overhead: number;
  /** Tokens of the whole document. */
  total: number;
}

/** One task, ready for the strategies. */
export interface TaskCase {
  task: RelevanceTask;
  /** The tree at the parent (a checkout with its history). */
  dir: string;
  /** The files as ranking sees them (resolved, read, redacted). */
  files: RankInput[];
  /** The plain build of the tree. */
  plain: PlainBuild;
}

/** What a strategy put in a document of B tokens. */
export interface Fitted {
  /** Files rendered in full. */
  inFull: Set<string>;
  /** Tokens of the document. */
  tokens: number;
}

/** A way to fill a budget for a task. */
export interface Strategy {
  name: string;
  fit(c: TaskCase, budget: number): Promise<Fitted>;
}

/**
 * "Greedy full in `name` order": files in the order `order` gives, each in
 * full, after the plain build's non-file blocks; a file that does not fit is
 * left out and the next one tried.
 */
export function greedyFull(name: string, order: (c: TaskCase) => Promise<string[]>): Strategy {
  const orders = new WeakMap<TaskCase, Promise<string[]>>();
  return {
    name,
    async fit(c, budget) {
      let o = orders.get(c);
      if (!o) orders.set(c, o = order(c));
      let used = c.plain.overhead;
      const inFull = new Set<string>();
      for (const path of await o) {
        const t = c.plain.tokens[path];
        if (t === undefined || used + t > budget) continue;
        used += t;
        inFull.add(path);
      }
      return { inFull, tokens: used };
    },
  };
}

/** The task section's part of a budget B: what the map leaves (`mapTokens` of `pipeline/task.ts`). */
function taskRoom(budget: number): number {
  return budget - mapTokens({ tokens: budget })!;
}

/** The strategies measured, with the weights of slop's rank. */
export function strategies(weights?: RankWeights, mapFull?: number): Strategy[] {
  // Ranked once a case, for the two strategies that use slop's rank.
  const orders = new WeakMap<TaskCase, Promise<string[]>>();
  const rankOrder = (c: TaskCase) => {
    let order = orders.get(c);
    if (!order) orders.set(c, order = rankPaths(c, weights));
    return order;
  };
  const inRoom = greedyFull("slop rank (greedy full in the task's share)", rankOrder);
  const taskBuild = taskBuildStrategy(join(CACHE, "task"), { mapFull });
  return [
    greedyFull("path order", (c) => Promise.resolve(c.plain.order.toSorted(byCodeUnit))),
    greedyFull("task-blind (plain build order)", (c) => Promise.resolve(c.plain.order)),
    greedyFull("BM25 alone", async (c) =>
      (await rankFiles(c.files, c.task.message, {
        weights: { lexical: 1, path: 0, graph: 0, coChange: 0, pairs: 0 },
        rawTask: true,
      })).map((r) => r.path)),
    greedyFull("slop rank (greedy full in rank order)", rankOrder),
    // The same order with only the task section's tokens (no map, no other blocks): what the
    // task build could hold if it rendered nothing but the ranking's files in full.
    {
      name: inRoom.name,
      async fit(c, budget) {
        const { inFull, tokens } = await inRoom.fit(c, taskRoom(budget) + c.plain.overhead);
        return { inFull, tokens: tokens - c.plain.overhead };
      },
    },
    // A real task build: files in full from its manifest, tokens of the whole document.
    taskBuild,
    // What that build could hold with a perfect ranking (its map as it is).
    oracleInSection(taskBuild),
  ];
}

/** The case's files in slop's rank order (co-change from its history, the code views' names). */
async function rankPaths(c: TaskCase, weights?: RankWeights): Promise<string[]> {
  const history = await recentHistory(c.dir);
  const ranked = await rankFiles(c.files, c.task.message, {
    weights,
    coChange: coChangeFromLog(history, c.files.map((f) => f.path)),
    history,
    definitions: definedNames,
  });
  return ranked.map((r) => r.path);
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The plain build of a tree (cached beside it). */
export async function plainBuild(dir: string): Promise<PlainBuild> {
  const cached = `${dir}.build.json`;
  if (existsSync(cached)) return JSON.parse(await Deno.readTextFile(cached));
  const config = await loadConfig({ cwd: dir, stateDir: join(CACHE, "state") });
  const result = await build(config, {
    builtins: defaultPlugins(),
    write: false,
    remember: false,
    record: false,
    onWarning: () => {},
  });
  const order: string[] = [];
  const tokens: Record<string, number> = {};
  let files = 0;
  for (const block of result.blocks) {
    if (block.source !== undefined && block.id === `files:${block.source}`) {
      order.push(block.source);
      tokens[block.source] = block.tokens;
      files += block.tokens;
    }
  }
  const plain = {
    order,
    tokens,
    overhead: result.manifest.total.tokens - files,
    total: result.manifest.total.tokens,
  };
  await Deno.writeTextFile(cached, JSON.stringify(plain));
  return plain;
}

/** Counts of one strategy at one budget. */
interface Tally {
  needed: number;
  found: number;
  tasks: number;
  allIn: number;
  overBudget: number;
}

/**
 * The value after `name` on the command line (`--commits 40`: "40"), undefined when it is not
 * given: how the relevance benches read their options.
 */
export function argValue(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i < 0 ? undefined : Deno.args[i + 1];
}

function options(): {
  commits: number;
  repos: string[];
  write: boolean;
  misses: boolean;
  build: boolean;
  weights?: RankWeights;
  mapFull?: number;
} {
  const repos = argValue("--repos")?.split(",") ?? REPOS.filter((r) => !r.extra).map((r) => r.name);
  for (const r of repos) {
    if (!KNOWN.some((x) => x.name === r)) throw new Error(`[bench] Unknown repository "${r}"`);
  }
  let weights: RankWeights | undefined;
  const w = argValue("--weights");
  if (w) {
    weights = {};
    for (const pair of w.split(",")) {
      const [key, v] = pair.split("=");
      if (
        !["lexical", "path", "graph", "coChange", "history", "pairs", "pastCommits"].includes(
          key,
        ) ||
        !Number.isFinite(Number(v))
      ) {
        throw new Error(`[bench] Bad --weights item "${pair}"`);
      }
      weights[key as keyof RankWeights] = Number(v);
    }
  }
  return {
    commits: Number(argValue("--commits") ?? 40),
    repos,
    write: Deno.args.includes("--write"),
    misses: Deno.args.includes("--misses"),
    build: !Deno.args.includes("--no-build"),
    weights,
    mapFull: argValue("--map-full") === undefined ? undefined : Number(argValue("--map-full")),
  };
}

function pct(n: number, d: number): string {
  return d ? (n / d).toFixed(3) : "-";
}

async function main() {
  const opts = options();
  // `--no-build`: the orders only, no real task build (seconds a task instead of a minute).
  const list = strategies(opts.weights, opts.mapFull).filter((s) =>
    opts.build || !("shares" in s || "needsBuild" in s)
  );
  // tallies[group][strategy][budget]
  const groups = ["tuned", "held out", "all", ...opts.repos] as const;
  const tallies = new Map<string, Tally[][]>();
  for (const g of groups) {
    tallies.set(
      g,
      list.map(() =>
        BUDGETS.map(() => ({ needed: 0, found: 0, tasks: 0, allIn: 0, overBudget: 0 }))
      ),
    );
  }
  const misses = opts.misses ? new MissTally() : undefined;
  // The real task build, whose misses `--misses` also prints (absent with `--no-build`).
  const taskBuild = list.find((s) => "shares" in s) as TaskBuildStrategy | undefined;
  const started = performance.now();
  let taskCount = 0;
  for (const repo of opts.repos) {
    const gitDir = join(MIRRORS, repo, "repo");
    if (!existsSync(gitDir)) {
      console.error(`[bench] ${repo}: no mirror at "${gitDir}", skipped`);
      continue;
    }
    const tasks = await collectTasks(repo, gitDir, { commits: opts.commits });
    const tuned = KNOWN.find((r) => r.name === repo)!.tuned;
    for (const task of tasks) {
      const dir = await treeAt(gitDir, task.parent, join(CACHE, repo));
      const plain = await plainBuild(dir);
      const config = await loadConfig({ cwd: dir, stateDir: join(CACHE, "state") });
      const c: TaskCase = { task, dir, files: await rankInputs(config), plain };
      taskCount++;
      let ranked: RankedFile[] | undefined;
      if (misses) {
        const history = await recentHistory(dir);
        ranked = await rankFiles(c.files, task.message, {
          weights: opts.weights,
          coChange: coChangeFromLog(history, c.files.map((f) => f.path)),
          history,
          definitions: definedNames,
        });
        await misses.add({ ...task, tuned, dir, ranked, ...plain });
      }
      for (const [s, strategy] of list.entries()) {
        for (const [b, budget] of BUDGETS.entries()) {
          const fitted = await strategy.fit(c, budget);
          if (misses && ranked && taskBuild && strategy === taskBuild) {
            const manifest = taskBuild.last.get(budget)!;
            misses.addBuild({ ...task, tuned, ranked, tokens: plain.tokens }, budget, {
              manifest,
              ...fitted,
            });
          }
          const found = task.needed.filter((p) => fitted.inFull.has(p)).length;
          for (const g of [tuned ? "tuned" : "held out", "all", repo]) {
            const t = tallies.get(g)![s][b];
            t.needed += task.needed.length;
            t.found += found;
            t.tasks++;
            if (found === task.needed.length) t.allIn++;
            if (fitted.tokens > budget) t.overBudget++;
          }
        }
      }
    }
    console.error(`[bench] ${repo}: ${tasks.length} tasks`);
  }
  const seconds = (performance.now() - started) / 1000;
  const header = `| strategy | ${
    BUDGETS.map((b) => `R@${b / 1000}k | all@${b / 1000}k`).join(" | ")
  } |`;
  const rule = `|---|${BUDGETS.map(() => "---:|---:").join("|")}|`;
  const lines: string[] = [];
  for (const g of groups) {
    const t = tallies.get(g)!;
    if (!t[0][0].tasks) continue;
    lines.push("", `### ${g} (${t[0][0].tasks} tasks, ${t[0][0].needed} needed files)`, "");
    lines.push(header, rule);
    for (const [s, strategy] of list.entries()) {
      const cells = t[s].map((x) =>
        `${pct(x.found, x.needed)} | ${pct(x.allIn, x.tasks)}${x.overBudget ? " (over!)" : ""}`
      );
      lines.push(`| ${strategy.name} | ${cells.join(" | ")} |`);
    }
  }
  // The prefix two tasks on the same tree share, of each task build (bench/_task_build.ts).
  for (const strategy of list) {
    if (!("shares" in strategy)) continue;
    lines.push("", "### prefix share of two tasks on the same tree", "");
    lines.push(...shareLines(strategy as TaskBuildStrategy, BUDGETS));
  }
  const text = lines.join("\n").trimStart();
  console.log(text);
  if (misses) console.log(misses.report().join("\n"));
  console.error(`[bench] ${taskCount} tasks in ${seconds.toFixed(0)} s`);
  if (opts.write) {
    const ran = KNOWN.filter((r) => opts.repos.includes(r.name));
    const tuned = ran.filter((r) => r.tuned).map((r) => r.name).join(", ");
    const held = ran.filter((r) => !r.tuned).map((r) => r.name).join(", ");
    await Deno.writeTextFile(
      join(BENCH, "relevance_results.md"),
      `# Task relevance results\n\nWritten by \`deno task bench:relevance --write\` ` +
        `(${opts.commits} commits a repository). Weights tuned on ${tuned}; held out: ${held}.\n` +
        `Recall@B: needed files in full in a B-token document, over all needed files; ` +
        `all@B: tasks with every needed file in full.\n\n${text}\n`,
    );
    // Formatted as the repository's markdown is (`deno fmt --check` passes).
    await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--quiet", join(BENCH, "relevance_results.md")],
    }).output();
  }
}

if (import.meta.main) await main();
