/**
 * BM25 relevance of each file to a task, over two fields scored apart: the
 * file's contents and its path. Only the task's terms are counted, so memory
 * holds one count per task term and file, and the work is one pass over the
 * text.
 *
 * @module
 */

import { byCodeUnit, forEachTerm } from "./_rank_terms.ts";

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

/**
 * Score every text of `texts` against the sorted, distinct `terms` with BM25
 * (Okapi, `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`). An absent text scores
 * nothing and counts as a document of length 0.
 *
 * @example
 * ```ts
 * import { bm25 } from "./_rank_lexical.ts";
 * const [a, b] = bm25(["the adapter sends", "a session"], ["adapter"]);
 * a.score > b.score; // true
 * ```
 */
export function bm25(texts: (string | undefined)[], terms: string[]): FieldScore[] {
  const index = new Map<string, number>();
  terms.forEach((t, i) => index.set(t, i));
  const n = texts.length;
  const counts: Int32Array[] = [];
  const lengths = new Float64Array(n);
  const df = new Int32Array(terms.length);
  let total = 0;
  for (let d = 0; d < n; d++) {
    const tf = new Int32Array(terms.length);
    let length = 0;
    const text = texts[d];
    if (text !== undefined) {
      forEachTerm(text, (term) => {
        length++;
        const i = index.get(term);
        if (i !== undefined) tf[i]++;
      });
    }
    for (let i = 0; i < terms.length; i++) if (tf[i] > 0) df[i]++;
    counts.push(tf);
    lengths[d] = length;
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

/** Terms sorted by their part, largest first, ties by term. */
export function topTerms(parts: [string, number][], count: number): [string, number][] {
  return [...parts].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).slice(0, count);
}
