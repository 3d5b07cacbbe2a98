/**
 * Exact token counts with gpt-tokenizer (o200k by default, cl100k on
 * request). The tokenizer module is loaded on first use only.
 *
 * @module
 */

import { loadCl100k, loadO200k } from "../deps.ts";

/** Tokenizers slop counts with. */
export type Tokenizer = "o200k" | "cl100k";

type Counter = (text: string) => number;
const counters = new Map<Tokenizer, Promise<Counter>>();

/**
 * Load a token counter (once per process).
 *
 * @example
 * ```ts
 * import { tokenCounter } from "./tokens.ts";
 * const count = await tokenCounter("o200k");
 * count("hello world"); // 2
 * ```
 */
export function tokenCounter(tokenizer: Tokenizer = "o200k"): Promise<Counter> {
  let counter = counters.get(tokenizer);
  if (!counter) {
    counter = (tokenizer === "cl100k" ? loadCl100k() : loadO200k()).then((mod) => {
      // Special-token text in files is content, not control tokens.
      const options = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
      return (text: string) => text ? countInRuns(text, (t) => mod.countTokens(t, options)) : 0;
    });
    counters.set(tokenizer, counter);
  }
  return counter;
}

/** Longest run of whitespace or non-whitespace counted in one piece (BPE is quadratic in it). */
const MAX_RUN = 1024;

/**
 * Count a text, cutting runs longer than {@linkcode MAX_RUN} characters
 * (a minified line, a 1 MB base64 blob, a wall of spaces) into chunks: BPE
 * merges are quadratic in a run's length, so such a run would otherwise take
 * minutes. Texts without such runs (nearly all) are counted exactly.
 */
function countInRuns(text: string, count: (text: string) => number): number {
  const runs = longRuns(text);
  if (!runs.length) return count(text);
  let total = 0;
  let at = 0;
  for (const [start, end] of runs) {
    if (start > at) total += count(text.slice(at, start));
    for (let i = start; i < end; i += MAX_RUN) {
      total += count(text.slice(i, Math.min(end, i + MAX_RUN)));
    }
    at = end;
  }
  return total + (at < text.length ? count(text.slice(at)) : 0);
}

/** [start, end) of every run of whitespace or of non-whitespace longer than MAX_RUN. */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  if (text.length <= MAX_RUN) return runs;
  let start = 0;
  let space = isSpace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const s = i < text.length ? isSpace(text.charCodeAt(i)) : !space;
    if (s !== space) {
      if (i - start > MAX_RUN) runs.push([start, i]);
      start = i;
      space = s;
    }
  }
  return runs;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * Count tokens of a text.
 *
 * @example
 * ```ts
 * import { countTokens } from "./tokens.ts";
 * await countTokens("hello world"); // 2
 * ```
 */
export async function countTokens(text: string, tokenizer: Tokenizer = "o200k"): Promise<number> {
  return (await tokenCounter(tokenizer))(text);
}

/**
 * The tokenizers this thread has loaded so far (a warm build loads none).
 *
 * @example
 * ```ts
 * import { loadedTokenizers } from "./tokens.ts";
 * loadedTokenizers(); // [] until something is counted
 * ```
 */
export function loadedTokenizers(): Tokenizer[] {
  return [...counters.keys()].sort();
}
