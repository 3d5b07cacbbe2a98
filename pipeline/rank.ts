/**
 * Rank a project's files for a task: which files does the task at hand most
 * likely need? Deterministic (same files and task, same bytes of output on
 * any machine) and explainable (each file carries the reasons of its score).
 *
 * The score of a file adds, each times its weight (see {@linkcode DEFAULT_WEIGHTS}), signals
 * that are each at most 1 for the best file:
 * - **lexical**: BM25 of the task's terms over the file's contents;
 * - **path**: BM25 of the task's terms over the file's path (both in units of the best file's
 *   contents-plus-path score);
 * - **graph**: a PageRank over the symbol graph (file A links to file B when A uses a name
 *   B defines), personalized to the files the task points at: by its terms (the lexical
 *   score), by a name they define, by their path (see `_rank_graph.ts`), over the top file's;
 * - **co-change**: the caller's co-change score of the file in [0, 1] (see `co_change.ts`);
 * - **history**: BM25 of the task's terms over the messages of the recent commits that changed
 *   the file, over the best file's (see `_rank_history.ts`; the caller's `history`);
 * - **pairs**: the task's pairs of neighbouring words found next to each other in the file, each
 *   by its idf, over the best file's (see `_rank_pairs.ts`);
 * - **pastCommits**: past commits whose message is like the task's (BM25 of the task over each
 *   message, at least 0.8 of the best one's and half of the task's own text's) lend the files
 *   they changed a share; it only reorders the ranking past its first 20 places (see
 *   `_rank_commits.ts`; the caller's `history`).
 *
 * A file slop has no grammar for (docs, config, data) scores {@linkcode OTHER_FILES} of that.
 *
 * The task is read without the parts of it that name no file (`taskProse` of `_rank_terms.ts`:
 * git trailer lines such as `Co-authored-by:`, links, e-mail addresses and issue numbers), unless
 * `rawTask` is set.
 *
 * @module
 */

import type { RankWeights } from "./types.ts";
import { bm25, type FieldScore, topTerms } from "./_rank_lexical.ts";
import { byCodeUnit, taskProse, taskTerms } from "./_rank_terms.ts";
import { graphRank, MAX_DEFINERS } from "./_rank_graph.ts";
import { type HistoryEntry, type HistoryScores, historyScores } from "./_rank_history.ts";
import { PairFinder, type PairScore, taskPairs } from "./_rank_pairs.ts";
import { type CommitLoan, commitLoans, COMMITS_TAIL_FROM } from "./_rank_commits.ts";

export type { RankWeights };

/** One file to rank; `text` is absent for a binary or unread file (it ranks by path only). */
export interface RankInput {
  /** The file's path, relative to the project root, with `/`. */
  path: string;
  /** The file's (redacted) text; absent: binary or unread. */
  text?: string;
}

/** Options of {@linkcode rankFiles}. */
export interface RankOptions {
  /** Weights of the signals (see {@linkcode DEFAULT_WEIGHTS}). */
  weights?: RankWeights;
  /** Path -> co-change score in [0, 1] (see `coChangeScores`); absent paths score 0. */
  coChange?: ReadonlyMap<string, number>;
  /**
   * The recent first-parent history, newest first: the paths and message of each commit (see
   * `recentHistory`); the history signal reads it. Absent: no history signal.
   */
  history?: readonly HistoryEntry[];
  /** The project root (informational: reasons never hold absolute paths). */
  root?: string;
  /**
   * The names a file defines, or undefined when no grammar covers it (then it counts
   * {@linkcode OTHER_FILES}): what the symbol graph links files by. The CLI and the bench pass
   * the code views' `definedNames` (tree-sitter; the pipeline imports no plugin, so it is handed
   * in). Absent: no graph, and every file counts as code.
   */
  definitions?: (path: string, text: string | undefined) => Promise<string[] | undefined>;
  /**
   * Called once before `definitions` is asked about the files (their paths and lengths), and the
   * function it returns once after: the code views' `prepare` hook, so the threads that parse
   * them start once and stay for every batch instead of starting again for each. Absent: none.
   */
  prepareDefinitions?: (files: Array<{ path: string; chars: number }>) => (() => void) | void;
  /**
   * Rank by the task's text as given: trailer lines, links, e-mail addresses and issue numbers
   * count as words (the relevance bench's textbook BM25 baseline). @default {false}
   */
  rawTask?: boolean;
}

/** One reason a file scored what it did. */
export interface RankReason {
  /** Which signal. */
  kind: "term" | "path" | "graph" | "co-change" | "history" | "pair" | "commit";
  /**
   * What matched: a term, a neighbour's path, how the co-change was counted, a term of past
   * commit messages, or the past commit like the task that lent the file its share.
   */
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
  graph: 0.25,
  coChange: 0.2,
  history: 0.1,
  pairs: 0.1,
  pastCommits: 0.05,
});

/** Reasons smaller than this are left out (they print as +0.000). */
const MIN_REASON = 0.0005;

/** Files whose names are asked for at once. */
const DEFINITIONS_AT_ONCE = 16;

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
  const weights = checkedWeights(options.weights ?? {});
  // Sorted, de-duplicated input: the output never depends on the caller's order.
  const byPath = new Map<string, RankInput>();
  for (const f of files) if (!byPath.has(f.path)) byPath.set(f.path, f);
  const sorted = [...byPath.values()].sort((a, b) => byCodeUnit(a.path, b.path));
  const n = sorted.length;
  if (!options.rawTask) task = taskProse(task);
  const terms = taskTerms(task);
  const wordPairs = weights.pairs > 0 ? taskPairs(task) : [];
  const finder = wordPairs.length ? new PairFinder(wordPairs) : undefined;
  const content = bm25(sorted.map((f) => f.text), terms, { pairs: finder });
  const paths = bm25(sorted.map((f) => f.path), terms);
  // BM25 in units of the best file's contents-plus-path score, so the weights compare signals
  // of the same scale whatever the task's length.
  let best = 0;
  for (let i = 0; i < n; i++) best = Math.max(best, content[i].score + paths[i].score);
  const unit = best > 0 ? 1 / best : 0;
  const lexical = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lexical[i] = (content[i].score * weights.lexical + paths[i].score * weights.path) * unit;
  }
  const defs = await askDefinitions(sorted, options);
  const graph = weights.graph > 0 && options.definitions
    ? graphScores(sorted, defs, task, lexical)
    : undefined;
  const { coChange } = options;
  const history = weights.history > 0 && options.history
    ? historyScores(sorted.map((f) => f.path), terms, options.history)
    : undefined;
  const pairs = finder ? pairSignal(finder) : undefined;
  const signals = {
    sorted,
    content,
    paths,
    unit,
    lexical,
    weights,
    defs,
    graph,
    coChange,
    history,
    pairs,
  };
  const ranked = sorted.map((_, i) => rankedFile(i, signals));
  ranked.sort((a, b) => b.score - a.score || byCodeUnit(a.path, b.path));
  if (weights.pastCommits <= 0 || !options.history) return ranked;
  const factors = new Map(sorted.map((f, i) => [f.path, defs[i] ? 1 : OTHER_FILES]));
  const loans = commitLoans(task, terms, options.history);
  return withCommitLoans(ranked, loans, (path) => weights.pastCommits * factors.get(path)!);
}

/**
 * The ranking with the past commits' loans (`_rank_commits.ts`) added past its first
 * {@linkcode COMMITS_TAIL_FROM} places: each file there gains `weight(path)` times its loan's
 * share, at most up to the score of the last file before them (so the ranking stays sorted by
 * score), and that part of the ranking is sorted again (ties by the score before the cap, then
 * by path).
 */
function withCommitLoans(
  ranked: RankedFile[],
  loans: ReadonlyMap<string, CommitLoan>,
  weight: (path: string) => number,
): RankedFile[] {
  if (ranked.length <= COMMITS_TAIL_FROM || !loans.size) return ranked;
  const head = ranked.slice(0, COMMITS_TAIL_FROM);
  const cap = head[head.length - 1].score;
  const raw = new Map<string, number>();
  const tail = ranked.slice(COMMITS_TAIL_FROM).map((file) => {
    const loan = loans.get(file.path);
    if (!loan) return file;
    const part = weight(file.path) * loan.share;
    raw.set(file.path, file.score + part);
    const score = Math.min(file.score + part, cap);
    if (score <= file.score) return file;
    const files = loan.files === 1 ? "1 file" : `${loan.files} files`;
    const reason: RankReason = {
      kind: "commit",
      detail: `like "${loan.subject}" (${files})`,
      score: score - file.score,
    };
    const reasons = [...file.reasons, reason].sort(byReason).filter((r) => r.score >= MIN_REASON);
    return { ...file, score, reasons };
  });
  const rawOf = (f: RankedFile) => raw.get(f.path) ?? f.score;
  tail.sort((a, b) => b.score - a.score || rawOf(b) - rawOf(a) || byCodeUnit(a.path, b.path));
  return [...head, ...tail];
}

/** Reasons largest first, ties by kind, then detail. */
function byReason(a: RankReason, b: RankReason): number {
  return b.score - a.score || byCodeUnit(a.kind, b.kind) || byCodeUnit(a.detail, b.detail);
}

/** The weights: the defaults, each overridden by a given one; each must be finite and >= 0. */
function checkedWeights(given: RankWeights): Required<RankWeights> {
  const weights = { ...DEFAULT_WEIGHTS, ...definedOnly(given) };
  for (const [key, value] of Object.entries(weights)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new Error(`Rank weight "${key}" must be a finite number >= 0, got ${value}`);
    }
  }
  return weights;
}

/**
 * The names each file defines (sorted input); `[]` for all without `definitions`. Asked a few
 * files at a time (the caller may parse them on a pool of threads), kept in order.
 */
async function askDefinitions(
  sorted: RankInput[],
  options: Pick<RankOptions, "definitions" | "prepareDefinitions">,
): Promise<(string[] | undefined)[]> {
  const { definitions, prepareDefinitions } = options;
  const n = sorted.length;
  const defs: (string[] | undefined)[] = new Array(n).fill([]);
  if (!definitions) return defs;
  const release = prepareDefinitions?.(
    sorted.map((f) => ({ path: f.path, chars: f.text?.length ?? 0 })),
  );
  try {
    for (let at = 0; at < n; at += DEFINITIONS_AT_ONCE) {
      const batch = sorted.slice(at, at + DEFINITIONS_AT_ONCE);
      const found = await Promise.all(batch.map((f) => definitions(f.path, f.text)));
      found.forEach((names, k) => (defs[at + k] = names));
    }
  } finally {
    release?.();
  }
  return defs;
}

/** What {@linkcode rankedFile} scores a file with: each signal of every file (sorted input). */
interface Signals {
  sorted: RankInput[];
  content: FieldScore[];
  paths: FieldScore[];
  /** One over the best file's contents-plus-path BM25 (0 when none scored). */
  unit: number;
  lexical: Float64Array;
  weights: Required<RankWeights>;
  defs: (string[] | undefined)[];
  graph?: { score: Float64Array; reasons: [string, number][][] };
  coChange?: RankOptions["coChange"];
  history?: HistoryScores;
  /** Each file's pair score, and one over the best file's (absent: weight 0). */
  pairs?: { scores: PairScore[]; unit: number };
}

/** The `i`th file's score and reasons, from the signals of every file. */
function rankedFile(i: number, signals: Signals): RankedFile {
  const { sorted, content, paths, unit, lexical, weights, defs, graph } = signals;
  const f = sorted[i];
  const reasons: RankReason[] = [];
  for (const [term, part] of topTerms(content[i].terms, TOP_TERMS)) {
    reasons.push({ kind: "term", detail: term, score: part * unit * weights.lexical });
  }
  for (const [term, part] of topTerms(paths[i].terms, TOP_TERMS)) {
    reasons.push({ kind: "path", detail: term, score: part * unit * weights.path });
  }
  let graphScore = 0;
  if (graph) {
    graphScore = graph.score[i] * weights.graph;
    for (const [detail, part] of graph.reasons[i]) {
      reasons.push({ kind: "graph", detail, score: part * weights.graph });
    }
  }
  const raw = signals.coChange?.get(f.path) ?? 0;
  const co = Number.isFinite(raw) && raw > 0 ? Math.min(raw, 1) : 0;
  if (co > 0 && weights.coChange > 0) {
    reasons.push({
      kind: "co-change",
      detail: `${co.toFixed(2)} of the most changed file`,
      score: co * weights.coChange,
    });
  }
  const past = historyPart(i, signals, reasons);
  const paired = pairPart(i, signals, reasons);
  // Added in a fixed order: lexical (contents, then path), graph, co-change, history, pairs.
  const factor = defs[i] ? 1 : OTHER_FILES;
  const score = (lexical[i] + graphScore + co * weights.coChange + past + paired) * factor;
  for (const r of reasons) r.score *= factor;
  reasons.sort(byReason);
  return { path: f.path, score, reasons: reasons.filter((r) => r.score >= MIN_REASON) };
}

/** The `i`th file's history score (weight applied), its top terms added to `reasons`. */
function historyPart(i: number, signals: Signals, reasons: RankReason[]): number {
  const { history, weights } = signals;
  if (!history || history.score[i] <= 0) return 0;
  for (const [term, part] of topTerms(history.terms[i], TOP_TERMS)) {
    reasons.push({ kind: "history", detail: term, score: part * weights.history });
  }
  return history.score[i] * weights.history;
}

/** The task's word pairs in each file's text (found in the BM25 pass), and one over the best score. */
function pairSignal(finder: PairFinder): { scores: PairScore[]; unit: number } {
  const scores = finder.scores();
  let best = 0;
  for (const s of scores) best = Math.max(best, s.score);
  return { scores, unit: best > 0 ? 1 / best : 0 };
}

/** The `i`th file's pair score (weight applied), its pairs added to `reasons`. */
function pairPart(i: number, signals: Signals, reasons: RankReason[]): number {
  const { pairs, weights } = signals;
  if (!pairs || pairs.scores[i].score <= 0) return 0;
  for (const [pair, part] of topTerms(pairs.scores[i].pairs, TOP_TERMS)) {
    reasons.push({ kind: "pair", detail: pair, score: part * pairs.unit * weights.pairs });
  }
  return pairs.scores[i].score * pairs.unit * weights.pairs;
}

/**
 * The factor of a file slop has no grammar for (docs, changelogs, config, data, binaries): a
 * task is mostly done in code, and prose mentions every word of it. Measured on the relevance
 * bench (see bench/README.md, "Task relevance").
 */
export const OTHER_FILES = 0.25;

/** How much a file the task points at by a name it defines, or by its path, seeds the graph. */
const NAMED_SEED = 3;
/** The same for a plain word of the task that happens to be a name a file defines. */
const WORD_SEED = 0.25;

/**
 * Graph score of each file (sorted input): its personalized PageRank over the top file's, so
 * the top file scores 1, with its reasons (what seeded it, who lent it rank).
 */
function graphScores(
  files: RankInput[],
  defs: (string[] | undefined)[],
  task: string,
  lexical: Float64Array,
): { score: Float64Array; reasons: [string, number][][] } {
  const n = files.length;
  // The task's words as written: identifiers it names.
  const words = taskWords(task);
  const definers = new Map<string, number>();
  for (const names of defs) {
    for (const name of names ?? []) definers.set(name, (definers.get(name) ?? 0) + 1);
  }
  const seed = new Float64Array(n);
  const named: string[][] = [];
  for (let i = 0; i < n; i++) {
    let s = lexical[i];
    const hits: string[] = [];
    for (const name of defs[i] ?? []) {
      const shaped = words.get(name);
      if (shaped === undefined || definers.get(name)! > MAX_DEFINERS) continue;
      s += shaped ? NAMED_SEED : WORD_SEED;
      hits.push(name);
    }
    if (namesPath(task, files[i].path)) {
      s += NAMED_SEED;
      hits.push(files[i].path);
    }
    seed[i] = s;
    named.push(hits);
  }
  // Nothing points anywhere: the graph says nothing about this task.
  if (!seed.some((s) => s > 0)) return { score: new Float64Array(n), reasons: files.map(() => []) };
  const g = graphRank(files, defs, seed);
  let max = 0;
  for (let i = 0; i < n; i++) max = Math.max(max, g.rank[i]);
  const scale = max > 0 ? 1 / max : 0;
  const score = new Float64Array(n);
  const reasons: [string, number][][] = [];
  for (let i = 0; i < n; i++) {
    score[i] = g.rank[i] * scale;
    const list: [string, number][] = [];
    if (named[i].length) {
      list.push([`the task names ${named[i].slice(0, 3).join(", ")}`, g.seeded[i] * scale]);
    }
    for (const l of g.lenders[i]) {
      list.push([`linked from ${files[l.from].path} (${l.via})`, l.rank * scale]);
    }
    reasons.push(list);
  }
  return { score, reasons };
}

/**
 * The identifiers a task's text holds, each with whether it is written like code (an
 * underscore, a capital after the first letter, a dot or call, backticks) or is a plain word.
 */
function taskWords(task: string): Map<string, boolean> {
  const words = new Map<string, boolean>();
  for (const m of task.matchAll(/`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\)?)?`?/g)) {
    const raw = m[0];
    const code = raw.startsWith("`") || raw.includes("(") || raw.includes(".");
    for (const part of raw.replace(/[`()]/g, "").split(".")) {
      if (part.length < 3) continue;
      const shaped = code || part.includes("_") || /.[A-Z]/.test(part);
      words.set(part, (words.get(part) ?? false) || shaped);
    }
  }
  return words;
}

/** Whether the task names the file: its path, or its file name with the extension. */
function namesPath(task: string, path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (!name.includes(".") || name.length < 4) return false;
  return containsWord(task, path) || containsWord(task, name);
}

function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at > 0 ? text[at - 1] : " ";
    const after = text[at + word.length] ?? " ";
    if (!/[\w.\/-]/.test(before) && !/\w/.test(after)) return true;
  }
  return false;
}

function definedOnly(weights: RankWeights): RankWeights {
  const out: RankWeights = {};
  for (
    const key of [
      "lexical",
      "path",
      "graph",
      "coChange",
      "history",
      "pairs",
      "pastCommits",
    ] as const
  ) {
    if (weights[key] !== undefined) out[key] = weights[key];
  }
  return out;
}
