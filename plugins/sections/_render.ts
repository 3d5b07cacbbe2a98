/**
 * Shared rendering of a file block (`### path` + fenced body).
 *
 * @module
 */

import type { RenderedFile } from "../../pipeline/types.ts";

/**
 * A code fence longer than any backtick run in the text (at least 3).
 *
 * @example
 * ```ts
 * import { fenceFor } from "./_render.ts";
 * fenceFor("a ``` b"); // "````"
 * ```
 */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** The markdown of one file: heading, then fenced code or inline markdown, then a blank line. */
export function renderFileBlock(file: RenderedFile): string {
  const body = file.text ?? "";
  if (!file.fenced || file.status === "error") {
    return `### ${file.path}\n\n${body.replace(/\n+$/, "")}\n\n`;
  }
  const fence = fenceFor(body);
  const content = body.endsWith("\n") || body === "" ? body : body + "\n";
  return `### ${file.path}\n\n${fence}${file.language}\n${content}${fence}\n\n`;
}
