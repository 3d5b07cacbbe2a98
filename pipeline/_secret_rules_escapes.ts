/**
 * Texts as the rules read them when a format wrote a secret's quotes or operators escaped: a
 * JSON string's `\u0022` and `\u003d`, HTML's and XML's `&quot;` and `&#34;`, a URL's `%22`,
 * `%3D` and `%26` (`{&quot;apiKey&quot;:&quot;…&quot;}`, `password%3D…` in a logged body), and
 * typographic quotes and wide blanks (a word processor's `password: “…”`, a no-break space).
 *
 * @module
 */

/** Typographic quotes and blanks other than ASCII's (no-break, figure, narrow, ideographic). */
const TYPOGRAPHIC = /[\u00a0\u00ab\u00bb\u2007\u2018\u2019\u201c-\u201e\u202f\u3000\u300c\u300d]/;

/**
 * `text` with each typographic quote or wide blank replaced by the ASCII one it stands for (one
 * character each: every match's place is the same in `text`), or `text` itself when it holds none.
 *
 * @example
 * ```ts
 * import { plainTypography } from "./_secret_rules_escapes.ts";
 * plainTypography("password: “Tr0ub4dor!x9”"); // 'password: "Tr0ub4dor!x9"'
 * ```
 */
export function plainTypography(text: string): string {
  if (!TYPOGRAPHIC.test(text)) return text;
  return text.replace(/[\u00a0\u2007\u202f\u3000]/g, " ").replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u00ab\u00bb\u201c-\u201e\u300c\u300d]/g, '"');
}

/** The escapes of a quote, `=`, `:`, `&` or `,` that {@linkcode escapedView} decodes. */
const ESCAPE =
  /\\u00(?:2[2267c]|3[aAdD])|&(?:quot|apos|#3[49]|#x2[27]);|%(?:2[2267cC]|3[aAdD]|[57][bBdD])/g;
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
 * its places back to `text`'s; undefined when `text` holds none.
 *
 * @example
 * ```ts
 * import { escapedView } from "./_secret_rules_escapes.ts";
 * escapedView("{&quot;k&quot;:1}")?.text; // '{"k":1}'
 * ```
 */
export function escapedView(text: string): EscapedView | undefined {
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
    const key = e[0] === "&" ? e.slice(1, -1) : e.slice(-2).toLowerCase();
    parts.push(DECODED[key]);
    at[n++] = m.index;
    from = m.index + e.length;
  }
  for (let i = from; i < text.length; i++) at[n++] = i;
  parts.push(text.slice(from));
  at[n] = text.length;
  return { text: parts.join(""), at: at.subarray(0, n + 1) };
}
