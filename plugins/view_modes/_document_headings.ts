/**
 * The section titles of documents written in markup other than Markdown, for their `summary`:
 * AsciiDoc (`== Usage`), Org (`** TODO Usage :tag:`), reStructuredText (a title with a line of
 * `=`, `-`, `~` under it, and over it too) and roff man pages (`.SH NAME`, mdoc's `.Sh`). A summary
 * showed their first lines, a license or a property drawer, as for text. Each is read line by line
 * in one pass; what sits in a block that holds no markup (AsciiDoc's `----` listings and `////`
 * comments, Org's `#+BEGIN_SRC`) is no title.
 *
 * @module
 */

import type { Heading } from "./_markdown_headings.ts";

/** A document's kind and its titles, by level (1 the highest). */
export interface DocumentHeadings {
  label: string;
  headings: Heading[];
}

/** The kinds read here, by extension (lower case). */
const KINDS: Record<string, [label: string, read: (lines: string[]) => Heading[] | undefined]> = {
  ".adoc": ["AsciiDoc", asciidocHeadings],
  ".asciidoc": ["AsciiDoc", asciidocHeadings],
  ".org": ["Org", orgHeadings],
  ".rst": ["reStructuredText", rstHeadings],
  ".rest": ["reStructuredText", rstHeadings],
  ".man": ["Man page", manHeadings],
};

/**
 * The titles of a document of a kind read here, or `undefined` for another kind (and for a file
 * named like a man page, `name.1`, that holds no `.SH`: it is shown as text).
 *
 * @example
 * ```ts
 * import { documentHeadings } from "./_document_headings.ts";
 * documentHeadings(".adoc", "= Guide\n\n== Install\n----\n== not a title\n----\n");
 * // { label: "AsciiDoc", headings: [[1, "Guide"], [2, "Install"]] }
 * ```
 */
export function documentHeadings(ext: string, text: string): DocumentHeadings | undefined {
  const kind = KINDS[ext] ?? (/^\.[1-9][a-z]{0,4}$/.test(ext) ? KINDS[".man"] : undefined);
  if (!kind) return undefined;
  const headings = kind[1](text.split("\n"));
  return headings ? { label: kind[0], headings } : undefined;
}

/** A level kept within markdown's six, as the summary indents by it. */
function level(n: number): number {
  return Math.min(n, 6);
}

/** AsciiDoc's delimited blocks whose lines are no markup for sections (a listing, a comment). */
const ASCIIDOC_BLOCK = /^(?:-{4,}|\.{4,}|\/{4,}|\+{4,}|_{4,}|\*{4,}|={4,}|`{3,}[^`]*)$/;

function asciidocHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let close: string | undefined;
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (close !== undefined) {
      if (line === close) close = undefined;
      continue;
    }
    if (ASCIIDOC_BLOCK.test(line)) {
      close = line.startsWith("`") ? line.replace(/[^`].*$/, "") : line;
      continue;
    }
    const title = /^(={1,6})[ \t]+(\S.*)$/.exec(line);
    if (title) out.push([title[1].length, withoutClosingRun(title[2])]);
  }
  return out;
}

/** A title without the run of `=` that may close it (`== Usage ==`), cut without a pattern. */
function withoutClosingRun(title: string): string {
  let end = title.length;
  while (end > 0 && title[end - 1] === "=") end--;
  if (end === title.length || end === 0 || !/[ \t]/.test(title[end - 1])) return title;
  return title.slice(0, end).trimEnd();
}

function orgHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let inBlock = false;
  for (const line of lines) {
    if (inBlock) {
      if (/^[ \t]*#\+end_/i.test(line)) inBlock = false;
      continue;
    }
    if (/^[ \t]*#\+begin_/i.test(line)) {
      inBlock = true;
      continue;
    }
    const title = /^(\*+)[ \t]+(.*\S)/.exec(line);
    if (!title) continue;
    // Tags at the end (`:work:urgent:`) are not the title's words.
    const words = title[2].replace(/[ \t]:[\w@#%:]+:$/, "").trimEnd();
    if (words) out.push([level(title[1].length), words]);
  }
  return out;
}

/**
 * Whether a line is one punctuation character repeated: reStructuredText's under- or overline.
 * Read character by character (a pattern with a back-reference overflows its stack on a
 * megabyte-long line).
 */
function isAdornment(line: string): boolean {
  if (line.length < 2 || !/[!-/:-@[-`{-~]/.test(line[0])) return false;
  for (let i = 1; i < line.length; i++) if (line[i] !== line[0]) return false;
  return true;
}

function rstHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  // A style is its character and whether it has an overline; levels go by first use.
  const styles: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const under = lines[i].trimEnd();
    if (!isAdornment(under)) continue;
    const title = lines[i - 1].trimEnd();
    if (!title || /^[ \t]/.test(title) || isAdornment(title)) continue;
    if (under.length < Math.min(title.length, 3)) continue;
    const before = i >= 2 ? lines[i - 2].trimEnd() : "";
    const over = before === under;
    // A title stands after a blank line (or its overline): a paragraph's last line does not.
    if (!over && before !== "" && !isAdornment(before)) continue;
    const style = `${under[0]}${over ? "^" : ""}`;
    if (!styles.includes(style)) styles.push(style);
    out.push([level(styles.indexOf(style) + 1), title.trim()]);
  }
  return out;
}

function manHeadings(lines: string[]): Heading[] | undefined {
  const out: Heading[] = [];
  for (const line of lines) {
    const title = /^\.(S[Hh]|S[Ss])[ \t]+(.*\S)/.exec(line);
    if (!title) continue;
    const words = title[2]
      .replace(/\\f(?:\[[^\]\n]{0,40}\]|\(..|.)/g, "")
      .replace(/\\&/g, "")
      .replace(/^"(.*)"$/, "$1");
    if (words) out.push([/^S[Hh]$/.test(title[1]) ? 1 : 2, words]);
  }
  return out.length ? out : undefined;
}
