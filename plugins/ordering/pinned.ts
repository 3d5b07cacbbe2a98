/**
 * The `pinned` rule: an explicit file order from `ordering.pinned` (paths or
 * globs). Files matching the first pattern come first in the files section,
 * then those of the second, and so on; the rest keep the order earlier rules
 * gave them. Without `ordering.pinned` it does nothing.
 *
 * @module
 */

import { loadGlobs } from "../../deps.ts";
import { compileGlobs } from "../../pipeline/paths.ts";
import { isGlob, normalizeEntryPath } from "../../pipeline/helpers.ts";
import type { Block, OrderingPlugin } from "../../pipeline/types.ts";

/** Options of {@linkcode pinnedOrdering}. */
export interface PinnedOptions {
  /** Patterns to use instead of the config's `ordering.pinned`. */
  pinned?: string[];
}

/**
 * Move the file blocks matching `patterns` to the front of their section's
 * file positions, pattern by pattern. Globs beyond literal, `*` and `**`
 * segments need picomatch loaded first (`await loadGlobs(patterns)`, exported
 * by `mod.ts`; the plugin does it).
 *
 * @example
 * ```ts
 * import { pinBlocks } from "./pinned.ts";
 * const f = (p: string) => ({ id: `files:${p}`, section: "files", stability: "stable" as const, text: "", source: p });
 * pinBlocks([f("a.ts"), f("README.md")], ["README.md"]).map((b) => b.source); // ["README.md", "a.ts"]
 * ```
 */
export function pinBlocks(blocks: Block[], patterns: string[]): Block[] {
  const slots = blocks.flatMap((b, i) =>
    b.section === "files" && b.source !== undefined && !b.heading ? [i] : []
  );
  const files = slots.map((i) => blocks[i]);
  const taken = new Set<Block>();
  const front: Block[] = [];
  for (const raw of patterns) {
    const pattern = normalizeEntryPath(raw);
    const folder = pattern.endsWith("/") ? pattern : pattern + "/";
    const literal = (p: string) => p === pattern || p.startsWith(folder);
    // A pattern that is exactly a file's or folder's path (`app/[slug]`) names it: not a glob.
    const match = isGlob(pattern) && !files.some((b) => literal(b.source!))
      ? compileGlobs(pattern, { dot: true })
      : literal;
    for (const b of files) {
      if (!taken.has(b) && match(b.source!)) {
        taken.add(b);
        front.push(b);
      }
    }
  }
  const order = [...front, ...files.filter((b) => !taken.has(b))];
  const out = [...blocks];
  slots.forEach((slot, k) => (out[slot] = order[k]));
  return out;
}

/**
 * The `pinned` ordering plugin.
 *
 * @example
 * ```ts
 * import { pinnedOrdering } from "./pinned.ts";
 * pinnedOrdering().name; // "slop:pinned"
 * ```
 */
export function pinnedOrdering(options: PinnedOptions = {}): OrderingPlugin {
  return {
    kind: "ordering",
    name: "slop:pinned",
    async order(blocks, ctx) {
      const patterns = options.pinned ?? ctx.config.ordering.pinned ?? [];
      if (!patterns.length) return blocks;
      await loadGlobs(patterns.map(normalizeEntryPath).filter(isGlob));
      return pinBlocks(blocks, patterns);
    },
  };
}
