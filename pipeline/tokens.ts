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
      return (text: string) => text ? mod.countTokens(text, options) : 0;
    });
    counters.set(tokenizer, counter);
  }
  return counter;
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
