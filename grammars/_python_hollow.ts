/**
 * Function bodies of Python source hollowed out before parsing, for views that
 * never show them (`skeleton` and `outline`): tree-sitter-python builds a node
 * for every token of a body only for the view to replace the body with `...`,
 * and bodies are most of a Python file. A hollowed body keeps its first line
 * and its last character where they were; what lies between becomes one
 * triple-quoted string of spaces and the same line breaks, which the parser
 * reads as one token. Every offset, row and column outside the hollowed text
 * is unchanged, so the view's edits, signatures and symbols are the same.
 *
 * A file this reader is not sure of is not hollowed: a tab or form feed in an
 * indentation, a string or bracket left open, a close bracket with no open one,
 * a dedent to a level no block opened.
 *
 * @module
 */

import {
  fits,
  type HollowOptions,
  type HollowRegion,
  hollowText,
  MIN_HOLLOW,
  TooManyTokens,
  unlessUnsure,
  Unsure,
} from "./_hollow.ts";

/** One logical line: its first and last code character, indentation and form. */
interface Line {
  /** Index of the first character (after the indentation). */
  start: number;
  /** Index just after the last character of code (before a trailing comment). */
  end: number;
  /** Indentation width (spaces). */
  indent: number;
  /** A `def` or `async def` header whose last token is `:` (the body on the lines after it). */
  header: boolean;
  /** Nothing but string literals: a docstring when first in a body. */
  strings: boolean;
  /** Holds a `;` outside brackets (more than one statement). */
  semicolon: boolean;
  /** Index of its one `=` outside brackets (an assignment); -1: none, -2: more than one. */
  assign: number;
}

const SPACE = 32, TAB = 9, FF = 12, CR = 13, LF = 10, HASH = 35, BACKSLASH = 92;
const QUOTE = 34, APOSTROPHE = 39, COLON = 58, SEMICOLON = 59, EQUALS = 61;
/** Characters that make an `=` after them part of an operator (`<=`, `!=`, `+=`, `:=`, ...). */
const OPERATORS = new Set([..."=!<>:+-*/%&|^@~"].map((ch) => ch.charCodeAt(0)));
const OPEN = new Set([40, 91, 123]); // ( [ {
const CLOSE = new Set([41, 93, 125]); // ) ] }
const LBRACE = 123, RBRACE = 125;

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
    c >= 128;
}

/** String prefixes Python accepts (lower-cased), and whether each makes an f-string. */
const PREFIXES: Record<string, boolean> = {
  r: false,
  u: false,
  b: false,
  f: true,
  br: false,
  rb: false,
  fr: true,
  rf: true,
};

/**
 * Where a string's reader stops, by quote (`'` then `"`), triple or not, f-string or not: its
 * quote, a backslash, a line break (single-quoted only) and a brace (f-strings only).
 */
const IN_STRING = [
  /['\\\n]/g,
  /['\\\n{]/g,
  /['\\]/g,
  /['\\{]/g,
  /["\\\n]/g,
  /["\\\n{]/g,
  /["\\]/g,
  /["\\{]/g,
];

/** The letters of string prefixes. */
const PREFIX_CHARS = new Set([..."rRuUbBfF"].map((ch) => ch.charCodeAt(0)));

/**
 * The reader's position and the text: strings and f-string fields are read by
 * recursive calls that move `at`.
 */
class Reader {
  at = 0;
  constructor(readonly text: string) {}

  /**
   * Read a string literal whose opening quote is at `at` (its prefix already read); `at` ends
   * just after the closing quote.
   */
  string(format: boolean): void {
    const text = this.text;
    const quote = text.charCodeAt(this.at);
    const triple = text.charCodeAt(this.at + 1) === quote && text.charCodeAt(this.at + 2) === quote;
    this.at += triple ? 3 : 1;
    const stops = IN_STRING[(quote === QUOTE ? 4 : 0) + (triple ? 2 : 0) + (format ? 1 : 0)];
    for (;;) {
      stops.lastIndex = this.at;
      const found = stops.exec(text);
      if (!found) throw new Unsure();
      this.at = found.index;
      const c = text.charCodeAt(this.at);
      if (c === BACKSLASH) {
        this.at += 2;
      } else if (c === LF) {
        throw new Unsure(); // only single-quoted strings stop at a line break
      } else if (c === quote) {
        if (!triple) {
          this.at++;
          return;
        }
        if (text.charCodeAt(this.at + 1) === quote && text.charCodeAt(this.at + 2) === quote) {
          this.at += 3;
          return;
        }
        this.at++;
      } else if (text.charCodeAt(this.at + 1) === LBRACE) {
        this.at += 2; // `{{` in an f-string
      } else {
        this.at++;
        this.field(triple);
      }
    }
  }

  /** Read an f-string's replacement field after its `{`; `at` ends after its `}`. */
  field(triple: boolean): void {
    const text = this.text;
    let depth = 0;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === LF && !triple) throw new Unsure();
      if (c === QUOTE || c === APOSTROPHE) {
        this.prefixed();
        continue;
      }
      if (OPEN.has(c)) depth++;
      else if (CLOSE.has(c)) {
        if (depth === 0) {
          if (c !== RBRACE) throw new Unsure();
          this.at++;
          return;
        }
        depth--;
      } else if (c === COLON && depth === 0) {
        this.at++;
        this.spec();
        return;
      } else if (c === HASH || c === BACKSLASH) throw new Unsure();
      this.at++;
    }
    throw new Unsure();
  }

  /** Read a format spec after a field's `:`, up to and past the field's `}`. */
  spec(): void {
    const text = this.text;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === LBRACE) {
        this.at++;
        this.field(false);
        continue;
      }
      this.at++;
      if (c === RBRACE) return;
      if (c === LF || c === QUOTE || c === APOSTROPHE) throw new Unsure();
    }
    throw new Unsure();
  }

  /** Read a string literal whose opening quote is at `at`, with the prefix just before it. */
  prefixed(): void {
    const text = this.text;
    const prefix = text.slice(prefixStart(text, this.at), this.at).toLowerCase();
    this.string(PREFIXES[prefix] ?? false);
  }
}

/** What a line's reader stops at; names, numbers, operators and spaces are passed over in runs. */
const STOPS = /[\n#'"\\()[\]{};=]/g;
/** A `def` or `async def` at the start of a logical line. */
const DEF = /(?:async[ \t]+)?def[ \t]/y;

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === FF;
}

/** The start of a string prefix that ends at a quote (the quote's own index when none). */
function prefixStart(text: string, quote: number): number {
  let p = quote;
  while (p > quote - 2 && PREFIX_CHARS.has(text.charCodeAt(p - 1))) p--;
  if (p > 0 && isWordChar(text.charCodeAt(p - 1))) throw new Unsure(); // a name before a quote
  return p;
}

/**
 * The logical lines of a Python file (comment-only and blank lines are not ones). Past
 * `maxTokens` tokens outside function bodies (two for each line at indentation 0: a statement
 * and its NEWLINE), it throws {@linkcode TooManyTokens}.
 */
function logicalLines(text: string, maxTokens: number): Line[] {
  const lines: Line[] = [];
  let outside = 0;
  const reader = new Reader(text);
  const n = text.length;
  while (reader.at < n) {
    // The indentation of a new line.
    const lineStart = reader.at;
    let c = text.charCodeAt(reader.at);
    while (c === SPACE) c = text.charCodeAt(++reader.at);
    if (c === TAB || c === FF) throw new Unsure();
    if (reader.at >= n) break;
    if (c === LF || c === CR || c === HASH) {
      // Blank or comment-only.
      const end = text.indexOf("\n", reader.at);
      reader.at = end === -1 ? n : end + 1;
      continue;
    }
    const line: Line = {
      start: reader.at,
      end: reader.at,
      indent: reader.at - lineStart,
      header: false,
      strings: true,
      semicolon: false,
      assign: -1,
    };
    DEF.lastIndex = reader.at;
    const def = DEF.test(text);
    readLine(reader, line);
    line.header = def && text.charCodeAt(line.end - 1) === COLON;
    if (line.indent === 0 && (outside += 2) > maxTokens) {
      throw new TooManyTokens(maxTokens, reader.at);
    }
    lines.push(line);
    reader.at++; // the line break
  }
  return lines;
}

/**
 * Read a logical line from `reader.at` (its first code character) to its end, a line break outside
 * brackets, run by run (each run ends at a string, a comment, a bracket, `=`, `;`, a backslash or
 * a line break): its end, whether it is only strings, its semicolon and its assignment.
 */
function readLine(reader: Reader, line: Line): void {
  const text = reader.text;
  const n = text.length;
  let depth = 0;
  for (;;) {
    STOPS.lastIndex = reader.at;
    const stop = STOPS.exec(text)?.index ?? n;
    const c = stop < n ? text.charCodeAt(stop) : LF;
    const quoted = c === QUOTE || c === APOSTROPHE;
    // The run before the stop (a string's prefix is the string's).
    const runEnd = quoted ? prefixStart(text, stop) : stop;
    let end = runEnd;
    while (end > reader.at && isSpace(text.charCodeAt(end - 1))) end--;
    if (end > reader.at) {
      line.strings = false;
      line.end = end;
    }
    reader.at = stop;
    if (c === LF) {
      if (depth === 0 || stop >= n) break;
      reader.at++;
    } else if (c === HASH) {
      const lineEnd = text.indexOf("\n", reader.at);
      reader.at = lineEnd === -1 ? n : lineEnd;
    } else if (c === BACKSLASH) {
      // A line continuation (the only place a backslash may stand outside a string).
      const next = text.charCodeAt(reader.at + 1);
      if (next === LF) reader.at += 2;
      else if (next === CR && text.charCodeAt(reader.at + 2) === LF) reader.at += 3;
      else throw new Unsure();
    } else if (quoted) {
      reader.prefixed();
      line.end = reader.at;
    } else {
      line.strings = false;
      if (c === EQUALS) {
        // `==` is passed over whole; `<=`, `+=`, `:=` and the like are not assignments.
        if (text.charCodeAt(reader.at + 1) === EQUALS) reader.at++;
        else if (depth === 0 && !OPERATORS.has(text.charCodeAt(reader.at - 1))) {
          line.assign = line.assign === -1 ? reader.at : -2;
        }
      } else if (c === SEMICOLON) {
        if (depth === 0) line.semicolon = true;
      } else if (OPEN.has(c)) depth++;
      else if (--depth < 0) throw new Unsure();
      reader.at++;
      line.end = reader.at;
    }
  }
  if (depth !== 0) throw new Unsure();
}

/**
 * Where the comment lines between a docstring (ending at `after`) and the statement at `before`
 * start, when the first of them stands at the body's indentation; -1 when there is none.
 */
function commentStart(text: string, after: number, before: number, indent: number): number {
  let lineStart = text.indexOf("\n", after) + 1;
  while (lineStart > 0 && lineStart < before) {
    let at = lineStart;
    while (text.charCodeAt(at) === SPACE) at++;
    const c = text.charCodeAt(at);
    if (c === HASH) return at - lineStart === indent ? at : -1;
    if (c !== LF && c !== CR) return -1; // code, or a tab: no comment first
    lineStart = text.indexOf("\n", at) + 1;
  }
  return -1;
}

/** A plain assignment's target: a name, with an annotation or not. */
const TARGET = /^([A-Za-z_]\w*)\s*(?::[^=]*)?$/;

/**
 * The regions of Python source to hollow out: each function body after its
 * first line (or its docstring), and each value of a plain assignment longer
 * than `maxValueLines` lines (but `__all__`'s), which the view elides whole
 * (it becomes `(` and `)` around spaces and the same line breaks); undefined
 * when there is nothing to hollow or the text is not one this reader is sure
 * of (then the caller parses the text itself). With `options.maxTokens`, it
 * throws `TooManyTokens` once the lines at indentation 0 hold more tokens
 * than that (two each), without reading the rest.
 *
 * @example
 * ```ts
 * import { pythonRegions } from "./_python_hollow.ts";
 * const text = "def f(x):\n    y = x * 2\n" + "    y += 1\n".repeat(8) + "    return y\n";
 * pythonRegions(text); // [{ start: 14, end: 118, head: '_="""', tail: '"""' }]
 * ```
 */
export function pythonRegions(
  text: string,
  options: HollowOptions = {},
): HollowRegion[] | undefined {
  const maxValueLines = options.maxValueLines ?? 12;
  const lines = unlessUnsure(() => logicalLines(text, options.maxTokens ?? Infinity));
  if (!lines) return undefined;
  const regions: HollowRegion[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    if (!header.header) {
      const value = longValue(text, header, maxValueLines);
      if (value) regions.push(value);
      continue;
    }
    if (i + 1 >= lines.length) continue;
    const body = lines[i + 1].indent;
    if (body <= header.indent) return undefined; // an empty body: a syntax error
    let last = i + 1;
    for (let j = i + 2; j < lines.length && lines[j].indent > header.indent; j++) {
      // A dedent to a level between the header's and the body's opened no block.
      if (lines[j].indent < body) return undefined;
      last = j;
    }
    // A first line of more than one statement: whether it starts with a docstring is the parser's.
    if (lines[i + 1].semicolon) continue;
    const doc = lines[i + 1].strings;
    // After a docstring the rest of the body is hollowed; without one, the whole body.
    const from = doc ? i + 2 : i + 1;
    if (from > last) continue;
    // The hollowed text starts a statement of the body (a line at the body's indentation).
    let start = from;
    while (start <= last && lines[start].indent !== body) start++;
    if (start > last) continue;
    // A docstring stays first; without one, the first statement must not read as one.
    const region = {
      start: lines[start].start,
      end: lines[last].end,
      head: doc ? '"""' : '_="""',
      tail: '"""',
    };
    // Comment lines between a docstring and the next statement are inside the body, which the
    // view elides from the docstring's end on: hollowed too (tree-sitter-python's scanner looks
    // ahead over a run of them at each of its lines). Without a docstring, comments above the
    // first statement are not the body's and stay.
    const comments = doc ? commentStart(text, lines[i + 1].end, region.start, body) : -1;
    if (comments !== -1 && fits(text, { ...region, start: comments })) region.start = comments;
    if (region.end - region.start >= MIN_HOLLOW && fits(text, region)) regions.push(region);
    i = last; // nested functions are inside the hollowed text
  }
  return regions.length ? regions : undefined;
}

/** The value of a plain assignment on this line, when longer than `maxValueLines` lines. */
function longValue(text: string, line: Line, maxValueLines: number): HollowRegion | undefined {
  if (line.assign < 0 || line.semicolon) return undefined;
  const target = TARGET.exec(text.slice(line.start, line.assign));
  if (!target || target[1] === "__all__") return undefined; // the module's public API stays
  let start = line.assign + 1;
  while (isSpace(text.charCodeAt(start))) start++;
  if (start >= line.end || text.charCodeAt(start) === BACKSLASH) return undefined;
  let rows = 1;
  for (
    let at = text.indexOf("\n", start);
    at !== -1 && at < line.end;
    at = text.indexOf("\n", at + 1)
  ) {
    if (++rows > maxValueLines) break;
  }
  if (rows <= maxValueLines) return undefined;
  const region = { start, end: line.end, head: "(", tail: ")" };
  return fits(text, region) ? region : undefined;
}

/**
 * Python source with the bodies of its functions hollowed out (see
 * {@linkcode pythonRegions}), or undefined when nothing is hollowed.
 *
 * @example
 * ```ts
 * import { hollowPython } from "./_python_hollow.ts";
 * const text = "def f(x):\n    y = x * 2\n" + "    y += 1\n".repeat(8) + "    return y\n";
 * const hollow = hollowPython(text)!;
 * hollow.length === text.length; // true
 * hollow.startsWith('def f(x):\n    _="""'); // true
 * ```
 */
export function hollowPython(
  text: string,
  options: HollowOptions = {},
): string | undefined {
  const regions = pythonRegions(text, options);
  return regions && hollowText(text, regions);
}
