/**
 * History text as a ranking signal, for `relevance_sim.ts`: what the task's
 * words say about a file through the messages of the past commits that
 * touched it (the "similar bug reports" of bug-localization work). Only the
 * history the build reads is used: the last 300 first-parent commits before
 * the task's parent, never the task's own commit. Measured, not kept: see
 * bench/README.md, "History text as a signal".
 *
 * Each mode gives every file a history score, divided by the best file's (so
 * the best scores 1), and the variant adds `weight` times it to the file's
 * score as `slop rank` gave it, a file without a grammar at a quarter (as the
 * ranking counts the other signals):
 * - `file`: BM25 of the task over each file's history document (the messages
 *   of the commits that touched it, joined);
 * - `commit`: BM25 of the task over each past message, each commit lending
 *   its score over `files^alpha` to the files it touched (summed);
 * - `dir`: `file` with a folder's history document for each of its files;
 * - `named`: co-change with the code files the task names (path, file name,
 *   or a code-written word equal to the name): the commits that touched one.
 *
 * @module
 */

import { forEachTerm, taskProse, taskTerms } from "../pipeline/_rank_terms.ts";
import type { SimFile, SimTask } from "./_relevance_sim_data.ts";

/** A history signal's settings. */
export interface HistoryOptions {
  mode: "file" | "commit" | "dir" | "named";
  /** `commit`: each commit's score over its files^alpha. @default {0} */
  alpha?: number;
  /** `file`: the paths of the files a commit touched count as words of its message. */
  coPaths?: boolean;
  /** Only files no word of the task reaches (lexical score 0) get the history score. */
  zeroLex?: boolean;
  /** `file` and `dir`: each commit's message counts `decay^age` (the newest 1). @default {1} */
  decay?: number;
  /** Commits of more files than this are left out (or count less: `largeShare`). @default {30} */
  maxFiles?: number;
  /**
   * `file`: a commit of more than `maxFiles` files counts `largeShare × maxFiles / files` of its
   * weight rather than none (a formatter's sweep, a dependency bump that reformatted). @default {0}
   */
  largeShare?: number;
}

/** Commits of more files than this are left out by default (as co-change leaves them out). */
const MAX_FILES = 30;
const K1 = 1.2;
const B = 0.75;

const byPath = (a: SimFile, b: SimFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * A re-ranking for `relevance_sim.ts`: every file of the tree by its score plus `weight` times
 * its history score (files with neither left out), best first, ties by path.
 */
export function historyRerank(options: HistoryOptions, weight: number) {
  const cache = new Map<SimTask, Map<string, number>>();
  return (task: SimTask, _ranked: SimFile[]): SimFile[] => {
    if (!cache.has(task)) cache.set(task, historyScores(task, options));
    const h = cache.get(task)!;
    const add = (f: SimFile) =>
      options.zeroLex && f.lex > 0 ? 0 : weight * (h.get(f.path) ?? 0) * (f.code ? 1 : 0.25);
    return task.files.filter((f) => f.tokens !== undefined)
      .map((f) => ({ f, s: f.score + add(f) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || byPath(a.f, b.f))
      .map((x) => x.f);
  };
}

/** Each file's history score over the best file's (files that score nothing are absent). */
export function historyScores(task: SimTask, options: HistoryOptions): Map<string, number> {
  const inTree = new Set(task.files.filter((f) => f.tokens !== undefined).map((f) => f.path));
  const out = options.mode === "named"
    ? namedCoChange(task, inTree)
    : options.mode === "commit"
    ? commitScores(task, inTree, options.alpha ?? 0)
    : documentScores(task, inTree, options);
  let max = 0;
  for (const v of out.values()) max = Math.max(max, v);
  for (const [k, v] of out) out.set(k, v / max);
  return out;
}

/** The task's terms (as the ranking reads them) and each message's counts of them. */
function messageCounts(task: SimTask, coPaths = false) {
  const terms = taskTerms(taskProse(task.message));
  const index = new Map(terms.map((t, i) => [t, i]));
  const messages = task.messages.map((message, age) => {
    const text = taskProse(message) + (coPaths ? "\n" + task.log[age].join(" ") : "");
    const tf = new Float64Array(terms.length);
    let length = 0;
    forEachTerm(text, (term) => {
      length++;
      const i = index.get(term);
      if (i !== undefined) tf[i]++;
    });
    return { tf, length };
  });
  return { terms, messages };
}

/** BM25 of documents given as term counts and lengths; `n` documents for the idf. */
function bm25(docs: { tf: Float64Array; length: number }[], terms: number, n: number): number[] {
  const df = new Float64Array(terms);
  let total = 0;
  let withText = 0;
  for (const d of docs) {
    for (let i = 0; i < terms; i++) if (d.tf[i] > 0) df[i]++;
    total += d.length;
    if (d.length > 0) withText++;
  }
  const avg = total / Math.max(1, withText) || 1;
  const idf = Array.from(df, (x) => Math.log(1 + (n - x + 0.5) / (x + 0.5)));
  return docs.map((d) => {
    const norm = K1 * (1 - B + B * d.length / avg);
    let s = 0;
    for (let i = 0; i < terms; i++) {
      if (d.tf[i] > 0) s += idf[i] * d.tf[i] * (K1 + 1) / (d.tf[i] + norm);
    }
    return s;
  });
}

/** `file` and `dir`: BM25 over each file's (or folder's) history document. */
function documentScores(task: SimTask, inTree: Set<string>, options: HistoryOptions) {
  const { terms, messages } = messageCounts(task, options.coPaths);
  const dir = options.mode === "dir";
  const keyOf = (p: string) => (dir ? p.slice(0, Math.max(0, p.lastIndexOf("/"))) : p);
  const docs = new Map<string, { tf: Float64Array; length: number }>();
  const maxFiles = options.maxFiles ?? MAX_FILES;
  task.log.forEach((paths, age) => {
    const large = paths.length > maxFiles;
    if ((large && !options.largeShare) || !messages[age]) return;
    const w = (options.decay ?? 1) ** age *
      (large ? options.largeShare! * maxFiles / paths.length : 1);
    for (const key of new Set(paths.filter((p) => dir || inTree.has(p)).map(keyOf))) {
      let d = docs.get(key);
      if (!d) docs.set(key, d = { tf: new Float64Array(terms.length), length: 0 });
      for (let i = 0; i < terms.length; i++) d.tf[i] += w * messages[age].tf[i];
      d.length += w * messages[age].length;
    }
  });
  const keys = [...docs.keys()].sort();
  const scores = bm25(keys.map((k) => docs.get(k)!), terms.length, dir ? keys.length : inTree.size);
  const byKey = new Map(keys.map((k, i) => [k, scores[i]]));
  const out = new Map<string, number>();
  for (const p of inTree) if ((byKey.get(keyOf(p)) ?? 0) > 0) out.set(p, byKey.get(keyOf(p))!);
  return out;
}

/** `commit`: each past message's BM25, lent to the files its commit touched. */
function commitScores(task: SimTask, inTree: Set<string>, alpha: number) {
  const { terms, messages } = messageCounts(task);
  const scores = bm25(messages, terms.length, messages.length);
  const out = new Map<string, number>();
  scores.forEach((s, age) => {
    const paths = task.log[age];
    if (s <= 0 || paths.length > MAX_FILES) return;
    for (const p of paths) {
      if (inTree.has(p)) out.set(p, (out.get(p) ?? 0) + s / paths.length ** alpha);
    }
  });
  return out;
}

/** `named`: how often a file changed with a code file the task names. */
function namedCoChange(task: SimTask, inTree: Set<string>) {
  const names = namer(task.message);
  const seeds = new Set(task.files.filter((f) => f.code && names(f.path)).map((f) => f.path));
  const out = new Map<string, number>();
  for (const paths of task.log) {
    if (paths.length > MAX_FILES || !paths.some((p) => seeds.has(p))) continue;
    for (const p of paths) if (inTree.has(p) && !seeds.has(p)) out.set(p, (out.get(p) ?? 0) + 1);
  }
  return out;
}

/** Whether the task names a file: its path, its file name, or a code-written word equal to its name. */
export function namer(message: string): (path: string) => boolean {
  const words = new Set<string>();
  for (const m of message.matchAll(/`?[A-Za-z_$][\w$./-]*(?:\(\)?)?`?/g)) {
    const code = /[`(./]/.test(m[0]);
    for (const part of m[0].replace(/[`()]/g, "").split(/[./]/)) {
      if (part.length >= 4 && (code || part.includes("_") || /.[A-Z]/.test(part))) {
        words.add(part.toLowerCase());
      }
    }
  }
  return (path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (message.includes(path) || (name.includes(".") && message.includes(name))) return true;
    return words.has(name.replace(/\.[^.]*$/, "").toLowerCase());
  };
}
