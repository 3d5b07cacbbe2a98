/**
 * Exact token counts (o200k by default, cl100k on request): slop's compact
 * counter for everything, gpt-tokenizer's own as the reference in tests; and
 * a model's tokens by its table entry. Public to plugins (providers count
 * with it) as well as to the pipeline.
 *
 * @module
 */

import { loadCl100k, loadO200k } from "../deps.ts";
import { countTexts } from "./count.ts";
import type { ModelInfo, Tokenizer } from "./types.ts";

export type { Tokenizer };

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

/**
 * A model's tokens for a text of `o200k` tokens, when its tokenizer counts them by o200k (`o200k`,
 * `o200k-estimate`); `undefined` for another tokenizer (see {@linkcode modelTokens}). Made at once:
 * a plan of a big tree's blocks waited for a promise a block.
 *
 * @example
 * ```ts
 * import { tokensByO200k } from "./tokens.ts";
 * const info = {
 *   model: "m", minCacheTokens: 1024, ttls: ["5m"], breakpoints: false,
 *   tokenizer: "o200k-estimate" as const, tokenFactor: 1.5,
 *   prices: { input: 1, output: 1, cacheRead: 0.1 },
 * };
 * tokensByO200k(10, info); // 15
 * ```
 */
export function tokensByO200k(o200k: number, info: ModelInfo): number | undefined {
  if (info.tokenizer === "o200k") return o200k;
  if (info.tokenizer === "o200k-estimate") return Math.ceil(o200k * (info.tokenFactor ?? 1));
  return undefined;
}

/**
 * A model's tokens for a text: exact with o200k/cl100k, else the documented
 * estimate (`o200k-estimate`: o200k tokens × factor; `chars-estimate`:
 * characters × factor, CJK characters counted twice).
 *
 * @example
 * ```ts
 * import { modelTokens } from "./tokens.ts";
 * const info = {
 *   model: "m", minCacheTokens: 1024, ttls: ["5m"], breakpoints: false,
 *   tokenizer: "chars-estimate" as const, tokenFactor: 0.25,
 *   prices: { input: 1, output: 1, cacheRead: 0.1 },
 * };
 * await modelTokens("abcdefgh", info); // 2
 * ```
 */
export async function modelTokens(
  text: string,
  info: ModelInfo,
  o200k?: number,
): Promise<number> {
  const factor = info.tokenFactor ?? 1;
  switch (info.tokenizer) {
    case "o200k":
    case "o200k-estimate":
      return tokensByO200k(o200k ?? await countTokens(text, "o200k"), info)!;
    case "cl100k":
      return await countTokens(text, "cl100k");
    case "chars-estimate": {
      const cjk = text.match(/[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]/g)?.length ?? 0;
      return Math.ceil((text.length + cjk) * factor);
    }
  }
}
