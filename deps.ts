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

/** secretlint's core and recommended preset, loaded on first use (only when a file needs a scan). */
export async function loadSecretlint(): Promise<{
  lintSource: typeof import("npm:@secretlint/core@13.0.7").lintSource;
  preset: typeof import("npm:@secretlint/secretlint-rule-preset-recommend@13.0.7").creator;
}> {
  const [core, preset] = await Promise.all([
    import("npm:@secretlint/core@13.0.7"),
    import("npm:@secretlint/secretlint-rule-preset-recommend@13.0.7"),
  ]);
  return { lintSource: core.lintSource, preset: preset.creator };
}

/** The cl100k tokenizer, loaded on first use. */
export function loadCl100k(): Promise<
  typeof import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base")
> {
  return import("npm:gpt-tokenizer@3.4.0/encoding/cl100k_base");
}
