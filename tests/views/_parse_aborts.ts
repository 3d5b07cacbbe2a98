/**
 * Texts that make tree-sitter's runtime trap (shared by the parse-abort tests): a long run the
 * parser reads several ways at once grows its memory faster than the run, at the end of the
 * text, past what the runtime may hold; a run of unended lines in Java makes it
 * read out of its memory.
 *
 * @module
 */

/**
 * `a < ` `count` times on one line: each `<` is a comparison or the start of a generic's
 * arguments in C# and Java. 10,000 (40 KB) make the runtime abort, its memory past its 1 GiB;
 * 8,000 parse (with errors).
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
 * The line `x = a < a ‹` `count` times (a `<` that may open a generic's arguments, no `;`, and a
 * character no grammar reads). In Java, about 2,040 such lines (8 KB; the `‹` is not needed) make the
 * parse trap with `memory access out of bounds`, and the next parse on that runtime returned a
 * wrong tree. C#, TypeScript, Rust, C++, Kotlin, Scala, Go and Python
 * read 4,000 of them with errors.
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
