/**
 * Python's open brackets at places of a text, for the rule that joins two string literals side
 * by side on two lines (`secret_rules.ts`, `CONCAT`): Python joins them only inside brackets
 * (`KEY = (` then `"…"` then `"…")`); outside, the next line's literal is a statement of its own.
 *
 * @module
 */

/** What a read of Python's tokens has seen up to a place: brackets open, a string, a comment. */
interface PythonRead {
  at: number;
  depth: number;
  quote: string;
  comment: boolean;
  /** Characters after the last one read that belong to it (an escape's next, a triple quote's). */
  skip: number;
}

/**
 * A reader of `text` (Python source) that answers, for a place, whether it is inside brackets
 * (`(`, `[`, `{` not yet closed), read as Python's tokenizer reads them: not inside strings
 * (`'…'`, `"…"`, triple quoted) nor comments (`#` to the line's end). Asked in ascending order (a
 * scan asks for its joints in order), it reads the text forward once; a place before the last
 * one asked is read again from the start.
 *
 * @example
 * ```ts
 * import { pythonBrackets } from "./_secret_rules_python.ts";
 * const inside = pythonBrackets('x = ("a"\n  "b")\ny = "c"\n"d"');
 * inside(8); // true
 * inside(22); // false
 * ```
 */
export function pythonBrackets(text: string): (at: number) => boolean {
  const start = (): PythonRead => ({ at: 0, depth: 0, quote: "", comment: false, skip: 0 });
  let read = start();
  return (at: number) => {
    if (at < read.at) read = start();
    for (let i = read.at; i < at; i++) step(text, i, read);
    read.at = at;
    return read.depth > 0;
  };
}

/** Reads the character at `i` into `read`: what it opens or closes, what belongs to it after. */
function step(text: string, i: number, read: PythonRead): void {
  const c = text[i];
  if (read.skip) read.skip--;
  else if (read.comment) read.comment = c !== "\n";
  else if (read.quote) {
    if (c === "\\") read.skip = 1;
    else if (c === "\n" && read.quote.length === 1) read.quote = ""; // an unclosed line's string
    else if (text.startsWith(read.quote, i)) {
      read.skip = read.quote.length - 1;
      read.quote = "";
    }
  } else if (c === "#") read.comment = true;
  else if (c === '"' || c === "'") {
    read.quote = text.startsWith(c + c + c, i) ? c + c + c : c;
    read.skip = read.quote.length - 1;
  } else if (c === "(" || c === "[" || c === "{") read.depth++;
  else if ((c === ")" || c === "]" || c === "}") && read.depth > 0) read.depth--;
}
