/**
 * Texts as the rules read them when a format wrote a secret's quotes or operators escaped: a
 * JSON string's `\u0022` and `\u003d`, HTML's and XML's `&quot;` and `&#34;`, a URL's `%22`,
 * `%3D` and `%26` (`{&quot;apiKey&quot;:&quot;…&quot;}`, `password%3D…` in a logged body), and
 * typographic quotes and wide blanks (a word processor's `password: “…”`, a no-break space).
 *
 * @module
 */

/** The typographic characters of Latin-1: the no-break space and the guillemets. */
const LATIN1_TYPOGRAPHIC = /[\u00a0\u00ab\u00bb]/;
/** Pages and settings files, by name. */
const TYPOGRAPHIC_FILE =
  /\.(?:md|markdown|mdx|rst|txt|adoc|ya?ml|json|toml|ini|cfg|conf|properties|env|xml|plist)$|(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$/i;
/** A character beyond Latin-1 (V8 answers this test of a text of Latin-1 at once). */
export const BEYOND_LATIN1: RegExp = /[\u0100-\uffff]/;
/** Typographic quotes and blanks other than ASCII's (no-break, figure, narrow, ideographic). */
const TYPOGRAPHIC = /[\u00a0\u00ab\u00bb\u2007\u2018\u2019\u201c-\u201e\u202f\u3000\u300c\u300d]/;

/**
 * `text` with each typographic quote or wide blank replaced by the ASCII one it stands for (one
 * character each: every match's place is the same in `text`), or `text` itself when it holds none
 * or its file (`path`) is no page or settings file.
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
  const latin1 = !BEYOND_LATIN1.test(text);
  if (latin1 && !LATIN1_TYPOGRAPHIC.test(text)) return text;
  if (!latin1 && !TYPOGRAPHIC.test(text)) return text;
  return text.replace(/[\u00a0\u2007\u202f\u3000]/g, " ").replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u00ab\u00bb\u201c-\u201e\u300c\u300d]/g, '"');
}

/**
 * Files whose values a format escapes: JSON (and HAR, notebooks, Postman's), HTML and XML, logs
 * (not pages: a search of tldr's for the escapes cost its scan 2%).
 */
const ESCAPED_FILE =
  /\.(?:json|jsonl|ndjson|har|ipynb|html?|xhtml|xml|jsp|cshtml|log|out)$|(?:^|[\/\\])[\w.-]{0,64}_log$/i;
/** The escapes of a quote, `=`, `:`, `&` or `,` that {@linkcode escapedView} decodes. */
const ESCAPE =
  /\\u00(?:2[2267cC]|3[aAdD])|&(?:quot|apos|#0{0,4}3[49]|#[xX]0{0,4}2[27]);|%(?:2[2267cC]|3[aAdD]|[57][bBdD])/g;
/** The characters of {@linkcode ESCAPE}'s escapes, by the escape's last two hex digits or name. */
const DECODED: Record<string, string> = {
  "22": '"',
  "27": "'",
  "26": "&",
  "2c": ",",
  "3a": ":",
  "3d": "=",
  "5b": "[",
  "5d": "]",
  "7b": "{",
  "7d": "}",
  "quot": '"',
  "apos": "'",
  "#34": '"',
  "#39": "'",
  "#x22": '"',
  "#x27": "'",
};

/** A text with escapes decoded, and where each of its characters (and its end) was in the original. */
export interface EscapedView {
  /** The decoded text. */
  text: string;
  /** `at[i]`: where the decoded text's character `i` starts in the original (`at[text.length]`: its end). */
  at: Int32Array;
}

/**
 * `text` with its escapes of quotes and operators decoded ({@linkcode ESCAPE}), and the map of
 * its places back to `text`'s; undefined when `text` holds none, or its file (`path`) is none of
 * {@linkcode ESCAPED_FILE}.
 *
 * @example
 * ```ts
 * import { escapedView } from "./_secret_rules_escapes.ts";
 * escapedView("{&quot;k&quot;:1}", "a.html")?.text; // '{"k":1}'
 * ```
 */
export function escapedView(text: string, path?: string): EscapedView | undefined {
  // (data and pages only: a search of every text for the escapes' `\`, `&` and `%` cost the
  // scan 15%, and code writes these escapes in its own literals)
  if (!path || !ESCAPED_FILE.test(path)) return undefined;
  ESCAPE.lastIndex = 0;
  let m = ESCAPE.exec(text);
  if (!m) return undefined;
  const parts: string[] = [];
  const at = new Int32Array(text.length + 1);
  let n = 0; // the decoded text's length so far
  let from = 0;
  for (; m; m = ESCAPE.exec(text)) {
    for (let i = from; i < m.index; i++) at[n++] = i;
    parts.push(text.slice(from, m.index));
    const e = m[0];
    // (a character reference's leading zeros and `X` dropped: `&#034;` and `&#X22;` are `&#34;`)
    const key = e[0] === "&"
      ? e.slice(1, -1).replace(/^#[xX]0*/, "#x").replace(/^#0+/, "#")
      : e.slice(-2).toLowerCase();
    parts.push(DECODED[key]);
    at[n++] = m.index;
    from = m.index + e.length;
  }
  for (let i = from; i < text.length; i++) at[n++] = i;
  parts.push(text.slice(from));
  at[n] = text.length;
  return { text: parts.join(""), at: at.subarray(0, n + 1) };
}
