/**
 * The `files` section: `## Files` then one block per rendered file
 * (`### path` + fenced content). Skipped files get no block; they are
 * listed in the manifest.
 *
 * @module
 */

import type { Block, BuildState, SectionPlugin } from "../../pipeline/types.ts";
import { isLazyText } from "../../pipeline/helpers.ts";
import { fileBlockOf } from "./_render.ts";

/** Options of {@linkcode filesSection} (none yet). */
export type FilesOptions = Record<never, never>;

/**
 * The section heading for a build: the seed's three variants.
 *
 * @example
 * ```ts
 * import { filesHeading } from "./files.ts";
 * // filesHeading(state) === "## Files"
 * ```
 */
export function filesHeading(state: BuildState): string {
  const { strategy, summaryOnly, tier } = state.config;
  if (tier === 3) return "## Files (Tier 3 - Focused)";
  if (strategy === "summarize" || (strategy === "auto" && summaryOnly)) return "## Files (Summary)";
  return "## Files";
}

/**
 * The `files` section plugin.
 *
 * @example
 * ```ts
 * import { filesSection } from "./files.ts";
 * filesSection().name; // "slop:files"
 * ```
 */
export function filesSection(_options: FilesOptions = {}): SectionPlugin {
  return {
    kind: "section",
    name: "slop:files",
    compose(state, ctx) {
      // A lazy text is there without reading it (`isLazyText`).
      const shown = state.files.filter((f) =>
        f.status !== "skipped" && (isLazyText(f) || f.text !== undefined)
      );
      if (!shown.length) return [];
      const blocks: Block[] = [{
        id: "files",
        section: "files",
        stability: "stable",
        heading: true,
        text: `${filesHeading(state)}\n\n`,
      }];
      for (const file of shown) blocks.push(fileBlockOf(file, ctx));
      return blocks;
    },
  };
}
