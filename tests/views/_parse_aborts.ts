/**
 * Texts that make tree-sitter's runtime abort (shared by the parse-abort tests): a long run the
 * parser reads several ways at once grows its memory with the square of the run, at the end of
 * the text, past what the runtime may hold.
 *
 * @module
 */

/**
 * `a < ` `count` times on one line: each `<` is a comparison or the start of a generic's
 * arguments in C# and Java. 16,000 (64 KB) make the runtime abort; 8,000 parse (with errors).
 *
 * @example
 * ```ts
 * import { ambiguousRun } from "./_parse_aborts.ts";
 * ambiguousRun(2); // "a < a < "
 * ```
 */
export function ambiguousRun(count: number): string {
  return "a < ".repeat(count);
}

/**
 * The line `x = a < a ‹` `count` times (a `<` opening the same ambiguity and a character no
 * grammar reads): reported to abort, it parses, in 4 s for 16,000 lines; kept as its own case.
 *
 * @example
 * ```ts
 * import { ambiguousLines } from "./_parse_aborts.ts";
 * ambiguousLines(1); // "x = a < a ‹\n"
 * ```
 */
export function ambiguousLines(count: number): string {
  return "x = a < a \u2039\n".repeat(count);
}
