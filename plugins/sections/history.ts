/**
 * The `history` section: `## Discussion History`, one `### Discussion
 * Excerpt N` per message (`role: content`), joined by `---`. Volatile, so
 * it always sits after the stable prefix.
 *
 * @module
 */

import type { SectionPlugin } from "../../pipeline/types.ts";
import { type HistoryEntry, loadHistory } from "./_history.ts";

/** Options of {@linkcode historySection} (none yet). */
export type HistoryOptions = Record<never, never>;

/**
 * Render history entries as the seed's excerpts.
 *
 * @example
 * ```ts
 * import { renderHistory } from "./history.ts";
 * renderHistory([{ role: "User", content: "hi" }]);
 * // "### Discussion Excerpt 1\n\nUser: hi"
 * ```
 */
export function renderHistory(entries: HistoryEntry[], start = 1): string {
  return entries.map((entry, i) => {
    const text = typeof entry === "string"
      ? entry.trim()
      : `${entry.role || "Unknown"}: ${entry.content.trim()}`;
    return `### Discussion Excerpt ${start + i}\n\n${text}`;
  }).join("\n\n---\n\n");
}

/**
 * The `history` section plugin.
 *
 * @example
 * ```ts
 * import { historySection } from "./history.ts";
 * historySection().name; // "slop:history"
 * ```
 */
export function historySection(_options: HistoryOptions = {}): SectionPlugin {
  return {
    kind: "section",
    name: "slop:history",
    async compose(state, ctx) {
      const entries = await loadHistory(state.config, ctx.warn);
      if (!entries.length) return [];
      return [{
        id: "history",
        section: "history",
        stability: "volatile",
        text: `## Discussion History\n\n${renderHistory(entries)}\n\n`,
      }];
    },
  };
}
