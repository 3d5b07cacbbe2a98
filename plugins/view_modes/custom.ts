/**
 * The `custom` view: only the file's line slices, rendered as the seed does
 * (`[Slice: tag] (comment)` / `Lines a-b:`). Slices come from the file's
 * entry (`slices`: the config's, then the side file's `slicesFile`, default
 * `slop/slices.toml`, joined by the pipeline). A slice with a `contentHash` is re-anchored
 * when the file changed (see `fuzzy_anchor.ts`); one that cannot be found
 * with confidence is shown as stale with its last known lines, never with
 * lines that may be the wrong ones. A file with no slices falls back to
 * `summary`.
 *
 * @module
 */

import type { Slice, ViewModePlugin, ViewOutput } from "../../pipeline/types.ts";
import {
  resolveSlice,
  SIMILARITY_THRESHOLD,
  type SliceResolution,
  splitLines,
} from "./fuzzy_anchor.ts";

/** Options of {@linkcode customViewMode} (also settable per file through the entry's `options`). */
export interface CustomOptions {
  /** Similarity (0..1) a slice needs to be re-anchored by its anchors' likeness. @default {0.8} */
  threshold?: number;
}

/**
 * The `custom` view mode.
 *
 * @example
 * ```ts
 * import { customViewMode } from "./custom.ts";
 * customViewMode().name; // "slop:custom"
 * ```
 */
export function customViewMode(options: CustomOptions = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "slop:custom",
    version: "2",
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
      const threshold = Number(ctx.options.threshold ?? options.threshold ?? SIMILARITY_THRESHOLD);
      const lines = splitLines(file.text);
      const notes: string[] = [];
      const parts = slices.map((slice) => {
        const found = resolveSlice(slice, lines, { threshold });
        const note = resolutionNote(slice, found);
        if (note) notes.push(note);
        return renderResolved(slice, found, lines, notes);
      });
      return { text: parts.join("\n\n"), notes };
    },
  };
}

/**
 * The manifest note for a slice that is not where it was (none when it is).
 */
function resolutionNote(slice: Slice, found: SliceResolution): string | undefined {
  const name = `slice ${
    slice.tag !== undefined ? `"${slice.tag}" ` : ""
  }${slice.startLine}-${slice.endLine}`;
  const why = found.reason ? ` (${found.reason})` : "";
  if (found.status === "moved" || found.status === "re-anchored") {
    return `${name}: ${found.status} to ${found.startLine}-${found.endLine}${why}`;
  }
  if (found.status === "stale") {
    return `${name}: stale${why}, last known lines ${found.startLine}-${found.endLine}`;
  }
  return undefined;
}

function label(slice: Slice): string {
  return `[Slice: ${slice.tag ?? "untitled"}]${slice.comment ? ` (${slice.comment})` : ""}`;
}

function renderResolved(
  slice: Slice,
  found: SliceResolution,
  lines: string[],
  notes: string[],
): string {
  if (found.status === "unanchored") return renderSlice(slice, lines, notes);
  if (found.status === "stale") {
    return `---\n${
      label(slice)
    }\nStale slice: last known lines ${found.startLine}-${found.endLine}; ` +
      `the file changed and the slice could not be re-anchored with confidence (${found.reason}), ` +
      `so its lines are not shown`;
  }
  const body = lines.slice(found.startLine - 1, found.endLine).join("\n");
  return `---\n${label(slice)}\nLines ${found.startLine}-${found.endLine}:\n${body}`;
}

/**
 * Render one slice at its line numbers: header lines, then the slice's lines.
 * Lines past the end of the file are clamped, with a note.
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
  if (end < start) {
    notes.push(
      `slice ${slice.startLine}-${slice.endLine} is outside the file (${lines.length} lines)`,
    );
    return `---\n${label(slice)}\nLines ${slice.startLine}-${slice.endLine}: (outside the file)`;
  }
  if (end !== slice.endLine) {
    notes.push(`slice ${slice.startLine}-${slice.endLine} clamped to ${start}-${end}`);
  }
  return `---\n${label(slice)}\nLines ${start}-${end}:\n${lines.slice(start - 1, end).join("\n")}`;
}
