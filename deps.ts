/**
 * Every external module slop uses, imported in one place with full `npm:`
 * specifiers, so that slop also works when another project imports `mod.ts`
 * or runs `cli.ts` by path (an import map in slop's deno.json would not apply).
 *
 * @module
 */

export { Command, CommanderError, Option } from "npm:commander@14.0.2";
export { default as picomatch } from "npm:picomatch@4.0.3";
export { default as ignore } from "npm:ignore@7.0.5";
export type { Ignore } from "npm:ignore@7.0.5";
export { parse as parseToml, stringify as stringifyToml, TomlError } from "npm:smol-toml@1.4.2";

/** The o200k tokenizer, loaded on first use (a warm build never loads it). */
export function loadO200k(): Promise<typeof import("npm:gpt-tokenizer@3.4.0/encoding/o200k_base")> {
  return import("npm:gpt-tokenizer@3.4.0/encoding/o200k_base");
}

/** The cl100k tokenizer, loaded on first use. */
export function loadCl100k(): Promise<
  typeof import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base")
> {
  return import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base");
}

/** gpt-tokenizer's o200k ranks and split pattern, for slop's compact counter (`pipeline/_bpe.ts`). */
export async function loadO200kRanks(): Promise<{ ranks: (string | number[])[]; split: RegExp }> {
  const [ranks, params] = await Promise.all([
    import("npm:gpt-tokenizer@3.4.0/bpeRanks/o200k_base"),
    import("npm:gpt-tokenizer@3.4.0/encodingParams/constants"),
  ]);
  return { ranks: ranks.default, split: params.O200K_TOKEN_SPLIT_REGEX };
}

/** gpt-tokenizer's cl100k ranks and split pattern. */
export async function loadCl100kRanks(): Promise<{ ranks: (string | number[])[]; split: RegExp }> {
  const [ranks, params] = await Promise.all([
    import("npm:gpt-tokenizer@3.4.0/bpeRanks/cl100k_base"),
    import("npm:gpt-tokenizer@3.4.0/encodingParams/constants"),
  ]);
  return { ranks: ranks.default, split: params.CL100K_TOKEN_SPLIT_REGEX };
}
