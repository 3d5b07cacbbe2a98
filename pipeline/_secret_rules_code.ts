/**
 * Code under a secret's name, which the name rules keep (`_secret_rules_names.ts`,
 * `_secret_rules_keys.ts`): an unquoted value that reads as an expression of code (a member
 * access `ri->auth_pass`, `&data->req.auth`, a call `RedisModule_OpenKey(ctx, argv[1])`), a type
 * (`Option<String>`), a ternary's branch (`c ? a : b_pass2`) or a name that ends a statement
 * (`pwd = libtest_arg4;`). A literal secret in code is quoted; unquoted, such a value names where
 * the secret is. Each part is also checked for the shape of a key (a Vault token `s.Z4bT…` reads as
 * a member access), so that a random value is never taken for code.
 *
 * @module
 */

import { looksGenerated, looksRandom, randomLetters } from "./_secret_rules_common.ts";

/** One token of an expression: blanks, a name, a number, a string, or a mark of code. */
const PIECE =
  /[ \t]+|[A-Za-z_$][\w$]*|[0-9][\w.]*|"(?:[^"\\\r\n]|\\.){0,256}"|'(?:[^'\\\r\n]|\\.){0,256}'|->|::|\?\.|&&|\|\||[()[\],.|&*+!?:/-]/y;
/** The start of an expression: `&`, `*` or `!` (maybe several), then a name. */
const HEAD = /^[&*!]*[A-Za-z_$]/;
/** What makes a name an expression: a member's mark, a call or subscript, an address or deref. */
const STRUCTURE = /->|::|\?\.|[.([]|^[&*]/;

/**
 * Whether `value` (unquoted, up to its line's end) is an expression of code: names, numbers and
 * strings joined by the marks of member access, calls, subscripts and operators (`->`, `::`,
 * `.`, `( )`, `[ ]`, `,`, `|`, `&`, `*`, `+`, `-`, `!`, `?`, `:`), its brackets balanced (or left
 * open at a line's end after `(` or `,`, a call that goes on), ending maybe in `;` or `,`; with a
 * structure of code (a name alone is not), and no name that looks generated or random. A key
 * holds marks no expression does (`%`, `#`, `@`, `^`, `~`, `<`, `=`, `;` inside) or names of random
 * shape.
 *
 * @example
 * ```ts
 * import { codeExpression } from "./_secret_rules_code.ts";
 * codeExpression("ri->master->auth_pass"); // true
 * codeExpression("RedisModule_OpenKey(ctx,argv[1], REDISMODULE_READ|REDISMODULE_WRITE);"); // true
 * codeExpression("MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg"); // false
 * ```
 */
export function codeExpression(value: string): boolean {
  const trimmed = value.trimEnd();
  const body = trimmed.replace(/[;,]$/, "");
  if (!HEAD.test(body) || !STRUCTURE.test(body)) return false;
  const open: string[] = [];
  let last = "";
  for (let at = 0; at < body.length;) {
    PIECE.lastIndex = at;
    const m = PIECE.exec(body);
    if (!m) return false;
    const piece = m[0];
    at += piece.length;
    if (/^[A-Za-z_$]/.test(piece) && !nameOfCode(piece)) return false;
    if (piece === "(" || piece === "[") open.push(piece === "(" ? ")" : "]");
    else if (piece === ")" || piece === "]") {
      if (open.pop() !== piece) return false;
    }
    if (!/^[ \t]/.test(piece)) last = piece;
  }
  return open.length === 0 || last === "(" || last === "," || trimmed.endsWith(",");
}

/** Whether `name` reads as a name of code, not as a key: not random nor generated. */
function nameOfCode(name: string): boolean {
  return !looksRandom(name) && !looksGenerated(name) && !randomLetters(name);
}

/** A name as code writes one. */
const NAME = /^[A-Za-z_$][\w$]*$/;
/**
 * A type: a name or path (`String`, `std::string`, `C.char`), maybe a reference, pointer, `dyn`,
 * `impl`, `mut`, `const`, a lifetime, and type arguments (`Option<String>`, `Box<dyn Fn()>`,
 * `HashMap<String, Vec<u8>>`), maybe an array's `[]` or an optional's `?`.
 */
const TYPE =
  /^[&*]*(?:'[a-z]\w* )?(?:(?:dyn|impl|mut|const) )*[A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*(?:<[\w$:.&*'<>, ()\[\]]{1,200}>)?(?:\[\])*\??$/;

/**
 * Whether `value` is a type of code with type arguments or a pointer's mark (`Option<String>`,
 * `*C.char`, `&'static str`): balanced `<>`, names of code shape. A name alone is left to the
 * other checks.
 *
 * @example
 * ```ts
 * import { codeType } from "./_secret_rules_code.ts";
 * codeType("Option<String>"); // true
 * codeType("Xk9<mP2qL7>vB4"); // false
 * ```
 */
export function codeType(value: string): boolean {
  if (!TYPE.test(value) || !/[<*&]/.test(value)) return false;
  let depth = 0;
  for (const c of value) {
    if (c === "<") depth++;
    else if (c === ">" && --depth < 0) return false;
  }
  return depth === 0 && (value.match(/[A-Za-z_$][\w$]*/g) ?? []).every(nameOfCode);
}

/**
 * Whether the unquoted name `value` at `start` to `end`, after the operator at `at`, is code by
 * where it stands: a ternary's branch (`: ` after a ` ? ` on its line: `c ? a : b_pass2`), or the
 * end of a statement (` = ` with blanks, then `;` and the line's end: `pwd = libtest_arg4;`). A
 * `.env` line, YAML or a connection string (`Pwd=S3cret9;`) writes neither; code quotes a secret.
 * The name must read as one of code (not random nor generated).
 *
 * @example
 * ```ts
 * import { codeByPlace } from "./_secret_rules_code.ts";
 * const text = "const char *pwd = libtest_arg4;\n";
 * codeByPlace(text, 16, 18, 30); // true
 * ```
 */
export function codeByPlace(text: string, at: number, start: number, end: number): boolean {
  const value = text.slice(start, end);
  if (!(NAME.test(value) || codeExpression(value)) || !nameOfCode(value)) return false;
  const lineStart = Math.max(text.lastIndexOf("\n", at) + 1, at - 512);
  if (text[at] === ":" && /[ \t]\?[ \t]/.test(text.slice(lineStart, at))) return true;
  const spaced = /[ \t]$/.test(text.slice(at - 1, at)) && /^=[ \t]/.test(text.slice(at, at + 2));
  return spaced &&
    /^;[ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*)?(?:\r?\n|$)/.test(text.slice(end, end + 256));
}
