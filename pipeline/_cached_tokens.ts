/**
 * Token counts of the texts the budget and the task stages weigh (a file stepped down to a view,
 * a task candidate in its own view), kept in the build's cache by the text's sha256 as the count
 * stage keeps the document's blocks: a warm build takes them from there instead of counting
 * megabytes of text again.
 *
 * @module
 */

import type { Cache } from "./cache.ts";
import { isCount, tokenCountKey } from "./count.ts";
import { sha256 } from "./read.ts";
import { countTokens } from "./tokens.ts";
import type { Tokenizer } from "./types.ts";

/**
 * Texts shorter than this (characters) are counted, not looked up: counting them costs about
 * what hashing them and reading the cache costs.
 */
const MIN_CACHED_CHARS = 512;

/**
 * The tokens of `text`: from the cache when it has them (by `tokenizer` and the text's sha256),
 * else counted and stored. The same count as `countTokens` gives; without a cache, that.
 *
 * @example
 * ```ts
 * import { cachedTokens } from "./_cached_tokens.ts";
 * await cachedTokens("hello world", { tokenizer: "o200k" }); // 2
 * ```
 */
export async function cachedTokens(
  text: string,
  options: { tokenizer?: Tokenizer; cache?: Cache },
): Promise<number> {
  const { tokenizer = "o200k", cache } = options;
  if (!cache?.enabled || text.length < MIN_CACHED_CHARS) return await countTokens(text, tokenizer);
  const key = tokenCountKey(tokenizer, sha256(text));
  const kept = await cache.get<number>(key);
  if (isCount(kept)) return kept;
  const tokens = await countTokens(text, tokenizer);
  await cache.set(key, tokens);
  return tokens;
}
