/**
 * A test tied to the file the task is most likely about: the fit
 * (`_task_fit.ts`) values a test file among the tried ones as if it were
 * ranked next to the ranking's first code file that is not a test, when the
 * two are tied by name (`MoshiTest.java` and `Moshi.kt`, `test_app.py` and
 * `app.py`) or by history (the share of that file's commits in the recent
 * history that changed the test too), times that tie and
 * {@linkcode TIE_WEIGHT}; the larger of that and its own place's chance.
 *
 * Why: a feature's change edits its source and that source's test, and the
 * tests are large (4,000 to 13,000 tokens). Ranked 30th to 80th, a large
 * test is passed over by the fit's `tokens^SIZE_EXPONENT` for small files
 * ranked after it, and past the 30th place no signal of the ranking tells a
 * needed file from its neighbours (bench/README.md, rel28 and rel29). The
 * tie to the first file is that signal: measured on the relevance bench,
 * `bench/relevance_sim_tests.ts` and the real builds (bench/README.md,
 * "twenty-sixth session, rel30").
 *
 * @module
 */

import type { HistoryCommit } from "./co_change.ts";

/** A test file's path: in a `test(s)/`, `__tests__/` or `spec/` folder, or named `test_*`, `*_test.*`, `*.test.*`, `*.spec.*` or `*Test(s).*`. */
export const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec)\/|(^|\/)test_|_test\.\w+$|\.(test|spec)\.\w+$|Tests?\.\w+$/;

/** How many of the ranking's first code files that are not tests a test may be tied to. */
const TIED_SOURCES = 1;

/** A tied test's chance: this share of the chance at the place after its file, times the tie. */
export const TIE_WEIGHT = 0.25;

/** The fewest commits of a file the history must hold to tie a test to it by history. */
export const TIE_MIN_COMMITS = 3;

/**
 * The name a test and the file it tests share, lowercased: the file name without its extension
 * and a test's `test_` prefix or `_test`, `.test`, `.spec`, `Test` or `Tests` suffix.
 *
 * @example
 * ```ts
 * import { testStem } from "./_task_tests.ts";
 * testStem("moshi/src/test/java/MoshiTest.java"); // "moshi"
 * testStem("src/Moshi.kt"); // "moshi"
 * testStem("tests/test_app.py"); // "app"
 * ```
 */
export function testStem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return name.replace(/^test_|_test$|\.test$|\.spec$|Tests?$/, "").toLowerCase();
}

/**
 * How sure it is that a change of `source` changes `test` too, in [0, 1]: 1 when their names
 * pair ({@linkcode testStem}), else the share of `source`'s commits in `history` that changed
 * `test` (0 when `source` has fewer than {@linkcode TIE_MIN_COMMITS}).
 *
 * @example
 * ```ts
 * import { testTie } from "./_task_tests.ts";
 * testTie("tests/test_app.py", "src/app.py", []); // 1
 * const history = [{ paths: ["a.py", "t/x_test.py"] }, { paths: ["a.py"] }, { paths: ["a.py"] }];
 * testTie("t/x_test.py", "a.py", history); // 1 / 3
 * ```
 */
export function testTie(test: string, source: string, history: readonly HistoryCommit[]): number {
  if (testStem(test) === testStem(source)) return 1;
  let own = 0;
  let both = 0;
  for (const commit of history) {
    if (!commit.paths.includes(source)) continue;
    own++;
    if (commit.paths.includes(test)) both++;
  }
  return own >= TIE_MIN_COMMITS ? both / own : 0;
}

/**
 * For each of `paths` (the tried files, best first), the chance the fit gives it for its tie to
 * the ranking's first {@linkcode TIED_SOURCES} code files that are not tests (0: none; only a
 * test after such a file has one): {@linkcode TIE_WEIGHT} times the chance at the place after
 * that file (`chance`) times {@linkcode testTie}.
 *
 * @example
 * ```ts
 * import { tiedChances } from "./_task_tests.ts";
 * const chance = (i: number) => (i + 1) ** -1.2;
 * tiedChances(["src/app.py", "src/util.py", "tests/test_app.py"], { chance });
 * // [0, 0, 0.25 * 2 ** -1.2]
 * ```
 */
export function tiedChances(
  paths: readonly string[],
  options: {
    chance: (index: number) => number;
    code?: readonly boolean[];
    history?: readonly HistoryCommit[];
  },
): number[] {
  const { chance, code, history = [] } = options;
  const sources = paths.flatMap((p, i) => ((code?.[i] ?? true) && !TEST_PATH.test(p) ? [i] : []))
    .slice(0, TIED_SOURCES);
  return paths.map((p, j) => {
    if (!TEST_PATH.test(p)) return 0;
    let best = 0;
    for (const i of sources) {
      if (i >= j) continue;
      best = Math.max(best, TIE_WEIGHT * chance(i + 1) * testTie(p, paths[i], history));
    }
    return best;
  });
}
