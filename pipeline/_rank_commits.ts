/**
 * Past commits like the task, for ranking files for a task: each past
 * commit's message is a document, scored against the task's terms by BM25,
 * and the commits whose message scores near the best one's (a task worded as
 * an earlier one was: the same tool's earlier version bump, the same kind of
 * follow-up) lend the files they changed a share of the score. Where the
 * history signal (`_rank_history.ts`) joins the messages of a file's commits
 * into one document and leaves out commits of more than 10 files, this one
 * reads each commit apart and keeps the large ones at a share, so a
 * formatter's or a linter's earlier sweep can name the files its next bump
 * reformats, which no word of the task names.
 *
 * A message counts as worded like the task when it scores near the best
 * message's and at least half of what the task's own text would: with no
 * near duplicate among them, the best message is a weak match and lends nothing.
 *
 * The lending only reorders the ranking past its first
 * {@linkcode COMMITS_TAIL_FROM} places, and never lifts a file above the last
 * of those: the head is what the task's own words say, and a commit message
 * like the task is weak evidence beside them (it lost files at 32k when it
 * could reach the head). See bench/README.md, "A low-confidence fill, past
 * commits and co-change neighbours".
 *
 * Work: one pass over each message; memory: one share per file a lending
 * commit changed.
 *
 * @module
 */

import { taskProse } from "./_rank_terms.ts";
import { bm25 } from "./_rank_lexical.ts";
import type { HistoryEntry } from "./_rank_history.ts";

/** Only messages scoring at least this share of the best message lend their files. */
const COMMITS_GATE = 0.8;

/**
 * Nor any scoring less than this share of the task's own text scored as a message: when no past
 * message is worded like the task, the best of them is no near duplicate and lends nothing.
 */
const COMMITS_SELF_GATE = 0.5;

/** A commit of more files than this lends each `COMMITS_MAX_FILES / files` of its share. */
export const COMMITS_MAX_FILES = 10;

/** The ranking's first places, which the lending leaves as they are. */
export const COMMITS_TAIL_FROM = 20;

/** Longest subject a reason quotes. */
const SUBJECT_CHARS = 72;

/** What a past commit like the task lends one file. */
export interface CommitLoan {
  /** In (0, 1]: the commit's score over the best message's, times `10 / files` past 10 files. */
  share: number;
  /** The commit's subject line, shortened, as the reason quotes it. */
  subject: string;
  /** How many files the commit changed. */
  files: number;
}

/**
 * Each path changed by a past commit whose message scores at least `COMMITS_GATE` (0.8) of
 * the best message's BM25 for the task's `terms` (sorted, distinct: `taskTerms` of `task`) and
 * at least `COMMITS_SELF_GATE` (0.5) of the task's own text scored as a message would be,
 * with the largest share one of them lends it (the newest on a tie). `history` is newest first;
 * its messages are read as the task is (`taskProse`), a commit without one scores nothing.
 *
 * @example
 * ```ts
 * import { commitLoans } from "./_rank_commits.ts";
 * const loans = commitLoans("Update ktlint", ["ktlint", "update"], [
 *   { paths: ["a.kt"], message: "Fix the parser" },
 *   { paths: ["b.kt", "c.kt"], message: "Update ktlint to 1.2" },
 * ]);
 * loans.get("b.kt")?.share; // 1
 * loans.has("a.kt"); // false
 * ```
 */
export function commitLoans(
  task: string,
  terms: readonly string[],
  history: readonly HistoryEntry[],
): Map<string, CommitLoan> {
  const scores = messageScores(terms, [...history.map((c) => c.message), task]);
  const self = scores.pop()!;
  let best = 0;
  for (const s of scores) best = Math.max(best, s);
  const loans = new Map<string, CommitLoan>();
  if (best <= 0) return loans;
  history.forEach((commit, age) => {
    const s = scores[age];
    if (s <= 0 || s < COMMITS_GATE * best || s < COMMITS_SELF_GATE * self) return;
    const paths = [...new Set(commit.paths)];
    const share = s / best * Math.min(1, COMMITS_MAX_FILES / paths.length);
    const subject = subjectOf(commit.message ?? "");
    for (const path of paths) {
      const had = loans.get(path);
      if (!had || share > had.share) loans.set(path, { share, subject, files: paths.length });
    }
  });
  return loans;
}

/**
 * BM25 of the task's terms over each of `texts` (a message a document, read as the task is,
 * `taskProse`; the idf and the mean length count all but the last, which is the task's own text,
 * scored as one more message): the contents' `bm25` with the messages as its corpus.
 *
 * @example
 * ```ts
 * import { messageScores } from "./_rank_commits.ts";
 * const [fix, bump, task] = messageScores(["ktlint", "update"], [
 *   "Fix the parser",
 *   "Update ktlint to 1.2",
 *   "Update ktlint",
 * ]);
 * // fix === 0; bump > 0 and task > 0
 * ```
 */
export function messageScores(terms: readonly string[], texts: (string | undefined)[]): number[] {
  const prose = texts.map((text) => (text ? taskProse(text) : undefined));
  return bm25(prose, terms, { corpus: texts.length - 1 }).map((s) => s.score);
}

/** The first line of a message, at most {@linkcode SUBJECT_CHARS} characters. */
function subjectOf(message: string): string {
  const line = message.trim().split("\n", 1)[0].trim();
  return line.length > SUBJECT_CHARS ? `${line.slice(0, SUBJECT_CHARS - 3)}...` : line;
}
