/**
 * Where 128k is lost on moshi (twenty-second session): task builds simulated
 * (`relevance_sim.ts`) with changes aimed at the files a 128k build misses
 * because the ranking's tail decides them: the task's words have run out, and
 * the section fills with the files ranked 30th to 200th. Each family is a
 * class of fix, not one repository's: the folder of the best-ranked files,
 * the map's size at 128k, the fit's chance from the score rather than the
 * place, the messages of commits of more than 10 files in the history text,
 * and co-change in the fit's chance. It prints, per repository, the needed
 * files the build as it is holds at 8k / 32k / 128k and each variant's
 * difference, and the totals.
 *
 * ```sh
 * deno run -A bench/relevance_sim_tail.ts --commits 40 \
 *   --names go-chi+chi,sharkdp+fd,square+moshi,sinatra+sinatra
 * deno run -A bench/relevance_sim_tail.ts --names pallets+flask,sindresorhus+got --only history
 * ```
 *
 * The first run makes the tasks' data (as `relevance_sim.ts`). See bench/README.md, "Moshi at
 * 128k: what fills the section, and five fixes that are not".
 *
 * @module
 */

import type { SimFile, SimTask } from "./_relevance_sim_data.ts";
import { compareVariants, type Cost, greedy, rankScores, type Variant } from "./relevance_sim.ts";
import { historyScores } from "./_relevance_sim_history.ts";
import { DEFAULT_WEIGHTS, OTHER_FILES } from "../pipeline/rank.ts";

const byPath = (a: SimFile, b: SimFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const folder = (p: string) => p.slice(0, p.lastIndexOf("/") + 1);

/** The files in the folder of one of the first `k` code files gain `w` times that file's score. */
function folderLend(k: number, w: number) {
  return (_task: SimTask, ranked: SimFile[]) => {
    const lent = new Map<string, number>();
    for (const top of ranked.filter((f) => f.code).slice(0, k)) {
      for (const f of ranked) {
        if (f === top || folder(f.path) !== folder(top.path)) continue;
        lent.set(f.path, (lent.get(f.path) ?? 0) + w * top.score);
      }
    }
    const score = (f: SimFile) => f.score + (lent.get(f.path) ?? 0) * (f.code ? 1 : OTHER_FILES);
    return ranked.toSorted((a, b) => score(b) - score(a) || byPath(a, b));
  };
}

/** The fit's try order by a file's chance (from its place, score or co-change) over `tokens^0.5`. */
function chanceFit(chance: (place: number, f: SimFile, tried: SimFile[], task: SimTask) => number) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask) => {
    const value = (i: number) =>
      chance(i + 1, tried[i], tried, task) / Math.max(costs[i]!.tokens, 1) ** 0.5 *
      (tried[i].code ? 1 : OTHER_FILES);
    const order = costs.flatMap((c, i) => (c === undefined ? [] : [i]));
    return greedy(order.sort((x, y) => value(y) - value(x) || x - y), costs, room);
  };
}

/** `place^-a × (score / best)^q`: the score's part in the chance. */
function byScore(a: number, q: number) {
  return chanceFit((place, f, tried, task) => {
    const scores = rankScores(task);
    return place ** -a * ((scores.get(f.path) ?? 0) / (scores.get(tried[0].path) ?? 1)) ** q;
  });
}

/** `place^-1.2 × (1 + k × co / the most changed tried file's)`, from place `from` on. */
function byCoChange(k: number, from: number) {
  return chanceFit((place, f, tried) => {
    const most = Math.max(1e-9, ...tried.map((t) => t.co));
    return place ** -1.2 * (place > from ? 1 + k * f.co / most : 1);
  });
}

/**
 * The ranking with its history text read as the pipeline reads it (commits of at most 10 files,
 * each `0.99^age`), commits of more than 10 files at `share × 10 / files`, and its word pairs.
 */
function history(share: number): Variant {
  const options = { mode: "file", maxFiles: 10, decay: 0.99, largeShare: share } as const;
  return {
    noHistory: true,
    rerank: (task, ranked) => {
      const h = historyScores(task, options);
      const score = (f: SimFile) =>
        f.score +
        (DEFAULT_WEIGHTS.history * (h.get(f.path) ?? 0) + DEFAULT_WEIGHTS.pairs * (f.pairs ?? 0)) *
          (f.code ? 1 : OTHER_FILES);
      const all = task.files.filter((f) => f.tokens !== undefined && f.hasText !== undefined);
      void ranked;
      return all.filter((f) => score(f) > 0).sort((a, b) => score(b) - score(a) || byPath(a, b));
    },
  };
}

/** The variants; a variant with `at` applies at that budget only (the build as it is at others). */
const VARIANTS: [string, Variant & { at?: number }][] = [
  ["history: as the pipeline reads it (check: +0)", history(0)],
  ...[0.25, 0.5, 1].map((s): [string, Variant] => [
    `history: commits of more than 10 files at ${s} × 10/files`,
    history(s),
  ]),
  ...[3, 5, 10].flatMap((k) =>
    [0.05, 0.1, 0.2].map((w): [string, Variant] => [
      `folder of the first ${k} code files lends ${w} of their score`,
      { rerank: folderLend(k, w) },
    ])
  ),
  ...[8_000, 32_000, 48_000].map((
    m,
  ): [string, Variant] => [`map: mapTokens ${m}`, { mapTokens: m }]),
  ...[[0, 1], [0, 2], [0.6, 1], [1.2, 0.5], [1.2, 1]].map(([a, q]): [string, Variant] => [
    `fit at 128k: place^-${a} × (score/best)^${q} / tokens^0.5`,
    { select: byScore(a, q), at: 128_000 } as Variant,
  ]),
  ...[0, 10, 30].flatMap((from) =>
    [0.5, 1, 2].map((k): [string, Variant] => [
      `fit: place^-1.2 × (1 + ${k} × co / most), from place ${from + 1}`,
      { select: byCoChange(k, from) },
    ])
  ),
];

if (import.meta.main) await compareVariants(VARIANTS);
