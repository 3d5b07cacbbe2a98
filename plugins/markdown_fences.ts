/**
 * Where a markdown code fence opens and where it closes, by CommonMark's rules (0.31, "Fenced
 * code blocks"), for every plugin that reads or writes markdown line by line: the sections that
 * keep a message or a view's markdown inside its block, and the summary's heading list.
 *
 * - Lines end at `\n`, `\r\n` or a lone `\r`.
 * - A fence opens with up to three spaces (a tab indents by four: the line is indented code),
 *   then three or more backticks or tildes; what follows is the info string, and a backtick
 *   fence's info string holds no backtick (such a line is text with an inline code span).
 * - It closes on a line of up to three spaces, a run of the same character at least as long as
 *   the opening one, and nothing after it but spaces and tabs. A fence that never closes runs to
 *   the end of the text.
 *
 * @module
 */

import { textMarks } from "../pipeline/helpers.ts";

/** An open code fence: its character and the length of its opening run. */
export interface Fence {
  char: "`" | "~";
  length: number;
}

// `[^]*`: an info string may hold any character (`.` would stop at U+2028).
const RUN = /^ {0,3}(`{3,}|~{3,})([^]*)$/;

/**
 * The lines of a markdown text and their line endings, alternately: `[line, ending, line, ...,
 * line]`, so that `join("")` gives the text back and the lines stand at the even indexes.
 *
 * @example
 * ```ts
 * import { markdownLines } from "./markdown_fences.ts";
 * markdownLines("a\r\nb\rc\n"); // ["a", "\r\n", "b", "\r", "c", "\n", ""]
 * ```
 */
export function markdownLines(text: string): string[] {
  return text.split(/(\r\n|\r|\n)/);
}

/**
 * The fence a line opens, or undefined when the line opens none. The line is one line without
 * its ending.
 *
 * @example
 * `````ts
 * import { openingFence } from "./markdown_fences.ts";
 * openingFence("  ````ts"); // { char: "`", length: 4 }
 * openingFence("```a`b"); // undefined: inline code
 * openingFence("\t```"); // undefined: indented code
 * `````
 */
export function openingFence(line: string): Fence | undefined {
  const run = RUN.exec(line);
  if (!run) return undefined;
  const char = run[1][0] as Fence["char"];
  if (char === "`" && run[2].includes("`")) return undefined;
  return { char, length: run[1].length };
}

/**
 * Whether a line (without its ending) closes an open fence.
 *
 * @example
 * `````ts
 * import { closesFence } from "./markdown_fences.ts";
 * closesFence({ char: "`", length: 3 }, "   ````\t"); // true
 * closesFence({ char: "`", length: 4 }, "```"); // false: shorter
 * closesFence({ char: "~", length: 3 }, "~~~ js"); // false: text after the run
 * `````
 */
export function closesFence(fence: Fence, line: string): boolean {
  const run = RUN.exec(line);
  return !!run && run[1][0] === fence.char && run[1].length >= fence.length &&
    /^[ \t]*$/.test(run[2]);
}

/**
 * The fence still open after a line: `open` is the fence open before it (undefined outside a
 * fence). A line inside a fence, or one that opens or closes it, is code, not markdown: the
 * caller tells them apart by `open` before and after.
 *
 * @example
 * ```ts
 * import { fenceAfter } from "./markdown_fences.ts";
 * const open = fenceAfter(undefined, "~~~"); // { char: "~", length: 3 }
 * fenceAfter(open, "# a comment"); // the same fence
 * fenceAfter(open, "~~~~"); // undefined
 * ```
 */
export function fenceAfter(open: Fence | undefined, line: string): Fence | undefined {
  if (open === undefined) return openingFence(line);
  return closesFence(open, line) ? undefined : open;
}

/**
 * The fence a markdown text leaves open at its end, or undefined when every fence it opens closes.
 *
 * @example
 * `````ts
 * import { unclosedFence } from "./markdown_fences.ts";
 * unclosedFence("see:\n````ts\nlet a\n```"); // { char: "`", length: 4 }
 * unclosedFence("~~~\nx\n~~~"); // undefined
 * `````
 */
export function unclosedFence(text: string): Fence | undefined {
  const lines = markdownLines(text);
  let open: Fence | undefined;
  for (let i = 0; i < lines.length; i += 2) open = fenceAfter(open, lines[i]);
  return open;
}

/**
 * A backtick fence that no run of backticks in the text can close: one backtick longer than the
 * longest run, at least three.
 *
 * @example
 * `````ts
 * import { fenceFor } from "./markdown_fences.ts";
 * fenceFor("a ``` b"); // "````"
 * `````
 */
export function fenceFor(text: string): string {
  return fenceOver(textMarks(text).backticks);
}

/**
 * The backtick fence of {@linkcode fenceFor} for a text whose longest run of backticks is
 * `backticks` long.
 *
 * @example
 * `````ts
 * import { fenceOver } from "./markdown_fences.ts";
 * fenceOver(0); // "```"
 * fenceOver(4); // "`````"
 * `````
 */
export function fenceOver(backticks: number): string {
  return "`".repeat(Math.max(3, backticks + 1));
}

/** The HTML blocks of CommonMark's kinds 1 to 5, whose end is a marker, not a blank line. */
const HTML_BLOCKS: Array<{ start: RegExp; end: RegExp }> = [
  {
    start: /^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i,
    end: /<\/(?:script|pre|style|textarea)>/i,
  },
  { start: /^ {0,3}<!--/, end: /-->/ },
  { start: /^ {0,3}<\?/, end: /\?>/ },
  { start: /^ {0,3}<![A-Za-z]/, end: />/ },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/ },
];

/**
 * The end marker of the HTML block a line (without its ending) starts, when it starts one of
 * CommonMark's kinds 1 to 5 (`<script`, `<pre`, `<style`, `<textarea`, `<!--`, `<?`, `<!X`,
 * `<![CDATA[`): such a block runs over blank lines to the first line holding the marker (on the
 * opening line, after its opening), and no heading or fence inside it is one.
 *
 * @example
 * ```ts
 * import { htmlBlockStart } from "./markdown_fences.ts";
 * htmlBlockStart("<!-- note")?.end; // /-->/
 * htmlBlockStart("<!-- note -->")?.closed; // true
 * htmlBlockStart("<div>"); // undefined: ends at a blank line
 * ```
 */
export function htmlBlockStart(line: string): { end: RegExp; closed: boolean } | undefined {
  // `<!X` is kind 4 unless it is a comment or CDATA, which come first.
  for (const kind of [HTML_BLOCKS[0], HTML_BLOCKS[1], HTML_BLOCKS[2], HTML_BLOCKS[4]]) {
    const open = kind.start.exec(line);
    if (open) return { end: kind.end, closed: kind.end.test(line.slice(open[0].length)) };
  }
  const open = HTML_BLOCKS[3].start.exec(line);
  const end = HTML_BLOCKS[3].end;
  return open ? { end, closed: line.includes(">", open[0].length) } : undefined;
}
