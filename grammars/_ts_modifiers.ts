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
 * - a type parameter's variance (`interface State<in out T>`, `<out T extends U>`).
 *
 * @module
 */

/** The words to blank, each where the grammar fails on it. */
const UNREAD =
  /\babstract(?=\s+override\b)|(?<=\boverride\s+)abstract\b|(?<=\bstatic\s+)accessor(?=\s+[#\p{L}_$])|(?<=[<,]\s*)(?:in\s+out|in|out)(?=\s+[\p{L}_$][\p{L}\p{N}_$]*\s*(?:[,>=]|extends\b))/gu;

/** A quick look before the search: a text with none of these pairs needs none. */
const WORDS = /abstract\s+override|override\s+abstract|static\s+accessor|[<,]\s*(?:in|out)\s/;

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
  });
  return changed ? out : undefined;
}
