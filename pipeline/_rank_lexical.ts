/**
 * BM25 relevance of each file to a task, over two fields scored apart: the
 * file's contents and its path. Only the task's terms are counted, so memory
 * holds one count per task term and file, and the work is one pass over the
 * text. A word in another form of a task's term (`test` for `tests`, `parsed`
 * for `parse`: `termForms`) counts {@linkcode FORM_WEIGHT} of an occurrence of
 * it: a task and the code it is about seldom inflect a word the same way.
 *
 * @module
 */

import {
  byCodeUnit,
  forEachWordSpan,
  plainTermCount,
  termForms,
  termShapes,
  wordTerms,
} from "./_rank_terms.ts";
import { countWork } from "./_work_count.ts";
import type { PairFinder } from "./_rank_pairs.ts";

/** How much a word in another form of a task's term (`termForms`) counts, against the term itself. */
export const FORM_WEIGHT = 0.5;

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalisation. */
export const B = 0.75;

/** One field's score of one file, with each task term's part. */
export interface FieldScore {
  /** Sum of the term parts, added in task-term order. */
  score: number;
  /** Task term -> its part of the score (terms that matched only), in task-term order. */
  terms: [string, number][];
}

/** Options of {@linkcode bm25}. */
export interface Bm25Options {
  /** The task's word pairs, handed each text's words in the same pass (`_rank_pairs.ts`). */
  pairs?: PairFinder;
  /**
   * How many of the texts, from the first, make the corpus: the idf and the mean length count
   * those only, and the texts after them are scored against it as if each were one more (a
   * query's own text scored as a document, `_rank_commits.ts`). @default all of them
   */
  corpus?: number;
}

/**
 * Score every text of `texts` against the sorted, distinct `terms` with BM25
 * (Okapi, `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`, `N` and `df` over the
 * first `options.corpus` texts). A word in another form of a term (`termForms`,
 * unless it is one of `terms` itself) counts {@linkcode FORM_WEIGHT} of an
 * occurrence of the term. An absent text scores nothing and counts as a
 * document of length 0. With `options.pairs`, each text's words are handed to
 * it in the same pass (the task's word pairs, `_rank_pairs.ts`).
 *
 * @example
 * ```ts
 * import { bm25 } from "./_rank_lexical.ts";
 * const [a, b] = bm25(["the adapter sends", "a session"], ["adapter"]);
 * a.score > b.score; // true
 * // The last text scored against the first two only.
 * const [, , query] = bm25(["the adapter sends", "a session", "adapter"], ["adapter"], {
 *   corpus: 2,
 * });
 * query.score > a.score; // true
 * ```
 */
export function bm25(
  texts: readonly (string | undefined)[],
  terms: readonly string[],
  options: Bm25Options = {},
): FieldScore[] {
  const { pairs } = options;
  const index = formIndex(terms);
  const n = Math.min(options.corpus ?? texts.length, texts.length);
  const counts: Float64Array[] = [];
  const lengths = new Float64Array(texts.length);
  const df = new Int32Array(terms.length);
  let total = 0;
  const words = wordCounter(index, terms.length, pairs);
  for (let d = 0; d < texts.length; d++) {
    const tf = new Float64Array(terms.length);
    const text = texts[d];
    pairs?.start();
    const length = text === undefined ? 0 : words.count(text, tf);
    counts.push(tf);
    lengths[d] = length;
    if (d >= n) continue;
    for (let i = 0; i < terms.length; i++) if (tf[i] > 0) df[i]++;
    total += length;
  }
  const avg = n > 0 && total > 0 ? total / n : 1;
  const idf = terms.map((_, i) => Math.log(1 + (n - df[i] + 0.5) / (df[i] + 0.5)));
  return counts.map((tf, d) => {
    const norm = K1 * (1 - B + B * lengths[d] / avg);
    const parts: [string, number][] = [];
    let score = 0;
    for (let i = 0; i < terms.length; i++) {
      if (tf[i] === 0) continue;
      const part = idf[i] * tf[i] * (K1 + 1) / (tf[i] + norm);
      parts.push([terms[i], part]);
      score += part;
    }
    return { score, terms: parts };
  });
}

/**
 * Each term and each of its forms (`termForms`) that is no term itself -> what a word giving it
 * counts for: the term's index, or the index plus `terms.length` for a form (the first term's
 * when two terms share a form).
 */
function formIndex(terms: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  terms.forEach((t, i) => index.set(t, i));
  terms.forEach((t, i) => {
    for (const form of termForms(t)) if (!index.has(form)) index.set(form, i + terms.length);
  });
  return index;
}

/**
 * Counts a text's terms and, into `tf`, those of the task (by their index: a form of a term,
 * its index plus `count`, adds {@linkcode FORM_WEIGHT} to the term's), as `forEachTerm`
 * visits them. A word's terms are worked out once (code says the same names over and over): a
 * word is then one lookup, its value the number of its terms when none is the task's, else
 * `-(k + 1)` for the `k`th list of `hits` (its term count, its pair word's index or -1, then
 * the task terms' indexes). A word of a task's pair always holds one of the task's terms (its
 * joined form), so a word with no hit is never a pair word.
 */
function wordCounter(index: Map<string, number>, count: number, pairs?: PairFinder) {
  const known = new Map<string, number>();
  const hits: number[][] = [];
  const learn = (word: string): number => {
    // Bounded: a tree of millions of distinct words starts over, the counts unchanged.
    if (known.size >= MAX_KNOWN_WORDS) {
      known.clear();
      hits.length = 0;
    }
    const found = wordTerms(word);
    const mine = found.map((t) => index.get(t)).filter((i) => i !== undefined);
    const pair = mine.length && pairs ? pairs.form(word) : -1;
    const value = mine.length ? -(hits.push([found.length, pair, ...mine])) : found.length;
    known.set(word, value);
    return value;
  };
  const shapes = termShapes(index.keys());
  return {
    count(text: string, tf: Float64Array): number {
      let length = 0;
      forEachWordSpan(text, (start, end) => {
        // Most words can give no task term: counted as they are, never made (data files are
        // mostly words no task names).
        const plain = plainTermCount(text, start, end, shapes);
        if (plain >= 0) {
          length += plain;
          pairs?.see(-1);
          return;
        }
        const word = text.slice(start, end);
        const value = known.get(word) ?? learn(word);
        if (value >= 0) {
          length += value;
          pairs?.see(-1);
        } else {
          const list = hits[-value - 1];
          length += list[0];
          pairs?.see(list[1]);
          for (let k = 2; k < list.length; k++) {
            const at = list[k];
            if (at < count) tf[at]++;
            else tf[at - count] += FORM_WEIGHT;
          }
        }
      });
      countWork("rank", text.length + length);
      return length;
    },
  };
}

/** Most distinct words {@linkcode wordCounter} remembers. */
const MAX_KNOWN_WORDS = 1 << 20;

/** Terms sorted by their part, largest first, ties by term. */
export function topTerms(parts: [string, number][], count: number): [string, number][] {
  return [...parts].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).slice(0, count);
}
