/**
 * Shared rendering of a file block (`### path` + fenced body).
 *
 * @module
 */

import type { Block, DeriveFn, RecordFn, RenderedFile } from "../../pipeline/types.ts";
import {
  bidiNoteOf,
  countWork,
  derived,
  edgeBlanksShown,
  headingText,
  isLazyText,
  joinedFileBlock,
  joinFileBlock,
  lazyFileBlock,
  marksOf,
  noteFileBlock,
  printablePath,
  type TextMarks,
  textMarks,
} from "../../pipeline/helpers.ts";
import {
  type Fence,
  fenceAfter,
  fenceOver,
  htmlBlockStart,
  markdownLines,
  unclosedFence,
} from "../markdown_fences.ts";

/**
 * Markdown text with every code fence it opens closed: a message cut off inside a code block
 * (or holding a stray ```` ``` ````) would otherwise turn the rest of the document into code.
 * Text whose fences all close comes back as it is. Fences are read as CommonMark reads them
 * (`../markdown_fences.ts`).
 *
 * @example
 * ```ts
 * import { closeFences } from "./_render.ts";
 * closeFences("see:\n```ts\nlet a"); // "see:\n```ts\nlet a\n```"
 * ```
 */
export function closeFences(text: string): string {
  return withFenceClosed(text, unclosedFence(text));
}

/**
 * Markdown a view returns unfenced (a summary, a model's summary, a plugin's text), made to stay
 * inside its file's block: every code fence it opens is closed, and a heading of level 1 to 3
 * outside a fence (which would read as a section or another file of slop's) goes three levels
 * down, under the file's own `###` heading (6 at most); a setext underline (`===`, `---` under a
 * line of text) is escaped; an HTML block that runs to its end marker (`<!--`, `<script`, `<pre`,
 * `<?`, CommonMark's kinds 1 to 5) and never finds it starts with `\<`, as text. Text with none
 * of these comes back as it is.
 *
 * @example
 * ```ts
 * import { nestedMarkdown } from "./_render.ts";
 * nestedMarkdown("## Files\n~~~js\nlet a"); // "##### Files\n~~~js\nlet a\n~~~"
 * ```
 */
export function nestedMarkdown(text: string): string {
  if (!/^ {0,3}(#|=|-|`{3}|~{3}|<[!?A-Za-z])/m.test(text)) return text;
  // Lines at the even indexes, their endings between them.
  const lines = markdownLines(text);
  const lastEnd = htmlEndsAt(lines);
  let open: Fence | undefined;
  let html: RegExp | undefined;
  for (let i = 0; i < lines.length; i += 2) {
    const line = lines[i];
    // Inside an HTML block no heading or fence is one (CommonMark), until its end marker.
    if (html) {
      if (html.test(line)) html = undefined;
      continue;
    }
    const block = open === undefined ? htmlBlockStart(line) : undefined;
    if (block) {
      // One that never ends would take slop's headings and fences after it: written as text.
      if (block.closed) continue;
      if ((lastEnd.get(block.end) ?? -1) > i) html = block.end;
      else lines[i] = line.replace(/^( {0,3})</, "$1\\<");
      continue;
    }
    const before = open;
    open = fenceAfter(open, line);
    if (before !== undefined || open !== undefined) continue;
    if (/^ {0,3}#{1,3}(?:[ \t]|$)/.test(line)) {
      lines[i] = line.replace(
        /^( {0,3})(#{1,3})/,
        (_, pad, hashes) => pad + "#".repeat(Math.min(6, hashes.length + 3)),
      );
    } else if (/^ {0,3}(?:=+|-+)[ \t]*$/.test(line) && i > 0 && /\S/.test(lines[i - 2])) {
      lines[i] = line.replace(/^( {0,3})/, "$1\\");
    }
  }
  return withFenceClosed(lines.join(""), open);
}

/** The index of the last line holding each HTML block's end marker, for the text's openers. */
function htmlEndsAt(lines: string[]): Map<RegExp, number> {
  const ends = new Set<RegExp>();
  for (let i = 0; i < lines.length; i += 2) {
    const block = lines[i].includes("<") ? htmlBlockStart(lines[i]) : undefined;
    if (block) ends.add(block.end);
  }
  const last = new Map<RegExp, number>();
  for (const end of ends) {
    for (let i = lines.length - 1; i >= 0; i -= 2) {
      if (end.test(lines[i])) {
        last.set(end, i);
        break;
      }
    }
  }
  return last;
}

/** The text with a closing line for `open` (when a fence is left open) after its last line. */
function withFenceClosed(text: string, open: Fence | undefined): string {
  if (open === undefined) return text;
  return `${text.replace(/\n*$/, "")}\n${open.char.repeat(open.length)}`;
}

/**
 * A path as shown in a heading: {@linkcode printablePath} (control and
 * invisible characters written as escapes), a space that starts or ends it
 * written `\x20` (markdown trims a heading's blanks: `x ` read as `x`), and a
 * closing run of `#` escaped (`### notes #` reads as `notes`, `### #` as no
 * name at all).
 *
 * @example
 * ```ts
 * import { headingPath } from "./_render.ts";
 * headingPath("a\nb.txt"); // "a\\nb.txt"
 * headingPath("\u202eevil.md"); // "\\u{202e}evil.md"
 * headingPath("notes #"); // "notes \\#"
 * headingPath("x "); // "x\\x20"
 * ```
 */
export function headingPath(path: string): string {
  return headingText(path);
}

/**
 * A path as the text of a list item (`- PATH`): {@linkcode headingPath}, and a first character
 * that would open a block of its own there (a heading `# `, a code fence that swallows the lines
 * after it, a quote, a nested list, an HTML block) escaped with a backslash, as is the `.` or `)`
 * after a leading number.
 *
 * @example
 * ```ts
 * import { listItemPath } from "./_render.ts";
 * listItemPath("## Files.md"); // "\\## Files.md"
 * listItemPath("1. notes.md"); // "1\\. notes.md"
 * listItemPath("src/a.ts"); // "src/a.ts"
 * ```
 */
export function listItemPath(path: string): string {
  const shown = edgeBlanksShown(printablePath(path));
  // `#` opens a heading only when a blank or the line's end follows its run (`#tag` stays).
  if (/^[`~<>+*=_|[\\-]|^#{1,6}(?:[ \t]|$)/.test(shown)) return `\\${shown}`;
  return shown.replace(/^(\d{1,9})([.)])/, "$1\\$2");
}

/**
 * The markdown of one file: heading, then fenced code or inline markdown, then a blank line.
 * `derived`: the build's memo of values made from texts (`ctx.derived`: a long-running process
 * renders an unchanged file's block once), else made now.
 */
export function renderFileBlock(file: RenderedFile, options: { derived?: DeriveFn } = {}): string {
  const derive = options.derived ?? derived;
  const salt = `block\0${file.path}\0${file.fenced}\0${file.status}\0${file.language}`;
  const block = derive(file.text ?? "", salt, () => {
    const text = fileBlock(file);
    const joined = joinedFileBlock(file);
    return { text, joined: joined?.text === text ? joined : undefined };
  });
  // The parts of a block made for an earlier build's file (the same text) are this file's too:
  // without them, the block would be read whole, and V8 would copy it whole (flatten it).
  if (block.joined) noteFileBlock(file, block.joined);
  return block.text;
}

function fileBlock(file: RenderedFile): string {
  const body = file.text ?? "";
  const heading = `### ${headingPath(file.path)}`;
  if (file.status === "error") {
    // An error is one line: its message may quote a path or a parser's text with line breaks
    // (a file named "a\n## Files"), which would otherwise start headings of their own.
    return `${heading}\n\n${headingPath(body.replace(/\n+$/, ""))}\n\n`;
  }
  if (!file.fenced) {
    return `${heading}\n\n${noteLine(file)}${nestedMarkdown(body.replace(/\n+$/, ""))}\n\n`;
  }
  // Joined from parts that are kept: the file's text is not copied into the block.
  const [head, tail] = fencedEnds(file, textMarks(body));
  return joinFileBlock(file, [head, body, tail]);
}

/**
 * What comes before and after a fenced file's text in its block, by the text's marks (a lazy
 * text's are noted where it is kept: it is not read for its fence).
 */
function fencedEnds(file: RenderedFile, marks: TextMarks): [string, string] {
  const fence = fenceOver(marks.backticks);
  const newline = marks.lineEnded ? "" : "\n";
  // The info string is the language tag only: an odd extension cannot break the fence.
  const language = file.language.replace(/[^A-Za-z0-9_+#.-]/g, "");
  const heading = `### ${headingPath(file.path)}\n\n${noteLine(file)}`;
  return [`${heading}${fence}${language}\n`, `${newline}${fence}\n\n`];
}

/**
 * What the reader of the document is told before a file's text, as a paragraph of its own: that
 * the text holds bidirectional controls, which its viewer may display in another order than it
 * reads (`pipeline/bidi_controls.ts`); "" for any other file.
 */
function noteLine(file: RenderedFile): string {
  const note = bidiNoteOf(file);
  return note ? `(${note})\n\n` : "";
}

/**
 * The block of one shown file: {@linkcode renderFileBlock}'s text, or, when the file's text is
 * kept out of memory (a speed layer's, `isLazyText`), a block that reads it when used.
 * `fromRecord`: the build's memo of values made from records (`ctx.fromRecord`: a long-running
 * process gives an unchanged file's block again, the same record), else made now.
 *
 * @example
 * ```ts
 * import { fileBlockOf } from "./_render.ts";
 * const file = { path: "a.py", status: "rendered", text: "x = 1\n", fenced: true, language: "python" };
 * fileBlockOf(file as import("../../pipeline/types.ts").RenderedFile).text;
 * // "### a.py\n\n```python\nx = 1\n```\n\n"
 * ```
 */
export function fileBlockOf(
  file: RenderedFile,
  options: { derived?: DeriveFn; fromRecord?: RecordFn } = {},
): Block {
  const make = () => newFileBlock(file, options);
  return options.fromRecord ? options.fromRecord(file, "file block", make) : make();
}

function newFileBlock(file: RenderedFile, options: { derived?: DeriveFn }): Block {
  countWork("file blocks", 1);
  const block = {
    id: `files:${file.path}`,
    section: "files",
    stability: "stable",
    source: file.path,
  } as Block;
  // A lazy block gets its `text` as a new property: a `text` field turned into the accessor would
  // make the block a dictionary of its properties (pipeline/lazy_text.ts, `lazyCopy`).
  if (file.fenced && file.status !== "error" && isLazyText(file)) {
    lazyFileBlock(block, file, fencedEnds(file, marksOf(file)));
  } else block.text = renderFileBlock(file, options);
  return block;
}
