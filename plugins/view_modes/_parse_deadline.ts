/**
 * A deadline for one tree-sitter parse. The work budget counts the parser's steps, and on most
 * inputs a step costs about the same whatever the file. On some it does not: on a long
 * expression or deep nesting (`a ? b : ` a thousand times in Scala, `f(f(f(…` in a Bash
 * `$((…))`, 100,000 parentheses in Scala) the parser keeps several readings of the text and
 * lexes it again from far behind for each, so the steps stay few while the time grows with the
 * square of the file (or worse): an 8 KB Scala file took 6 s, a 200 KB one seven minutes, all
 * within the step budget. What the parser does between two steps cannot be counted from
 * outside the grammar's WebAssembly, so this bound is a clock: it checks the time at each step
 * callback and each read of the text, and ends the parse past the deadline.
 *
 * @module
 */

/**
 * The most time one file's parse may take (ms; {@linkcode RenderCodeOptions.maxParseMs} in
 * `_code.ts`): 20 s. Real files parse far faster: TypeScript's 1.9 MB `lib.dom.d.ts` in 3 s on
 * a busy two-core machine, and the work budget stops a longer file's parse before this.
 */
export const PARSE_DEADLINE_MS = 20_000;

/** A parser input and progress check that end a parse past its deadline. */
export interface TimedParse {
  /** The input for `parser.parse`: the text from a UTF-16 offset (nothing once late). */
  read: (index: number) => string;
  /** Whether the deadline has passed (checked now). */
  late: () => boolean;
}

/**
 * Wrap a text, or a reader of one, as a parser input that stops handing out text once
 * `maxMs` have passed since this call; `late()` tells a progress callback to stop the parse.
 * A tree parsed after `late()` turned true is incomplete and must not be used.
 *
 * @example
 * ```ts
 * import { timedParse } from "./_parse_deadline.ts";
 * const input = timedParse("def f(): pass\n", 20_000);
 * input.read(4); // "f(): pass\n"
 * input.late(); // false
 * ```
 */
export function timedParse(
  source: string | ((index: number) => string),
  maxMs: number,
): TimedParse {
  const from = typeof source === "string" ? (index: number) => source.slice(index) : source;
  const end = performance.now() + maxMs;
  let late = false;
  const check = () => late ||= performance.now() > end;
  return {
    // Past the deadline the parser is told the text has ended, so it winds up at once.
    read: (index) => check() ? "" : from(index),
    late: check,
  };
}
