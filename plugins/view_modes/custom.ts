/**
 * The `custom` view: only the file's line slices, rendered as the seed does
 * (`[Slice: tag] (comment)` / `Lines a-b:`). A file with no slices falls
 * back to `summary`.
 *
 * @module
 */

import type { Slice, ViewModePlugin, ViewOutput } from "../../pipeline/types.ts";

/** Options of {@linkcode customViewMode} (none yet). */
export type CustomOptions = Record<never, never>;

/**
 * The `custom` view mode.
 *
 * @example
 * ```ts
 * import { customViewMode } from "./custom.ts";
 * customViewMode().name; // "slop:custom"
 * ```
 */
export function customViewMode(_options: CustomOptions = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "slop:custom",
    version: "1",
    async render(file, ctx): Promise<ViewOutput> {
      const slices = ctx.entry.slices ?? [];
      if (!slices.length) {
        const out = await ctx.renderAs("summary");
        return {
          ...out,
          view: "summary",
          notes: ["custom view without slices: fell back to summary"],
        };
      }
      const lines = file.text.split("\n");
      if (file.text.endsWith("\n")) lines.pop();
      const notes: string[] = [];
      const parts = slices.map((slice) => renderSlice(slice, lines, notes));
      return { text: parts.join("\n\n"), notes };
    },
  };
}

/**
 * Render one slice: header lines, then the slice's lines. Lines past the end
 * of the file are clamped, with a note.
 *
 * @example
 * ```ts
 * import { renderSlice } from "./custom.ts";
 * renderSlice({ startLine: 1, endLine: 1, tag: "a" }, ["x"], []);
 * // "---\n[Slice: a]\nLines 1-1:\nx"
 * ```
 */
export function renderSlice(slice: Slice, lines: string[], notes: string[]): string {
  const start = Math.max(1, slice.startLine);
  const end = Math.min(lines.length, slice.endLine);
  const label = `[Slice: ${slice.tag ?? "untitled"}]${slice.comment ? ` (${slice.comment})` : ""}`;
  if (end < start) {
    notes.push(
      `slice ${slice.startLine}-${slice.endLine} is outside the file (${lines.length} lines)`,
    );
    return `---\n${label}\nLines ${slice.startLine}-${slice.endLine}: (outside the file)`;
  }
  if (end !== slice.endLine) {
    notes.push(`slice ${slice.startLine}-${slice.endLine} clamped to ${start}-${end}`);
  }
  return `---\n${label}\nLines ${start}-${end}:\n${lines.slice(start - 1, end).join("\n")}`;
}
