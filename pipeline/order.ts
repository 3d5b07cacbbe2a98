/**
 * Order stage: ordering rules (plugins) reorder blocks so that the most
 * stable come first; the stable prefix is every byte before the first
 * volatile block.
 *
 * @module
 */

import { callHook, isUserPlugin, orderingRules, type Registry } from "./registry.ts";
import {
  type FieldRecord,
  frozenConfig,
  pluginWarn,
  recordFields,
  restoreFields,
} from "./_plugin_context.ts";
import { countWork } from "./_work_count.ts";
import { hookErrorText } from "./error_text.ts";
import type { Block, OrderContext, PlacedBlock } from "./types.ts";
import { oneLine, typeName } from "./schema.ts";

/**
 * Run every ordering rule in registration order. A rule must return the same
 * blocks (none added, none lost, none changed): the blocks it returns are the
 * ones it was given, in its order.
 *
 * @example
 * ```ts
 * import { orderBlocks } from "./order.ts";
 * // const ordered = await orderBlocks(blocks, registry, ctx);
 * ```
 */
export async function orderBlocks(
  blocks: Block[],
  registry: Registry,
  ctx: OrderContext,
): Promise<Block[]> {
  let current = blocks;
  for (const rule of orderingRules(registry)) {
    // A config's rule gets its own list of the files, its own `warn` and a frozen copy of the
    // config (`_plugin_context.ts`).
    // A block it changes in place is put back, and the change is an error naming it.
    const user = isUserPlugin(rule);
    const context = user
      ? {
        ...ctx,
        files: [...ctx.files],
        config: frozenConfig(ctx.config),
        warn: pluginWarn(rule.name, ctx.warn),
      }
      : ctx;
    const record = user ? recordFields(current) : undefined;
    const given = current;
    const next = await callHook(rule, "order", () => rule.order([...given], context))
      .finally(() => record && changedBlock(rule.name, given, record));
    let reordered: Block[] | string;
    try {
      reordered = sameBlocks(current, next);
    } catch (error) {
      const detail = hookErrorText(error);
      reordered = `returned blocks that cannot be read: ${detail}`;
    }
    if (typeof reordered === "string") {
      throw new Error(`[plugin ${rule.name}] Hook "order" ${reordered}`);
    }
    current = reordered;
  }
  return current;
}

/** Throw when an ordering rule changed a block it was given (each put back as it was). */
function changedBlock(rule: string, blocks: Block[], record: FieldRecord): void {
  const changed = restoreFields(blocks, record);
  if (!changed) return;
  throw new Error(
    `[plugin ${rule}] Hook "order" changed block "${oneLine(blocks[changed.index].id)}" (its ` +
      `"${oneLine(changed.key)}"): rules may only reorder`,
  );
}

/**
 * The blocks `before` in the order of `after`, or what is wrong with `after`: a block of another
 * id, a copy whose text, section or stability is not its block's (a rule that rewrote a block's
 * text changed the document after its secrets were redacted).
 */
function sameBlocks(before: Block[], after: Block[]): Block[] | string {
  if (!Array.isArray(after)) return "must return an array of blocks";
  if (after.length !== before.length) {
    const count = after.length === 1 ? "1 block" : `${after.length} blocks`;
    return `returned ${count} for ${before.length}: rules may only reorder`;
  }
  // Where a block stayed in its place, it is the same: the others must be the same blocks in
  // another order. A rule that moves a few blocks (a one-file edit's) is checked on those alone,
  // not with a set of every block's id for each rule.
  const moved: number[] = [];
  for (let i = 0; i < before.length; i++) if (after[i] !== before[i]) moved.push(i);
  countWork("order check", moved.length);
  const byId = new Map(moved.map((i) => [before[i].id, before[i]]));
  const reordered = [...before];
  for (const i of moved) {
    const b = after[i];
    // An item that is no block (a number, an object without an id) is named by what it is, not
    // by an id it does not have.
    if (typeof b?.id !== "string") return `returned ${typeName(b)} at index ${i}, not a block`;
    const block = byId.get(b.id);
    if (!block) return `returned an unknown block "${oneLine(b.id)}"`;
    byId.delete(block.id);
    // The same block moved (the usual case) is not read: a file's text may be lazy.
    const changed = b === block
      ? undefined
      : (["text", "section", "stability"] as const).find((k) => b[k] !== block[k]);
    if (changed) {
      return `changed block "${block.id}" (its "${changed}"): rules may only reorder`;
    }
    reordered[i] = block;
  }
  return reordered;
}

/**
 * Index of the first volatile block (the end of the stable prefix), or the block count.
 *
 * @example
 * ```ts
 * import { prefixEnd } from "./order.ts";
 * const block = (id: string, stability: "stable" | "volatile") =>
 *   ({ id, section: "s", stability, text: id });
 * prefixEnd([block("a", "stable"), block("b", "volatile"), block("c", "stable")]); // 1
 * ```
 */
export function prefixEnd(blocks: Array<Block | PlacedBlock>): number {
  const i = blocks.findIndex((b) => b.stability === "volatile");
  return i < 0 ? blocks.length : i;
}
