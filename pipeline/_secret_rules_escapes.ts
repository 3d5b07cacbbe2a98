/**
 * What the rules read in place of a format's escapes. The one decoder of escapes, with two
 * readings of it: the marks around a value (a JSON string's `\u0022` and `\u003d`, HTML's and
 * XML's `&quot;` and `&#34;`, a URL's `%22`, `%3D` and `%26`: `{&quot;apiKey&quot;:&quot;…&quot;}`,
 * `password%3D…` in a logged body), read in data files and logs by the whole text again; and the
 * characters inside a token (a JSON string's `\/`, which PHP writes for every `/`, `\u002d`, C's
 * `\x2d`, a URL's `%2F`: `https:\/\/discord.com\/api\/webhooks\/…`), read in any file by the
 * lines around them again. Both give edits (`_secret_rules_edits.ts`) whose one map leads a match
 * back to the escapes it covers. And typographic quotes and wide blanks (a word processor's
 * `password: “…”`, a no-break space), read as ASCII's in place.
 *
 * @module
 */

import type { Edit } from "./_secret_rules_edits.ts";

/** The typographic characters of Latin-1: the no-break space and the guillemets. */
const LATIN1_TYPOGRAPHIC = /[\u00a0\u00ab\u00bb]/;
/** Pages and settings files, by name. */
const TYPOGRAPHIC_FILE =
  /\.(?:md|markdown|mdx|rst|txt|adoc|ya?ml|json|toml|ini|cfg|conf|properties|env|xml|plist)$|(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$/i;
/** Markdown's pages, by name. */
const MARKDOWN_FILE = /\.(?:md|markdown|mdx)$/i;
/**
 * A label's colon and the emphasis that closes after it (`**Password:** …`, `__API key:__ …`,
 * `*Token:* …`): the marks read as blanks, so the value follows its label as in plain text.
 */
const EMPHASIS_AFTER_COLON = /:(?:\*{1,2}|_{1,2})(?=[ \t])/g;
/** A character beyond Latin-1 (V8 answers this test of a text of Latin-1 at once). */
export const BEYOND_LATIN1: RegExp = /[\u0100-\uffff]/;
/** Typographic quotes and blanks other than ASCII's (no-break, figure, narrow, ideographic). */
const TYPOGRAPHIC = /[\u00a0\u00ab\u00bb\u2007\u2018\u2019\u201c-\u201e\u202f\u3000\u300c\u300d]/;

/**
 * `text` with each typographic quote or wide blank replaced by the ASCII one it stands for (one
 * character each: every match's place is the same in `text`), and in Markdown a label's emphasis
 * after its colon read as blanks; or `text` itself when it holds none or its file (`path`) is no
 * page or settings file.
 *
 * @example
 * ```ts
 * import { plainTypography } from "./_secret_rules_escapes.ts";
 * plainTypography("password: “Tr0ub4dor!x9”", "a.yml"); // 'password: "Tr0ub4dor!x9"'
 * ```
 */
export function plainTypography(text: string, path?: string): string {
  // (pages and settings files only, where a word processor's quotes are pasted: a search of
  // every text for the characters a text of Latin-1 may hold cost the scan 3%)
  if (!path || !TYPOGRAPHIC_FILE.test(path)) return text;
  if (MARKDOWN_FILE.test(path) && (text.includes(":*") || text.includes(":_"))) {
    text = text.replace(EMPHASIS_AFTER_COLON, (marks) => ":" + " ".repeat(marks.length - 1));
  }
  const latin1 = !BEYOND_LATIN1.test(text);
  if (latin1 && !LATIN1_TYPOGRAPHIC.test(text)) return text;
  if (!latin1 && !TYPOGRAPHIC.test(text)) return text;
  return text.replace(/[\u00a0\u2007\u202f\u3000]/g, " ").replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u00ab\u00bb\u201c-\u201e\u300c\u300d]/g, '"');
}

/** OCaml's and Reason's files, and Elixir's, by name. */
const OCAML_FILE = /\.(?:ml|mli|mll|mly|re|rei)$/i;
const ELIXIR_FILE = /\.(?:ex|exs)$/i;
/** OCaml's quoted string on one line: `{|…|}`, `{id|…|id}` (group 1 the id, 2 the text). */
const OCAML_QUOTED = /\{([a-z_]{0,16})\|([^|"\r\n]{1,256})\|\1\}/g;
/** An Elixir sigil of a string on one line: `~s(…)`, `~S"…"`, `~s|…|`, `~s[…]`, … (its text). */
const ELIXIR_SIGIL =
  /~[sS](?:\(([^()"\r\n]{1,256})\)|\[([^[\]"\r\n]{1,256})\]|\{([^{}"\r\n]{1,256})\}|<([^<>"\r\n]{1,256})>|\|([^|"\r\n]{1,256})\||"([^"\r\n]{1,256})"|'([^'\r\n]{1,256})')/g;

/** Lua's files and Perl's, by name. */
const LUA_FILE = /\.(?:lua|luau|rockspec)$/i;
const PERL_FILE = /\.(?:pl|pm|t|psgi|cgi)$/i;
/** Lua's long string on one line: `[[…]]`, `[==[…]==]` (group 1 the level, 2 the text). */
const LUA_LONG = /\[(={0,8})\[([^\]"\r\n]{1,256})\]\1\]/g;
/** Perl's quote-like operators on one line: `q{…}`, `qq(…)`, `q|…|`, `q'…'` (their text). */
const PERL_QUOTE =
  /(?<![\w$@%&-])qq?(?:\{([^{}"\r\n]{1,256})\}|\(([^()"\r\n]{1,256})\)|\[([^[\]"\r\n]{1,256})\]|<([^<>"\r\n]{1,256})>|\|([^|"\r\n]{1,256})\||'([^'\r\n]{1,256})'|!([^!"\r\n]{1,256})!)/g;

/** Swift's files, C++'s (and C's, Objective-C's) and Ruby's, by name. */
const SWIFT_FILE = /\.swift$/i;
const CPP_FILE = /\.(?:c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|ipp|inl|m|mm)$/i;
const RUBY_FILE =
  /\.(?:rb|rake|gemspec|ru)$|(?:^|[\/\\])(?:Rakefile|Gemfile|Capfile|Fastfile|Podfile)$/i;
/** Swift's raw string on one line: `#"…"#`, `##"…"##` (group 1 the `#`s, 2 the text). */
const SWIFT_RAW = /(#{1,4})"([^"\r\n]{1,256})"\1/g;
/** C++'s raw string on one line: `R"(…)"`, `R"key(…)key"`, `u8R"(…)"` (group 1 the key, 2 the text). */
const CPP_RAW = /(?<![\w])(?:u8|[uUL])?R"([^()\\\s"]{0,16})\(([^"\r\n]{1,256})\)\1"/g;
/** Ruby's quote-like literals on one line: `%q(…)`, `%Q{…}`, `%q|…|` (their text). */
const RUBY_QUOTE =
  /(?<![\w%])%[qQ](?:\(([^()"\r\n]{1,256})\)|\[([^[\]"\r\n]{1,256})\]|\{([^{}"\r\n]{1,256})\}|<([^<>"\r\n]{1,256})>|\|([^|"\r\n]{1,256})\||!([^!"\r\n]{1,256})!)/g;

/**
 * `text` with a language's other string literals written as `"…"` in place (the same length: every
 * match's place is the same in `text`), so that the rules read their values as quoted: OCaml's
 * quoted strings (`let password = {|…|}`, `{id|…|id}`), Elixir's sigils (`token: ~s(…)`,
 * `~S"…"`), Lua's long strings (`local secret = [[…]]`) and Perl's quote-like operators
 * (`token => q{…}`, `qq(…)`), Swift's raw strings (`let apiKey = #"…"#`), C++'s
 * (`R"(…)"`, `R"key(…)key"`) and Ruby's `%q(…)`, `%Q{…}`, by the file's name (`path`).
 *
 * @example
 * ```ts
 * import { plainLiterals } from "./_secret_rules_escapes.ts";
 * plainLiterals("let pw = {|Tr0ub4dor!x9|}", "a.ml"); // 'let pw =  "Tr0ub4dor!x9" '
 * ```
 */
export function plainLiterals(text: string, path?: string): string {
  if (!path) return text;
  if (OCAML_FILE.test(path) && text.includes("{")) {
    return text.replace(OCAML_QUOTED, (_, id: string, value: string) => {
      const pad = " ".repeat(id.length + 1);
      return `${pad}"${value}"${pad}`;
    });
  }
  if (ELIXIR_FILE.test(path) && text.includes("~")) {
    return text.replace(ELIXIR_SIGIL, (m: string) => `  "${m.slice(3, -1)}"`);
  }
  if (LUA_FILE.test(path) && text.includes("[")) {
    return text.replace(LUA_LONG, (_, level: string, value: string) => {
      const pad = " ".repeat(level.length + 1);
      return `${pad}"${value}"${pad}`;
    });
  }
  if (PERL_FILE.test(path) && text.includes("q")) {
    return text.replace(PERL_QUOTE, (m: string) => {
      const open = m[1] === "q" ? 3 : 2;
      return `${" ".repeat(open - 1)}"${m.slice(open, -1)}"`;
    });
  }
  if (SWIFT_FILE.test(path) && text.includes('#"')) {
    return text.replace(SWIFT_RAW, (_, marks: string, value: string) => {
      const pad = " ".repeat(marks.length);
      return `${pad}"${value}"${pad}`;
    });
  }
  if (CPP_FILE.test(path) && text.includes('R"')) {
    return text.replace(CPP_RAW, (m: string, key: string, value: string) => {
      // (its prefix, `R"`, the key and `(` become blanks and a quote; `)`, the key and `"` a quote
      // and blanks)
      const head = m.length - value.length - key.length - 2;
      return `${" ".repeat(head - 1)}"${value}"${" ".repeat(key.length + 1)}`;
    });
  }
  if (RUBY_FILE.test(path) && text.includes("%")) {
    return text.replace(RUBY_QUOTE, (m: string) => {
      return `  "${m.slice(3, -1)}"`;
    });
  }
  return text;
}

/**
 * Every escape the rules decode: JSON's `\/`; `\u00XX` (JSON, JavaScript), `\xXX` (C, Python, an
 * nginx log), `%XX` (a URL) and `%25XX` (a URL's encoded again: a link inside a link's query) of
 * a character below; HTML's and XML's references of a quote. One escape stands for one
 * character: `"` (22), `$` (24: Braintree's token), `&` (26), `'` (27), `+` (2B), `,` (2C), `-`
 * (2D), `.` (2E), `/` (2F), `:` (3A), `=` (3D), `[` (5B), `]` (5D), `_` (5F), `{` (7B), `}` (7D).
 */
const ESCAPE =
  /\\\/|(?:\\u00|\\x|%(?:25)?)(?:2[2467BbCcDdEeFf]|3[AaDd]|5[BbDdFf]|7[BbDd])|&(?:quot|apos|#0{0,4}3[49]|#[xX]0{0,4}2[27]);/g;

/** The character an escape of {@linkcode ESCAPE} stands for. */
function characterOf(escape: string): string {
  if (escape === "\\/") return "/";
  if (escape === "&quot;") return '"';
  if (escape === "&apos;") return "'";
  if (escape[0] === "&") {
    // a character reference: `&#34;`, `&#034;`, `&#x22;`, `&#X22;`
    const hex = escape[2] === "x" || escape[2] === "X";
    return String.fromCharCode(parseInt(escape.slice(hex ? 3 : 2, -1), hex ? 16 : 10));
  }
  return String.fromCharCode(parseInt(escape.slice(-2), 16));
}

/**
 * The escapes in `text` of the characters `chars` matches, in order, each with the character it
 * stands for: the one decoder of both readings below.
 */
function escapesOf(text: string, chars: RegExp): Edit[] {
  const out: Edit[] = [];
  ESCAPE.lastIndex = 0;
  for (let m = ESCAPE.exec(text); m; m = ESCAPE.exec(text)) {
    const char = characterOf(m[0]);
    if (chars.test(char)) out.push({ index: m.index, length: m[0].length, text: char });
  }
  return out;
}

/**
 * The marks that stand around a value and its name: quotes, operators, separators and brackets
 * (`{&quot;apiKey&quot;:&quot;…&quot;}`, `password%3D…%26next%3D1`). The text is read again
 * whole with them decoded, in {@linkcode ESCAPED_FILE}s.
 */
const MARK = /["'&,:=[\]{}]/;

/**
 * The characters that tokens and their URLs hold besides letters and digits (`$`, `+`, `-`, `.`,
 * `/`, `:`, `=`, `_`), and `&`, which ends a value in a query string: its `=` decoded and not its `&`,
 * `password%3D…%26next%3D1` read `…%26next` as the value's own. The text around them is read
 * again with them decoded, in any file.
 */
const TOKEN_MARK = /[$&+\-./:=_]/;

/**
 * Files whose values a format escapes: JSON (and HAR, notebooks, Postman's), HTML and XML, logs
 * (not pages: a search of tldr's for the escapes cost its scan 2%).
 */
const ESCAPED_FILE =
  /\.(?:json|jsonl|ndjson|har|ipynb|html?|xhtml|xml|jsp|cshtml|log|out)$|(?:^|[\/\\])[\w.-]{0,64}_log$/i;

/**
 * The escapes of marks around values ({@linkcode MARK}) in `text`, when its file (`path`) is one
 * whose format escapes them ({@linkcode ESCAPED_FILE}); none elsewhere.
 *
 * @example
 * ```ts
 * import { markEscapes } from "./_secret_rules_escapes.ts";
 * markEscapes("{&quot;k&quot;:1}", "a.html");
 * // [{ index: 1, length: 6, text: '"' }, { index: 8, length: 6, text: '"' }]
 * ```
 */
export function markEscapes(text: string, path?: string): Edit[] {
  // (data and pages only: a search of every text for the escapes' `\`, `&` and `%` cost the
  // scan 15%, and code writes these escapes in its own literals)
  if (!path || !ESCAPED_FILE.test(path)) return [];
  return escapesOf(text, MARK);
}

/** A letter or digit: what a run of escapes inside a token has on one side at least. */
const TOKEN_CHARACTER = /[A-Za-z0-9]/;
/**
 * The marks of a token's alphabet that are not escaped (Django's keys hold `!@#$%^&*()`): a run
 * of escapes between them is inside the token when a letter or digit is a few of them away.
 */
const ALPHABET_MARK = /[!@#$%^&*()]/;

/**
 * Whether a letter or digit is at `at` or, past up to 8 of {@linkcode ALPHABET_MARK}'s marks, on
 * from it (`step`: -1 back, 1 on).
 */
function tokenNear(text: string, at: number, step: number): boolean {
  for (let i = 0; i <= 8; i++, at += step) {
    const c = text[at] ?? "";
    if (TOKEN_CHARACTER.test(c)) return true;
    if (!ALPHABET_MARK.test(c)) return false;
  }
  return false;
}

/**
 * The escapes of token characters ({@linkcode TOKEN_MARK}) in `text`, in runs (`:\/\/`,
 * `%3A%2F%2F`) that touch a letter or digit, or reach one over a few marks of a token's alphabet
 * (`)&\u002d!x` in a Django key; a format's `"%2d"` or `"%2f"` in quotes does not).
 *
 * @example
 * ```ts
 * import { tokenEscapes } from "./_secret_rules_escapes.ts";
 * tokenEscapes('{"url": "https:\\/\\/example.org"}');
 * // [{ index: 15, length: 2, text: "/" }, { index: 17, length: 2, text: "/" }]
 * ```
 */
export function tokenEscapes(text: string): Edit[] {
  if (!text.includes("\\") && !text.includes("%")) return [];
  const out: Edit[] = [];
  const escapes = escapesOf(text, TOKEN_MARK);
  for (let first = 0; first < escapes.length;) {
    // the run: the escapes after `first` that each start where the one before ends
    let last = first;
    while (last + 1 < escapes.length && endOf(escapes[last]) === escapes[last + 1].index) last++;
    if (tokenNear(text, escapes[first].index - 1, -1) || tokenNear(text, endOf(escapes[last]), 1)) {
      out.push(...escapes.slice(first, last + 1));
    }
    first = last + 1;
  }
  return out;
}

/** Where an edit's span ends in its text. */
function endOf(edit: Edit): number {
  return edit.index + edit.length;
}
