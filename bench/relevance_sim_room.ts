/**
 * How the 128k task section spends its room, simulated (`relevance_sim.ts`; twenty-fourth
 * session, rel28), each variant over the ranking as the build has it (past commits like the task
 * included, as `relevance_sim_fill.ts`'s kept row): the fit's exponents at 128k only; the files
 * of the newest commits lent a share in the ranking's tail (follow-ups); tests paired by name
 * with the ranking's first files; the map's size exponent and room at 128k only. It prints, per
 * repository, the needed files the simulated build without past commits holds at 8k / 32k / 128k
 * and each variant's difference (a variant with `at` is that build at the other budgets).
 *
 * ```sh
 * deno run -A bench/relevance_sim_room.ts --commits 40 \
 *   --names go-chi+chi,sharkdp+fd,square+moshi,sinatra+sinatra
 * ```
 *
 * @module
 */

import { type SimFile, type SimTask, TEST_PATH } from "./_relevance_sim_data.ts";
import { compareVariants, type Cost, greedy, rankScores, type Variant } from "./relevance_sim.ts";
import { OTHER_FILES } from "../pipeline/rank.ts";
import { keptFiles } from "../pipeline/_task_map.ts";
import { taskProse, taskTerms } from "../pipeline/_rank_terms.ts";
import { messageScores } from "../pipeline/_rank_commits.ts";

const byPath = (a: SimFile, b: SimFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** What past commits like the task lend each file (`_rank_commits.ts`: 0.8 of the best, half of the task's own). */
function commitLoans(task: SimTask): Map<string, number> {
  const scores = messageScores(taskTerms(taskProse(task.message)), [
    ...task.messages,
    task.message,
  ]);
  const self = scores.pop()!;
  const best = Math.max(0, ...scores);
  const lent = new Map<string, number>();
  if (best <= 0) return lent;
  scores.forEach((s, age) => {
    if (s <= 0 || s < 0.8 * best || s < 0.5 * self) return;
    const paths = [...new Set(task.log[age])];
    const share = (s / best) * Math.min(1, 10 / paths.length);
    for (const p of paths) lent.set(p, Math.max(lent.get(p) ?? 0, share));
  });
  return lent;
}

/**
 * The ranking with `extra(f)` added to each file's score past place `from` (20: the past commits'
 * loans), never above the score at the last place before it, ties by the score before the cap.
 */
function tailLoans(
  task: SimTask,
  ranked: SimFile[],
  extra: (f: SimFile) => number,
  from = 20,
): SimFile[] {
  const base = rankScores(task);
  const head = ranked.slice(0, from);
  const cap = base.get(head[head.length - 1]?.path) ?? 0;
  const raw = (f: SimFile) => (base.get(f.path) ?? 0) + extra(f) * (f.code ? 1 : OTHER_FILES);
  const score = (f: SimFile) => Math.min(raw(f), Math.max(cap, base.get(f.path) ?? 0));
  const inHead = new Set(head.map((f) => f.path));
  const all = task.files.filter((f) => f.tokens !== undefined && !inHead.has(f.path));
  const tail = all.filter((f) => raw(f) > 0).sort((a, b) =>
    score(b) - score(a) || raw(b) - raw(a) || byPath(a, b)
  );
  return [...head, ...tail];
}

/**
 * The build's ranking: past commits like the task lend 0.05 past place 20.
 *
 * @example
 * ```ts
 * import { pastCommits } from "./relevance_sim_room.ts";
 * import { simulate } from "./relevance_sim.ts";
 * // simulate(task, 128_000, { rerank: pastCommits }).found;
 * ```
 */
export function pastCommits(task: SimTask, ranked: SimFile[]): SimFile[] {
  const lent = commitLoans(task);
  return tailLoans(task, ranked, (f) => 0.05 * (lent.get(f.path) ?? 0));
}

/** The fit's order `place^-decay / tokens^size` (a file not code at `OTHER_FILES`). */
function fitSelect(decay: number, size: number) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost): number[] => {
    const value = (i: number) =>
      (i + 1) ** -decay / Math.max(costs[i]!.tokens, 1) ** size *
      (tried[i].code ? 1 : OTHER_FILES);
    const order = costs.flatMap((c, i) => (c === undefined ? [] : [i]));
    order.sort((a, b) => value(b) - value(a) || a - b);
    return greedy(order, costs, room);
  };
}

/**
 * Over the build's ranking, the files the newest `n` commits (of at most `maxFiles` files) changed
 * lend `w` past place `from` (with the past commits' loans; never above the score at that place):
 * a follow-up or a feature's next commit edits what the last ones did.
 */
function recentLoans(n: number, w: number, from = 20, maxFiles = 30) {
  return (task: SimTask, ranked: SimFile[]): SimFile[] => {
    const past = commitLoans(task);
    const recent = new Set(task.log.slice(0, n).filter((p) => p.length <= maxFiles).flat());
    if (from >= 20) {
      return tailLoans(
        task,
        ranked,
        (f) => 0.05 * (past.get(f.path) ?? 0) + (recent.has(f.path) ? w : 0),
        from,
      );
    }
    const first = tailLoans(task, ranked, (f) => (recent.has(f.path) ? w : 0), from);
    return tailLoans(
      task,
      first,
      (f) => 0.05 * (past.get(f.path) ?? 0) + (recent.has(f.path) ? w : 0),
    );
  };
}

/** The name a test and its source share (`test_x.py`, `XTest.java`, `x.test.ts`: `x`). */
function stem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return name.replace(/^test_|_test$|\.test$|\.spec$|Tests?$/, "").toLowerCase();
}

/**
 * Over the build's ranking, the tests paired by name with one of its first `k` code files that
 * are not tests (`MoshiTest.java` with `Moshi.kt`) lend `w` past place 20, with the past commits'.
 */
function pairedTests(k: number, w: number) {
  return (task: SimTask, ranked: SimFile[]): SimFile[] => {
    const past = commitLoans(task);
    const stems = new Set(
      ranked.filter((f) => f.code && !TEST_PATH.test(f.path)).slice(0, k).map((f) => stem(f.path)),
    );
    const paired = (f: SimFile) => TEST_PATH.test(f.path) && stems.has(stem(f.path));
    return tailLoans(task, ranked, (f) => 0.05 * (past.get(f.path) ?? 0) + (paired(f) ? w : 0));
  };
}

/** The map's files by change over `tokens^size` (the build: 0.5), as `keptFiles` takes them. */
function mapBySize(size: number) {
  return (task: SimTask, room: number): Set<string> => {
    const files = task.files.filter((f) => f.tokens !== undefined);
    // keptFiles divides by tokens^0.5: the change score times tokens^(0.5 - size) gives `size`.
    const changes = new Map(
      files.filter((f) => f.co > 0).map((f) => [f.path, f.co * f.tokens! ** (0.5 - size)]),
    );
    const candidates = files.map((f) => ({ path: f.path, tokens: f.tokens!, code: f.code }));
    return new Set(keptFiles(candidates, changes, room));
  };
}

const VARIANTS: [string, Variant & { at?: number }][] = [
  ["the build (past commits)", { rerank: pastCommits }],
  ...[0.2, 0.3, 0.4, 0.6].map((s): [string, Variant & { at?: number }] => [
    `past commits; at 128k the fit place^-1.2 / tokens^${s}`,
    { rerank: pastCommits, select: fitSelect(1.2, s), at: 128_000 },
  ]),
  ...[1.0, 1.5, 2].map((a): [string, Variant & { at?: number }] => [
    `past commits; at 128k the fit place^-${a} / tokens^0.5`,
    { rerank: pastCommits, select: fitSelect(a, 0.5), at: 128_000 },
  ]),
  ...[0, 0.25, 0.35, 0.75].map((size): [string, Variant & { at?: number }] => [
    `past commits; at 128k the map by change over tokens^${size}`,
    { rerank: pastCommits, map: mapBySize(size), at: 128_000 },
  ]),
  ...[24_000, 32_000].flatMap((tokens) =>
    [0, 0.25, 0.5].map((size): [string, Variant & { at?: number }] => [
      `past commits; at 128k the map ${tokens} tokens by change over tokens^${size}`,
      { rerank: pastCommits, map: mapBySize(size), mapTokens: tokens, at: 128_000 },
    ])
  ),
  ...[3, 10].flatMap((k) =>
    [0.02, 0.05, 0.2].map((w): [string, Variant & { at?: number }] => [
      `past commits; tests paired by name with the first ${k} code files lend ${w} past place 20`,
      { rerank: pairedTests(k, w) },
    ])
  ),
  ...[1, 3, 5, 10].flatMap((n) =>
    [0.01, 0.02, 0.05].flatMap((w) =>
      [20, 10].map((from): [string, Variant & { at?: number }] => [
        `past commits; the newest ${n} commits' files lend ${w} past place ${from}`,
        { rerank: recentLoans(n, w, from) },
      ])
    )
  ),
];

if (import.meta.main) await compareVariants(VARIANTS);
