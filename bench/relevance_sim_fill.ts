/**
 * Three ideas for the files a task build misses, simulated (`relevance_sim.ts`) on
 * the held-out repositories (twenty-third session, rel27). Each is a class of
 * change, none fitted to one repository:
 *
 * - **a low-confidence fill**: when the ranking is unsure (its scores flat: the
 *   file at place `k` scores at least `flat` of the best file's), the section
 *   fills its room by value per token after a confident head rather than by
 *   the fit's chance from the place;
 * - **past commits' messages**: BM25 of the task over each past commit's
 *   message (a commit a document), each commit lending the files it touched
 *   its score over the best message's, times `weight` (commits of more than
 *   `maxFiles` files at `maxFiles / files`), only from commits that score at
 *   least `gate` of the best one (near duplicates of the task: the same
 *   tool's earlier bump);
 * - **co-change neighbours** of the ranking's first code files: the files
 *   changed with them in the history lend a share of their score.
 *
 * It prints, per repository, the needed files the build as it is holds at 8k
 * / 32k / 128k and each variant's difference, and the totals.
 *
 * ```sh
 * deno run -A bench/relevance_sim_fill.ts --commits 40 \
 *   --names go-chi+chi,sharkdp+fd,square+moshi,sinatra+sinatra
 * deno run -A bench/relevance_sim_fill.ts --commits 10 --names pallets+flask,psf+requests --only fill
 * ```
 *
 * The first run makes the tasks' data (as `relevance_sim.ts`). See bench/README.md, "A
 * low-confidence fill, past commits and co-change neighbours".
 *
 * @module
 */

import type { SimFile, SimTask } from "./_relevance_sim_data.ts";
import { compareVariants, type Cost, greedy, rankScores, type Variant } from "./relevance_sim.ts";
import { fitOrder } from "../pipeline/_task_fit.ts";
import { OTHER_FILES } from "../pipeline/rank.ts";
import { taskProse, taskTerms } from "../pipeline/_rank_terms.ts";
import { messageScores } from "../pipeline/_rank_commits.ts";

const byPath = (a: SimFile, b: SimFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Whether the ranking of `task` is unsure: the file at place `k` (1-based) scores `flat` of the best's. */
function unsure(task: SimTask, tried: SimFile[], k: number, flat: number): boolean {
  const scores = rankScores(task);
  const best = scores.get(tried[0]?.path) ?? 0;
  const at = scores.get(tried[k - 1]?.path) ?? 0;
  return best > 0 && at >= flat * best;
}

/**
 * The fit as it is for the first `head` places; past them, when the ranking is unsure, the rest
 * of the room by `chance / tokens^size` with the chance flat (`size` 1: value per token).
 */
function lowConfidenceFill(k: number, flat: number, head: number, size: number) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask) => {
    const code = tried.map((f) => f.code);
    const order = fitOrder(costs.map((c) => c?.tokens), { code });
    if (!unsure(task, tried, k, flat)) return greedy(order, costs, room);
    const first = order.filter((i) => i < head);
    const taken = greedy(first, costs, room);
    const left = { ...room };
    for (const i of taken) (left.tokens -= costs[i]!.tokens, left.bytes -= costs[i]!.bytes);
    const value = (i: number) =>
      (tried[i].code ? 1 : OTHER_FILES) / Math.max(costs[i]!.tokens, 1) ** size;
    const rest = order.filter((i) => i >= head).sort((a, b) => value(b) - value(a) || a - b);
    return [...taken, ...greedy(rest, costs, left)];
  };
}

/**
 * Each past commit's message scored by BM25 against the task (a message a document); the last
 * score is the task's own text scored as one more document would be (its best possible match).
 */
function taskMessageScores(task: SimTask): number[] {
  return messageScores(taskTerms(taskProse(task.message)), [...task.messages, task.message]);
}

/** Files lent the score of the past messages that match the task (see the module's doc). */
function pastCommits(
  weight: number,
  gate: number,
  maxFiles: number,
  from = 0,
  selfGate = 0,
): Variant {
  const lent = new WeakMap<SimTask, Map<string, number>>();
  const lend = (task: SimTask) => {
    const scores = taskMessageScores(task);
    const self = scores.pop()!;
    const best = Math.max(0, ...scores);
    const out = new Map<string, number>();
    if (best <= 0) return out;
    scores.forEach((s, age) => {
      if (s < gate * best || s <= 0 || s < selfGate * self) return;
      const paths = task.log[age];
      const share = (s / best) * Math.min(1, maxFiles / paths.length);
      for (const p of paths) out.set(p, Math.max(out.get(p) ?? 0, share));
    });
    return out;
  };
  return {
    rerank: (task, ranked) => {
      if (!lent.has(task)) lent.set(task, lend(task));
      const l = lent.get(task)!;
      const scores = rankScores(task);
      const score = (f: SimFile) =>
        (scores.get(f.path) ?? 0) + weight * (l.get(f.path) ?? 0) * (f.code ? 1 : OTHER_FILES);
      // From place `from` on: the head as the ranking has it, the rest re-sorted with the lending.
      const head = ranked.slice(0, from);
      const inHead = new Set(head.map((f) => f.path));
      const all = task.files.filter((f) => f.tokens !== undefined && !inHead.has(f.path));
      const rest = all.filter((f) => score(f) > 0).sort((a, b) =>
        score(b) - score(a) || byPath(a, b)
      );
      return [...head, ...rest];
    },
  };
}

/** The files changed with one of the first `k` code files lend `share` of its score (by how often). */
function neighbours(k: number, share: number): Variant {
  return {
    rerank: (task, ranked) => {
      const scores = rankScores(task);
      const lent = new Map<string, number>();
      for (const top of ranked.filter((f) => f.code).slice(0, k)) {
        const with_ = task.log.filter((paths) => paths.length <= 30 && paths.includes(top.path));
        if (!with_.length) continue;
        const counts = new Map<string, number>();
        for (const paths of with_) for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
        for (const [p, c] of counts) {
          if (p === top.path) continue;
          const part = share * (scores.get(top.path) ?? 0) * c / with_.length;
          lent.set(p, Math.max(lent.get(p) ?? 0, part));
        }
      }
      const byPathFile = new Map(task.files.map((f) => [f.path, f]));
      const score = (f: SimFile) =>
        (scores.get(f.path) ?? 0) + (lent.get(f.path) ?? 0) * (f.code ? 1 : OTHER_FILES);
      const all = [...new Set([...ranked.map((f) => f.path), ...lent.keys()])]
        .flatMap((p) => byPathFile.get(p) ?? [])
        .filter((f) => f.tokens !== undefined);
      return all.filter((f) => score(f) > 0).sort((a, b) => score(b) - score(a) || byPath(a, b));
    },
  };
}

/** The files of the newest `n` commits (of at most 30 files) lend `w` of the best file's score. */
function lastCommits(n: number, w: number): Variant {
  return {
    rerank: (task, ranked) => {
      const scores = rankScores(task);
      const best = scores.get(ranked[0]?.path) ?? 0;
      const lent = new Set(task.log.slice(0, n).filter((p) => p.length <= 30).flat());
      const score = (f: SimFile) =>
        (scores.get(f.path) ?? 0) + (lent.has(f.path) ? w * best : 0) * (f.code ? 1 : OTHER_FILES);
      const all = task.files.filter((f) => f.tokens !== undefined);
      return all.filter((f) => score(f) > 0).sort((a, b) => score(b) - score(a) || byPath(a, b));
    },
  };
}

/** The variants; a variant with `at` applies at that budget only (the build as it is at others). */
const VARIANTS: [string, Variant & { at?: number }][] = [
  ...[[10, 0.5], [10, 0.7], [20, 0.5], [30, 0.3]].flatMap(([k, flat]) =>
    [[10, 1], [20, 1], [30, 1], [10, 0.75]].map(([head, size]): [string, Variant] => [
      `fill: unsure when place ${k} scores >= ${flat} of the best; past place ${head}, by 1/tokens^${size}`,
      { select: lowConfidenceFill(k, flat, head, size) },
    ])
  ),
  ...[[1, 0], [1, 0]].slice(0, 1).flatMap(() =>
    [[0, 1], [0, 0.75]].map(([head, size]): [string, Variant] => [
      `fill: always, from place ${head + 1}, by 1/tokens^${size}`,
      { select: lowConfidenceFill(1, 0, head, size) },
    ])
  ),
  ...[0.05, 0.1, 0.2].flatMap((w) =>
    [[0, 10], [0.5, 10], [0.5, 30], [0.8, 30], [0.8, 10]].map(([gate, max]): [string, Variant] => [
      `past commits: messages scoring >= ${gate} of the best lend ${w}, ${max}/files past ${max}`,
      pastCommits(w, gate, max),
    ])
  ),
  ...[20, 30, 50].flatMap((from) =>
    [[0.05, 0.8, 10], [0.1, 0.8, 10], [0.2, 0.5, 30], [0.1, 0, 10]].map(
      ([w, gate, max]): [string, Variant] => [
        `past commits, from place ${from + 1}: >= ${gate} of the best lend ${w}, ${max}/files`,
        pastCommits(w, gate, max, from),
      ],
    )
  ),
  ...[0.3, 0.5, 0.7].flatMap((g) =>
    [[0.05, 0.8, 10, 20], [0.1, 0.8, 10, 20], [0.05, 0.8, 10, 0], [0.1, 0.5, 10, 20]].map(
      ([w, gate, max, from]): [string, Variant] => [
        `past commits, self ${g}, from place ${from + 1}: >= ${gate} of the best lend ${w}`,
        pastCommits(w, gate, max, from, g),
      ],
    )
  ),
  ...[1, 3, 5].flatMap((k) =>
    [0.1, 0.2, 0.4].map((s): [string, Variant] => [
      `neighbours: files changed with the first ${k} code files lend ${s} of their score`,
      neighbours(k, s),
    ])
  ),
  ...[1, 3].flatMap((n) =>
    [0.05, 0.1, 0.2].map((w): [string, Variant] => [
      `last commits: the files of the newest ${n} lend ${w} of the best score`,
      lastCommits(n, w),
    ])
  ),
];

if (import.meta.main) await compareVariants(VARIANTS);
