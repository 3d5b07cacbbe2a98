/**
 * Code that is number tables (code pages, primes, a shader's words, lookup tables): which files
 * may be, and the rule that tells them by their text. A leaf: the read stage's data limits
 * (`data_files.ts`) and the summary view (through `helpers.ts`) both read it.
 *
 * @module
 */

/**
 * Endings of code that may hold tables of numbers a tool wrote or a person pasted (code pages,
 * primes, a shader's words, lookup tables), lowercase: C and C++ and their included parts, and
 * the languages whose arrays such tables are written in.
 */
const CODE_ENDINGS = [
  ...[".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".inc", ".inl", ".ipp"],
  ...[".rs", ".go", ".java", ".kt", ".cs", ".swift", ".zig", ".d", ".pas", ".py"],
  ...[".js", ".mjs", ".cjs", ".ts"],
];

/**
 * Whether a path is code whose text says whether it is number tables ({@linkcode isNumberTables}).
 *
 * @example
 * ```ts
 * import { isCodeFile } from "./number_tables.ts";
 * isCodeFile("src/lib/FatFS/ffunicode.c"); // true
 * isCodeFile("data/site.json"); // false
 * ```
 */
export function isCodeFile(path: string): boolean {
  const lower = path.toLowerCase();
  return CODE_ENDINGS.some((ending) => lower.endsWith(ending));
}

/**
 * A line of a table of numbers: number literals (decimal, hex, binary, with a sign, a fraction,
 * an exponent or a type suffix) between commas, blanks, brackets and colons (a map's number keys
 * and values: chardet's `37: 0,  # 'А'`), a comment after them. Each number is followed by a
 * separator or the line's end, so a line is read one way.
 */
const NUMBER_ROW =
  /^[\s{}[\](),;:]*(?:[-+]?(?:0[xX][\dA-Fa-f]+|0[bB][01]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[uUlLfF]*(?:[\s{}[\](),;:]+|$))+$/;

/**
 * Whether a line's code (its comment cut off) is a row of a number table: number literals between
 * commas, blanks and brackets.
 *
 * @example
 * ```ts
 * import { isNumberRow } from "./number_tables.ts";
 * isNumberRow("  0x00C7, 0x00FC, 0x00E9,"); // true
 * isNumberRow("  return x + 1;"); // false
 * ```
 */
export function isNumberRow(code: string): boolean {
  return NUMBER_ROW.test(code);
}

/** The share of a file's non-blank lines that number rows make for it to be number tables. */
const TABLE_SHARE = 3 / 4;

/**
 * Whether code's text is number tables: three of four non-blank lines or more are rows of numbers
 * ({@linkcode NUMBER_ROW}: FatFs's `ffunicode.c`, 1.9 MB of code page tables, 98% of its lines;
 * a table of primes; a shader's SPIR-V words). Other code is shown whole at any size (the next
 * share seen in the mirrors' code over 32 KB is 55%).
 *
 * @example
 * ```ts
 * import { isNumberTables } from "./number_tables.ts";
 * isNumberTables("static const int t[] = {\n  1, 2,\n  3, 4,\n  5, 6,\n};\n"); // true
 * isNumberTables("int main(void) {\n  return 0;\n}\n"); // false
 * ```
 */
export function isNumberTables(text: string): boolean {
  let count = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  // Stops once the lines that are no rows are too many for any share of rows to reach it.
  const most = (1 - TABLE_SHARE) * count;
  let rows = 0, other = 0;
  for (let start = 0; start <= text.length;) {
    const stop = text.indexOf("\n", start);
    const lineEnd = stop < 0 ? text.length : stop;
    const next = stop < 0 ? text.length + 1 : stop + 1;
    if (startsWithWord(text, start, lineEnd)) {
      start = next;
      if (++other > most) return false;
      continue;
    }
    const line = text.slice(start, lineEnd);
    start = next;
    const end = line.search(/\/\/|\/\*|#/);
    const body = end < 0 ? line : line.slice(0, end);
    if (!body.trim()) {
      if (end >= 0) other++; // a comment alone
      continue;
    }
    if (NUMBER_ROW.test(body)) rows++;
    else if (++other > most) return false;
  }
  return rows > 0 && rows >= TABLE_SHARE * (rows + other);
}

/**
 * Whether the line from `start` to `end` starts, after spaces and tabs, with a letter or `_`: code
 * that is no row of numbers and no comment or blank line, told without cutting the line out (a
 * row's first character after its separators is a sign or a digit, and a comment's is `/` or `#`).
 */
function startsWithWord(text: string, start: number, end: number): boolean {
  let at = start;
  let c = text.charCodeAt(at);
  while (at < end && (c === 32 || c === 9)) c = text.charCodeAt(++at);
  return at < end && (c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122));
}
