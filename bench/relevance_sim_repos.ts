/**
 * Task builds simulated (`relevance_sim.ts`), held out by repository: the
 * newest tasks of every held-out repository of the relevance bench (the six
 * of `REPOS` that no weight was tuned on and the `FRESH_REPOS` no session
 * tuned on), each repository counted apart, against the tuning repositories'
 * tasks. It prints the needed files the build as it is holds at 8k / 32k /
 * 128k, then each variant's difference, per set and per repository, and for
 * the grids a choice made leaving each repository out (the setting with the
 * most on the other repositories, counted on the one left out).
 *
 * ```sh
 * deno run -A bench/relevance_sim_repos.ts [--commits 40] [--tuned-commits 40] [--only "tail"] [--repos]
 * deno run -A bench/relevance_sim_repos.ts --names psf+requests,go-chi+chi  # some repositories only
 * ```
 *
 * The first run makes the tasks' data (as `relevance_sim.ts`). See
 * bench/README.md, "Held out by repository (seventeenth session)".
 *
 * @module
 */

import { type SimFile, type SimTask, simTasks } from "./_relevance_sim_data.ts";
import { greedy, simulate, type Variant } from "./relevance_sim.ts";
import { argValue, BUDGETS, CACHE, FRESH_REPOS, plainBuild, REPOS } from "./relevance.ts";
import { fitOrder } from "../pipeline/_task_fit.ts";
import { coChangeFromLog } from "../pipeline/co_change.ts";
import { OTHER_FILES } from "../pipeline/rank.ts";
import { added, coExpand } from "./relevance_sim_rank.ts";

/** The tasks of each repository, tuned first, then held out. */
async function loadRepos(
  commits: number,
  tunedCommits: number,
  names?: string[],
): Promise<{ name: string; tuned: boolean; tasks: SimTask[] }[]> {
  const out = [];
  for (const repo of [...REPOS, ...FRESH_REPOS]) {
    if (names && !names.includes(repo.name)) continue;
    const n = repo.tuned ? tunedCommits : commits;
    const tasks = await simTasks(repo, n, { cache: CACHE, plain: plainBuild });
    if (tasks.length) out.push({ name: repo.name, tuned: repo.tuned, tasks });
  }
  return out;
}

/** Needed files held at each budget. */
function held(tasks: SimTask[], variant: Variant | ((b: number) => Variant)): number[] {
  return BUDGETS.map((b) =>
    tasks.reduce(
      (n, t) => n + simulate(t, b, typeof variant === "function" ? variant(b) : variant).found,
      0,
    )
  );
}

/** The section's try order with other exponents (`_task_fit.ts`: 1.2 and 0.5). */
function fitWith(decay: number, size: number) {
  return (costs: (number | undefined)[]) => {
    const value = (i: number) => (i + 1) ** -decay / Math.max(costs[i]!, 1) ** size;
    const order = costs.flatMap((c, i) => (c === undefined ? [] : [i]));
    return order.sort((a, b) => value(b) - value(a) || a - b);
  };
}

/** The section's try order with each file's tokens counted as at least `floor`. */
function fitFloor(floor: number) {
  return (costs: (number | undefined)[]) =>
    fitOrder(costs.map((c) => (c === undefined ? undefined : Math.max(c, floor))));
}

/** The map's kept files by co-change over `tokens^size` (`_task_map.ts`: 0.5). */
function mapSize(size: number) {
  return (task: SimTask, room: number) =>
    keptBy(task, room, (f) => f.co * (f.code ? 1 : OTHER_FILES) / Math.max(f.tokens!, 1) ** size);
}

/**
 * The map's kept files by co-change over `tokens^0.5`, a file larger than `share` of the task
 * section's room (`budget` less the map's part) counted `factor` times (`_task_map.ts`: 0.7, 1.5).
 */
function mapLarge(budget: number, share: number, factor: number) {
  const section = budget - Math.min(Math.floor(budget / 2), 16_000);
  return (task: SimTask, room: number) =>
    keptBy(task, room, (f) => {
      const large = f.tokens! > share * section ? factor : 1;
      return f.co * (f.code ? 1 : OTHER_FILES) * large / Math.max(f.tokens!, 1) ** 0.5;
    });
}

/**
 * The files of `task` with a positive `value` (each file's tokens known), most valued first (ties
 * by path), each kept while it fits what is left of `room`.
 */
function keptBy(task: SimTask, room: number, value: (f: SimFile) => number): Set<string> {
  const valued = new Map<string, number>();
  for (const f of task.files) {
    if (f.tokens === undefined) continue;
    const v = value(f);
    if (v > 0) valued.set(f.path, v);
  }
  const order = task.files.filter((f) => valued.has(f.path)).sort((a, b) =>
    valued.get(b.path)! - valued.get(a.path)! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const kept = new Set<string>();
  let left = room;
  for (const f of order) {
    if (f.tokens! > left) continue;
    left -= f.tokens!;
    kept.add(f.path);
  }
  return kept;
}

/**
 * After the ranking's first 100 files with text are tried as the build tries them, the files
 * changed with the best `k` (`coChangeNeighbours`, at most `most` of them, none of the 100) are
 * tried in full with what is left, best first.
 */
function tail(
  k: number,
  most: number,
  from: "ranked" | "code" = "code",
  maxFiles = 10,
): Variant {
  const extra = new WeakMap<SimTask, SimFile[]>();
  return {
    rerank(task, ranked) {
      const top = ranked.filter((f) => f.hasText).slice(0, 100);
      const inTop = new Set(top.map((f) => f.path));
      const seeds = (from === "code" ? top.filter((f) => f.code) : top).slice(0, k)
        .map((f) => f.path);
      const byPath = new Map(task.files.map((f) => [f.path, f]));
      const scores = coChangeFromLog(
        task.log.map((paths) => ({ paths })),
        task.files.map((f) => f.path),
        { seeds, maxFiles },
      );
      const near = [...scores.keys()].sort((a, b) =>
        scores.get(b)! - scores.get(a)! || (a < b ? -1 : 1)
      )
        .map((p) => byPath.get(p)).filter((f): f is SimFile =>
          f !== undefined && f.hasText && f.tokens !== undefined && !inTop.has(f.path)
        ).slice(0, most);
      extra.set(task, near);
      return [...top, ...near];
    },
    maxFit: 100 + most,
    select(tried, costs, room, task) {
      const n = tried.length - (extra.get(task)?.length ?? 0);
      const first = greedy(fitOrder(costs.slice(0, n).map((c) => c?.tokens)), costs, room);
      const left = { ...room };
      for (const i of first) (left.tokens -= costs[i]!.tokens, left.bytes -= costs[i]!.bytes);
      const rest = costs.flatMap((c, i) => (i >= n && c ? [i] : []));
      return [...first, ...greedy(rest, costs, left)];
    },
  };
}

/**
 * The ranking's first 100 files with text tried as the build tries them (`fitOrder`), then the
 * rest of the ranked files in ranking order with what is left (at most `most`), each that fits;
 * with `skip`, a file whose bytes over 16 are more than the tokens left is not tried.
 */
function rankedTail(most = Infinity, skip = false): Variant {
  return {
    maxFit: 100 + most,
    select(tried, costs, room) {
      const n = Math.min(100, tried.length);
      const first = greedy(fitOrder(costs.slice(0, n).map((c) => c?.tokens)), costs, room);
      const left = { ...room };
      for (const i of first) (left.tokens -= costs[i]!.tokens, left.bytes -= costs[i]!.bytes);
      const taken = [...first];
      for (let i = n; i < tried.length; i++) {
        const c = costs[i];
        if (!c || (skip && tried[i].bytes / 16 > left.tokens)) continue;
        if (c.tokens > left.tokens || c.bytes > left.bytes) continue;
        left.tokens -= c.tokens;
        left.bytes -= c.bytes;
        taken.push(i);
      }
      return taken;
    },
  };
}

// The rows were measured against the build before the seventeenth session (100 files tried, the
// first row): the simulation's default is now 200, so each row reads against that.
const VARIANTS: [string, Variant | ((b: number) => Variant)][] = [
  [
    "nineteenth: the build before (the fit with every file as code, the map of changed files only)",
    {
      allCode: true,
      mapChangedOnly: true,
    },
  ],
  ["nineteenth: the fit with every file as code", { allCode: true }],
  ["nineteenth: the map's files among the changed ones only", { mapChangedOnly: true }],
  ["the build before the eighteenth session", { allTried: true, mapAsBefore: true }],
  ["fit: every one of the 200 tried (the build before the eighteenth session)", { allTried: true }],
  ["map: large files not counted 1.5 times (the build before the eighteenth session)", {
    mapAsBefore: true,
  }],
  ["fit: 100 files tried (the build before the seventeenth)", { maxFit: 100, allTried: true }],
  ["both: map over tokens^0.25, 200 files tried", { map: mapSize(0.25), maxFit: 200 }],
  ["tail: the ranked files after the first 100, with what is left", rankedTail()],
  [
    "tail: the ranked files after the first 100, bytes/16 over what is left not tried",
    rankedTail(Infinity, true),
  ],
  ["tail: 100 more ranked files, with what is left", rankedTail(100)],
  ["fit: every ranked file tried (not 100)", { maxFit: Infinity }],
  ["fit: 150 files tried", { maxFit: 150 }],
  ["fit: 200 files tried", { maxFit: 200 }],
  ["fit: 300 files tried", { maxFit: 300 }],
  ["fit: 200 files tried at 128k only", (b: number) => (b > 32_000 ? { maxFit: 200 } : {})],
];
for (const k of [1, 3, 5, 10]) {
  for (const most of [10, 30, 100]) {
    VARIANTS.push([`tail: co-change of the best ${k} code files, ${most} most`, tail(k, most)]);
  }
}
for (const decay of [0.8, 1, 1.2, 1.5]) {
  for (const size of [0.3, 0.4, 0.5, 0.6, 0.7]) {
    VARIANTS.push([`grid fit: place^-${decay} / tokens^${size}`, { fit: fitWith(decay, size) }]);
  }
}
for (const decay of [0.6, 0.8, 1, 1.2]) {
  for (const size of [0.5, 0.7, 0.9, 1.1]) {
    VARIANTS.push([
      `grid128 fit at 128k: place^-${decay} / tokens^${size}, 200 files tried`,
      (b: number) => (b > 32_000 ? { fit: fitWith(decay, size), maxFit: 200 } : { maxFit: 200 }),
    ]);
  }
}
for (const k of [3, 5, 10]) {
  for (const gate of ["lex", "none"] as const) {
    for (const w of [0.05, 0.1, 0.2]) {
      const expand = added(coExpand(k, gate), w);
      VARIANTS.push([
        `expand at 128k: co-change from the best ${k}, gate ${gate}, ${w}, 200 files tried`,
        (b: number) => (b > 32_000 ? { ...expand, maxFit: 200 } : { maxFit: 200 }),
      ]);
    }
  }
}
for (const size of [0.15, 0.25, 0.35, 0.5, 0.65]) {
  VARIANTS.push([`grid map: change over tokens^${size}`, { map: mapSize(size) }]);
}
for (const share of [0.5, 0.7, 0.85, 1]) {
  for (const factor of [1, 1.5, 2, 3, 5, 10]) {
    VARIANTS.push([
      `grid large: map files over ${share} of the section's room counted ${factor} times`,
      (b: number) => ({ map: mapLarge(b, share, factor) }),
    ]);
  }
}
for (const floor of [1, 250, 500, 1000, 2000, 4000]) {
  VARIANTS.push([`grid floor: place^-1.2 / max(tokens, ${floor})^0.5`, { fit: fitFloor(floor) }]);
}

const diff = (xs: number[], base: number[]) =>
  xs.map((x, i) => `${x - base[i] >= 0 ? "+" : ""}${x - base[i]}`).join(" / ");

async function main() {
  const repos = await loadRepos(
    Number(argValue("--commits") ?? 40),
    Number(argValue("--tuned-commits") ?? 40),
    argValue("--names")?.split(","),
  );
  const only = argValue("--only");
  const perRepo = Deno.args.includes("--repos");
  const sets = {
    tuned: repos.filter((r) => r.tuned).flatMap((r) => r.tasks),
    held: repos.filter((r) => !r.tuned).flatMap((r) => r.tasks),
  };
  const files = (ts: SimTask[]) => ts.reduce((n, t) => n + t.needed.length, 0);
  const base = new Map<string, number[]>();
  for (const r of repos) base.set(r.name, held(r.tasks, {}));
  const sum = (names: string[], of: Map<string, number[]>) =>
    BUDGETS.map((_, i) => names.reduce((n, r) => n + of.get(r)![i], 0));
  const tunedNames = repos.filter((r) => r.tuned).map((r) => r.name);
  const heldNames = repos.filter((r) => !r.tuned).map((r) => r.name);
  console.log(
    `tuned: ${tunedNames.length} repositories, ${sets.tuned.length} tasks, ${
      files(sets.tuned)
    } needed files`,
  );
  console.log(
    `held out: ${heldNames.length} repositories, ${sets.held.length} tasks, ${
      files(sets.held)
    } needed files`,
  );
  console.log("");
  console.log(
    "| repository | tasks | needed | the build as it is, 8k / 32k / 128k | R@8k / R@32k / R@128k |",
  );
  console.log("|---|---:|---:|---|---|");
  for (const r of repos) {
    const b = base.get(r.name)!;
    const n = files(r.tasks);
    console.log(
      `| ${r.name}${r.tuned ? " (tuned)" : ""} | ${r.tasks.length} | ${n} | ${b.join(" / ")} | ${
        b.map((x) => (x / n).toFixed(3)).join(" / ")
      } |`,
    );
  }
  for (
    const [name, names, ts] of [["tuned", tunedNames, sets.tuned], [
      "held out",
      heldNames,
      sets.held,
    ]] as const
  ) {
    const b = sum([...names], base);
    const n = files([...ts]);
    console.log(
      `| **${name}** | ${ts.length} | ${n} | ${b.join(" / ")} | ${
        b.map((x) => (x / n).toFixed(3)).join(" / ")
      } |`,
    );
  }
  console.log("");
  console.log(
    "| variant | tuned | held out | repositories held out gaining / losing at 32k, 128k |",
  );
  console.log("|---|---|---|---|");
  const results = new Map<string, Map<string, number[]>>();
  for (const [name, variant] of VARIANTS) {
    if (only && !name.includes(only)) continue;
    const per = new Map<string, number[]>();
    for (const r of repos) per.set(r.name, held(r.tasks, variant));
    results.set(name, per);
    const moved = (i: number) => {
      const d = heldNames.map((r) => per.get(r)![i] - base.get(r)![i]);
      return `${d.filter((x) => x > 0).length}/${d.filter((x) => x < 0).length}`;
    };
    console.log(
      `| ${name} | ${diff(sum(tunedNames, per), sum(tunedNames, base))} | ${
        diff(sum(heldNames, per), sum(heldNames, base))
      } | ${moved(1)}, ${moved(2)} |`,
    );
    if (perRepo) {
      for (const r of repos) {
        const d = diff(per.get(r.name)!, base.get(r.name)!);
        if (d !== "+0 / +0 / +0") console.log(`|   ${r.name} | ${d} | | |`);
      }
    }
  }
  // A grid's setting chosen leaving each repository out: the most at 32k, then 128k, then 8k
  // over the other repositories (every one, tuned included), counted on the one left out.
  const groups = new Set(
    [...results.keys()].filter((n) => n.startsWith("grid ")).map((n) => n.slice(0, n.indexOf(":"))),
  );
  for (const group of groups) {
    const grid = [...results.keys()].filter((n) => n.startsWith(`${group}:`));
    const all = repos.map((r) => r.name);
    const loro = new Map<string, number[]>();
    const chosen: string[] = [];
    for (const out of all) {
      const rest = all.filter((r) => r !== out);
      const score = (g: string) => sum(rest, results.get(g)!);
      const best = grid.toSorted((a, b) => {
        const x = score(a), y = score(b);
        return y[1] - x[1] || y[2] - x[2] || y[0] - x[0] || grid.indexOf(a) - grid.indexOf(b);
      })[0];
      chosen.push(`${out}: ${best}`);
      loro.set(out, results.get(best)!.get(out)!);
    }
    console.log("");
    console.log(...chosen.map((c) => `\n  ${c}`));
    console.log(
      `${group} chosen leaving each repository out: tuned ${
        diff(sum(tunedNames, loro), sum(tunedNames, base))
      }, held out ${diff(sum(heldNames, loro), sum(heldNames, base))}`,
    );
  }
}

if (import.meta.main) await main();
