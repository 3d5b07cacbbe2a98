/**
 * History text, for ranking files for a task: the task's words against the
 * messages of the past commits that touched each file (what bug-localization
 * work calls "similar bug reports"). Each file's history document is the
 * messages of the recent first-parent commits that changed it, newer ones
 * weighing more; the task's terms are scored over those documents with BM25.
 * A vague task ("Tweaks", "Fix CI") reaches the files earlier commits of the
 * same words changed, which their own text does not name.
 *
 * The history is what a task build reads once (`taskHistory`): commits before
 * the tree's HEAD only. Work: one pass over each message, and for each commit
 * of at most {@linkcode HISTORY_MAX_FILES} files one add per file and task
 * term; memory: one count per task term and file that changed.
 *
 * @module
 */

import { forEachTerm, taskProse } from "./_rank_terms.ts";

/** Commits of more files than this say little about any one of them: left out. */
const HISTORY_MAX_FILES = 10;
/** Each commit's message weighs this times the next newer one's. */
const HISTORY_DECAY = 0.99;
/** BM25 term-frequency saturation and length normalisation (as the contents' BM25). */
const K1 = 1.2;
const B = 0.75;

/** One commit of the recent history, newest first. */
export interface HistoryEntry {
  /** The paths it changed, relative to the root. */
  paths: readonly string[];
  /** Its message; absent or empty: it adds nothing. */
  message?: string;
}

/** Each file's history score (sorted input) over the best file's, with each term's part. */
export interface HistoryScores {
  /** In [0, 1]; the best file 1, a file that never changed with a matching message 0. */
  score: Float64Array;
  /** Task term -> its part of the file's score (before the weight), in task-term order. */
  terms: [string, number][][];
}

/**
 * BM25 of the task's `terms` (sorted, distinct: `taskTerms`) over each file's history
 * document: the messages (read as the task is, `taskProse`) of the commits of `history` that
 * changed it, each commit's counts times `HISTORY_DECAY^age`, commits of more than
 * {@linkcode HISTORY_MAX_FILES} files left out. `paths` is the ranking's sorted input; the idf
 * counts every one of them as a document.
 *
 * @example
 * ```ts
 * import { historyScores } from "./_rank_history.ts";
 * const h = historyScores(["a.ts", "b.ts"], ["tweak"], [{ paths: ["b.ts"], message: "Tweaks" }]);
 * h.score[1]; // 1
 * ```
 */
export function historyScores(
  paths: readonly string[],
  terms: readonly string[],
  history: readonly HistoryEntry[],
): HistoryScores {
  const n = paths.length;
  const index = new Map(paths.map((p, i) => [p, i]));
  const docs = historyDocuments(index, terms, history);
  // BM25 over the files that have a history document; idf over every file.
  const df = new Float64Array(terms.length);
  let total = 0;
  let withText = 0;
  for (const d of docs.values()) {
    for (let t = 0; t < terms.length; t++) if (d.tf[t] > 0) df[t]++;
    total += d.length;
    if (d.length > 0) withText++;
  }
  const avg = withText > 0 ? total / withText : 1;
  const idf = Array.from(df, (x) => Math.log(1 + (n - x + 0.5) / (x + 0.5)));
  const score = new Float64Array(n);
  const parts: [string, number][][] = paths.map(() => []);
  let best = 0;
  for (const i of [...docs.keys()].sort((a, b) => a - b)) {
    const d = docs.get(i)!;
    const norm = K1 * (1 - B + B * d.length / avg);
    for (let t = 0; t < terms.length; t++) {
      if (d.tf[t] <= 0) continue;
      const part = idf[t] * d.tf[t] * (K1 + 1) / (d.tf[t] + norm);
      parts[i].push([terms[t], part]);
      score[i] += part;
    }
    best = Math.max(best, score[i]);
  }
  // In units of the best file, as the other signals.
  const unit = best > 0 ? 1 / best : 0;
  for (let i = 0; i < n; i++) {
    score[i] *= unit;
    for (const p of parts[i]) p[1] *= unit;
  }
  return { score, terms: parts };
}

/** Each file's (by index) decayed term counts and length over the messages that touched it. */
function historyDocuments(
  index: ReadonlyMap<string, number>,
  terms: readonly string[],
  history: readonly HistoryEntry[],
): Map<number, { tf: Float64Array; length: number }> {
  const termIndex = new Map(terms.map((t, i) => [t, i]));
  const docs = new Map<number, { tf: Float64Array; length: number }>();
  let weight = 1;
  for (const commit of history) {
    const w = weight;
    weight *= HISTORY_DECAY;
    if (!commit.message || commit.paths.length > HISTORY_MAX_FILES) continue;
    const files = [...new Set(commit.paths)].flatMap((p) => index.get(p) ?? []);
    if (!files.length) continue;
    const tf = new Float64Array(terms.length);
    const length = forEachTerm(taskProse(commit.message), (term) => {
      const t = termIndex.get(term);
      if (t !== undefined) tf[t]++;
    });
    for (const i of files) {
      let d = docs.get(i);
      if (!d) docs.set(i, d = { tf: new Float64Array(terms.length), length: 0 });
      for (let t = 0; t < terms.length; t++) d.tf[t] += w * tf[t];
      d.length += w * length;
    }
  }
  return docs;
}
