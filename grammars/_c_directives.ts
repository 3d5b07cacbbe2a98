/**
 * The text tree-sitter-c and tree-sitter-cpp read for a C or C++ file: block comments inside a
 * preprocessor directive (`#define M do { x = 0; /* why *\/ \` ...) read as spaces. The C
 * preprocessor takes every comment as one space before it reads a directive, but these grammars
 * end a macro's value at a comment between its tokens: the rest of the macro, and often the
 * declaration after it, parse as errors, and a skeleton lost the function after such a macro.
 * What the parser reads has the same length and the same line breaks as the file (a comment's
 * line break becomes a line continuation), so every offset, row and column stays where it was;
 * the views cut their text from the file itself, comments and all.
 *
 * @module
 */

/**
 * The text to parse, or `undefined` when no directive holds a block comment (the file itself is
 * read). One pass over the text: comments, strings and character literals are skipped whole.
 *
 * @example
 * ```ts
 * import { blankDirectiveComments } from "./_c_directives.ts";
 * blankDirectiveComments("#define A 1 /* one *\/ + 2\nint x; /* kept *\/\n");
 * // "#define A 1           + 2\nint x; /* kept *\/\n"
 * ```
 */
export function blankDirectiveComments(text: string): string | undefined {
  const comments = directiveComments(text);
  if (!comments.length) return undefined;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of comments) {
    parts.push(text.slice(at, start), blank(text.slice(start, end)));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** A comment as spaces; each of its line breaks kept, with a `\` before it that continues the line. */
function blank(comment: string): string {
  return comment.replace(/[^\n]/g, " ").replace(/ \n/g, "\\\n");
}

/** `[start, end)` of every block comment that sits inside a preprocessor directive. */
function directiveComments(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let directive = false;
  let lineStart = true;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "\n") {
      // A line continues when a `\` ends it (a CR may come between).
      const back = text[i - 1] === "\r" ? i - 2 : i - 1;
      if (text[back] !== "\\") directive = false;
      lineStart = true;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close < 0 ? text.length : close + 2;
      if (directive) out.push([i, end]);
      i = end;
    } else if (c === "/" && text[i + 1] === "/") {
      i = lineCommentEnd(text, i);
      lineStart = false;
    } else {
      if (lineStart && c === "#") directive = true;
      lineStart = false;
      i = c === '"' || c === "'" ? literalEnd(text, i) : i + 1;
    }
  }
  return out;
}

/** Where a `//` comment ends: at the line break that no `\` continues. */
function lineCommentEnd(text: string, from: number): number {
  let end = text.indexOf("\n", from);
  while (end > 0 && text[text[end - 1] === "\r" ? end - 2 : end - 1] === "\\") {
    end = text.indexOf("\n", end + 1);
  }
  return end < 0 ? text.length : end;
}

/** Where a string or character literal ends: after its closing quote, or at its line's end. */
function literalEnd(text: string, from: number): number {
  const quote = text[from];
  let i = from + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else if (c === "\n") return i;
    else i++;
  }
  return text.length;
}
