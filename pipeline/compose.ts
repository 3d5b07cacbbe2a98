/**
 * Compose stage: each section plugin turns the build state into blocks.
 *
 * @module
 */

import { textBacking } from "./lazy_text.ts";
import { derived } from "./helpers.ts";
import { callHook, type Registry, sections } from "./registry.ts";
import { walk } from "./resolve.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import { cutOutsideSecrets } from "./_scan.ts";
import type { Block, BuildState, SectionContext } from "./types.ts";

const STABILITIES = new Set(["static", "stable", "volatile"]);

/**
 * Run every section plugin in registration order and collect their blocks.
 * A block with a bad shape or a duplicate id is an error naming the plugin.
 * The plugins' context adds `listFiles` (the root walked once, when first asked; a path that
 * holds a secret is left out, as the resolve stage leaves it out of the files) and
 * `cutOutsideSecrets` (with the config's own rules), and `derived` (`derived()` of `helpers.ts`,
 * which makes each value now, unless `options` hands the build's memo).
 *
 * @example
 * ```ts
 * import { composeBlocks } from "./compose.ts";
 * // const blocks = await composeBlocks(state, registry, { warn: console.warn, complete });
 * ```
 */
export async function composeBlocks(
  state: BuildState,
  registry: Registry,
  options: Omit<SectionContext, "listFiles" | "cutOutsideSecrets">,
): Promise<Block[]> {
  const made = options.derived ?? derived;
  let listed: Promise<string[]> | undefined;
  const rules = state.config.secrets.rules;
  const list = async () => splitSecretPaths(await walk(state.root), rules).kept;
  const ctx: SectionContext = {
    ...options,
    derived: made,
    listFiles: async () => [...await (listed ??= list())],
    cutOutsideSecrets: (text, at, cut) => cutOutsideSecrets(text, at, { ...cut, rules }),
  };
  const blocks: Block[] = [];
  const ids = new Map<string, string>();
  for (const plugin of sections(registry)) {
    const out = await callHook(plugin, "compose", () => plugin.compose(state, ctx));
    if (!Array.isArray(out)) {
      throw new Error(`[plugin ${plugin.name}] Hook "compose" must return an array of blocks`);
    }
    for (let i = 0; i < out.length; i++) {
      const block = out[i];
      const problem = checkBlock(block);
      if (problem) {
        throw new Error(`[plugin ${plugin.name}] Invalid block ${i} from "compose": ${problem}`);
      }
      const owner = ids.get(block.id);
      if (owner) {
        throw new Error(
          `[plugin ${plugin.name}] Duplicate block id "${block.id}" (already used by ${owner})`,
        );
      }
      ids.set(block.id, plugin.name);
      blocks.push(wellFormed(block));
    }
  }
  return blocks;
}

/**
 * The block with each lone surrogate of its text (config text: an inline history, a task, a
 * plugin's string) as U+FFFD, which the written document holds in its place: the document a
 * build returns, its JSON and its file then hold the same text. A lazy text is a file's, read as
 * UTF-8, and stays unread.
 */
function wellFormed(block: Block): Block {
  if (textBacking(block) || block.text.isWellFormed()) return block;
  return { ...block, text: block.text.toWellFormed() };
}

function checkBlock(block: Block): string | undefined {
  if (typeof block !== "object" || block === null) return "expected an object";
  if (typeof block.id !== "string" || !block.id) return `"id" must be a non-empty string`;
  if (typeof block.section !== "string") return `"section" must be a string`;
  if (!STABILITIES.has(block.stability)) {
    return `"stability" must be "static", "stable" or "volatile", got "${block.stability}"`;
  }
  // A lazy text (`lazy_text.ts`) is a string when read: not read here for the check.
  if (!textBacking(block) && typeof block.text !== "string") return `"text" must be a string`;
  return undefined;
}
