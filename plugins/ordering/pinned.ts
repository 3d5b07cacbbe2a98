/**
 * The `pinned` rule: an explicit file order from `ordering.pinned` (paths or
 * globs). Files matching the first pattern come first in the files section,
 * then those of the second, and so on; the rest keep the order earlier rules
 * gave them. Without `ordering.pinned` it does nothing.
 *
 * @module
 */

import { loadGlobs } from "../../deps.ts";
import { compileGlobs, globPrefix, startsIndex } from "../../pipeline/paths.ts";
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
  // The files' paths and folders (`src/`, `src/lib/`), to tell a pattern that names one.
  const names = new Set<string>();
  for (const { source } of files) {
    names.add(source!);
    for (let i = source!.indexOf("/"); i !== -1; i = source!.indexOf("/", i + 1)) {
      names.add(source!.slice(0, i + 1));
    }
  }
  const tests = patterns.map((raw) => {
    const pattern = normalizeEntryPath(raw);
    const folder = pattern.endsWith("/") ? pattern : pattern + "/";
    const literal = (p: string) => p === pattern || p.startsWith(folder);
    // A pattern that is exactly a file's or folder's path (`app/[slug]`) names it: not a glob.
    if (!isGlob(pattern) || names.has(pattern) || names.has(folder)) {
      return { start: pattern.replace(/\/$/, ""), match: literal };
    }
    return { start: globPrefix(pattern), match: compileGlobs(pattern, { dot: true }) };
  });
  // Each file goes with the first pattern it matches, trying only those whose start it has: a
  // list of thousands of patterns is not tried whole on each file.
  const starts = startsIndex(tests.map((t) => t.start));
  const rank = new Map<Block, number>();
  for (const b of files) {
    const first = starts(b.source!).find((i) => tests[i].match(b.source!));
    if (first !== undefined) rank.set(b, first);
  }
  const front = files.filter((b) => rank.has(b)).sort((a, b) => rank.get(a)! - rank.get(b)!);
  const order = [...front, ...files.filter((b) => !rank.has(b))];
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
