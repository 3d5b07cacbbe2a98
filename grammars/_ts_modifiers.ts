/**
 * TypeScript's words that tree-sitter-typescript 0.23.2 cannot read where TypeScript allows them,
 * blanked in the text the parser reads (same length, same line breaks): the file's own text is
 * still what the views show. Without this a class with one of them parses with an error, and its
 * members after it are read as statements (discord.js's builders: `protected abstract override
 * readonly data: ...` left each method a bare `{ ... }` block).
 *
 * - `abstract` beside `override` on a field (`abstract override readonly data: X;`) or before a
 *   method's name (`override abstract m(): void;`);
 * - `accessor` after `static` (`static accessor x = 1;`);
 * - a type parameter's variance (`interface State<in out T>`, `<out T extends U>`);
 * - `type` in `export type * from "./types"`.
 *
 * @module
 */

/**
 * What follows a modifier on its line: the member's name (a word, `#private`, `[computed]`, a
 * string, `*` of a generator) or another modifier. A property or method NAMED `abstract`,
 * `override` or `accessor` is followed by `:`, `?`, `(`, `=`, `;` or the line's end instead: its
 * name is kept.
 */
const MEMBER = String.raw`[ \t]+[\p{L}_$#\["'*]`;

/** The words to blank, each where the grammar fails on it. */
const UNREAD = new RegExp(
  [
    // Each word is matched before what is looked for behind it: no position is searched back
    // from but the word's (a run of blanks is not searched once a character).
    String.raw`\babstract(?=\s+override${MEMBER})`,
    String.raw`\babstract\b(?<=\boverride\s+abstract)(?=${MEMBER})`,
    String.raw`\baccessor\b(?<=\bstatic\s+accessor)(?=${MEMBER})`,
    // `export type * from "./types"` (TypeScript 5.0's type-only re-export of a module).
    String.raw`\btype\b(?<=\bexport\s+type)(?=\s*\*)`,
    // A type parameter's variance, after `<` or `,` and blanks or block comments.
    String.raw`\b(?=(?:in|out)\s)(?<=[<,](?:\s|/\*(?:[^*]|\*(?!/))*\*/)*)(?:in\s+out|in|out)` +
    String.raw`(?=\s+[\p{L}_$][\p{L}\p{N}_$]*\s*(?:[,>=]|extends\b))`,
  ].join("|"),
  "gu",
);

/**
 * A property or method named `abstract` (`abstract?: boolean;` in an interface or a type, a
 * field `abstract = true`) or a class member named `accessor`, which the grammar reads as a
 * modifier with no member after it: the name is what follows it (`?`, `!`, `:`, `(`, `<`, `=`,
 * `;`, `,`, `}` or the line's end). Not after `.` (a property read), nor a word of a string.
 */
const NAMED =
  /(?<![.\w$])(?:abstract|accessor)(?=[ \t]*[?!]?[ \t]*(?:[:(<=;,}]|\r?\n|$))(?![ \t]*=>)/g;

/** A quick look before the search: a text with none of these pairs needs none. */
const WORDS =
  /abstract\s+override|override\s+abstract|static\s+accessor|export\s+type\s*\*|\b(?:in|out)\s+[\p{L}_$]|\b(?:abstract|accessor)[ \t]*[?!]?[ \t]*[:(<=;,}\r\n]/u;

/**
 * The text tree-sitter-typescript reads in place of `text` (see the module's notes), or undefined
 * when it has none of those words.
 *
 * @example
 * ```ts
 * import { tsParseText } from "./_ts_modifiers.ts";
 * tsParseText("class A { protected abstract override x: number; }");
 * // "class A { protected          override x: number; }"
 * tsParseText("class A {}"); // undefined
 * ```
 */
export function tsParseText(text: string): string | undefined {
  if (!WORDS.test(text)) return undefined;
  let changed = false;
  const out = text.replace(UNREAD, (word) => {
    changed = true;
    return word.replace(/\S/g, " ");
  }).replace(NAMED, (word) => {
    // Renamed, not blanked: the member keeps a name of the same length (the views show the
    // file's own text at the same places).
    changed = true;
    return `${word.slice(0, -1)}_`;
  });
  return changed ? out : undefined;
}
