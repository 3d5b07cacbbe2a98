/**
 * Exact token counts (o200k by default, cl100k on request): slop's compact
 * counter for everything, gpt-tokenizer's own as the reference in tests.
 *
 * @module
 */

import { loadCl100k, loadO200k } from "../deps.ts";
import { countTexts } from "./count.ts";

/** Tokenizers slop counts with. */
export type Tokenizer = "o200k" | "cl100k";

type Counter = (text: string) => number;
const references = new Map<Tokenizer, Promise<Counter>>();

/**
 * gpt-tokenizer's own counter (loaded once per process): the reference that
 * slop's compact counter ({@linkcode countTokens}) is tested against. Its
 * merges are quadratic in a pre-token's length, so a megabyte-long run
 * (minified code, a base64 blob) takes minutes: builds never use it.
 *
 * @example
 * ```ts
 * import { referenceCounter } from "./tokens.ts";
 * const count = await referenceCounter("o200k");
 * count("hello world"); // 2
 * ```
 */
export function referenceCounter(tokenizer: Tokenizer = "o200k"): Promise<Counter> {
  let counter = references.get(tokenizer);
  if (!counter) {
    counter = (tokenizer === "cl100k" ? loadCl100k() : loadO200k()).then((mod) => {
      // Special-token text in files is content, not control tokens.
      const options = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
      return (text: string) => text ? mod.countTokens(text, options) : 0;
    });
    references.set(tokenizer, counter);
  }
  return counter;
}

/**
 * Count tokens of a text exactly (o200k or cl100k), with the same compact
 * BPE counter builds use (`pipeline/count.ts`): gpt-tokenizer's counts, in
 * time that grows gently with the length of a run.
 *
 * @example
 * ```ts
 * import { countTokens } from "./tokens.ts";
 * await countTokens("hello world"); // 2
 * ```
 */
export async function countTokens(text: string, tokenizer: Tokenizer = "o200k"): Promise<number> {
  const [count] = await countTexts([text], { tokenizer, workers: 1 });
  return count;
}
