/**
 * What a summary reads of a text in a language: the text with its block comments and its strings
 * that run over lines taken out, their line breaks kept. A line of them is no declaration (a
 * `Package.swift`'s `.package(url: ...)` in a block comment, a Python docstring's `import x`
 * example, an Elixir `@moduledoc`'s `def hello do`), but the patterns, which read lines, took it
 * for one.
 *
 * @module
 */

import { extensionsOf } from "../../grammars/languages.ts";

/**
 * Tokens read in turn from a text's start: what group 1 holds (a block comment, a string that
 * runs over lines) is taken out; the others (line comments, one-line strings) are passed over as
 * they are, so that a comment's opening or a `"""` in them opens nothing. A block that never
 * closes runs to the end (one pass, whatever the text).
 */
const SLASH_STAR = "\\/\\*[^]*?(?:\\*\\/|$)";
// A string that does not close on its line runs to the line's end, as a compiler reads it: one
// that failed was tried again from each quote in it (a line of `\"` read once a quote), and a
// comment's opening in its text opened a comment.
const DOUBLE = '"(?:[^"\\\\\\n]|\\\\[^]?)*(?:"|(?=\\n)|$)';
const SINGLE = "'(?:[^'\\\\\\n]|\\\\[^]?)*(?:'|(?=\\n)|$)";
// A character literal (`'"'`, `'\u0041'`), never a Rust lifetime (`&'a str`).
const CHAR = "'(?:[^'\\\\\\n]|\\\\[^'\\n]{1,9})'";
const TRIPLE = '"""[^]*?(?:"""|$)';

/** C and the languages that write comments as it does, their strings on one line. */
const C_LIKE = new RegExp(`\\/\\/[^\\n]*|(${SLASH_STAR})|${DOUBLE}|${CHAR}`, "g");
/** The same with `"""` text blocks and raw strings (Java, Kotlin, Scala, Swift, Dart, Groovy). */
const C_TRIPLE = new RegExp(`\\/\\/[^\\n]*|(${SLASH_STAR}|${TRIPLE})|${DOUBLE}|${CHAR}`, "g");
/** Go: its raw strings (`` `...` ``) may hold anything, a comment's opening too. */
const GO = new RegExp(`\\/\\/[^\\n]*|(${SLASH_STAR}|\`[^\`]*\`)|${DOUBLE}|${CHAR}`, "g");
/** C#: its verbatim strings (`@"..."`, `""` a quote) run over lines. */
const CSHARP = new RegExp(
  `\\/\\/[^\\n]*|(${SLASH_STAR}|${TRIPLE}|@"(?:[^"]|"")*(?:"|$))|${DOUBLE}|${CHAR}`,
  "g",
);
/** PHP: `#` comments too, and strings in either quote. */
const PHP = new RegExp(`(?:\\/\\/|#)[^\\n]*|(${SLASH_STAR})|${DOUBLE}|${SINGLE}`, "g");
/** Python: its `"""` and `'''` strings (docstrings), `#` comments. */
const PYTHON = new RegExp(`#[^\\n]*|(${TRIPLE}|'''[^]*?(?:'''|$))|${DOUBLE}|${SINGLE}`, "g");
/** Elixir: its heredocs (`@moduledoc """`), `#` comments. */
const ELIXIR = new RegExp(`#[^\\n]*|(${TRIPLE}|'''[^]*?(?:'''|$))|${DOUBLE}`, "g");
/** Lua: its long comments and strings (`--[[ ... ]]`, `[==[ ... ]==]`). */
const LUA = new RegExp(
  `(--\\[(=*)\\[[^]*?(?:\\]\\2\\]|$)|\\[(=*)\\[[^]*?(?:\\]\\3\\]|$))|--[^\\n]*|${DOUBLE}|${SINGLE}`,
  "g",
);
/**
 * Ruby: `=begin` ... `=end` at lines' starts, and heredocs' bodies (`<<~SQL` to its word alone on
 * a line): a generator's template holds `def` lines.
 */
const RUBY = new RegExp(
  `(^=begin\\b[^]*?(?:\\n=end\\b|$(?![^]))|<<[~-](["']?)([A-Z_]\\w*)\\2[^\\n]*(?:\\n|$(?![^]))(?:[^]*?\\n[ \\t]*\\3(?=\\r?\\n|$(?![^]))|[^]*))|#[^\\n]*|${DOUBLE}|${SINGLE}`,
  "gm",
);
/** PowerShell: `<# ... #>` comments and here-strings (`@"` to `"@` at a line's start). */
const POWERSHELL = new RegExp(
  `(<#[^]*?(?:#>|$(?![^]))|@(["'])[ \\t]*\\r?\\n[^]*?(?:\\n\\2@|$(?![^])))|#[^\\n]*|${DOUBLE}|${SINGLE}`,
  "gm",
);

/**
 * Haskell: `{- ... -}` comments (they nest), `--` comments (a run of dashes alone: not an operator
 * that holds one, `-->`, `--->`, `|--`, `<--`), strings on one line; a `'` is a prime (`f'`) as
 * often as a character.
 */
const HASKELL = new RegExp(
  `(\\{-[^]*?(?:-\\}|$))|(?<![-!#$%&*+./<=>?@\\\\^|~:])--+(?![-!#$%&*+./<=>?@\\\\^|~:])[^\\n]*|${DOUBLE}`,
  "g",
);

/**
 * Each language's tokens by the extension the summary reads a file as: a grammar's extensions
 * (`extensionsOf`), so a file a code view reads as C++ is blanked as C++, and those of languages
 * with no grammar.
 */
const TOKENS: Record<string, RegExp> = {
  ...by(C_LIKE, [
    ...extensionsOf(["c", "cpp", "rust"]),
    ".mm",
    ".sol",
    ".proto",
    ".glsl",
    ".vert",
    ".frag",
  ]),
  ...by(C_TRIPLE, [...extensionsOf(["java", "kotlin", "scala"]), ".swift", ".dart"]),
  ...by(C_TRIPLE, [".groovy", ".gradle"]),
  ...by(GO, extensionsOf(["go"])),
  ...by(CSHARP, extensionsOf(["csharp"])),
  ...by(PHP, extensionsOf(["php"])),
  ...by(PYTHON, [...extensionsOf(["python"]), ".pyx", ".pxd", ".pxi"]),
  ...by(ELIXIR, extensionsOf(["elixir"])),
  ...by(LUA, extensionsOf(["lua"])),
  ...by(RUBY, extensionsOf(["ruby"])),
  ...by(POWERSHELL, extensionsOf(["powershell"])),
  ...by(HASKELL, extensionsOf(["haskell"])),
};

/** One pattern for each of `extensions`. */
function by(tokens: RegExp, extensions: string[]): Record<string, RegExp> {
  return Object.fromEntries(extensions.map((e) => [e, tokens]));
}

/**
 * Whether a summary of a file read as `ext` reads it through {@linkcode codeText} (one more pass
 * over the text).
 *
 * @example
 * ```ts
 * import { blanksComments } from "./_summary_blanks.ts";
 * blanksComments(".swift"); // true
 * blanksComments(".md"); // false
 * ```
 */
export function blanksComments(ext: string): boolean {
  return ext in TOKENS;
}

/**
 * `text` with the block comments and the strings over lines of the language `ext` names taken
 * out (their line breaks kept); the text itself for another extension.
 *
 * @example
 * ```ts
 * import { codeText } from "./_summary_blanks.ts";
 * codeText(".py", 'X = """\nimport os\n"""\n');
 * // "X = \n\n\n"
 * ```
 */
export function codeText(ext: string, text: string): string {
  const tokens = TOKENS[ext];
  if (!tokens) return text;
  const nests = NESTING.get(ext);
  let out = "";
  let copied = 0;
  tokens.lastIndex = 0;
  for (let found = tokens.exec(text); found; found = tokens.exec(text)) {
    const start = found.index;
    let end = start + found[0].length;
    // A comment that nests ends where its own close is, past those of the comments inside it.
    if (nests && found[0].startsWith(nests.open)) {
      tokens.lastIndex = end = nestedEnd(text, start, nests);
    }
    const token = text.slice(start, end);
    // A `/*` that never closes is no comment valid code holds (a raw string's text the tokens
    // misread, `r#"a"/*"#`): taken out, it took the rest of the file with it.
    const unclosed = token.startsWith("/*") && (token.length < 4 || !token.endsWith("*/"));
    if (found[1] && !unclosed && (COMMENT.test(token) || token.includes("\n"))) {
      out += text.slice(copied, start) + blankOf(token);
      copied = end;
    }
  }
  return copied ? out + text.slice(copied) : text;
}

/** A block comment that nests: its opening, and its openings and closes in turn. */
interface Nesting {
  open: string;
  marks: RegExp;
}

const SLASH_STARS: Nesting = { open: "/*", marks: /\/\*|\*\//g };

// The languages whose block comments nest (a comment in a comment closes first): Rust, Swift,
// Kotlin, Scala, Dart, Haskell.
const NESTING = new Map<string, Nesting>([
  ...[".rs", ".swift", ".kt", ".kts", ".scala", ".sc", ".sbt", ".dart"].map((
    e,
  ): [string, Nesting] => [e, SLASH_STARS]),
  [".hs", { open: "{-", marks: /\{-|-\}/g }],
]);

/** Where the comment that opens at `start` ends, the comments inside it closed first. */
function nestedEnd(text: string, start: number, { open, marks }: Nesting): number {
  marks.lastIndex = start + 2;
  let depth = 1;
  for (let mark = marks.exec(text); mark; mark = marks.exec(text)) {
    depth += mark[0] === open ? 1 : -1;
    if (depth === 0) return marks.lastIndex;
  }
  return text.length;
}

/**
 * A block comment's opening: one on a single line is taken out too; a string on one line stays
 * (circe's `checkAll("""Codec["foo"]"""", ...)` keeps its title).
 */
const COMMENT = /^(?:\/\*|<#|--\[|=begin|\{-)/;

/**
 * A token's line breaks alone: its lines empty (as spaces, a license comment's lines made runs
 * of blanks that sent Java's methods to the pattern for odd texts).
 */
function blankOf(token: string): string {
  return token.replace(/[^\n]+/g, "");
}
