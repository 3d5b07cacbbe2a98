/**
 * Co-change scores from git history, for ranking files for a task (the
 * `coChange` option of `rankFiles`): how much each file changed in the recent
 * first-parent history, newer commits weighing more, or, given seed files,
 * how much it changed together with them.
 *
 * @module
 */

import { firstParentLog, warnRefusedOnce } from "./_git_history.ts";
import { DECAY } from "./order_state.ts";

/** Options of {@linkcode coChangeScores}. */
export interface CoChangeOptions {
  /** Commits looked at, newest first. @default {300} */
  commits?: number;
  /**
   * Count only the commits that changed one of these paths (relative to the root): a file's
   * score then says how much it changed together with them. None: every commit counts.
   */
  seeds?: string[];
  /**
   * Commits changing more files than this say little about what goes together: they count at
   * {@linkcode LARGE_COMMIT_WEIGHT} of a commit's weight. @default {30}
   */
  maxFiles?: number;
  /** What a commit of more than `maxFiles` files counts for. @default {LARGE_COMMIT_WEIGHT} */
  largeWeight?: number;
  /** Where the history starts. @default {"HEAD"} */
  rev?: string;
}

/** Default number of commits {@linkcode coChangeScores} looks at. */
export const CO_CHANGE_COMMITS = 300;

/**
 * What a commit of more than `maxFiles` files counts for, as a share of a commit's weight of its
 * age. A sweep (a formatter's run, a release, a merge) says little about what goes together, but
 * a file it changed did change: left out entirely, such a file scores 0 when the sweep was its
 * last change. A tenth held one more file of the held-out real builds at 128k and lost none at 8k
 * or 32k; a share of 30/files or the full weight lost in the simulation (bench/README.md, "The
 * 128k misses one by one", and "Commits of more than 30 files at a tenth, again", twenty-first
 * session). The map's choice leaves such commits out (`mapKept` in `task.ts`), as measured.
 */
export const LARGE_COMMIT_WEIGHT = 0.1;

/**
 * A score in [0, 1] for each of `paths` (relative to `root`) that changed in
 * the newest commits of the first-parent history of `root`'s repository: each
 * commit adds `DECAY^age` (the newest 1) to the files it changed, a commit
 * of more than `maxFiles` files {@linkcode LARGE_COMMIT_WEIGHT} of that, and
 * the scores are divided by the largest. Paths that never changed, and every path
 * outside git, are absent (score 0). With `seeds`, only the commits that
 * changed a seed count, and the seeds themselves are left out.
 *
 * @example
 * ```ts
 * import { coChangeScores } from "./co_change.ts";
 * const scores = await coChangeScores(Deno.cwd(), ["pipeline/rank.ts"]);
 * scores.get("pipeline/rank.ts"); // a number in [0, 1], or undefined
 * ```
 */
export async function coChangeScores(
  root: string,
  paths: string[],
  options: CoChangeOptions = {},
): Promise<Map<string, number>> {
  const commits = await firstParentLog(
    root,
    options.commits ?? CO_CHANGE_COMMITS,
    options.rev ?? "HEAD",
  );
  return coChangeFromLog(commits ?? [], paths, options);
}

/** One commit of the recent history a ranking reads, newest first. */
export interface HistoryCommit {
  /** The paths it changed, relative to the root. */
  paths: string[];
  /** Its message (subject and body). */
  message?: string;
}

/**
 * The newest `commits` commits of the first-parent history of `root`'s repository, newest
 * first, each with the paths it changed and its message, in one `git log`: what the ranking's
 * co-change ({@linkcode coChangeFromLog}) and history (`RankOptions.history`) signals read.
 * Empty outside git or with no commits.
 *
 * @example
 * ```ts
 * import { coChangeFromLog, recentHistory } from "./co_change.ts";
 * const history = await recentHistory(Deno.cwd());
 * const scores = coChangeFromLog(history, ["pipeline/rank.ts"]);
 * ```
 */
export async function recentHistory(
  root: string,
  commits: number = CO_CHANGE_COMMITS,
  options: { warn?: (message: string) => void } = {},
): Promise<HistoryCommit[]> {
  const onRefused = (line: string) => warnRefusedOnce(options.warn, line);
  const log = await firstParentLog(root, commits, "HEAD", { messages: true, onRefused });
  return log?.map(({ paths, message }) => ({ paths, message })) ?? [];
}

/**
 * {@linkcode coChangeScores} over a log already read (newest commit first).
 *
 * @example
 * ```ts
 * import { coChangeFromLog } from "./co_change.ts";
 * const scores = coChangeFromLog([{ paths: ["a.ts"] }, { paths: ["a.ts", "b.ts"] }], ["a.ts", "b.ts"]);
 * scores.get("a.ts"); // 1
 * ```
 */
export function coChangeFromLog(
  commits: { paths: string[] }[],
  paths: string[],
  options: Pick<CoChangeOptions, "seeds" | "maxFiles" | "largeWeight"> = {},
): Map<string, number> {
  const wanted = new Set(paths);
  const seeds = options.seeds && new Set(options.seeds);
  const maxFiles = options.maxFiles ?? 30;
  const large = options.largeWeight ?? LARGE_COMMIT_WEIGHT;
  const sums = new Map<string, number>();
  let weight = 1;
  for (const commit of commits) {
    // A left-out commit still ages the ones before it: age counts commits, not kept commits.
    const w = commit.paths.length > maxFiles ? weight * large : weight;
    weight *= DECAY;
    if (w === 0) continue;
    if (seeds && !commit.paths.some((p) => seeds.has(p))) continue;
    for (const path of commit.paths) {
      if (!wanted.has(path) || seeds?.has(path)) continue;
      sums.set(path, (sums.get(path) ?? 0) + w);
    }
  }
  let max = 0;
  for (const value of sums.values()) max = Math.max(max, value);
  const scores = new Map<string, number>();
  for (const path of [...sums.keys()].sort()) scores.set(path, sums.get(path)! / max);
  return scores;
}
