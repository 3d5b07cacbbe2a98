/**
 * What one tree-sitter parse reads and how long it may take. The work budget counts the parser's
 * steps, and on most inputs a step costs about the same whatever the file. On some it does not:
 * on a long expression or deep nesting (`a ? b : ` a thousand times in Scala, `f(f(f(…` in a
 * Bash `$((…))`, 100,000 parentheses in Scala) the parser keeps several readings of the text and
 * lexes it again from far behind for each, so the steps stay few while the time grows with the
 * square of the file (or worse): an 8 KB Scala file took 6 s, a 200 KB one seven minutes, all
 * within the step budget. Lexing again means reading the text again, so the input hands it out in
 * small pieces and counts the characters read past a few readings of the whole text: each is a
 * unit of the same budget, which those parses spend in well under a second, at the same point on
 * every machine.
 *
 * The clock is a safety net for what neither count sees, set far above what the budget allows;
 * a parse that reaches it throws a `ClockError`, which fails the build: a file rendered some
 * other way because this machine was slow would make the document depend on its speed.
 *
 * @module
 */

/**
 * The most time one file's parse may take (ms; `RenderCodeOptions.maxParseMs` in `_code.ts`):
 * 5 minutes. The work budget ends every parse it counts within seconds of CPU (3 million units at
 * most about 2 µs each, `bench/README.md`), so even a machine fifty times slower does not reach
 * it; a parse that does throws a `ClockError` (the build fails) rather than render the file
 * otherwise than a faster machine would.
 */
export const PARSE_DEADLINE_MS = 300_000;

/**
 * The most characters one read hands the parser. The parser asks again for text it has let go
 * of when it lexes again from behind, so small pieces make the characters read follow the
 * characters lexed (a piece of 4 KB handed a small Scala file's whole text at each of its 400
 * reads).
 */
export const READ_CHUNK = 64;

/**
 * The readings of the text a parse makes for free: each character read past this many times the
 * text's length is a unit of work. Real files stay under it (C headers 2 to 4 readings, Scala
 * files up to 10: the grammar's scanner looks ahead); the parses above read the text thousands
 * of times over.
 */
export const FREE_READINGS = 16;

/** A parser input and progress check that end a parse past its deadline or its reading budget. */
export interface TimedParse {
  /** The input for `parser.parse`: the text from a UTF-16 offset (nothing once late or over). */
  read: (index: number) => string;
  /** Whether the deadline has passed (checked now; once parsed, whether it had then). */
  late: () => boolean;
  /** Characters read past {@linkcode FREE_READINGS} readings of the text: units of work. */
  rereads: () => number;
  /**
   * Say the parse is over: from now on `read` hands out the text whole, uncounted and untimed
   * (a node's `text` is read through it while the tree is walked).
   */
  parsed: () => void;
}

/** What a timed parse reads and how long and how much it may. */
export interface TimedParseOptions {
  /** Milliseconds from now to the deadline. */
  maxMs: number;
  /** The text's length (UTF-16 units), which the free readings are counted in. */
  length: number;
  /** Units of work the parse has left for rereading: past them the input ends. */
  left: () => number;
}

/**
 * Wrap a text, or a reader of one, as a parser input that hands out at most
 * {@linkcode READ_CHUNK} characters at a time, counts those past {@linkcode FREE_READINGS}
 * readings of the text, and stops handing out text once more of them were read than `left()`
 * allows or `maxMs` have passed since this call; `late()` tells a progress callback to stop the
 * parse. A tree parsed after `late()` turned true or over `left()` is incomplete: never used.
 *
 * @example
 * ```ts
 * import { timedParse } from "./_parse_deadline.ts";
 * const text = "def f(): pass\n";
 * const input = timedParse(text, { maxMs: 20_000, length: text.length, left: () => 1000 });
 * input.read(4); // "f(): pass\n"
 * input.late(); // false
 * input.rereads(); // 0
 * ```
 */
export function timedParse(
  source: string | ((index: number) => string),
  options: TimedParseOptions,
): TimedParse {
  const from = typeof source === "string" ? (index: number) => source.slice(index) : source;
  const end = performance.now() + options.maxMs;
  const free = FREE_READINGS * options.length;
  let late = false;
  let read = 0;
  const check = () => late ||= performance.now() > end;
  let parsed = false;
  const rereads = () => Math.max(0, read - free);
  return {
    read: (index) => {
      // The tree's nodes read their text through this input too: whole, once parsed.
      if (parsed) return from(index);
      // Past the deadline or the budget the parser is told the text has ended: it winds up.
      if (rereads() > options.left() || check()) return "";
      const piece = from(index).slice(0, READ_CHUNK);
      read += piece.length;
      return piece;
    },
    // Once parsed, whether the parse was late: a clock read after it has no say.
    late: () => parsed ? late : check(),
    rereads,
    parsed: () => void (check(), parsed = true),
  };
}
