/**
 * Word pairs: the task's neighbouring words ("connection pool", `Session.get` as "session get")
 * found next to each other in a file. BM25 counts each word of the task apart, so a file that
 * says "connection" in one place and "pool" in another scores as one that says "connection
 * pool"; a pair standing together is closer to what the task is about. Each pair found counts
 * its idf over the files (a pair in every file says nothing), once per file. Measured on the
 * relevance bench (see bench/README.md, "Task relevance", thirteenth session).
 *
 * @module
 */

import { forEachWord, isStopWord } from "./_rank_terms.ts";

/** A word shorter than this makes no pair (`id`, `ok`, `v2`). */
const MIN_PAIR_WORD = 3;

/** Each file's pair score, with the pairs it holds. */
export interface PairScore {
  /** The sum of the idf of each pair the file holds (0 for none). */
  score: number;
  /** Pair (`"connection pool"`) -> its part of the score, in the task's pair order. */
  pairs: [string, number][];
}

/** A word as a pair compares it: lowercased, `_` and `-` dropped (`get_url`, `getURL` alike). */
function pairWord(word: string): string {
  return word.toLowerCase().replace(/[_-]/g, "");
}

/**
 * The task's pairs of neighbouring words, in the order of the task, each once: two words next
 * to each other in the text, each of at least 3 characters and neither a stop word.
 *
 * @example
 * ```ts
 * import { taskPairs } from "./_rank_pairs.ts";
 * taskPairs("Close the connection pool in Session.get"); // ["connection pool", "session get"]
 * ```
 */
export function taskPairs(task: string): string[] {
  const words: string[] = [];
  forEachWord(task, (w) => words.push(pairWord(w)));
  const seen = new Set<string>();
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1], words[i]];
    if (!usable(a) || !usable(b)) continue;
    seen.add(`${a} ${b}`);
  }
  return [...seen];
}

function usable(word: string): boolean {
  return word.length >= MIN_PAIR_WORD && !isStopWord(word);
}

/**
 * Finds the task's pairs in texts, one word at a time: {@linkcode PairFinder.form} tells which
 * pair word a word of the text is, {@linkcode PairFinder.see} takes each word of a text in order
 * (the BM25 pass over the contents calls it, so the words are read once for both), and
 * {@linkcode PairFinder.scores} gives each text's score.
 *
 * @example
 * ```ts
 * import { PairFinder } from "./_rank_pairs.ts";
 * const finder = new PairFinder(["connection pool"]);
 * for (const text of ["connection pool", "pool connection"]) {
 *   finder.start();
 *   for (const w of text.split(" ")) finder.see(finder.form(w));
 * }
 * finder.scores().map((s) => s.score > 0); // [true, false]
 * ```
 */
export class PairFinder {
  readonly #pairs: string[];
  /** Pair word -> its index in #words. */
  readonly #words = new Map<string, number>();
  /** First word index * words + second word index -> the pair's index. */
  readonly #pairOf = new Map<number, number>();
  readonly #found: Uint8Array[] = [];
  #df: Int32Array;
  #has: Uint8Array | undefined;
  #last = -1;

  constructor(pairs: string[]) {
    this.#pairs = pairs;
    this.#df = new Int32Array(pairs.length);
    const words = pairs.flatMap((p) => p.split(" "));
    for (const w of words) if (!this.#words.has(w)) this.#words.set(w, this.#words.size);
    pairs.forEach((p, i) => {
      const [a, b] = p.split(" ").map((w) => this.#words.get(w)!);
      this.#pairOf.set(a * this.#words.size + b, i);
    });
  }

  /** Which pair word `word` of a text is (its index), or -1 for none. */
  form(word: string): number {
    return this.#words.get(pairWord(word)) ?? -1;
  }

  /** Starts the next text. */
  start(): void {
    this.#has = new Uint8Array(this.#pairs.length);
    this.#found.push(this.#has);
    this.#last = -1;
  }

  /** The next word of the text, as {@linkcode form} gave it. */
  see(form: number): void {
    if (this.#last >= 0 && form >= 0) {
      const i = this.#pairOf.get(this.#last * this.#words.size + form);
      if (i !== undefined && !this.#has![i]) (this.#has![i] = 1, this.#df[i]++);
    }
    this.#last = form;
  }

  /** Each text's score: the idf, `ln(1 + (N - df + 0.5) / (df + 0.5))`, of each pair it holds. */
  scores(): PairScore[] {
    const n = this.#found.length;
    const idf = this.#pairs.map((_, i) =>
      Math.log(1 + (n - this.#df[i] + 0.5) / (this.#df[i] + 0.5))
    );
    return this.#found.map((has) => {
      let score = 0;
      const parts: [string, number][] = [];
      for (let i = 0; i < this.#pairs.length; i++) {
        if (!has[i]) continue;
        parts.push([this.#pairs[i], idf[i]]);
        score += idf[i];
      }
      return { score, pairs: parts };
    });
  }
}

/**
 * Score every text of `texts` by the pairs of `pairs` (see {@linkcode taskPairs}) it holds: each
 * found pair adds its idf over the N texts, once a text. An absent text scores nothing. The
 * ranking finds the pairs in its BM25 pass instead (`bm25` of `_rank_lexical.ts`).
 *
 * @example
 * ```ts
 * import { pairScores } from "./_rank_pairs.ts";
 * const [a, b] = pairScores(["a connection pool", "pool of connection"], ["connection pool"]);
 * a.score > 0 && b.score === 0; // true
 * ```
 */
export function pairScores(texts: (string | undefined)[], pairs: string[]): PairScore[] {
  const finder = new PairFinder(pairs);
  for (const text of texts) {
    finder.start();
    if (text !== undefined) forEachWord(text, (word) => finder.see(finder.form(word)));
  }
  return finder.scores();
}
