/**
 * The text tree-sitter-cpp reads for a C++ file: a macro word that stands where the language has
 * no place for it read as spaces. Libraries wrap their declarations in words their own headers
 * define (`FMT_BEGIN_NAMESPACE` on a line of its own, `FMT_EXPORT template <…>`,
 * `class GTEST_API_ Mock {`); the parser, which sees no macro's definition, reads the word as a
 * type and what follows as errors, and a skeleton lost the classes after it (fmtlib/fmt's
 * `args.h` kept its first namespace and nothing more). Only an upper-case word goes (macros are
 * written so), and only where a keyword that starts a declaration follows it, or between `class`
 * and the class's name: a type named in capitals (`BOOL f(void)`, `struct STAT st;`) stays. The
 * text keeps its length and line breaks, so every offset, row and column stays where it was; the
 * views cut their text from the file itself, where the words are.
 *
 * @module
 */

/** An upper-case word, as macros are written (`FMT_EXPORT`, `_LIBCPP_TYPE_VIS`, `QT_BEGIN_NAMESPACE`). */
const MACRO = String.raw`_*[A-Z][A-Z0-9_]*[A-Z0-9_]`;

/** The keywords that start a declaration, after which a macro word before them has no place. */
const DECLARATION_START = String.raw`(?:template|class|struct|union|enum|namespace|typedef|` +
  String.raw`using|extern|inline|static|constexpr|consteval|virtual|explicit|friend)\b`;

/**
 * A macro word alone on its line before a line that starts a declaration or a directive, or at
 * the text's end (`FMT_BEGIN_NAMESPACE` then `namespace detail {`, `FMT_END_NAMESPACE` then
 * `#endif`), or before such a keyword on its own line (`FMT_EXPORT template <typename T>`). Read
 * from a line's start, never over more than the blank lines between the two.
 */
const BEFORE_DECLARATION = new RegExp(
  String
    .raw`^([ \t]*)(${MACRO})(?=[ \t]+${DECLARATION_START}|[ \t]*(?:\/\/[^\n]*)?(?:\n[ \t]*)*(?:$(?![^]))|[ \t]*(?:\/\/[^\n]*)?\n(?:[ \t]*\n)*[ \t]*(?:#|${DECLARATION_START}))`,
  "gm",
);

/** A macro word between `if` and its condition (`if FMT_CONSTEXPR20 (x)`: an `if constexpr`). */
const IN_IF = new RegExp(String.raw`\b(if[ \t]+)(${MACRO})(?=[ \t]*\()`, "g");

/** A macro word between `class` (or `struct`, `union`) and the name (`class FMT_API format_error :`). */
const IN_CLASS_HEAD = new RegExp(
  String
    .raw`\b((?:class|struct|union)[ \t]+)(${MACRO})(?=[ \t]+[A-Za-z_]\w*[ \t]*(?:final\b|:(?!:)|\{|$))`,
  "gm",
);

/**
 * The text to parse with those words as spaces, or `undefined` when there is none (the file
 * itself is read). A preprocessor line is left as it is (`#define X_API extern` defines `X_API`).
 *
 * @example
 * ```ts
 * import { blankMacroWords } from "./_cpp_macros.ts";
 * blankMacroWords("FMT_EXPORT template <typename T> class C {};\n");
 * // "           template <typename T> class C {};\n"
 * ```
 */
export function blankMacroWords(text: string): string | undefined {
  let changed = false;
  const spaces = (word: string) => {
    changed = true;
    return " ".repeat(word.length);
  };
  const out = text
    .replace(BEFORE_DECLARATION, (_all, lead: string, word: string) => lead + spaces(word))
    .replace(IN_IF, (_all, head: string, word: string) => head + spaces(word))
    .replace(IN_CLASS_HEAD, (all, head: string, word: string, at: number, whole: string) => {
      const lineStart = whole.lastIndexOf("\n", at) + 1;
      if (/^[ \t]*#/.test(whole.slice(lineStart, at + 1))) return all;
      return head + spaces(word);
    });
  return changed ? out : undefined;
}
