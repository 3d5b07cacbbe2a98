/**
 * Ranking signals tried on the simulated task builds of `relevance_sim.ts`:
 * each variant adds a signal to the ranking as `slop rank` gives it (or
 * replaces its lexical part) and the task build is simulated as the build
 * chooses. It prints, for each set of tasks, the needed files the build as it
 * is holds at 8k / 32k / 128k, then each variant's difference in files.
 *
 * ```sh
 * deno run -A bench/relevance_sim_rank.ts [--sets tuned,a,b] [--only "definitions;subject"]
 * deno run -A bench/relevance_sim_rank.ts --sets a --room      # where a 128k build's tokens go
 * deno run -A bench/relevance_sim_rank.ts --sets tuned,a,b --held-commits 40 --search [--top]
 * ```
 *
 * `--search` fits the ranking's fusion weights by a coordinate search on the tuning tasks
 * (the simulated build's counts, or with `--top` the needed files in the ranking's first 10
 * outside the 32k map) and prints each set's counts with the ranking's weights and the found;
 * `--diff` lists the tuning tasks' needed files the found weights gain (+) or lose (-) at 32k.
 *
 * Sets: `tuned` (40 commits of each of psf/requests, sindresorhus/got, spf13/cobra and
 * google/gson), and the six held-out repositories' tasks `a` (the 10 newest of each), `b`
 * (the 11th to 40th) and `c` (the 41st to 60th, read only for the variants chosen on the
 * tuning set: see bench/README.md, "Ranking signals tried on a fresh held-out set"). The
 * first run makes the tasks' data (as `relevance_sim.ts --commits 60`) and each file's terms
 * and names (`_relevance_sim_features.ts`), a few minutes a set.
 *
 * @module
 */

import { join } from "node:path";
import { forEachTerm, forEachWord, taskProse, taskTerms } from "../pipeline/_rank_terms.ts";
import { historyScores } from "../pipeline/_rank_history.ts";
import { graphRank, MAX_DEFINERS } from "../pipeline/_rank_graph.ts";
import { DEFAULT_WEIGHTS, OTHER_FILES } from "../pipeline/rank.ts";
import { collectTasks } from "./_relevance_tasks.ts";
import { neededFiles, type SimFile, type SimTask, simTasks } from "./_relevance_sim_data.ts";
import {
  type BlobFeatures,
  saveFeatures,
  type TaskFeatures,
  taskFeatures,
} from "./_relevance_sim_features.ts";
import { printVariants, simulate, type Variant } from "./relevance_sim.ts";
import { keptFiles } from "../pipeline/_task_map.ts";
import { fitOrder } from "../pipeline/_task_fit.ts";
import { argValue, BUDGETS, CACHE, plainBuild, REPOS, TUNED } from "./relevance.ts";
import { DECAY } from "../pipeline/order_state.ts";

/** Each task's files' terms and names, and its tree (for the graph variants' texts). */
const feats = new Map<SimTask, TaskFeatures>();
const treeDir = new Map<SimTask, string>();

/** The tasks of each set, their features read or made. */
async function loadSets(held = 60): Promise<Record<string, SimTask[]>> {
  const sets: Record<string, SimTask[]> = { tuned: [], a: [], b: [], c: [] };
  for (const repo of REPOS) {
    const tuned = TUNED.includes(repo.name);
    const commits = tuned ? 40 : held;
    const tasks = await simTasks(repo, commits, { cache: CACHE, plain: plainBuild });
    if (!tasks.length) continue;
    const raw = await collectTasks(repo.name, join("/work/.mirror", repo.name, "repo"), {
      commits,
    });
    for (const t of tasks) {
      feats.set(t, await taskFeatures(t, CACHE, raw[t.k]));
      treeDir.set(t, join(CACHE, repo.name, raw[t.k].parent.slice(0, 12)));
      (tuned ? sets.tuned : t.k < 10 ? sets.a : t.k < 40 ? sets.b : sets.c).push(t);
    }
  }
  await saveFeatures(CACHE);
  return sets;
}

const byPath = (a: { path: string }, b: { path: string }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
/** A count of a term map read from JSON (`constructor` is a term, not the prototype's). */
const countOf = (tf: Record<string, number>, t: string) => Object.hasOwn(tf, t) ? tf[t] : 0;
const termsOf = (task: SimTask) => taskTerms(taskProse(task.message));

const scores = new WeakMap<SimTask, Map<string, number>>();

/** Each file's score as `slop rank` gives it (history text and word pairs included). */
function rankScore(task: SimTask): Map<string, number> {
  if (scores.has(task)) return scores.get(task)!;
  const paths = task.files.map((f) => f.path).sort();
  const history = task.log.map((changed, age) => ({ paths: changed, message: task.messages[age] }));
  const h = historyScores(paths, termsOf(task), history);
  const at = new Map(paths.map((p, i) => [p, h.score[i]]));
  const out = new Map<string, number>();
  for (const f of task.files) {
    const factor = f.code ? 1 : OTHER_FILES;
    const added = DEFAULT_WEIGHTS.history * at.get(f.path)! +
      DEFAULT_WEIGHTS.pairs * (f.pairs ?? 0);
    out.set(f.path, f.score + added * factor);
  }
  scores.set(task, out);
  return out;
}

/** A document as BM25 reads it. */
interface Doc {
  tf: Record<string, number>;
  length: number;
}

/** BM25 (`k1` 1.2) of a weighted query over `docs` (absent: an empty document). */
function bm25(docs: (Doc | undefined)[], query: Map<string, number>, b = 0.75): number[] {
  const n = docs.length;
  const avg = Math.max(1, docs.reduce((s, d) => s + (d?.length ?? 0), 0)) / n;
  const idf = new Map<string, number>();
  for (const t of query.keys()) {
    const df = docs.filter((d) => d && countOf(d.tf, t) > 0).length;
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return docs.map((d) => {
    if (!d) return 0;
    const norm = 1.2 * (1 - b + b * d.length / avg);
    let s = 0;
    for (const [t, w] of query) {
      const tf = countOf(d.tf, t);
      if (tf) s += w * idf.get(t)! * tf * 2.2 / (tf + norm);
    }
    return s;
  });
}

function overBest(xs: number[]): number[] {
  const max = Math.max(0, ...xs);
  return xs.map((x) => (max > 0 ? x / max : 0));
}

function termDoc(text: string): Doc {
  const tf: Record<string, number> = {};
  const length = forEachTerm(text, (t) => (tf[t] = countOf(tf, t) + 1));
  return { tf, length };
}

const defDocs = new WeakMap<BlobFeatures, Doc>();

/** The terms of the names a file defines, as one document. */
function defDoc(blob: BlobFeatures | undefined): Doc | undefined {
  if (!blob?.defs) return undefined;
  if (!defDocs.has(blob)) defDocs.set(blob, termDoc(blob.defs.join(" ")));
  return defDocs.get(blob);
}

/** A signal: one number per file (`files` in path order) that a variant adds times its weight. */
export type Signal = (task: SimTask, files: SimFile[]) => number[];

/** The ranking re-sorted by its score plus `weight` × `signal` (× the factor of files without a grammar, which `other` may change). */
export function added(signal: Signal, weight: number, other = OTHER_FILES): Variant {
  const memo = new WeakMap<SimTask, number[]>();
  return {
    rerank: (task) => {
      const files = task.files.filter((f) => f.tokens !== undefined).sort(byPath);
      const base = rankScore(task);
      if (!memo.has(task)) memo.set(task, signal(task, files));
      const x = memo.get(task)!;
      const score = (f: SimFile, i: number) =>
        f.code
          ? base.get(f.path)! + weight * x[i]
          : (base.get(f.path)! + weight * x[i] * OTHER_FILES) * other / OTHER_FILES;
      return files.map((f, i) => ({ f, s: score(f, i) })).filter((e) => e.s > 0)
        .sort((a, b) => b.s - a.s || byPath(a.f, b.f)).map((e) => e.f);
    },
  };
}

const nothing: Signal = (_task, files) => files.map(() => 0);

/** The sum of signals, each times its weight. */
function sum(...parts: [Signal, number][]): Signal {
  return (task, files) => {
    const out = files.map(() => 0);
    for (const [signal, w] of parts) signal(task, files).forEach((x, i) => (out[i] += w * x));
    return out;
  };
}

/** BM25 of the task's terms over the names each file defines, over the best file's. */
function definitions(b = 0.75): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const query = new Map(termsOf(task).map((t) => [t, 1]));
    return overBest(bm25(files.map((x) => defDoc(f.get(x.path))), query, b));
  };
}

/** A task term equal to a whole name a file defines (lowercased, no `_`), by its idf. */
const wholeNames: Signal = (task, files) => {
  const f = feats.get(task)!;
  const terms = termsOf(task);
  const names = files.map((x) =>
    new Set((f.get(x.path)?.defs ?? []).map((n) => n.toLowerCase().replace(/[_-]/g, "")))
  );
  const idf = (t: string) => {
    const df = names.filter((s) => s.has(t)).length;
    return Math.log(1 + (files.length - df + 0.5) / (df + 0.5));
  };
  return overBest(names.map((s) => terms.reduce((a, t) => a + (s.has(t) ? idf(t) : 0), 0)));
};

/**
 * Pseudo relevance feedback: the `m` terms weighing most (term frequency over length, times
 * idf) in the `k` best-ranked code files' texts or defined names, not the task's own, as a
 * second query over the contents.
 */
function feedback(k: number, m: number, from: "defs" | "text"): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const own = new Set(termsOf(task));
    const docs = files.map((x) => (from === "defs" ? defDoc(f.get(x.path)) : f.get(x.path)));
    const base = rankScore(task);
    const top = files.map((x, i) => ({ i, s: base.get(x.path)! }))
      .filter((e) => e.s > 0 && files[e.i].code)
      .sort((a, b) => b.s - a.s || byPath(files[a.i], files[b.i])).slice(0, k);
    const weight = new Map<string, number>();
    for (const d of top.map((e) => docs[e.i])) {
      for (const t of Object.keys(d?.tf ?? {})) {
        if (own.has(t) || t.length < 3 || /^\d+$/.test(t)) continue;
        weight.set(t, (weight.get(t) ?? 0) + d!.tf[t] / d!.length);
      }
    }
    const idf = (t: string) => {
      const df = docs.filter((d) => d && countOf(d.tf, t)).length;
      return Math.log(1 + (files.length - df + 0.5) / (df + 0.5));
    };
    const best = [...weight].map(([t, w]): [string, number] => [t, w * idf(t)])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, m);
    if (!best.length) return files.map(() => 0);
    const query = new Map(best.map(([t, w]) => [t, w / best[0][1]]));
    return overBest(bm25(files.map((x) => f.get(x.path)), query));
  };
}

/** A task term equal to the file's name without its extension (its joined terms). */
const fileName: Signal = (task, files) => {
  const terms = new Set(termsOf(task));
  return files.map((x) => {
    const parts: string[] = [];
    forEachTerm(x.path.slice(x.path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, ""), (t) => {
      parts.push(t);
    });
    return parts.length && terms.has(parts[parts.length - 1]) ? 1 : 0;
  });
};

/**
 * The lexical part (BM25 of contents and path over the best file's) with each query term
 * weighted, in place of the ranking's: the signal is the new part less the old.
 */
function weightedQuery(weights: (task: SimTask) => Map<string, number>): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const all = task.files.slice().sort(byPath);
    const query = weights(task);
    const content = bm25(all.map((x) => f.get(x.path)), query);
    const paths = bm25(all.map((x) => termDoc(x.path)), query);
    const lexical = overBest(all.map((_, i) => content[i] + paths[i]));
    const at = new Map(all.map((x, i) => [x.path, lexical[i]]));
    return files.map((x) => at.get(x.path)! - x.lex / (x.code ? 1 : OTHER_FILES));
  };
}

/** Every term of the task at 1 (the ranking's own query). */
const flat = (task: SimTask) => new Map(termsOf(task).map((t) => [t, 1]));

/** The subject line's terms at `w`, the body's at 1. */
function subjectAt(w: number) {
  return (task: SimTask) => {
    const prose = taskProse(task.message);
    const subject = new Set(taskTerms(prose.split("\n")[0]));
    return new Map(taskTerms(prose).map((t) => [t, subject.has(t) ? w : 1]));
  };
}

/** Each term at its idf over the contents (over the largest) to the power `p`. */
function idfAt(p: number) {
  return (task: SimTask) => {
    const f = feats.get(task)!;
    const terms = termsOf(task);
    const idf = terms.map((t) => {
      const df = task.files.filter((x) => countOf(f.get(x.path)?.tf ?? {}, t) > 0).length;
      return Math.log(1 + (task.files.length - df + 0.5) / (df + 0.5));
    });
    const max = Math.max(1e-9, ...idf);
    return new Map(terms.map((t, i) => [t, (idf[i] / max) ** p]));
  };
}

/** The parts of a compound word (`get`, `adapter` of `getAdapter`) at `w`, whole words at 1. */
function partsAt(w: number) {
  return (task: SimTask) => {
    const keep = new Set(termsOf(task));
    const query = new Map<string, number>();
    forEachTerm(taskProse(task.message), (t, word) => {
      if (!keep.has(t)) return;
      const whole = t === word.toLowerCase().replace(/[-_]/g, "");
      query.set(t, Math.max(query.get(t) ?? 0, whole ? 1 : w));
    });
    return query;
  };
}

/**
 * The graph signal with the personalization from the `k` best files by lexical score only
 * (and the files the task names, as the ranking seeds them): the signal is the new graph score
 * less the ranking's (which seeds every file by its lexical score).
 */
function graphFromTop(k: number): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const all = task.files.slice().sort(byPath);
    const defs = all.map((x) => f.get(x.path)?.defs ?? undefined);
    const lexical = all.map((x) => x.lex / (x.code ? 1 : OTHER_FILES));
    const top = new Set(
      lexical.map((l, i) => ({ l, i })).filter((e) => e.l > 0)
        .sort((a, b) => b.l - a.l || a.i - b.i).slice(0, k).map((e) => e.i),
    );
    const seed = namedSeeds(task, all, defs);
    for (const i of top) seed[i] += lexical[i];
    const texts = all.map((x) =>
      f.has(x.path) ? Deno.readTextFileSync(join(treeDir.get(task)!, x.path)) : undefined
    );
    const g = graphRank(all.map((x, i) => ({ path: x.path, text: texts[i] })), defs, seed);
    return graphChange(files, all, g.rank);
  };
}

/** The ranking's seeds from names (`rank.ts`): 3 for a code-written name or a named path, 0.25 for a plain word. */
function namedSeeds(task: SimTask, all: SimFile[], defs: (string[] | undefined)[]): Float64Array {
  const prose = taskProse(task.message);
  const words = new Map<string, boolean>();
  for (const m of prose.matchAll(/`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\)?)?`?/g)) {
    const code = m[0].startsWith("`") || m[0].includes("(") || m[0].includes(".");
    for (const part of m[0].replace(/[`()]/g, "").split(".")) {
      if (part.length < 3) continue;
      const shaped = code || part.includes("_") || /.[A-Z]/.test(part);
      words.set(part, (words.get(part) ?? false) || shaped);
    }
  }
  const definers = new Map<string, number>();
  for (const names of defs) {
    for (const n of names ?? []) definers.set(n, (definers.get(n) ?? 0) + 1);
  }
  return Float64Array.from(all, (x, i) => {
    let s = 0;
    for (const name of defs[i] ?? []) {
      const shaped = words.get(name);
      if (shaped !== undefined && definers.get(name)! <= MAX_DEFINERS) s += shaped ? 3 : 0.25;
    }
    const name = x.path.slice(x.path.lastIndexOf("/") + 1);
    const named = name.includes(".") && name.length >= 4 &&
      [x.path, name].some((w) => new RegExp(`(^|[^\\w./-])${escape(w)}(?!\\w)`).test(prose));
    return s + (named ? 3 : 0);
  });
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The file's text from the task's tree (undefined: no text read). */
function textOf(task: SimTask, path: string): string | undefined {
  try {
    return Deno.readTextFileSync(join(treeDir.get(task)!, path));
  } catch {
    return undefined;
  }
}

/** The idf of each query term over the contents of `files` (as the ranking's BM25). */
function idfOver(task: SimTask, files: SimFile[], terms: string[]): Map<string, number> {
  const f = feats.get(task)!;
  return new Map(terms.map((t) => {
    const df = files.filter((x) => countOf(f.get(x.path)?.tf ?? {}, t) > 0).length;
    return [t, Math.log(1 + (files.length - df + 0.5) / (df + 0.5))];
  }));
}

/**
 * Coverage (Lucene's coordination factor): the idf-weighted share of the task's distinct terms
 * found in the file's contents or path, to the power `p`. BM25 sums its terms, so a file that
 * repeats one word often can pass a file that has every word of the task once.
 */
function coverage(p: number): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const terms = termsOf(task);
    const idf = idfOver(task, task.files, terms);
    const total = terms.reduce((s, t) => s + idf.get(t)!, 0);
    if (total <= 0) return files.map(() => 0);
    return files.map((x) => {
      const tf = f.get(x.path)?.tf ?? {};
      const path = termDoc(x.path).tf;
      const got = terms.reduce(
        (s, t) => s + (countOf(tf, t) > 0 || countOf(path, t) > 0 ? idf.get(t)! : 0),
        0,
      );
      return (got / total) ** p;
    });
  };
}

const passageMemo = new WeakMap<BlobFeatures, Doc[]>();

/**
 * Passage scoring: each file cut into windows of `lines` lines (half overlapping), BM25 of the
 * task over the windows (the files' idf, the windows' average length), the file's best window,
 * over the best file's. A large file with one region about the task is not diluted by its length.
 */
function passages(lines: number): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const terms = termsOf(task);
    const idf = idfOver(task, task.files, terms);
    const windows = files.map((x) => {
      const blob = f.get(x.path);
      if (!blob) return [];
      if (!passageMemo.has(blob)) {
        const text = textOf(task, x.path) ?? "";
        const ls = text.split("\n");
        const docs: Doc[] = [];
        const step = Math.max(1, Math.floor(lines / 2));
        for (let i = 0; i < ls.length; i += step) {
          docs.push(termDoc(ls.slice(i, i + lines).join("\n")));
          if (i + lines >= ls.length) break;
        }
        passageMemo.set(blob, docs);
      }
      return passageMemo.get(blob)!;
    });
    let n = 0;
    let len = 0;
    for (const w of windows) for (const d of w) (n++, len += d.length);
    const avg = Math.max(1, len / Math.max(1, n));
    return overBest(windows.map((w) => {
      let best = 0;
      for (const d of w) {
        const norm = 1.2 * (0.25 + 0.75 * d.length / avg);
        let s = 0;
        for (const t of terms) {
          const tf = countOf(d.tf, t);
          if (tf) s += idf.get(t)! * tf * 2.2 / (tf + norm);
        }
        best = Math.max(best, s);
      }
      return best;
    }));
  };
}

const wordPairMemo = new WeakMap<BlobFeatures, Set<string>>();
const joined = (w: string) => w.toLowerCase().replace(/[_-]/g, "");

/** The pairs of words next to each other in `text` (each word joined and lowercased). */
function wordPairs(text: string): Set<string> {
  const out = new Set<string>();
  let last = "";
  forEachWord(text, (w) => {
    const j = joined(w);
    if (last) out.add(`${last} ${j}`);
    last = j;
  });
  return out;
}

/**
 * Proximity: the task's pairs of neighbouring words (stop words left out of the pairs) that
 * stand next to each other in the file (`connection pool`, `Session.get` as `session get`),
 * each by its idf over the files, over the best file's.
 */
const proximity: Signal = (task, files) => {
  const f = feats.get(task)!;
  const words: string[] = [];
  forEachWord(taskProse(task.message), (w) => words.push(joined(w)));
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1], words[i]];
    if (a.length < 3 || b.length < 3 || STOP.has(a) || STOP.has(b)) continue;
    pairs.add(`${a} ${b}`);
  }
  if (!pairs.size) return files.map(() => 0);
  const sets = task.files.map((x) => {
    const blob = f.get(x.path);
    if (!blob) return undefined;
    if (!wordPairMemo.has(blob)) wordPairMemo.set(blob, wordPairs(textOf(task, x.path) ?? ""));
    return wordPairMemo.get(blob)!;
  });
  const at = new Map(task.files.map((x, i) => [x.path, sets[i]]));
  const idf = new Map([...pairs].map((p) => {
    const df = sets.filter((s) => s?.has(p)).length;
    return [p, Math.log(1 + (sets.length - df + 0.5) / (df + 0.5))];
  }));
  return overBest(files.map((x) => {
    const s = at.get(x.path);
    return s ? [...pairs].reduce((n, p) => n + (s.has(p) ? idf.get(p)! : 0), 0) : 0;
  }));
};
const STOP = new Set(
  "the an of in on to for and or is are be with from by at as it this that not no when".split(" "),
);

/** The lexical part with the path field at `pathWeight` (the ranking's: 1) and contents' BM25 `b`. */
function lexicalWith(pathWeight: number, b = 0.75): Signal {
  return (task, files) => {
    const f = feats.get(task)!;
    const all = task.files.slice().sort(byPath);
    const query = flat(task);
    const content = bm25(all.map((x) => f.get(x.path)), query, b);
    const paths = bm25(all.map((x) => termDoc(x.path)), query);
    const lexical = overBest(all.map((_, i) => content[i] + pathWeight * paths[i]));
    const at = new Map(all.map((x, i) => [x.path, lexical[i]]));
    return files.map((x) => at.get(x.path)! - x.lex / (x.code ? 1 : OTHER_FILES));
  };
}

/**
 * The graph with the personalization from the task's matched definitions (BM25 of the task over
 * each file's defined names, plus the ranking's seeds from names and paths) in place of every
 * file's lexical score: the signal is the new graph score less the ranking's.
 */
const graphFromDefinitions: Signal = (task, files) => {
  const f = feats.get(task)!;
  const all = task.files.slice().sort(byPath);
  const defs = all.map((x) => f.get(x.path)?.defs ?? undefined);
  const seed = namedSeeds(task, all, defs);
  const d = definitions()(task, all);
  d.forEach((x, i) => (seed[i] += x));
  const texts = all.map((x) => (f.has(x.path) ? textOf(task, x.path) : undefined));
  const g = graphRank(all.map((x, i) => ({ path: x.path, text: texts[i] })), defs, seed);
  return graphChange(files, all, g.rank);
};

/**
 * Test files' scores times `factor` unless the task's words name tests (`test`, `tests`,
 * `spec`, `testing`): a task says when it is about its tests.
 */
function testsAt(factor: number): Variant {
  return {
    rerank: (task) => {
      const files = task.files.filter((f) => f.tokens !== undefined).sort(byPath);
      const base = rankScore(task);
      const named = termsOf(task).some((t) => /^(tests?|spec|specs|testing)$/.test(t));
      const score = (f: SimFile) => base.get(f.path)! * (!named && TEST.test(f.path) ? factor : 1);
      return files.map((f) => ({ f, s: score(f) })).filter((e) => e.s > 0)
        .sort((a, b) => b.s - a.s || byPath(a.f, b.f)).map((e) => e.f);
    },
  };
}

/**
 * Co-change expansion (fourteenth session): the `k` best-ranked code files lend their
 * score (over the best's) to the files changed with them in the task's history: for each top
 * file `t`, the share of the commits (each `DECAY^age`, of at most `maxFiles` files) that
 * changed `t` which also changed the file. `gate`: "lex" only files the task's words reach
 * (lexical score > 0), "times" the expansion times the file's lexical score, "none" every file.
 */
export function coExpand(k: number, gate: "none" | "lex" | "times", maxFiles = 10): Signal {
  return (task, files) => {
    const base = rankScore(task);
    const top = files.filter((x) => x.code && base.get(x.path)! > 0)
      .sort((a, b) => base.get(b.path)! - base.get(a.path)! || byPath(a, b)).slice(0, k);
    if (!top.length) return files.map(() => 0);
    const best = base.get(top[0].path)!;
    const lend = new Map(top.map((t) => [t.path, base.get(t.path)! / best]));
    const touched = new Map<string, number>(); // decayed commits that changed each top file
    const with_ = new Map<string, number>(); // decayed lent weight each file got
    let w = 1;
    for (const changed of task.log) {
      const weight = w;
      w *= DECAY;
      if (changed.length > maxFiles) continue;
      const tops = changed.filter((p) => lend.has(p));
      if (!tops.length) continue;
      for (const t of tops) touched.set(t, (touched.get(t) ?? 0) + weight);
      for (const p of changed) {
        for (const t of tops) {
          if (t !== p) with_.set(`${t}\n${p}`, (with_.get(`${t}\n${p}`) ?? 0) + weight);
        }
      }
    }
    const raw = files.map((x) => {
      let s = 0;
      for (const [t, l] of lend) {
        const n = touched.get(t);
        if (n) s += l * (with_.get(`${t}\n${x.path}`) ?? 0) / n;
      }
      const lex = x.lex / (x.code ? 1 : OTHER_FILES);
      return gate === "none" ? s : gate === "lex" ? (lex > 0 ? s : 0) : s * lex;
    });
    return overBest(raw);
  };
}

/** Each file's signals apart, as `rankFiles` adds them (weights not applied; graph recovered from the score). */
export interface Parts {
  lex: number;
  graph: number;
  co: number;
  history: number;
  pairs: number;
  code: boolean;
}

const partsMemo = new WeakMap<SimTask, Map<string, Parts>>();

export function partsOf(task: SimTask): Map<string, Parts> {
  if (partsMemo.has(task)) return partsMemo.get(task)!;
  const paths = task.files.map((f) => f.path).sort();
  const history = task.log.map((changed, age) => ({ paths: changed, message: task.messages[age] }));
  const h = historyScores(paths, termsOf(task), history);
  const at = new Map(paths.map((p, i) => [p, h.score[i]]));
  const out = new Map<string, Parts>();
  for (const f of task.files) {
    const factor = f.code ? 1 : OTHER_FILES;
    const lex = f.lex / factor;
    const graph = ((f.score - f.lex) / factor - DEFAULT_WEIGHTS.coChange * f.co) /
      DEFAULT_WEIGHTS.graph;
    out.set(f.path, {
      lex,
      graph: Math.max(0, graph),
      co: f.co,
      history: at.get(f.path)!,
      pairs: f.pairs ?? 0,
      code: f.code,
    });
  }
  partsMemo.set(task, out);
  return out;
}

/** Fusion weights searched: the ranking's own, and the factor of files without a grammar. */
interface Fusion {
  graph: number;
  coChange: number;
  history: number;
  pairs: number;
  other: number;
  /** Co-change expansion from the best 5 (gate "lex"), 0 in the ranking. */
  expand: number;
}

const RANKING: Fusion = {
  graph: DEFAULT_WEIGHTS.graph,
  coChange: DEFAULT_WEIGHTS.coChange,
  history: DEFAULT_WEIGHTS.history,
  pairs: DEFAULT_WEIGHTS.pairs,
  other: OTHER_FILES,
  expand: 0,
};

const expandMemo = new WeakMap<SimTask, Map<string, number>>();

/** The ranking with other fusion weights (the lexical part at 1). */
function fused(w: Fusion): Variant {
  return {
    rerank: (task) => {
      const parts = partsOf(task);
      const files = task.files.filter((f) => f.tokens !== undefined).sort(byPath);
      let ex: Map<string, number> | undefined;
      if (w.expand > 0) {
        if (!expandMemo.has(task)) {
          const x = coExpand(5, "lex")(task, files);
          expandMemo.set(task, new Map(files.map((f, i) => [f.path, x[i]])));
        }
        ex = expandMemo.get(task)!;
      }
      const score = (f: SimFile) => {
        const p = parts.get(f.path)!;
        const s = p.lex + w.graph * p.graph + w.coChange * p.co + w.history * p.history +
          w.pairs * p.pairs + (ex ? w.expand * ex.get(f.path)! : 0);
        return s * (p.code ? 1 : w.other);
      };
      return files.map((f) => ({ f, s: score(f) })).filter((e) => e.s > 0)
        .sort((a, b) => b.s - a.s || byPath(a.f, b.f)).map((e) => e.f);
    },
  };
}

/**
 * Coordinate search of the fusion weights on `tasks` (deterministic: the keys in a fixed order,
 * each tried at the grid's multiples of its value, ties keep the current one; rounds until none
 * moves). The objective: needed files held at 32k, then at 128k, then at 8k.
 */
function searchFusion(
  tasks: SimTask[],
  log: (line: string) => void,
  objective: "build" | "top" = "build",
): Fusion {
  // Not the factor of files without a grammar: this bench's needed files are all code, so it
  // can only gain by pushing the others down (bench/README.md, seventh session).
  const keys: (keyof Fusion)[] = ["graph", "coChange", "history", "pairs", "expand"];
  const grid = [0, 0.5, 0.75, 1.5, 2, 3];
  const value = (w: Fusion) => objective === "build" ? held(tasks, fused(w)) : topHeld(tasks, w);
  const better = (a: number[], b: number[]) =>
    a[1] !== b[1] ? a[1] > b[1] : a[2] !== b[2] ? a[2] > b[2] : a[0] > b[0];
  let w = { ...RANKING, expand: 0.1 };
  let best = value(w);
  log(`start ${JSON.stringify(w)} ${best.join(" / ")}`);
  for (let round = 0; round < 3; round++) {
    let moved = false;
    for (const key of keys) {
      const at = w[key];
      for (const m of grid) {
        const tryW = { ...w, [key]: Math.round(at * m * 1000) / 1000 };
        if (tryW[key] === w[key]) continue;
        const v = value(tryW);
        if (better(v, best)) {
          (best = v), (w = tryW), (moved = true);
          log(`round ${round} ${key} ${tryW[key]}: ${v.join(" / ")}`);
        }
      }
    }
    if (!moved) break;
  }
  return w;
}

/**
 * The needed files of `tasks` in the fused ranking's first 5, 10 and 20 (the search compares
 * the second, then the third, then the first, as it does 32k, 128k and 8k): a smoother aim
 * than the simulated build's counts. The files a 32k map holds are left out (the map holds
 * them whatever the order).
 */
const mapAt32k = new WeakMap<SimTask, Set<string>>();
function topHeld(tasks: SimTask[], w: Fusion): number[] {
  const v = fused(w);
  const out = [0, 0, 0];
  for (const t of tasks) {
    if (!mapAt32k.has(t)) mapAt32k.set(t, simulate(t, 32_000).map.kept);
    const kept = mapAt32k.get(t)!;
    const ranked = v.rerank!(t, []).filter((f) => f.hasText && !kept.has(f.path));
    const need = new Set(t.needed);
    [5, 10, 20].forEach((
      k,
      i,
    ) => (out[i] += ranked.slice(0, k).filter((f) => need.has(f.path)).length));
  }
  return out;
}

/** The variants measured (bench/README.md, "Ranking signals tried on a fresh held-out set"). */
const VARIANTS: [string, Variant][] = [
  ["check: the lexical part recomputed (+0)", added(weightedQuery(flat), 1)],
  ["check: the graph recomputed, every file seeded", added(graphFromTop(Infinity), 1)],
  ["files without a grammar at 0.15 (0.25)", added(nothing, 0, 0.15)],
  ["files without a grammar at 0.1", added(nothing, 0, 0.1)],
  ["files without a grammar at 0.05", added(nothing, 0, 0.05)],
  ["definitions: BM25 over defined names, 0.2", added(definitions(), 0.2)],
  ["definitions: BM25 over defined names, 0.3", added(definitions(), 0.3)],
  ["definitions: BM25 over defined names, 0.4", added(definitions(), 0.4)],
  ["definitions: the same, `b` 0.3, 0.4", added(definitions(0.3), 0.4)],
  ["definitions: whole names equal to a term, 0.2", added(wholeNames, 0.2)],
  ["feedback: 10 terms of the top 3 files' texts, 0.1", added(feedback(3, 10, "text"), 0.1)],
  ["feedback: 10 terms of the top 3 files' texts, 0.15", added(feedback(3, 10, "text"), 0.15)],
  ["feedback: 10 terms of the top 3 files' texts, 0.2", added(feedback(3, 10, "text"), 0.2)],
  ["feedback: 5 terms of the top 3 files' texts, 0.2", added(feedback(3, 5, "text"), 0.2)],
  ["feedback: 20 terms of the top 5 files' texts, 0.2", added(feedback(5, 20, "text"), 0.2)],
  ["feedback: 10 terms of the top 3 files' names, 0.1", added(feedback(3, 10, "defs"), 0.1)],
  ["a task term equal to the file's name, 0.1", added(fileName, 0.1)],
  ["a task term equal to the file's name, 0.3", added(fileName, 0.3)],
  ["graph seeded by the top 3 lexical files", added(graphFromTop(3), 1)],
  ["graph seeded by the top 10 lexical files", added(graphFromTop(10), 1)],
  ["query: the subject line's terms x1.5", added(weightedQuery(subjectAt(1.5)), 1)],
  ["query: the subject line's terms x2", added(weightedQuery(subjectAt(2)), 1)],
  ["query: the subject line's terms x3", added(weightedQuery(subjectAt(3)), 1)],
  ["query: terms at idf^0.5", added(weightedQuery(idfAt(0.5)), 1)],
  ["query: compound words' parts at 0.5", added(weightedQuery(partsAt(0.5)), 1)],
  [
    "subject x2 and definitions 0.3",
    added(sum([weightedQuery(subjectAt(2)), 1], [definitions(), 0.3]), 1),
  ],
  ["fit: every ranked file tried in full (100)", { maxFit: Infinity }],
  // Thirteenth session (measured before word pairs were in the ranking: against it, the rows
  // below other than the first add to it).
  ["13 the ranking without word pairs (as before)", { noPairs: true }],
  ["13 coverage^1, 0.1", added(coverage(1), 0.1)],
  ["13 coverage^1, 0.2", added(coverage(1), 0.2)],
  ["13 coverage^2, 0.2", added(coverage(2), 0.2)],
  ["13 coverage^2, 0.4", added(coverage(2), 0.4)],
  ["13 passages of 40 lines, 0.2", added(passages(40), 0.2)],
  ["13 passages of 40 lines, 0.4", added(passages(40), 0.4)],
  ["13 passages of 100 lines, 0.3", added(passages(100), 0.3)],
  ["13 proximity: neighbouring words, 0.1", added(proximity, 0.1)],
  ["13 proximity: neighbouring words, 0.05", added(proximity, 0.05)],
  ["13 proximity: neighbouring words, 0.15", added(proximity, 0.15)],
  ["13 proximity: neighbouring words, 0.2", added(proximity, 0.2)],
  ["13 proximity: neighbouring words, 0.4", added(proximity, 0.4)],
  ["13 path field at 0.5", added(lexicalWith(0.5), 1)],
  ["13 path field at 2", added(lexicalWith(2), 1)],
  ["13 graph seeded by matched definitions", added(graphFromDefinitions, 1)],
  ["13 tests at 0.8 unless the task names tests", testsAt(0.8)],
  ["13 tests at 0.6 unless the task names tests", testsAt(0.6)],
  ["13 tests at 0.4 unless the task names tests", testsAt(0.4)],
  // Fourteenth session.
  ["14 check: the ranking's fusion recomputed (+0)", fused(RANKING)],
  ...([3, 5, 10] as const).flatMap((k) =>
    (["none", "lex", "times"] as const).flatMap((gate) =>
      [0.05, 0.1, 0.2].map((w): [string, Variant] => [
        `14 co-change expansion from the best ${k}, gate ${gate}, ${w}`,
        added(coExpand(k, gate), w),
      ])
    )
  ),
  ...[0.1, 0.2, 0.3].map((w): [string, Variant] => [
    `14 co-change replaced by expansion from the best 5, gate lex, ${w}`,
    fused({ ...RANKING, coChange: 0, expand: w }),
  ]),
];

const TEST =
  /(^|\/)(tests?|__tests__|spec)\/|(^|\/)test_|_test\.\w+$|\.(test|spec)\.\w+$|Tests?\.\w+$/;

/**
 * Where a 128k task build's tokens go, on average a task (the map; the section's code, tests
 * and files without a grammar in full; the needed files among them; what is left), and where
 * the needed files it misses are in the ranking: without a score, below the 100 it tries, or
 * in them and passed over for room. As `relevance_sim.ts` simulates the build.
 */
function room128k(tasks: SimTask[]): string {
  const sum = { map: 0, mapNeeded: 0, code: 0, tests: 0, other: 0, needed: 0, left: 0 };
  const missed = { unscored: 0, below100: 0, passedOver: 0 };
  for (const t of tasks) {
    const files = t.files.filter((f) => f.tokens !== undefined);
    const changes = new Map(files.filter((f) => f.co > 0).map((f) => [f.path, f.co]));
    const candidates = files.map((f) => ({ path: f.path, tokens: f.tokens!, code: f.code }));
    const kept = new Set(keptFiles(candidates, changes, 16_000 - 3));
    const inMap = files.filter((f) => kept.has(f.path));
    const mapUsed = 3 + inMap.reduce((n, f) => n + f.tokens!, 0);
    sum.map += mapUsed;
    sum.mapNeeded += inMap.filter((f) => t.needed.includes(f.path)).reduce(
      (n, f) => n + f.tokens!,
      0,
    );
    const score = rankScore(t);
    const ranked = files.filter((f) => score.get(f.path)! > 0)
      .sort((a, b) => score.get(b.path)! - score.get(a.path)! || byPath(a, b));
    const top = ranked.filter((f) => f.hasText).slice(0, 100);
    let left = 128_000 - Math.max(16_000, mapUsed) - t.taskTokens - 40;
    const taken = new Set<string>();
    for (const i of fitOrder(top.map((f) => (kept.has(f.path) ? undefined : f.tokens)))) {
      const f = top[i];
      if (f.tokens! > left) continue;
      left -= f.tokens!;
      taken.add(f.path);
      const kind = !f.code ? "other" : TEST.test(f.path) ? "tests" : "code";
      sum[kind] += f.tokens!;
      if (t.needed.includes(f.path)) sum.needed += f.tokens!;
    }
    sum.left += left;
    for (const p of t.needed.filter((p) => !kept.has(p) && !taken.has(p))) {
      const place = top.findIndex((f) => f.path === p);
      const scored = ranked.some((f) => f.path === p);
      missed[place >= 0 ? "passedOver" : scored ? "below100" : "unscored"]++;
    }
  }
  const per = (x: number) => Math.round(x / tasks.length).toLocaleString("en");
  return `map ${per(sum.map)} (needed ${per(sum.mapNeeded)}), section: code ${per(sum.code)}, ` +
    `tests ${per(sum.tests)}, files without a grammar ${per(sum.other)} (needed ${
      per(sum.needed)
    }), ` +
    `left ${per(sum.left)}; needed files missed: ${missed.unscored} without a score, ` +
    `${missed.below100} below the first 100, ${missed.passedOver} in them passed over`;
}

function held(tasks: SimTask[], variant: Variant): number[] {
  const found = [0, 0, 0];
  for (const t of tasks) BUDGETS.forEach((b, i) => (found[i] += simulate(t, b, variant).found));
  return found;
}

async function main() {
  // `--held-commits 40` makes (and reads) no task of set c.
  const sets = await loadSets(Number(argValue("--held-commits") ?? 60));
  const want = (argValue("--sets") ?? "tuned").split(",");
  const only = argValue("--only")?.split(";");
  if (Deno.args.includes("--search")) {
    const w = searchFusion(sets.tuned, console.log, Deno.args.includes("--top") ? "top" : "build");
    const v = fused(w);
    if (Deno.args.includes("--diff")) {
      for (const t of sets.tuned) {
        const a = new Set(simulate(t, 32_000, fused(RANKING)).taken);
        const b = new Set(simulate(t, 32_000, v).taken);
        const ranked = v.rerank!(t, []);
        for (const p of t.needed) {
          if (a.has(p) === b.has(p)) continue;
          const f = t.files.find((x) => x.path === p)!;
          console.log(
            `${b.has(p) ? "+" : "-"} ${t.repo} #${t.k} ${p} ${f.tokens} place ${
              ranked.indexOf(f) + 1
            }`,
          );
        }
      }
    }
    for (const s of want) {
      console.log(
        `${s}: ranking ${held(sets[s], fused(RANKING)).join(" / ")}, searched ${
          held(sets[s], v).join(" / ")
        }`,
      );
    }
    return;
  }
  if (Deno.args.includes("--room")) {
    for (const s of want) console.log(`${s}: ${room128k(sets[s])}`);
    return;
  }
  printVariants(want, {
    label: (s) => `${s} (${sets[s].length} tasks, ${neededFiles(sets[s])} files)`,
    held: (s, variant) => held(sets[s], variant),
    variants: VARIANTS,
    base: {},
    only,
  });
}

if (import.meta.main) await main();

/**
 * What a new graph rank (`graph`, over `all`) changes in each file's score: the graph's share of
 * the score as it was taken out of it (its lexical, co-change and kind factors undone) and the new
 * rank's put in.
 */
function graphChange(
  files: Array<{ path: string; code: boolean; score: number; lex: number; co: number }>,
  all: Array<{ path: string }>,
  graph: Iterable<number>,
): number[] {
  const rank = overBest([...graph]);
  const now = new Map(all.map((x, i) => [x.path, rank[i]]));
  return files.map((x) => {
    const factor = x.code ? 1 : OTHER_FILES;
    const was = ((x.score - x.lex) / factor - DEFAULT_WEIGHTS.coChange * x.co) /
      DEFAULT_WEIGHTS.graph;
    return (now.get(x.path)! - was) * DEFAULT_WEIGHTS.graph;
  });
}
