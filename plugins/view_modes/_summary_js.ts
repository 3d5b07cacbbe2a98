/**
 * JavaScript and TypeScript text as the summary's line patterns read it: the text of its template
 * literals blanked, their line breaks kept. A script that writes code of another language in a
 * template (OpenZeppelin's generators write Solidity: `function f() internal {` at a line's
 * start) does not declare what the template holds.
 *
 * @module
 */

/** What comes before a `/` that starts a regular expression rather than divides. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);

/** Words after which a `/` starts a regular expression. */
const REGEX_WORDS =
  /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/**
 * The text with each template literal's text blanked (what its `${...}` hold stays: code). One
 * pass: strings, comments and regular expressions are passed over, so that a backtick in them
 * opens no template. The text itself when it has no backtick.
 *
 * @example
 * ```ts
 * import { blankTemplates } from "./_summary_js.ts";
 * blankTemplates("const a = `\nfunction f() {}\n`;\n"); // "const a = `\n               \n`;\n"
 * ```
 */
export function blankTemplates(text: string): string {
  if (!text.includes("`") && !text.includes("/*")) return text;
  const parts: string[] = [];
  // For each `${` open, the depth of braces its `}` closes at.
  const open: number[] = [];
  let depth = 0;
  let copied = 0;
  let last = "";
  for (let i = 0; i < text.length;) {
    const c = text[i];
    const resumes = c === "}" && open.length > 0 && open[open.length - 1] === depth;
    if (c === "`" || resumes) {
      if (resumes) open.pop();
      const end = templateEnd(text, i + 1);
      parts.push(text.slice(copied, i + 1), text.slice(i + 1, end).replace(/[^\n]/g, " "));
      copied = end;
      if (text.startsWith("${", end)) {
        open.push(depth);
        i = end + 2;
      } else i = end + 1;
      last = "x";
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") depth--;
    const skip = passOver(text, i, last);
    if (skip > i) {
      // A block comment is taken out, its line breaks kept: its lines are no declarations. One
      // that never closes, or that opens right after a word (JSX's text `src/*.ts`, `**/*.js`), is
      // no comment the code can hold: taken out, it took the rest of the file with it.
      if (
        text.startsWith("/*", i) && text.startsWith("*/", skip - 2) && skip - i >= 4 &&
        !/[\w*.]/.test(text[i - 1] ?? "")
      ) {
        parts.push(text.slice(copied, i), text.slice(i, skip).replace(/[^\n]+/g, ""));
        copied = skip;
      }
      i = skip;
      last = "x";
      continue;
    }
    if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") last = c;
    i++;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

/** Where a template's text from `from` ends: at its closing backtick or a `${`. */
function templateEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "`" || (c === "$" && text[i + 1] === "{")) return i;
  }
  return text.length;
}

/**
 * Where a string, a comment or a regular expression that starts at `i` ends (`last` is the code
 * character before it, which tells a regular expression from a division); `i` when none starts
 * there. A string or a regular expression ends at its line's end at the latest.
 */
function passOver(text: string, i: number, last: string): number {
  const c = text[i];
  if (c === "'" || c === '"') return lineToken(text, i + 1, c);
  if (c !== "/") return i;
  const next = text[i + 1];
  if (next === "/") {
    const end = text.indexOf("\n", i);
    return end < 0 ? text.length : end;
  }
  if (next === "*") {
    const end = text.indexOf("*/", i + 2);
    return end < 0 ? text.length : end + 2;
  }
  const regex = last === "" || BEFORE_REGEX.has(last) ||
    (/[\w$]/.test(last) && REGEX_WORDS.test(text.slice(Math.max(0, i - 12), i).trimEnd()));
  return regex ? lineToken(text, i + 1, "/") : i;
}

/**
 * Where a string or a regular expression from `from` ends: after its closing `close` (not one a
 * backslash escapes, nor a `/` in a regular expression's `[...]`), or at its line's end.
 */
function lineToken(text: string, from: number, close: string): number {
  let inClass = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "\n") return i;
    else if (close === "/" && c === "[") inClass = true;
    else if (close === "/" && c === "]") inClass = false;
    else if (c === close && !inClass) return i + 1;
  }
  return text.length;
}
