/**
 * The rule for cookies that code sets (`secret_rules.ts` is the public face): a `Set-Cookie`
 * header given as a call's or an object's name and its value as the next literal
 * (`res.setHeader('Set-Cookie', 'sid=…; HttpOnly')`, `{'Set-Cookie': 'auth=…'}`, nginx's
 * `add_header Set-Cookie "…"`), a cookie setter given a name and a value
 * (`res.cookie('remember_token', '…')`, `set_cookie("session", "…")`, PHP's `setcookie`,
 * `new Cookie("JSESSIONID", "…")`, Rust's `Cookie::new`), Go's `http.Cookie{Name: …, Value: "…"}`
 * and a map of cookies (`cookies = {"sessionid": "…"}`). A cookie's name says nothing of a
 * secret, so the named rules pass these by; the value is judged as a `Cookie:` header's is
 * (`cookieValues`: 16+ characters, letters and digits mixed), so `theme=dark` stays.
 *
 * @module
 */

import { cookieValues } from "./_secret_rules_cli.ts";
import { cookieAt, type TextHints } from "./_secret_rules_common.ts";

type Span = { start: number; end: number; rule?: string };

/**
 * From a `Set-Cookie`'s `C`: the name's end (quoted, then `,` or `:`; or a directive's word, then
 * blanks) before its literals (up to four, an array's items, each read with {@linkcode LITERAL}).
 */
const SET_COOKIE_AT = /[Cc]ookie["'`]?[ \t]{0,16}(?:[,:][ \t]{0,16}\[?|(?<=[Cc]ookie)[ \t]{1,16})/y;
/** A literal (group `v`: its text), then a list's `,`. */
const LITERAL = /[ \t]{0,16}(?<q>["'`])(?<v>[^"'`\\\r\n]{1,4096})\k<q>[ \t]{0,16},?/dy;
/**
 * From a cookie setter's `c`: the rest of its name, its `(` and the cookie's name as a literal, then
 * `,` (the value follows as a literal): `res.cookie(`, `set_cookie(`, `setcookie(`, `add_cookie(`,
 * `Cookie(`, `Cookie::new(`, `cookies.set(`.
 */
const SETTER_AT =
  /[Cc]ookie(?:s\.(?:set|add|put)|::new)?\([ \t]{0,16}(?<n>["'])[^"'\\\r\n]{1,128}\k<n>[ \t]{0,16},(?=[ \t]{0,16}["'])/y;
/** What stands before a setter's `cookie`: `.`, `set`, `Set`, `set_`, `add_`, or no name's character. */
const SETTER_BEFORE = /(?:\.|[Ss]et_?|add_|(?:^|[^\w$]))$/;
/** From Go's `Cookie{`: its `Value:` field's literal within the struct (group `v`). */
const GO_COOKIE_AT = /Cookie\{[^{}]{0,512}?\bValue:[ \t]{0,16}"(?<v>[^"\\\r\n]{1,4096})"/dy;
/** From a map of cookies' `c`: `=` or `:`, then `{` (`cookies = {`, `cookies={`, `"cookies": {`). */
const COOKIE_MAP_AT = /[Cc]ookies["']?[ \t]{0,16}[=:][ \t]{0,16}\{(?<body>[^{}]{1,2048})\}/dy;
/** A map's pair of literals (`"sessionid": "…"`): name `n`, value `v`. */
const MAP_PAIR =
  /(?<q>["'])(?<n>[^"'\\\r\n]{1,128})\k<q>[ \t]{0,16}[:=]>?[ \t]{0,16}(?<p>["'])(?<v>[^"'\\\r\n]{1,4096})\k<p>/dg;

/**
 * The session values of cookies set in code (see the module's notes), named as cookies. Read from
 * each `cookie` word (its `kie`, searched from the rare `k`), each shape tried there once: a
 * pattern over the whole text stopped at every `s`, `c` and `.`.
 *
 * @example
 * ```ts
 * import { findCodeCookies } from "./_secret_rules_code_cookies.ts";
 * findCodeCookies("res.cookie('sid', 'k8Xq2Lm9Pz4Rw7Tn5Vb3');"); // [{ start: 18, end: 38, rule: "cookie" }]
 * findCodeCookies("res.cookie('theme', 'dark');"); // []
 * ```
 */
export function findCodeCookies(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  // (shared with the `Cookie:` headers' rule: a text with no `kie` names no cookie)
  for (let at = cookieAt(text, hints); at >= 3; at = text.indexOf("kie", at + 3)) {
    const c = at - 3; // the `c` of `cookie`
    if (text[c + 1] !== "o" || text[c + 2] !== "o" || (text[c] !== "c" && text[c] !== "C")) {
      continue;
    }
    const before = text.slice(Math.max(0, c - 4), c);
    if (/[Ss]et-$/.test(before)) out.push(...setCookieHeader(text, c));
    if (SETTER_BEFORE.test(before)) out.push(...setterCall(text, c));
    GO_COOKIE_AT.lastIndex = c;
    const go = GO_COOKIE_AT.exec(text);
    if (go) out.push(...cookieValues(`c=${go.groups!.v}`, go.indices!.groups!.v![0] - 2));
    COOKIE_MAP_AT.lastIndex = c;
    const map = COOKIE_MAP_AT.exec(text);
    if (map) out.push(...mapCookies(map.groups!.body, map.indices!.groups!.body![0]));
  }
  return out.map((s) => ({ ...s, rule: "cookie" }));
}

/** Each literal's first pair after `Set-Cookie` (the rest are its attributes: `Path=/`, `HttpOnly`). */
function setCookieHeader(text: string, c: number): Span[] {
  const out: Span[] = [];
  SET_COOKIE_AT.lastIndex = c;
  if (!SET_COOKIE_AT.exec(text)) return out;
  LITERAL.lastIndex = SET_COOKIE_AT.lastIndex;
  for (let i = 0; i < 4; i++) {
    const l = LITERAL.exec(text);
    if (!l) break;
    const v = l.groups!.v;
    // (a header line's text, `Set-Cookie: a=…`, is the `Cookie:` rule's; a literal is its value)
    out.push(...cookieValues(v.slice(0, (v + ";").indexOf(";")), l.indices!.groups!.v![0]));
  }
  return out;
}

/** The value literal after a cookie setter's name literal (`res.cookie('sid', '…')`). */
function setterCall(text: string, c: number): Span[] {
  SETTER_AT.lastIndex = c;
  if (!SETTER_AT.exec(text)) return [];
  LITERAL.lastIndex = SETTER_AT.lastIndex;
  const l = LITERAL.exec(text);
  return l ? cookieValues(`c=${l.groups!.v}`, l.indices!.groups!.v![0] - 2) : [];
}

/** The values of a map of cookies' pairs, its body at `at`. */
function mapCookies(body: string, at: number): Span[] {
  const out: Span[] = [];
  MAP_PAIR.lastIndex = 0;
  for (const p of body.matchAll(MAP_PAIR)) {
    out.push(...cookieValues(`c=${p.groups!.v}`, at + p.indices!.groups!.v![0] - 2));
  }
  return out;
}
