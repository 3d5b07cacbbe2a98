/**
 * The headings of a markdown text, as a reader of the rendered page sees them (ATX's `# Title` and
 * setext's `Title` over a line of `=` or `-`, one paragraph of up to 8 lines): a `#` line
 * inside a fenced code block (```` ``` ```` or `~~~`, any length, indented up to 3 spaces), an HTML
 * comment, a `<pre>`, `<script>`, `<style>` or `<textarea>` block, or a front matter block at the
 * top of the file is no heading. Fences are read as CommonMark reads them
 * (`../markdown_fences.ts`). Read line by line in one pass, so it stays linear whatever the text's
 * shape.
 *
 * @module
 */

import { closesFence, type Fence, markdownLines, openingFence } from "../markdown_fences.ts";

/** A heading: its level (1 to 6) and its title. */
export type Heading = [level: number, title: string];

/** What the line before left open: a fence or a raw block's end. */
type Open =
  | { kind: "fence"; fence: Fence }
  | { kind: "raw"; end: RegExp }
  | { kind: "front"; end: RegExp };

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
// CommonMark's HTML blocks of kinds 1 and 2: they run to the line holding their end, blank
// lines and all, so nothing in them is markdown.
const RAW_START = /^ {0,3}<(?:(pre|script|style|textarea)(?:[ \t>]|$)|(!--))/i;

/**
 * The headings of a markdown text, line by line: level and title, without the closing `#`s
 * (`## Usage ##` -> `[2, "Usage"]`). A line of hashes alone is no heading.
 *
 * @example
 * ```ts
 * import { markdownHeadings } from "./_markdown_headings.ts";
 * markdownHeadings("# Use\n~~~sh\n# not a heading\n~~~\n## Notes ##\n");
 * // [[1, "Use"], [2, "Notes"]]
 * ```
 */
export function markdownHeadings(text: string): Heading[] {
  const out: Heading[] = [];
  // Lines at the even indexes, their endings between them.
  const lines = markdownLines(text);
  let open: Open | undefined = frontMatter(lines[0]);
  // The paragraph the lines so far make (a setext underline makes it a heading), or "other": a
  // list item, a quote, a table, a code block and their lines, which no underline makes one.
  let block: string[] | "other" | undefined;
  for (let i = open ? 2 : 0; i < lines.length; i += 2) {
    const line = lines[i];
    if (open) {
      if (closes(open, line)) open = undefined;
      continue;
    }
    open = opens(line);
    if (open) {
      block = undefined;
      // A raw block whose end is on its first line is over with that line.
      if (open.kind === "raw" && open.end.test(line.slice(line.indexOf("<") + 2))) open = undefined;
      continue;
    }
    const heading = atxHeading(line);
    const underline = SETEXT.exec(line);
    if (heading) out.push(heading);
    else if (underline && Array.isArray(block)) {
      out.push([underline[1][0] === "=" ? 1 : 2, block.join(" ")]);
    } else if (/\S/.test(line) && !BREAK.test(line)) {
      // A paragraph's line (8 at most), or a line of another block or its continuation
      if (block === undefined) block = OTHER_BLOCK.test(line) ? "other" : [line.trim()];
      else if (Array.isArray(block)) {
        block = block.length < 8 && !INTERRUPT.test(line) ? [...block, line.trim()] : "other";
      }
      continue;
    }
    block = undefined;
  }
  return out;
}

/** A setext heading's underline: `=` (level 1) or `-` (level 2) alone, indented up to 3 spaces. */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/**
 * A line that starts a block a paragraph's line cannot go on as: a list item, a quote, a table's
 * row, HTML.
 */
const INTERRUPT = /^ {0,3}(?:[-+*](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|>|\||<)/;
/** A line that starts a block no underline makes a heading: those above, an indented code block. */
const OTHER_BLOCK = new RegExp(`${INTERRUPT.source}|^ {4}`);
/** A thematic break (`***`, `___`, `- - -`) or a lone underline: no paragraph's line. */
const BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,}|=+[ \t]*)$/;

/** A YAML (`---`) or TOML (`+++`) front matter block that the text's first line opens. */
function frontMatter(first: string): Open | undefined {
  if (/^---[ \t]*$/.test(first)) return { kind: "front", end: /^(?:---|\.\.\.)[ \t]*$/ };
  if (/^\+\+\+[ \t]*$/.test(first)) return { kind: "front", end: /^\+\+\+[ \t]*$/ };
  return undefined;
}

/** The block a line opens, if any. */
function opens(line: string): Open | undefined {
  const fence = openingFence(line);
  if (fence) return { kind: "fence", fence };
  const raw = RAW_START.exec(line);
  if (!raw) return undefined;
  return { kind: "raw", end: raw[2] ? /-->/ : new RegExp(`</${raw[1]}>`, "i") };
}

/** Whether a line ends the open block. */
function closes(open: Open, line: string): boolean {
  return open.kind === "fence" ? closesFence(open.fence, line) : open.end.test(line);
}

/** The heading a line is, without its closing `#`s, or undefined. */
function atxHeading(line: string): Heading | undefined {
  const open = ATX.exec(line);
  if (!open) return undefined;
  const body = line.trimEnd();
  let to = body.length;
  while (to > open[0].length && body.charCodeAt(to - 1) === 35) to--;
  const title = body.slice(open[0].length, to).trimEnd();
  if (title) return [open[1].length, title];
  // Nothing but hashes after the opening ones: the title is the first of them.
  if (to < body.length) return [open[1].length, "#"];
  return undefined;
}
