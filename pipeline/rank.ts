/**
 * Rank a project's files for a task: which files does the task at hand most
 * likely need? Deterministic (same files and task, same bytes of output on
 * any machine) and explainable (each file carries the reasons of its score).
 *
 * The score of a file adds, each times its weight:
 * - **lexical**: BM25 of the task's terms over the file's contents;
 * - **path**: BM25 of the task's terms over the file's path;
 * - **graph**: (reserved; 0 in this version);
 * - **co-change**: the caller's co-change score of the file (see `co_change.ts`).
 *
 * @module
 */

import { bm25, topTerms } from "./_rank_lexical.ts";
import { byCodeUnit, taskTerms } from "./_rank_terms.ts";

/** One file to rank; `text` is absent for a binary or unread file (it ranks by path only). */
export interface RankInput {
  /** The file's path, relative to the project root, with `/`. */
  path: string;
  /** The file's (redacted) text; absent: binary or unread. */
  text?: string;
}

/** How much each signal counts; each defaults as documented. */
export interface RankWeights {
  /** BM25 over contents. @default {1} */
  lexical?: number;
  /** BM25 over path tokens. @default {1} */
  path?: number;
  /** Symbol-graph rank personalized to the task. @default {1} */
  graph?: number;
  /** Co-change score from `options.coChange`. @default {0.1} */
  coChange?: number;
}

/** Options of {@linkcode rankFiles}. */
export interface RankOptions {
  /** Weights of the signals (see {@linkcode DEFAULT_WEIGHTS}). */
  weights?: RankWeights;
  /** Path -> co-change score in [0, 1] (see `coChangeScores`); absent paths score 0. */
  coChange?: ReadonlyMap<string, number>;
  /** The project root (informational: reasons never hold absolute paths). */
  root?: string;
}

/** One reason a file scored what it did. */
export interface RankReason {
  /** Which signal. */
  kind: "term" | "path" | "graph" | "co-change";
  /** What matched: a term, a neighbour's path, or how the co-change was counted. */
  detail: string;
  /** This reason's part of the file's score (weight applied). */
  score: number;
}

/** A ranked file. */
export interface RankedFile {
  /** The file's path, as given. */
  path: string;
  /** Sum of the signals, each times its weight. */
  score: number;
  /** The largest parts of the score, largest first. */
  reasons: RankReason[];
}

/** The default weights. */
export const DEFAULT_WEIGHTS: Readonly<Required<RankWeights>> = Object.freeze({
  lexical: 1,
  path: 1,
  graph: 1,
  coChange: 0.1,
});

/** Most term reasons listed per file and signal. */
const TOP_TERMS = 5;

/**
 * Rank `files` for `task`: sorted by score, highest first, ties by path
 * (code-unit order). Files of the same path are ranked once (the first).
 *
 * @example
 * ```ts
 * import { rankFiles } from "./rank.ts";
 * const ranked = await rankFiles([
 *   { path: "src/session.py", text: "class Session:\n    pass\n" },
 *   { path: "src/adapters.py", text: "class HTTPAdapter:\n    def send(self): ...\n" },
 * ], "HTTPAdapter.send drops the timeout");
 * ranked[0].path; // "src/adapters.py"
 * ```
 */
export async function rankFiles(
  files: RankInput[],
  task: string,
  options: RankOptions = {},
): Promise<RankedFile[]> {
  await Promise.resolve();
  const weights = { ...DEFAULT_WEIGHTS, ...definedOnly(options.weights ?? {}) };
  for (const [key, value] of Object.entries(weights)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new Error(`Rank weight "${key}" must be a finite number >= 0, got ${value}`);
    }
  }
  // Sorted, de-duplicated input: the output never depends on the caller's order.
  const byPath = new Map<string, RankInput>();
  for (const f of files) if (!byPath.has(f.path)) byPath.set(f.path, f);
  const sorted = [...byPath.values()].sort((a, b) => byCodeUnit(a.path, b.path));
  const terms = taskTerms(task);
  const content = bm25(sorted.map((f) => f.text), terms);
  const paths = bm25(sorted.map((f) => f.path), terms);
  const ranked = sorted.map((f, i): RankedFile => {
    const reasons: RankReason[] = [];
    for (const [term, part] of topTerms(content[i].terms, TOP_TERMS)) {
      reasons.push({ kind: "term", detail: term, score: part * weights.lexical });
    }
    for (const [term, part] of topTerms(paths[i].terms, TOP_TERMS)) {
      reasons.push({ kind: "path", detail: term, score: part * weights.path });
    }
    const co = options.coChange?.get(f.path) ?? 0;
    if (co > 0 && weights.coChange > 0) {
      reasons.push({
        kind: "co-change",
        detail: "changed with recent commits",
        score: co * weights.coChange,
      });
    }
    // Added in a fixed order: contents, path, co-change.
    const score = content[i].score * weights.lexical + paths[i].score * weights.path +
      (Number.isFinite(co) ? co : 0) * weights.coChange;
    reasons.sort((a, b) =>
      b.score - a.score || byCodeUnit(a.kind, b.kind) || byCodeUnit(a.detail, b.detail)
    );
    return { path: f.path, score, reasons: reasons.filter((r) => r.score > 0) };
  });
  return ranked.sort((a, b) => b.score - a.score || byCodeUnit(a.path, b.path));
}

function definedOnly(weights: RankWeights): RankWeights {
  const out: RankWeights = {};
  for (const key of ["lexical", "path", "graph", "coChange"] as const) {
    if (weights[key] !== undefined) out[key] = weights[key];
  }
  return out;
}
