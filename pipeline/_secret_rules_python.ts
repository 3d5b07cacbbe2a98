/**
 * Python's open brackets at a place of a text, for the rule that joins two string literals side
 * by side on two lines (`secret_rules.ts`, `CONCAT`): Python joins them only inside brackets
 * (`KEY = (` then `"…"` then `"…")`); outside, the next line's literal is a statement of its own.
 *
 * @module
 */

/**
 * Where the last read stopped, and what it had seen: the text is read forward once for a series
 * of places in ascending order (a scan asks for its joints in order), not from its start for each.
 */
const read = { text: "", at: 0, depth: 0, quote: "", comment: false, skip: 0 };

/**
 * Whether the place `at` of the Python source `text` is inside brackets (`(`, `[`, `{` not yet
 * closed), read as Python's tokenizer reads them: not inside strings (`'…'`, `"…"`, triple quoted)
 * nor comments (`#` to the line's end). Reads the text forward from where the last call stopped
 * when `at` is after it (in the same text), else from its start.
 *
 * @example
 * ```ts
 * import { insidePythonBrackets } from "./_secret_rules_python.ts";
 * insidePythonBrackets('x = ("a"\n  "b")', 8); // true
 * insidePythonBrackets('x = "a"\n"b"', 7); // false
 * ```
 */
export function insidePythonBrackets(text: string, at: number): boolean {
  if (read.text !== text || at < read.at) {
    Object.assign(read, { text, at: 0, depth: 0, quote: "", comment: false, skip: 0 });
  }
  for (let i = read.at; i < at; i++) step(text, i);
  read.at = at;
  return read.depth > 0;
}

/**
 * Reads the character at `i` into {@linkcode read}: what it opens or closes, and how many
 * characters after it belong to it (an escape's next one, a triple quote's other two).
 */
function step(text: string, i: number): void {
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
