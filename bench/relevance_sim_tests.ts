/**
 * A feature's tests at 128k, simulated (`relevance_sim.ts`; twenty-sixth session, rel30): over the
 * build's ranking (past commits like the task included, `relevance_sim_room.ts`), the fit values
 * a test file tied to one of the ranking's first code files as if it stood next to that file,
 * by its chance there times how sure the tie is: a test paired by name (`MoshiTest.java` with
 * `Moshi.kt`), or a test that the history changed with that file (the share of the file's commits
 * that changed the test too). It prints, per repository, the needed files each variant holds at
 * 8k / 32k / 128k against the simulated build without past commits.
 *
 * ```sh
 * deno run -A bench/relevance_sim_tests.ts --commits 40 \
 *   --names go-chi+chi,sharkdp+fd,square+moshi,sinatra+sinatra
 * ```
 *
 * @module
 */

import { type SimFile, type SimTask, TEST_PATH } from "./_relevance_sim_data.ts";
import { compareVariants, type Cost, greedy, type Variant } from "./relevance_sim.ts";
import { pastCommits } from "./relevance_sim_room.ts";
import { OTHER_FILES } from "../pipeline/rank.ts";
import { testStem as stem } from "../pipeline/_task_tests.ts";

/** How a test is tied to a code file: a number in [0, 1] (0: not tied). */
type Tie = (task: SimTask, test: SimFile, source: SimFile) => number;

export const byName: Tie = (_t, test, source) => (stem(test.path) === stem(source.path) ? 1 : 0);

/** The share of the source's commits (at least `min`) that changed the test too. */
export function byHistory(min: number): Tie {
  return (task, test, source) => {
    let both = 0;
    let own = 0;
    for (const paths of task.log) {
      if (!paths.includes(source.path)) continue;
      own++;
      if (paths.includes(test.path)) both++;
    }
    return own >= min ? both / own : 0;
  };
}

/** Name or history, the larger. */
export function either(min: number): Tie {
  const h = byHistory(min);
  return (task, test, source) => Math.max(byName(task, test, source), h(task, test, source));
}

/**
 * The fit with each test among the tried files valued, when larger, as at the place after the
 * first `k` code files that are not tests it is tied to, times the tie and `w`.
 */
export function tiedTests(k: number, w: number, tie: Tie, size = 0.5) {
  return (tried: SimFile[], costs: (Cost | undefined)[], room: Cost, task: SimTask): number[] => {
    const sources = tried.map((f, i) => ({ f, i }))
      .filter(({ f }) => f.code && !TEST_PATH.test(f.path)).slice(0, k);
    const chance = (i: number) => (i + 1) ** -1.2;
    const lifted = (j: number) => {
      const f = tried[j];
      let best = chance(j);
      if (!TEST_PATH.test(f.path)) return best;
      for (const s of sources) {
        if (s.i >= j) continue;
        best = Math.max(best, w * chance(s.i + 1) * tie(task, f, s.f));
      }
      return best;
    };
    const value = (i: number) =>
      lifted(i) / Math.max(costs[i]!.tokens, 1) ** size * (tried[i].code ? 1 : OTHER_FILES);
    const order = costs.flatMap((c, i) => (c === undefined ? [] : [i]));
    order.sort((a, b) => value(b) - value(a) || a - b);
    return greedy(order, costs, room);
  };
}

type Named = [string, Variant & { at?: number }];

const VARIANTS: Named[] = [
  ["the build (past commits)", { rerank: pastCommits }],
  ...[1, 3, 5].flatMap((k) =>
    [1, 0.5, 0.25].flatMap((w): Named[] => [
      [`tests by name, first ${k}, w ${w}`, {
        rerank: pastCommits,
        select: tiedTests(k, w, byName),
      }],
      [`tests by history (>= 3), first ${k}, w ${w}`, {
        rerank: pastCommits,
        select: tiedTests(k, w, byHistory(3)),
      }],
      [`tests by name or history, first ${k}, w ${w}`, {
        rerank: pastCommits,
        select: tiedTests(k, w, either(3)),
      }],
    ])
  ),
  ...[1, 3, 5].flatMap((k) =>
    [1, 0.5].map((w): Named => [
      `at 128k only: tests by name or history, first ${k}, w ${w}`,
      { rerank: pastCommits, select: tiedTests(k, w, either(3)), at: 128_000 },
    ])
  ),
];

if (import.meta.main) await compareVariants(VARIANTS);
