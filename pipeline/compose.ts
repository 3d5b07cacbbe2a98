/**
 * Compose stage: each section plugin turns the build state into blocks.
 *
 * @module
 */

import { textBacking } from "./lazy_text.ts";
import { hookErrorText } from "./error_text.ts";
import {
  type FieldRecord,
  frozenConfig,
  pluginWarn,
  recordFields,
  restoreFields,
} from "./_plugin_context.ts";
import { derived } from "./helpers.ts";
import { callHook, isUserPlugin, type Registry, sections } from "./registry.ts";
import { walk } from "./resolve.ts";
import { splitSecretPaths } from "./_secret_paths.ts";
import { cutOutsideSecrets } from "./_scan.ts";
import type { Block, BuildState, RenderedFile, SectionContext } from "./types.ts";
import { PluginError } from "./helpers.ts";
import { oneLine } from "./schema.ts";

const STABILITIES = new Set(["static", "stable", "volatile"]);

/** The fields of a block (`types.ts`'s `Block`). */
const BLOCK_FIELDS = ["id", "section", "stability", "text", "source", "heading", "notes"];

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
    // A config's plugin gets its own list of the files, its own `warn` and a frozen copy of the
    // config (`_plugin_context.ts`).
    // A file it changes is put back, and the change is an error naming it: the files are the
    // document's and the manifest's (and a build server's for the next build).
    const user = isUserPlugin(plugin);
    const given = user
      ? { ...state, files: [...state.files], config: frozenConfig(state.config) }
      : state;
    const context = user ? { ...ctx, warn: pluginWarn(plugin.name, ctx.warn) } : ctx;
    const record = user ? recordFields(state.files) : undefined;
    const out = await callHook(plugin, "compose", () => plugin.compose(given, context))
      .finally(() => record && changedFile(plugin.name, state.files, record));
    for (const block of ownBlocks(out, plugin.name, isUserPlugin(plugin))) {
      const owner = ids.get(block.id);
      if (owner) {
        throw new Error(
          `[plugin ${plugin.name}] Duplicate block id "${block.id}" (already used by ${owner})`,
        );
      }
      ids.set(block.id, plugin.name);
      blocks.push(block);
    }
  }
  return blocks;
}

/** Throw when a section changed a file it was given (each put back as it was). */
function changedFile(plugin: string, files: RenderedFile[], record: FieldRecord): void {
  const changed = restoreFields(files, record);
  if (!changed) return;
  throw new PluginError(
    plugin,
    "compose",
    `Hook "compose" changed the file "${oneLine(files[changed.index].path)}" it was given (its ` +
      `"${oneLine(changed.key)}"): a section may only read the files`,
  );
}

/**
 * The blocks a section's `compose` returned, each read once into a plain block: an accessor is
 * read once, so one that throws is an error naming the plugin (it was slop's own error, naming
 * nothing), and one that gives another value at each read cannot make the document's bytes differ
 * from the block's hash (they did). A lone surrogate of a text (config text: an inline history, a
 * task, a plugin's string) is U+FFFD, as the written document holds it, and so is a NUL. A lazy text
 * (`lazy_text.ts`, a file's, read as UTF-8) is slop's own and stays unread.
 */
function ownBlocks(out: unknown, plugin: string, copied: boolean): Block[] {
  if (!Array.isArray(out)) {
    throw new Error(`[plugin ${plugin}] Hook "compose" must return an array of blocks`);
  }
  const blocks: Block[] = [];
  let i = -1;
  try {
    const items = Array.from(out as unknown[]);
    for (i = 0; i < items.length; i++) {
      const block = plainBlock(items[i], copied);
      if (typeof block === "string") {
        throw new Error(`[plugin ${plugin}] Invalid block ${i} from "compose": ${block}`);
      }
      blocks.push(block);
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`[plugin ${plugin}] `)) throw error;
    const detail = hookErrorText(error);
    throw new Error(
      i < 0
        ? `[plugin ${plugin}] Hook "compose" returned an array that cannot be read: ${detail}`
        : `[plugin ${plugin}] Invalid block ${i} from "compose": reading it threw: ${detail}`,
    );
  }
  return blocks;
}

/**
 * The block `value` read once into a plain object (`copied`: a config's plugin's; slop's own are
 * checked as they are), or what is wrong with it.
 */
function plainBlock(value: unknown, copied: boolean): Block | string {
  if (typeof value !== "object" || value === null) return "expected an object";
  const given = value as Record<string, unknown>;
  if (!copied || textBacking(given)) {
    const problem = checkBlock(given as unknown as Block);
    if (problem) return problem;
    const block = given as unknown as Block;
    if (textBacking(given) || writable(block.text)) return block;
    return { ...block, text: asWritten(block.text) };
  }
  // Each own field once (a getter's value), then the block's fields an object inherits (a class's
  // getters), each once too.
  const block = { ...given } as Record<string, unknown>;
  for (const key of BLOCK_FIELDS) {
    if (!Object.hasOwn(given, key) && key in given) block[key] = given[key];
  }
  if (Array.isArray(block.notes)) block.notes = Array.from(block.notes as unknown[]);
  const problem = checkBlock(block as unknown as Block);
  if (problem) return problem;
  const text = block.text as string;
  if (!writable(text)) block.text = asWritten(text);
  return block as unknown as Block;
}

/** Whether a block's text goes into the document as it is: no lone surrogate, no NUL. */
function writable(text: string): boolean {
  return text.isWellFormed() && !text.includes("\0");
}

/**
 * A block's text with each lone surrogate and each NUL (U+0000) as U+FFFD: a NUL that a JSON or
 * TOML text escapes (`"\u0000"` in a history message or a Beads issue, a plugin's string) went into
 * the document as the byte a file of text never holds (one with it is skipped as binary).
 */
function asWritten(text: string): string {
  return text.toWellFormed().replaceAll("\0", "\uFFFD");
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
  if (block.source !== undefined && typeof block.source !== "string") {
    return `"source" must be a string`;
  }
  if (block.heading !== undefined && typeof block.heading !== "boolean") {
    return `"heading" must be true or false`;
  }
  const notes = block.notes as unknown;
  if (notes !== undefined && !(Array.isArray(notes) && notes.every((n) => typeof n === "string"))) {
    return `"notes" must be an array of strings`;
  }
  return undefined;
}
