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

import {
  lastIndexNear,
  looksGenerated,
  looksRandom,
  nameBefore,
  randomLetters,
} from "./_secret_rules_common.ts";

/** One token of an expression: blanks, a name, a number, a string, or a mark of code. */
const PIECE =
  /[ \t]+|[A-Za-z_$][\w$]*|0[xX][0-9A-Fa-f]+|[0-9]+(?:\.[0-9]+)?[uUlLfF]?(?![\w$])|"(?:[^"\\\r\n]|\\.){0,256}"|'(?:[^'\\\r\n]|\\.){0,256}'|->|::|\?\.|&&|\|\||=(?!=)|[()[\]{},.|&*+!?:/-]/y;
/**
 * The start of an expression: `&`, `*`, `!` or a tuple's `(` (maybe several), then a name
 * (`(conf.hostname, conf.path)`).
 */
const HEAD = /^[&*!(]*[A-Za-z_$]/;
/**
 * What makes a name an expression: a member's mark, a call or subscript, a composite literal's
 * braces, an address or deref.
 */
const STRUCTURE = /->|::|\?\.|[.([{]|^[&*]/;
/**
 * A composite literal's type before its name (Go's `[2]string{…}`, `[]byte(…)`, `map[string]int{…}`,
 * `[][2]int{…}`): read as if the literal began at the element type's name.
 */
const TYPE_PREFIX = /^(&?)(?:\[[0-9]{0,12}\]|map\[[\w.*]{1,128}\])+(?=\*?[A-Za-z_$])/;
/** Marks between two operands; `+`, `-` and `/` only with blanks around (`Summer-2024` is not). */
const BETWEEN = new Set(["|", "&", "||", "&&", "?", ":", "*", ","]);
const SPACED = new Set(["+", "-", "/"]);
/** A name, blanks, `=`, `:=` or a compound assignment, blanks, then the assigned value. */
const ASSIGNMENT =
  /^([A-Za-z_$][\w$]{0,127})[ \t]{1,16}(?::|[-+*\/|&]?)=[ \t]{1,16}(?!=)(\S.{0,1024})$/;
/** Marks of a member: a name must follow at once. */
const MEMBER = new Set([".", "->", "::", "?."]);

/**
 * Whether `value` (unquoted, up to its line's end) is an expression of code: names, numbers and
 * strings joined as code joins them: members (`a->b`, `a.b`, `a::b`, `a?.b`, a name right after
 * the mark), calls and subscripts, composite literals (`[2]string{e.Path, e.Kind}`, `Key{a: b}`),
 * operators between operands (`|`, `&`, `*`, `?`, `:`, `,`;
 * `+`, `-`, `/` with blanks around), `&`, `*`, `!` before an operand; its brackets balanced (or
 * left open at a line's end after `(` or `,`, a call that goes on, or before a `{` that opens a
 * literal after an operand: `MarshalAny(t, &pb.Address{`), ending maybe in `;` or `,`;
 * with a structure of code (a name alone is not), and no name that looks generated or random. A
 * key holds marks no expression does (`%`, `#`, `@`, `^`, `~`, `<`, `=`, `;` inside), marks where
 * code has none (`Summer-2024.x`), or names of random shape.
 *
 * @example
 * ```ts
 * import { codeExpression } from "./_secret_rules_code.ts";
 * codeExpression("ri->master->auth_pass"); // true
 * codeExpression("RedisModule_OpenKey(ctx,argv[1], REDISMODULE_READ|REDISMODULE_WRITE);"); // true
 * codeExpression("MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg"); // false
 * codeExpression("Summer-2024.x"); // false
 * ```
 */
export function codeExpression(value: string): boolean {
  const trimmed = value.trimEnd();
  // A statement that assigns such an expression to a name of code (`apiKey =
  // strings.TrimSpace(pair[1])`, Go's `key := os.Getenv(`): the value a rule reads on the line
  // after a label that looks like a key (Go's `case "x-api-key":`) is code too.
  const assigned = ASSIGNMENT.exec(trimmed);
  if (assigned) return nameOfCode(assigned[1]) && codeExpression(assigned[2]);
  // A literal opened at the line's end after a name or a call (Go's `&pb.Address{`, Rust's
  // `Settings {`, Java's `new Spec(a) {`) goes on at the next lines, like a call left open: the
  // expression before it is judged, and brackets it leaves open are the ones that go on.
  const literal = /[\w$)\]][ \t]{0,16}\{$/.test(trimmed);
  const body = (literal ? trimmed.slice(0, -1).trimEnd() : trimmed.replace(/[;,]$/, ""))
    .replace(TYPE_PREFIX, "$1");
  if (!HEAD.test(body) || !STRUCTURE.test(body)) return false;
  const pieces = piecesOf(body);
  if (!pieces) return false;
  const open: string[] = [];
  let operand = true; // an operand is wanted next
  for (let i = 0; i < pieces.length; i++) {
    const { piece, spaced } = pieces[i];
    if (/^[A-Za-z_$0-9"']/.test(piece)) {
      // (before a member's mark or a call's `(`: a package or a function, `base64.b64decode(`)
      const member = MEMBER.has(pieces[i + 1]?.piece ?? "") || pieces[i + 1]?.piece === "(";
      if (!operand || (/^[A-Za-z_$]/.test(piece) && !nameOfCode(piece, member))) return false;
      operand = false;
    } else if (piece === "(" || piece === "[") {
      open.push(piece === "(" ? ")" : "]");
      operand = true;
    } else if (piece === "{" && (!operand || open.at(-1) === "}")) {
      // A composite literal after its type (`Key{a, b}`), or an element of one (`{{1, 2}}`)
      open.push("}");
      operand = true;
    } else if (piece === ")" || piece === "]" || piece === "}") {
      // `f()`: a call with no argument closes right after it opens; `T{}` an empty literal
      const empty = pieces[i - 1]?.piece === "(" || pieces[i - 1]?.piece === "{" ||
        (piece === "]" && pieces[i - 1]?.piece === ":");
      if (open.pop() !== piece || (operand && !empty)) return false;
      operand = false;
    } else if (piece === ":" && open.at(-1) === "]") {
      // a slice's bounds, either left out (`digest[:8]`, `argv[1:]`)
      operand = true;
    } else if (piece === "=") {
      // a keyword argument (`new(self._key, hashAlgo=SHA256)`)
      if (operand || open.at(-1) !== ")" || !keywordName(pieces, i)) return false;
      operand = true;
    } else if (MEMBER.has(piece)) {
      if (operand || !/^[A-Za-z_$]/.test(pieces[i + 1]?.piece ?? "") || pieces[i + 1].spaced) {
        return false;
      }
      operand = true;
    } else if (operand && /^[&*!-]$/.test(piece)) continue; // `&x`, `*p`, `!ok`, `-1`
    else if (operand || !(BETWEEN.has(piece) || (SPACED.has(piece) && spaced))) return false;
    else operand = true;
  }
  if (!open.length || literal) return !operand;
  // (left open at a call's `(`, a list's `,`, or a subscript's `[` whose key is a string the
  // value was cut before: `b64decode(response["`)
  return trimmed.endsWith(",") || /^[([]$/.test(pieces[pieces.length - 1].piece);
}

/** Whether the piece before the `=` at `i` is a name given after a call's `(` or a `,`. */
function keywordName(pieces: Array<{ piece: string }>, i: number): boolean {
  const before = pieces[i - 2]?.piece;
  return (before === "(" || before === ",") && /^[A-Za-z_$]/.test(pieces[i - 1].piece);
}

/**
 * The tokens of `body` ({@linkcode PIECE}) without the blanks, each with whether blanks stand on
 * both sides of it; `undefined` when a character is none of them.
 */
function piecesOf(body: string): Array<{ piece: string; spaced: boolean }> | undefined {
  const out: Array<{ piece: string; spaced: boolean }> = [];
  let blankBefore = false;
  for (let at = 0; at < body.length;) {
    PIECE.lastIndex = at;
    const m = PIECE.exec(body);
    if (!m) return undefined;
    at += m[0].length;
    if (/^[ \t]/.test(m[0])) {
      blankBefore = true;
      continue;
    }
    out.push({ piece: m[0], spaced: blankBefore && /^[ \t]/.test(body[at] ?? "") });
    blankBefore = false;
  }
  return out;
}

/**
 * Whether `name` reads as a name of code, not as a key: words joined by `_` or a change to upper
 * case, each letters with maybe digits after them (`argv`, `hd_proxy_auth`, `RenderPass`,
 * `libtest_arg4`, `x86_64`), not random nor generated. A password mixes digits into its letters
 * (`P4ss`, `w0rd9`); a lower-case word before a member's mark (`member`) may too: a package.
 */
function nameOfCode(name: string, member = false): boolean {
  // A package or module before its member's mark, or a function before its call's `(`, may hold
  // digits inside its one lower-case word: Go's protobuf aliases (`v3corepb.Address`),
  // `s3manager.New`, `k8sclient.Get`, Python's `base64.b64decode(`.
  if (
    member && /^[a-z]{1,32}[0-9]{1,8}[a-z]{1,32}$/.test(name) && !looksRandom(name) &&
    !looksGenerated(name)
  ) {
    return true;
  }
  const words = name.replace(/^[$_]+/, "").split(/_+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  return words.every((w) => /^(?:[A-Za-z]+[0-9]*|[0-9]+)$/.test(w)) &&
    !looksRandom(name) && !looksGenerated(name) && !randomLetters(name);
}

/**
 * Whether `value` is a name of words as code writes one: two or more words joined by `_` or a
 * change to upper case, each letters and maybe digits after them (`libtest_arg4`,
 * `fallbackPassword2`). A password mixes digits into its letters (`S3cret9x`, `Xk9mP2qL7vB4`) or
 * is one word (`hunter2`), so it does not read so.
 */
function wordsName(value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(value) || !nameOfCode(value)) return false;
  return value.split(/_+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean).length >= 2;
}
/**
 * A type: a name or path (`String`, `std::string`, `C.char`), maybe a reference, pointer, `dyn`,
 * `impl`, `mut`, `const`, a lifetime, and type arguments (`Option<String>`, `Box<dyn Fn()>`,
 * `HashMap<String, Vec<u8>>`), maybe an array's `[]` or an optional's `?`.
 */
const TYPE =
  /^[&*]*(?:'[a-z]\w* )?(?:(?:dyn|impl|mut|const) )*[A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*(?:<[\w$:.&*'<>, ()\[\]]{1,200}>)?(?:\[\])*\??$/;

/**
 * Whether `value` is a type of code with type arguments, a pointer's mark or an optional's `?`
 * (`Option<String>`, `*C.char`, `&'static str`, `SecretKey?`): balanced `<>`, names of code
 * shape. A name alone is left to the other checks.
 *
 * @example
 * ```ts
 * import { codeType } from "./_secret_rules_code.ts";
 * codeType("Option<String>"); // true
 * codeType("SecretKey?"); // true
 * codeType("Xk9<mP2qL7>vB4"); // false
 * ```
 */
export function codeType(value: string): boolean {
  // (an optional's `?` marks a type when its name is two words or more, Kotlin's and Swift's
  // `SecretKey?`; one word and a `?` may be a password: `Hunter?`)
  const optional = /^[A-Z][a-z0-9]{1,32}(?:[A-Z][a-z0-9]{0,32}){1,8}\?$/.test(value);
  if (!TYPE.test(value) || !(optional || /[<*&]/.test(value))) return false;
  let depth = 0;
  for (const c of value) {
    if (c === "<") depth++;
    else if (c === ">" && --depth < 0) return false;
  }
  return depth === 0 && (value.match(/[A-Za-z_$][\w$]*/g) ?? []).every((name) => nameOfCode(name));
}

/** A type up to where a declaration goes on: ` =`, `;`, `{`, `)` or the line's end. */
const TYPE_REST = /^[^=;{})\r\n]*/;

/**
 * Whether the unquoted name `value` at `start` to `end`, after the operator at `at`, is code by
 * where it stands: a type that goes on past a `,` (`HashMap<String, Vec<u8>>`), a ternary's branch (`: ` after a ` ? ` on its line: `c ? a : b_pass2`), or the
 * end of a statement (` = ` with blanks, then `;` and the line's end: `pwd = libtest_arg4;`). A
 * `.env` line, YAML or a connection string (`Pwd=S3cret9;`) writes neither; code quotes a secret.
 * The value must read as code by its shape too: an expression ({@linkcode codeExpression}) or a
 * name of words ({@linkcode wordsName}), not random nor generated, so that `pw = S3cret9x;` in a
 * config file is still a password.
 *
 * @example
 * ```ts
 * import { codeByPlace } from "./_secret_rules_code.ts";
 * const text = "const char *pwd = libtest_arg4;\n";
 * codeByPlace(text, 16, 18, 30); // true
 * ```
 */
export function codeByPlace(text: string, at: number, start: number, end: number): boolean {
  // (a name negated is the name's code too: `apiToken = -apiToken;`, `!flag`, `~mask`)
  const value = text.slice(start, end).replace(/^[-!~](?=[A-Za-z_$])/, "");
  // A type whose arguments hold a `,` that ended the value (`HashMap<String, Vec<u8>>`)
  if (
    value.includes("<") &&
    codeType(TYPE_REST.exec(text.slice(start, start + 256))![0].trim().replace(/,$/, ""))
  ) {
    return true;
  }
  const expression = codeExpression(value);
  if (!expression && !(/^[A-Za-z_$][\w$]*$/.test(value) && nameOfCode(value))) return false;
  // a ternary's branch: any name of code
  const lineStart = Math.max(lastIndexNear(text, "\n", at, 512) + 1, at - 512, 0);
  if (text[at] === ":" && /[ \t]\?[ \t]/.test(text.slice(lineStart, at))) return true;
  // the end of a statement: an expression, or a name of two words or more
  if (!expression && !wordsName(value)) return false;
  // a field of a struct literal or an initializer: the same names of code
  if (literalField(text, at, end)) return true;
  const spaced = /[ \t]$/.test(text.slice(at - 1, at)) && /^=[ \t]/.test(text.slice(at, at + 2));
  return spaced &&
    /^;[ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*)?(?:\r?\n|$)/.test(text.slice(end, end + 256));
}

/**
 * Whether the name before the operator at `at` is a field of a struct literal, an object
 * initializer or a call's labelled argument, whose value ends at `end`: the value ends at a `,`,
 * `}` or `)` (or its line, before a line that closes the literal), and the name follows a type's
 * `{` or `(` on its line, maybe after other fields (`oauth2.Token{AccessToken: …`,
 * `new Config { Password = …`, `Config(password: …`), or stands first on a line after one that
 * ends in `{`, `(` or `,` (a literal written a field a line). A YAML or `.env` line has no such
 * literal around it; a YAML flow map's `{` follows a `:`, not a type. The operator is a `:` or
 * an `=` with blanks around it: a shell function's `PASSWORD=…` before its `}` is no field.
 */
function literalField(text: string, at: number, end: number): boolean {
  // `Name: value` or `Name = value`; a shell's or `.env`'s `NAME=value` is no field
  if (text[at] !== ":" && !/[ \t]=[ \t]/.test(text.slice(at - 1, at + 2))) return false;
  if (!/^[ \t]{0,16}(?:[,})]|\r?\n[ \t]{0,16}[})])/.test(text.slice(end, end + 64))) return false;
  const line = nameBefore(text, at);
  const before = line.replace(/[A-Za-z_$][\w$]{0,63}[ \t]{0,16}$/, "");
  if (/[\w$>\]][ \t]?[{(](?:[^\r\n]{0,64},)?[ \t]{0,16}$/.test(before)) return true;
  if (!/^[ \t]{0,64}$/.test(before) || line.length >= 64) return false;
  const lineStart = at - line.length;
  const above = text.slice(Math.max(0, lineStart - 256), lineStart).trimEnd();
  return /[{(,]$/.test(above);
}

/** A shell command that tests, after the keywords that may lead it: `if test`, `elif [`, `[[`. */
const SHELL_TEST_COMMAND =
  /^[ \t]*(?:(?:if|elif|while|until|then|do|else|!)[ \t]+)*(?:test|\[\[?)[ \t]/;

/**
 * Whether the `=` at `at` compares in a shell test (`test "$linkmode,$pass" = "lib,link"`,
 * `[ "$PASSWORD" = x ]`): a blank on each side (an assignment has none), on its left a word that
 * expands a variable (`"$linkmode,$pass"`, `x$pw`), and a `test`, `[` or `[[` command that the
 * word is an argument of (no `;`, `&`, `|`, `(` between them; `!` may lead it). A comparison is
 * no assignment, as `==` is not one elsewhere. At most 512 characters before `at` are read.
 *
 * @example
 * ```ts
 * import { shellComparison } from "./_secret_rules_code.ts";
 * const line = 'if test "$linkmode,$pass" = "lib,link"; then';
 * shellComparison(line, line.indexOf(" = ") + 1); // true
 * shellComparison('pass = "lib,link"', 5); // false
 * ```
 */
export function shellComparison(text: string, at: number): boolean {
  if (text[at] !== "=" || !/^[ \t]=[ \t]/.test(text.slice(at - 1, at + 2))) return false;
  const near = text.slice(Math.max(0, at - 512), at);
  const before = near.slice(near.lastIndexOf("\n") + 1).trimEnd();
  // The left operand: a quoted word, or a word of no blank.
  const quoted = before.endsWith('"');
  let wordStart = quoted ? before.lastIndexOf('"', before.length - 2) : before.length;
  while (!quoted && wordStart > 0 && !/[\s;&|"']/.test(before[wordStart - 1])) wordStart--;
  if (wordStart <= 0 || !before.slice(wordStart).includes("$")) return false;
  const head = before.slice(0, wordStart);
  if (quoted && !/[ \t]$/.test(head)) {
    // `x"$pw"` glued: not read (a word of quoted parts), and not a comparison said to be one.
    return false;
  }
  // The command the word belongs to starts after the last separator.
  let start = head.length;
  while (start > 0 && !";&|({`".includes(head[start - 1])) start--;
  return SHELL_TEST_COMMAND.test(head.slice(start));
}
