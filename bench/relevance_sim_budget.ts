/**
 * Where a task build's budget goes, on the simulated task builds of
 * `relevance_sim.ts`: the map's tokens and bytes against the task section's,
 * which of the section's limits binds (its tokens or the map's bytes), what
 * kinds of files the section spends its room on, and why each needed file it
 * misses is missed (no score, below the files it tries, larger than its
 * room, passed over for room: by its place, and whether a fill in ranking
 * order would have held it). Then fill and split variants, each as the
 * needed files it holds at 8k / 32k / 128k against the build as it is.
 *
 * ```sh
 * deno run -A bench/relevance_sim_budget.ts [--sets tuned,a,b] [--only "knapsack"] [--misses]
 * ```
 *
 * Sets as `relevance_sim_rank.ts` has them (`tuned`: 40 commits of each of
 * psf/requests, sindresorhus/got, spf13/cobra, google/gson; `a`: the 10 newest
 * tasks of each held-out repository, `b`: the 11th to 40th). The tasks' data
 * is `relevance_sim.ts`'s (made on the first run). See bench/README.md,
 * "Budget split and fill (eighth session)".
 *
 * @module
 */

import { join } from "node:path";
import { fitOrder, RANK_DECAY } from "../pipeline/_task_fit.ts";
import { keptFiles } from "../pipeline/_task_map.ts";
import { neededFiles, type SimFile, type SimTask, simTasks } from "./_relevance_sim_data.ts";
import {
  type Cost,
  greedy,
  printVariants,
  rankScores,
  simulate,
  type Variant,
} from "./relevance_sim.ts";
import { isTestPath } from "./_relevance_misses.ts";
import { argValue, BUDGETS, CACHE, plainBuild, REPOS, TUNED } from "./relevance.ts";
import { collectTasks } from "./_relevance_tasks.ts";

/**
 * Every file each task's commit modified or deleted that the tree's build shows (code or not):
 * the bench's needed files are its source files only, so a change that puts files without a
 * grammar last can only gain on them; this count judges it on what the commits edited.
 */
const edited = new WeakMap<SimTask, string[]>();

/** The sets: tuned, `a` (each held-out repository's 10 newest tasks), `b` (its 11th to 40th). */
async function loadSets(): Promise<Record<string, SimTask[]>> {
  const sets: Record<string, SimTask[]> = { tuned: [], a: [], b: [] };
  for (const repo of REPOS) {
    const tuned = TUNED.includes(repo.name);
    const tasks = await simTasks({ name: repo.name, tuned }, 40, {
      cache: CACHE,
      plain: plainBuild,
    });
    const gitDir = join("/work/.mirror", repo.name, "repo");
    const raw = tasks.length ? await collectTasks(repo.name, gitDir, { commits: 40 }) : [];
    for (const t of tasks) {
      const shown = new Set(t.files.filter((f) => f.tokens !== undefined).map((f) => f.path));
      edited.set(
        t,
        (await changed(gitDir, raw[t.k].parent, raw[t.k].commit)).filter((p) => shown.has(p)),
      );
      (tuned ? sets.tuned : t.k < 10 ? sets.a : sets.b).push(t);
    }
  }
  return sets;
}

/** The paths `commit` modified or deleted against `parent`. */
async function changed(gitDir: string, parent: string, commit: string): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["--git-dir", gitDir, "-c", "core.quotePath=false", "diff-tree", "-r", "--no-renames"]
      .concat(["--name-status", parent, commit]),
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").map((l) => l.split("\t"))
    .filter(([s, p]) => p && (s === "M" || s === "D")).map(([, p]) => p);
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const n0 = (x: number) => Math.round(x).toLocaleString("en");
const utf8 = new TextEncoder();

/** The section's bytes besides its files, about (`relevance_sim.ts` counts 150 and the message). */
const sectionBytes = (t: SimTask) => utf8.encode(t.message).length + 150;

/** How the budget splits, a task on average, at `budget`. */
function split(tasks: SimTask[], budget: number, variant: Variant = {}): string[] {
  const rows = tasks.map((t) => ({ t, h: simulate(t, budget, variant) }));
  const byPath = (t: SimTask) => new Map(t.files.map((f) => [f.path, f]));
  const share: number[] = [];
  const doc: number[] = [];
  const kind = { code: 0, tests: 0, other: 0, needed: 0 };
  let bytesBind = 0;
  let tokensBind = 0;
  let neitherBind = 0;
  const map = { tokens: 0, bytes: 0, needed: 0, neededTokens: 0, other: 0 };
  for (const { t, h } of rows) {
    const files = byPath(t);
    const used = { tokens: h.room.tokens - h.left.tokens, bytes: h.room.bytes - h.left.bytes };
    if (!Number.isFinite(h.room.bytes)) {
      used.bytes = h.taken.reduce((n, p) => n + files.get(p)!.bytes, 0);
    }
    share.push(h.map.bytes / (h.map.bytes + used.bytes + sectionBytes(t)));
    doc.push(h.map.tokens + used.tokens + t.taskTokens + 40);
    for (const p of h.taken) {
      const f = files.get(p)!;
      kind[!f.code ? "other" : isTestPath(p) ? "tests" : "code"] += f.tokens!;
      if (t.needed.includes(p)) kind.needed += f.tokens!;
    }
    map.tokens += h.map.tokens;
    map.bytes += h.map.bytes;
    for (const p of h.map.kept) {
      const f = files.get(p)!;
      if (!f.code) map.other += f.tokens!;
      if (t.needed.includes(p)) (map.needed++, map.neededTokens += f.tokens!);
    }
    // Which limit keeps the best passed-over file of the first 20 out.
    const out = h.tried.slice(0, 20).find((f) =>
      !h.map.kept.has(f.path) && !h.taken.includes(f.path)
    );
    if (!out) neitherBind++;
    else if (out.tokens! <= h.left.tokens) bytesBind++;
    else if (out.bytes <= h.left.bytes) tokensBind++;
    else neitherBind++;
  }
  const per = (x: number) => n0(x / tasks.length);
  return [
    `map ${per(map.tokens)} tokens, ${(map.bytes / map.tokens).toFixed(2)} bytes a token, ` +
    `${per(map.other)} of them files without a grammar, ${map.needed} needed files ` +
    `(${per(map.neededTokens)} tokens)`,
    `section ${n0(mean(rows.map((r) => r.h.room.tokens - r.h.left.tokens)))} ` +
    `tokens of ${n0(mean(rows.map((r) => r.h.room.tokens)))}: code ${per(kind.code)}, tests ${
      per(kind.tests)
    }, without a grammar ${per(kind.other)}; needed ${per(kind.needed)}`,
    `document ${n0(mean(doc))} tokens (median ${n0(median(doc))}); prefix share (bytes) ` +
    `median ${median(share).toFixed(3)}, min ${Math.min(...share).toFixed(3)}`,
    `the first file of the 20 best passed over is kept out by: bytes ${bytesBind}, tokens ` +
    `${tokensBind}, no such file or both ${neitherBind}`,
  ];
}

/** Why each needed file the build misses at `budget` is missed, counted by class. */
function misses(tasks: SimTask[], budget: number, lines?: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (c: string) => counts.set(c, (counts.get(c) ?? 0) + 1);
  for (const t of tasks) {
    const h = simulate(t, budget);
    const rankOrder = simulate(t, budget, {
      fit: (costs) => costs.flatMap((c, i) => c ? [i] : []),
    });
    for (const p of t.needed) {
      if (h.map.kept.has(p)) (add("held: in the map"), 0);
      else if (h.taken.includes(p)) add("held: in the section");
      if (h.map.kept.has(p) || h.taken.includes(p)) continue;
      const f = t.files.find((x) => x.path === p);
      const place = h.ranked.findIndex((x) => x.path === p);
      const tried = h.tried.findIndex((x) => x.path === p);
      let c: string;
      if (!f || f.tokens === undefined) c = "no block";
      else if (place < 0) c = "no score";
      else if (tried < 0) c = "below the files tried";
      else if (f.tokens > h.room.tokens || f.bytes > h.room.bytes) {
        c = f.tokens > h.room.tokens
          ? "larger than the room (tokens)"
          : "larger than the room (bytes)";
      } else {
        const at = tried < 10 ? "1-10" : tried < 20 ? "11-20" : "21+";
        const by = f.tokens <= h.left.tokens
          ? "bytes"
          : f.bytes <= h.left.bytes
          ? "tokens"
          : "both";
        const ro = rankOrder.taken.includes(p) ? ", rank order holds it" : "";
        c = `passed over, place ${at}, ${by} short${ro}`;
      }
      add(c);
      lines?.push(
        `  ${t.repo} #${t.k} ${budget / 1000}k ${p} (place ${
          place + 1
        }, ${f?.tokens} tokens): ${c}` +
          ` | ${t.message.split("\n")[0].slice(0, 60)}`,
      );
    }
  }
  return counts;
}

/** Files in the order of the ranking (the section's try order as a plain greedy fill). */
const rankOrder = (costs: (number | undefined)[]) => costs.flatMap((c, i) => c ? [i] : []);

/**
 * A 0/1 knapsack of the tried files: the most expected recall (`value(i, tokens)`) within the
 * room, one resource (each file's larger share of the room's tokens or bytes, in `UNITS` steps
 * rounded up, so the choice always fits), then what is left filled in `fitOrder`'s order.
 */
function knapsack(value: (place: number, tokens: number) => number, units = 2000) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost): number[] => {
    if (room.tokens <= 0 || room.bytes <= 0) return [];
    const w = costs.map((c) =>
      c && Math.ceil(Math.max(c.tokens / room.tokens, c.bytes / room.bytes) * units - 1e-9)
    );
    const best = new Float64Array(units + 1);
    const took: Uint8Array[] = [];
    for (let i = 0; i < tried.length; i++) {
      const wi = w[i];
      const row = new Uint8Array(units + 1);
      took.push(row);
      if (wi === undefined || wi > units) continue;
      const v = value(i + 1, costs[i]!.tokens);
      for (let cap = units; cap >= wi; cap--) {
        const withIt = best[cap - wi] + v;
        if (withIt > best[cap] + 1e-12) (best[cap] = withIt, row[cap] = 1);
      }
    }
    const chosen: number[] = [];
    for (let i = tried.length - 1, cap = units; i >= 0; i--) {
      if (took[i][cap]) (chosen.push(i), cap -= w[i]!);
    }
    chosen.reverse();
    const left = { ...room };
    for (const i of chosen) (left.tokens -= costs[i]!.tokens, left.bytes -= costs[i]!.bytes);
    const rest = fitOrder(costs.map((c, i) => (chosen.includes(i) ? undefined : c?.tokens)));
    return [...chosen, ...greedy(rest, costs, left)];
  };
}

/** A file's chance of being needed by its place only, as `_task_fit.ts` has it. */
const byPlace = (place: number) => place ** -RANK_DECAY;

/** Chance by place and size: `place^-decay × tokens^size` (larger files are needed more often at a place). */
function placeAndSize(decay: number, size: number) {
  return (place: number, tokens: number) => place ** -decay * Math.max(tokens, 1) ** size;
}

/** The ranking without files slop has no grammar for (tried after every code file, or never). */
function codeFirst(never: boolean) {
  return {
    rerank: (_t: SimTask, ranked: SimFile[]) =>
      never
        ? ranked.filter((f) => f.code)
        : [...ranked.filter((f) => f.code), ...ranked.filter((f) => !f.code)],
  };
}

/** The map keeps only files slop has a grammar for. */
function mapCodeOnly(task: SimTask, room: number): Set<string> {
  const files = task.files.filter((f) => f.tokens !== undefined && f.code);
  const changes = new Map(files.filter((f) => f.co > 0).map((f) => [f.path, f.co]));
  return new Set(
    keptFiles(files.map((f) => ({ path: f.path, tokens: f.tokens!, code: true })), changes, room),
  );
}

/**
 * The section's files tried by `value` (of the file, its place among the files tried, its
 * score over the best file's), highest first, ties by place; each that fits taken.
 */
function fillBy(value: (f: SimFile, place: number, ratio: number, tokens: number) => number) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask): number[] => {
    const score = rankScores(task);
    const top = score.get(tried[0]?.path) ?? 1;
    const v = tried.map((f, i) => value(f, i + 1, score.get(f.path)! / top, f.tokens!));
    const order = tried.map((_, i) => i).filter((i) => costs[i]).sort((a, b) =>
      v[b] - v[a] || a - b
    );
    return greedy(order, costs, room);
  };
}

/** The fit's value with places counted among the files the map does not hold. */
function placesBesideMap(tried: SimFile[], costs: (Cost | undefined)[], room: Cost): number[] {
  const at = new Map<number, number>();
  costs.forEach((c, i) => c && at.set(i, at.size));
  const value = (i: number) =>
    (at.get(i)! + 1) ** -RANK_DECAY / Math.max(tried[i].tokens!, 1) ** 0.5;
  const order = [...at.keys()].sort((a, b) => value(b) - value(a) || a - b);
  return greedy(order, costs, room);
}

/** The map's files by change score over `tokens^size` (the build: 0.5). */
function mapSize(size: number) {
  return (task: SimTask, room: number): Set<string> => {
    const files = task.files.filter((f) => f.tokens !== undefined && f.co > 0);
    const value = (f: SimFile) => f.co * (f.code ? 1 : 0.25) / Math.max(f.tokens!, 1) ** size;
    const order = files.toSorted((a, b) => value(b) - value(a) || (a.path < b.path ? -1 : 1));
    const kept = new Set<string>();
    let left = room;
    for (const f of order) if (f.tokens! <= left) (left -= f.tokens!, kept.add(f.path));
    return kept;
  };
}

const VARIANTS: [string, Variant | ((budget: number) => Variant)][] = [
  ["check: map by change over tokens^0.5 (+0)", { map: mapSize(0.5) }],
  ["map: change over tokens^0.25", { map: mapSize(0.25) }],
  ["map: change over tokens^0.35", { map: mapSize(0.35) }],
  ["fill: places counted beside the map's files", { select: placesBesideMap }],
  ["fill: (score/best)^2 / tokens^0.5", { select: fillBy((_f, _p, r, t) => r ** 2 / t ** 0.5) }],
  ["fill: (score/best)^3 / tokens^0.5", { select: fillBy((_f, _p, r, t) => r ** 3 / t ** 0.5) }],
  ["fill: (score/best)^4 / tokens^0.5", { select: fillBy((_f, _p, r, t) => r ** 4 / t ** 0.5) }],
  ["fill: place^-1.2 x score/best / tokens^0.5", {
    select: fillBy((_f, p, r, t) => p ** -1.2 * r / t ** 0.5),
  }],
  ["fill: place^-1.2 x (score/best)^2 / tokens^0.5", {
    select: fillBy((_f, p, r, t) => p ** -1.2 * r ** 2 / t ** 0.5),
  }],
  ["fill: place^-0.8 x (score/best)^2 / tokens^0.5", {
    select: fillBy((_f, p, r, t) => p ** -0.8 * r ** 2 / t ** 0.5),
  }],
  ["fill in ranking order (greedy, no value per token)", { fit: rankOrder }],
  ["knapsack, chance place^-1.2", { select: knapsack(byPlace) }],
  ["knapsack, chance place^-1.2 x tokens^0.25", { select: knapsack(placeAndSize(1.2, 0.25)) }],
  ["knapsack, chance place^-1.2 x tokens^0.5", { select: knapsack(placeAndSize(1.2, 0.5)) }],
  ["section: files without a grammar after every code file", codeFirst(false)],
  ["section: files without a grammar never", codeFirst(true)],
  ["map: files without a grammar never", { map: mapCodeOnly }],
  [
    "map at 128k: 8,000 tokens (32k and 8k as they are)",
    (b) => (b > 32_000 ? { mapTokens: 8_000 } : {}),
  ],
  ["map at 128k: 12,000 tokens", (b) => (b > 32_000 ? { mapTokens: 12_000 } : {})],
  ["map at 128k: 24,000 tokens", (b) => (b > 32_000 ? { mapTokens: 24_000 } : {})],
  // Thirteenth session: a file's own change rate in its chance of being needed.
  ["13 fill: place^-1.2 x (1 + co) / tokens^0.5", {
    select: fillBy((f, p, _r, t) => p ** -1.2 * (1 + f.co) / t ** 0.5),
  }],
  ["13 fill: place^-1.2 x (1 + 3 co) / tokens^0.5", {
    select: fillBy((f, p, _r, t) => p ** -1.2 * (1 + 3 * f.co) / t ** 0.5),
  }],
  ["13 fill: place^-1.2 x (0.1 + co)^0.5 / tokens^0.5", {
    select: fillBy((f, p, _r, t) => p ** -1.2 * (0.1 + f.co) ** 0.5 / t ** 0.5),
  }],
  ["13 fill: place^-1.2 x (0.05 + co) / tokens^0.5", {
    select: fillBy((f, p, _r, t) => p ** -1.2 * (0.05 + f.co) / t ** 0.5),
  }],
  ["(map at 45% of 8k and 32k: below the prefix floor)", { mapShare: 0.45 }],
  ["(map at 40% of 8k and 32k: below the prefix floor)", { mapShare: 0.4 }],
  ["(no map: the whole budget the task's, no shared prefix)", { mapShare: 0.5001, mapTokens: 0 }],
  ["(no bytes limit on the section: breaks the prefix share)", { mapShare: 0.5001 }],
];

/**
 * The other tasks of the same repository in the same set, for the hindsight maps of `--bound`
 * (set in `main`).
 */
const siblings = new WeakMap<SimTask, SimTask[]>();

/**
 * A map chosen in hindsight: the files the tasks of the same repository and set need, by how
 * many of them need it over its tokens (the knapsack ratio of expected needed files), each that
 * fits; the room left filled as the build fills it (`keptFiles` on change). With `self` false
 * the task's own needs are left out (leave one out): a perfect prior of what the repository's
 * tasks edit, still blind to this task.
 */
function hindsightMap(self: boolean) {
  return (task: SimTask, room: number): Set<string> => {
    const count = new Map<string, number>();
    for (const t of siblings.get(task) ?? []) {
      if (t === task && !self) continue;
      for (const p of t.needed) count.set(p, (count.get(p) ?? 0) + 1);
    }
    const files = task.files.filter((f) => f.tokens !== undefined && count.has(f.path));
    const value = (f: SimFile) => count.get(f.path)! / Math.max(f.tokens!, 1);
    const kept = new Set<string>();
    let left = room;
    for (const f of files.toSorted((a, b) => value(b) - value(a) || (a.path < b.path ? -1 : 1))) {
      if (f.tokens! <= left) (left -= f.tokens!, kept.add(f.path));
    }
    const rest = task.files.filter((f) => f.tokens !== undefined && !kept.has(f.path));
    const changes = new Map(rest.filter((f) => f.co > 0).map((f) => [f.path, f.co]));
    const more = keptFiles(
      rest.map((f) => ({ path: f.path, tokens: f.tokens!, code: f.code })),
      changes,
      left,
    );
    for (const p of more) kept.add(p);
    return kept;
  };
}

/** The ranking with the needed files among its first `k` moved to its head (a perfect order of them). */
function perfectFirst(k: number): Variant {
  return {
    rerank: (task, ranked) => {
      const head = ranked.slice(0, k);
      const needed = head.filter((f) => task.needed.includes(f.path));
      return [...needed, ...head.filter((f) => !task.needed.includes(f.path)), ...ranked.slice(k)];
    },
  };
}

/**
 * What bounds Recall at each budget with the map's share as it is: the build; the needed files
 * that fit at all (in the map, or alone in the section's room); perfect orders of the ranking's
 * first 10 and 20; the oracle (the needed files smallest first in the section's room); the same
 * with a map chosen in hindsight (leave one out, then with the task itself); and with no map.
 */
function bounds(tasks: SimTask[]): string[] {
  const rows: [string, (b: number) => number][] = [];
  const sum = (f: (t: SimTask, b: number) => number) => (b: number) =>
    tasks.reduce((n, t) => n + f(t, b), 0);
  rows.push(["the build as it is", sum((t, b) => simulate(t, b).found)]);
  rows.push([
    "fit at all (in the map, or alone in the section's room)",
    sum((t, b) => {
      const h = simulate(t, b);
      return t.needed.filter((p) => {
        if (h.map.kept.has(p)) return true;
        const f = t.files.find((x) => x.path === p);
        return f?.tokens !== undefined && f.tokens <= h.room.tokens && f.bytes <= h.room.bytes;
      }).length;
    }),
  ]);
  rows.push([
    "the ranking's first 10 in a perfect order",
    sum((t, b) => simulate(t, b, perfectFirst(10)).found),
  ]);
  rows.push([
    "the ranking's first 20 in a perfect order",
    sum((t, b) => simulate(t, b, perfectFirst(20)).found),
  ]);
  rows.push([
    "the ranking's first 50 in a perfect order",
    sum((t, b) => simulate(t, b, perfectFirst(50)).found),
  ]);
  rows.push([
    "oracle: the needed files smallest first in the room",
    sum((t, b) => simulate(t, b).oracle),
  ]);
  const loo = { map: hindsightMap(false) };
  const all = { map: hindsightMap(true) };
  rows.push([
    "hindsight map (leave one out), the build's section",
    sum((t, b) => simulate(t, b, loo).found),
  ]);
  rows.push([
    "hindsight map (leave one out), oracle section",
    sum((t, b) => simulate(t, b, loo).oracle),
  ]);
  rows.push([
    "hindsight map (the task's own needs too), oracle section",
    sum((t, b) => simulate(t, b, all).oracle),
  ]);
  const none = { mapShare: 0.5001, mapTokens: 0 };
  rows.push([
    "(no map, no shared prefix) the build's section",
    sum((t, b) => simulate(t, b, none).found),
  ]);
  rows.push(["(no map, no shared prefix) oracle", sum((t, b) => simulate(t, b, none).oracle)]);
  const n = tasks.reduce((k, t) => k + t.needed.length, 0);
  return rows.map(([name, f]) =>
    `| ${name} | ${
      BUDGETS.map((b) => {
        const x = f(b);
        return `${x} (${(x / n).toFixed(3)})`;
      }).join(" | ")
    } |`
  );
}

/** Needed files held at each budget (`all`: every file the commits edited, code or not). */
function held(
  tasks: SimTask[],
  variant: Variant | ((budget: number) => Variant),
  all = false,
): number[] {
  const found = [0, 0, 0];
  for (const t of tasks) {
    BUDGETS.forEach((b, i) => {
      const h = simulate(t, b, typeof variant === "function" ? variant(b) : variant);
      if (!all) return (found[i] += h.found);
      found[i] += edited.get(t)!.filter((p) => h.map.kept.has(p) || h.taken.includes(p)).length;
    });
  }
  return found;
}

async function main() {
  const sets = await loadSets();
  const want = (argValue("--sets") ?? "tuned,a,b").split(",");
  const only = argValue("--only")?.split(";");
  if (Deno.args.includes("--bound")) {
    for (const s of want) {
      for (const t of sets[s]) siblings.set(t, sets[s].filter((x) => x.repo === t.repo));
      console.log(`\n${s} (${sets[s].length} tasks, ${neededFiles(sets[s])} needed files)\n`);
      console.log("| needed files held | 8k | 32k | 128k |\n|---|---:|---:|---:|");
      for (const line of bounds(sets[s])) console.log(line);
    }
    return;
  }
  if (!only) {
    for (const s of want) {
      for (const b of BUDGETS) {
        console.log(
          `\n${s} (${sets[s].length} tasks, ${neededFiles(sets[s])} needed files), ${b / 1000}k:`,
        );
        for (const line of split(sets[s], b)) console.log(`  ${line}`);
        const lines: string[] = [];
        const counts = misses(sets[s], b, lines);
        for (const [c, n] of [...counts].sort((x, y) => y[1] - x[1])) {
          console.log(`  ${String(n).padStart(4)}  ${c}`);
        }
        if (Deno.args.includes("--misses")) { for (const l of lines) console.log(l); }
      }
    }
  }
  const all = Deno.args.includes("--all");
  const count = (s: string) =>
    all ? sets[s].reduce((n, t) => n + edited.get(t)!.length, 0) : neededFiles(sets[s]);
  console.log("");
  printVariants(want, {
    label: (s) => `${s} (${sets[s].length} tasks, ${count(s)} files)`,
    held: (s, variant) => held(sets[s], variant, all),
    variants: VARIANTS,
    base: {},
    only,
  });
}

if (import.meta.main) await main();
