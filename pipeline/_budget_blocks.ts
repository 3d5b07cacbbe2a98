/**
 * One file's block tokens as the budget stage's assembly would place them,
 * without assembling the document: the built-in files section composed for
 * that file alone, placed with the build's token counts. Given only where a
 * file's block depends on that file alone: markdown output (XML numbers the
 * documents, and XML and JSON wrap the first and last blocks) with the
 * built-in files section. The budget checks the counts on the assembled
 * document (`_budget_measure.ts`).
 *
 * @module
 */

import { callHook, type Registry, sections } from "./registry.ts";
import { placeBlocks } from "./emit.ts";
import type { CompleteFn, RenderedFile, ResolvedConfig } from "./types.ts";

/** The name of the built-in files section, whose blocks this counts. */
const FILES_SECTION = "slop:files";

/**
 * A counter of one file's block tokens for `fitBudget`'s `fileTokens`, or
 * undefined when a file's block may depend on the other files.
 * `tokenCache` is the build's token counts by block sha256 (counts made
 * here are added to it, as the assembly's are).
 *
 * @example
 * ```ts
 * import { fileBlockTokens } from "./_budget_blocks.ts";
 * // const count = fileBlockTokens({ config, registry, complete }, counted.counts);
 * // await count?.(file); // 132
 * ```
 */
export function fileBlockTokens(
  run: { config: ResolvedConfig; registry: Registry; complete: CompleteFn },
  tokenCache: Map<string, number>,
): ((file: RenderedFile) => Promise<number | undefined>) | undefined {
  const { config, registry, complete } = run;
  if (config.output.format !== "markdown") return undefined;
  const plugin = sections(registry).find((p) => p.name === FILES_SECTION);
  if (!plugin) return undefined;
  const ctx = {
    warn: () => {},
    complete,
    listFiles: () => Promise.resolve([]),
    // The files section counted here cuts no text.
    cutOutsideSecrets: (_: string, at: number) => at,
  };
  const tokenizer = config.budget.tokenizer;
  return async (file) => {
    const state = { config, files: [file], root: config.root, stateDir: config.stateDir };
    const blocks = await callHook(plugin, "compose", () => plugin.compose(state, ctx));
    const block = blocks.find((b) => b.source === file.path);
    if (!block) return undefined;
    const [placed] = await placeBlocks([block], { tokenizer, tokenCache });
    return placed.tokens;
  };
}
