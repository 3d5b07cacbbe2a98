/**
 * The rule for random keys of printable characters under a key's or salt's name (`secret_rules.ts`
 * is the public face): WordPress's `AUTH_KEY` … `NONCE_SALT` (64 characters of letters, digits,
 * marks and blanks), a framework's signing key written by hand. Such a value holds marks that the
 * token rules stop at and names (`LOGGED_IN_KEY`, `NONCE_SALT`) that no password word ends.
 *
 * @module
 */

import { anyCase, markedKey, type TextHints } from "./_secret_rules_common.ts";
import { GAP, NAME_QUOTE, namesOf, OP } from "./_secret_rules_names.ts";
import { codeExpression } from "./_secret_rules_code.ts";

/**
 * From an operator after a name that ends in `key` or `salt` (or the `>` of its element): the
 * opening quote (group `q`: one, a triple, or none) and the rest of the line, up to 256 characters
 * (group `v`), cut by {@linkcode randomKeyAt}.
 */
export const KEY_VALUE: RegExp = new RegExp(
  `(?<=${anyCase("(?:key|salt)")}${NAME_QUOTE}\\]?[ \\t]{0,16})(?<op>${OP}|>)${GAP}` +
    "(?<q>\"\"\"|'''|(?:\\\\?[\"'`])?)(?<v>[^\\r\\n]{32,256})",
  "y",
);

/**
 * Whether `value` is random printable characters: 32 to 256 of them, upper and lower case letters
 * and digits, 4 or more different marks besides those of tokens, base64 and URLs (`+/=_.:~-`),
 * half its characters different, at most one blank in 16 and never two together; or a key of
 * Django's alphabet (`markedKey`). A sentence, a
 * format (`%(asctime)s - %(name)s`), a token, a path or a list of words is not.
 *
 * @example
 * ```ts
 * import { looksRandomPrintable } from "./_secret_rules_keys.ts";
 * looksRandomPrintable("MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg"); // true
 * looksRandomPrintable("%(asctime)s - %(levelname)s - %(message)s"); // false
 * ```
 */
export function looksRandomPrintable(value: string): boolean {
  // Django's keys, lower case: see `markedKey`
  if (markedKey(value)) return true;
  if (value.length < 32 || value.length > 256 || /\s\s|^\s|\s$/.test(value)) return false;
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return false;
  const blanks = value.split(" ").length - 1;
  // Marks a token, base64 or a URL holds (`+/=_.:~-`) do not count: those are the token rules'.
  const marks = new Set(value.replace(/[A-Za-z0-9\s+/=_.:~-]/g, ""));
  return blanks * 16 <= value.length && marks.size >= 4 && new Set(value).size * 2 >= value.length;
}

/**
 * Random printable values (see {@linkcode looksRandomPrintable}) assigned to a name that ends in
 * `key` or `salt`, from each operator a name's word ends at (`LOGGED_IN_KEY`, `AUTH_SALT`; the
 * name/value pairs try `define('NONCE_SALT', '…')` with {@linkcode randomKeyAt}).
 */
export function findRandomKeys(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const at of namesOf(text, hints).operators) {
    const found = randomKeyAt(text, at);
    if (found) out.push(found);
  }
  return out;
}

/** Code, not a value: a call (`toCanonicalKey(path, x);`). */
const CODE = /^[A-Za-z_$][\w$.]{2,256}\(.{0,256}\)[;,]?$/;
/**
 * A name of code before its operator: a call's argument (after `(` or `,`), a record's or a
 * table's field (after `{`: Erlang's `#node{key=Key, …}`, Lua's `{key=k}`), or declared.
 */
const CODE_NAME =
  /(?:[(,{]|\b(?:const|let|var|val|my|local|auto|final|static|def|String))[ \t]{0,16}["']?[A-Za-z0-9_.-]{1,128}["']?[ \t]{0,64}$/;

/**
 * The random printable value assigned at the operator `at`, if any: quoted, up to the closing
 * quote on its line; unquoted, the rest of the line (a `.env` or YAML value may hold blanks), or
 * else up to its first blank, and not when it reads as code.
 */
export function randomKeyAt(text: string, at: number): { start: number; end: number } | undefined {
  KEY_VALUE.lastIndex = at;
  const m = KEY_VALUE.exec(text);
  if (!m) return undefined;
  const { op, q, v } = m.groups!;
  // `::` joins a path of names (Rust's `UnboundKey::new(…)`, C++'s `SecretKey::from(…)`, PHP's
  // `Key::load(…)`): its first colon is no operator
  if (op === ":" && text[at + 1] === ":") return undefined;
  let value: string;
  if (q) value = v.includes(q) ? v.slice(0, v.indexOf(q)) : "";
  else if (op === ">") value = v.includes("</") ? v.slice(0, v.indexOf("</")) : ""; // an element's text
  else {
    // Unquoted: up to a quote or an escape (the end of a string it sits in: a compose list's
    // `- "KEY=…"`, a notebook's `…\\n"`), then the rest of the line (a `.env` or YAML value may
    // hold blanks), or else up to its first blank
    const own = v.replace(/["'`\\].*/, "").trimEnd();
    value = looksRandomPrintable(own) ? own : own.replace(/\s.*/, "");
    // and not code: a call (`key = toCanonicalKey(path, x)`), a call's argument (`sorted(x,
    // key=itemgetter(1), …)`), a declaration (`const key = …`).
    // a call or member access that holds blanks (`RedisModule_OpenKey(ctx,argv[1], MODE)`)
    if (CODE.test(value) || codeExpression(own)) return undefined;
    if (CODE_NAME.test(text.slice(Math.max(0, at - 160), at))) return undefined;
  }
  // a template literal that interpolates code (`notification-${Math.random()…}`): made at run time
  if (q.endsWith("`") && value.includes("${")) return undefined;
  if (!looksRandomPrintable(value)) return undefined;
  const start = m.index + m[0].length - v.length;
  return { start, end: start + value.length };
}
