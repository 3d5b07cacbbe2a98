/**
 * Just enough Markdown for the README tests: fenced blocks (with the
 * `<!-- readme-test: ... -->` marker before them), headings and code spans
 * outside the fences, GitHub's heading anchors.
 *
 * @module
 */

/** A fenced code block. */
export interface Fence {
  /** The info string: `ts`, `sh`, ... (empty for a bare fence). */
  info: string;
  /** The lines between the fences, indentation of the opening fence removed. */
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `readme-test` marker on the line before, e.g. `fragment`. */
  marker?: string;
}

/** A heading outside the fences. */
export interface Heading {
  level: number;
  text: string;
  line: number;
}

/** What the tests read from a Markdown file. */
export interface Parsed {
  fences: Fence[];
  headings: Heading[];
  /** The text outside the fences, one string per paragraph (lines joined by spaces). */
  paragraphs: string[];
}

const OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)/;
const MARKER = /^<!--\s*readme-test:\s*(.+?)\s*-->$/;

/** Split `text` into fences, headings and paragraphs. */
export function parseMarkdown(text: string): Parsed {
  const lines = text.split("\n");
  const fences: Fence[] = [];
  const headings: Heading[] = [];
  const paragraphs: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) paragraphs.push(paragraph.join(" "));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (open) {
      flush();
      const [, indent, fence, info] = open;
      const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j])) {
        body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
        j++;
      }
      const before = i > 0 ? MARKER.exec(lines[i - 1].trim()) : null;
      fences.push({
        info,
        body: body.length ? body.join("\n") + "\n" : "",
        line: i + 1,
        ...(before ? { marker: before[1] } : {}),
      });
      i = j;
      continue;
    }
    const heading = /^(#{1,6}) (.+?)\s*$/.exec(lines[i]);
    if (heading) {
      flush();
      headings.push({ level: heading[1].length, text: heading[2], line: i + 1 });
      continue;
    }
    if (lines[i].trim() === "") flush();
    else paragraph.push(lines[i].trim());
  }
  flush();
  return { fences, headings, paragraphs };
}

/** The code spans of a paragraph, by CommonMark's rule (a run of n backticks closes at the next run of n). */
export function codeSpans(paragraph: string): string[] {
  const spans: string[] = [];
  const runs = [...paragraph.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i];
    const close = runs.findIndex((r, j) => j > i && r[0].length === open[0].length);
    if (close < 0) continue;
    const start = open.index + open[0].length;
    let span = paragraph.slice(start, runs[close].index);
    if (/^ .* $/.test(span) && span.trim()) span = span.slice(1, -1);
    spans.push(span);
    i = close;
  }
  return spans;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(text: string): string {
  return text.toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Split a shell line into words: quotes kept together, a `#` comment and what follows `|`, `>`, `&&` or `;` dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) {
    const word = m[1] ?? m[2] ?? m[3];
    if (m[3] !== undefined && (/^#/.test(word) || /^(\||>|>>|&&|;|2>)$/.test(word))) break;
    words.push(word);
  }
  return words;
}
