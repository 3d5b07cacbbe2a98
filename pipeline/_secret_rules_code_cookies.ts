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
 * `Set-Cookie` as a name (quoted, then `,` or `:`) or a directive's word (then blanks), and the
 * literals after it: up to four (an array's items), each in group `v` of {@linkcode LITERAL}.
 */
const SET_COOKIE =
  /[Ss]et-[Cc]ookie["'`]?[ \t]{0,16}(?:[,:][ \t]{0,16}\[?|(?<=[Ss]et-[Cc]ookie)[ \t]{1,16})/g;
/** A literal (group `v`: its text), then a list's `,`. */
const LITERAL = /[ \t]{0,16}(?<q>["'`])(?<v>[^"'`\\\r\n]{1,4096})\k<q>[ \t]{0,16},?/dy;
/** A cookie setter's name right before its `(`: the name and the value follow as literals. */
const SETTER =
  /(?:\.cookie|[Ss]et_?[Cc]ookie|add_cookie|\bCookie|Cookie::new|[Cc]ookies\.(?:set|add|put))\([ \t]{0,16}(?<n>["'])[^"'\\\r\n]{1,128}\k<n>[ \t]{0,16},(?=[ \t]{0,16}["'])/g;
/** Go's cookie struct: its `Value:` field's literal within the struct (group `v`). */
const GO_COOKIE = /Cookie\{[^{}]{0,512}?\bValue:[ \t]{0,16}"(?<v>[^"\\\r\n]{1,4096})"/dg;
/** A map of cookies: its name, `=` or `:`, then `{` (`cookies = {`, `cookies={`, `"cookies": {`). */
const COOKIE_MAP = /[Cc]ookies["']?[ \t]{0,16}[=:][ \t]{0,16}\{(?<body>[^{}]{1,2048})\}/dg;
/** A map's pair of literals (`"sessionid": "…"`): name `n`, value `v`. */
const MAP_PAIR =
  /(?<q>["'])(?<n>[^"'\\\r\n]{1,128})\k<q>[ \t]{0,16}[:=]>?[ \t]{0,16}(?<p>["'])(?<v>[^"'\\\r\n]{1,4096})\k<p>/dg;

/**
 * The session values of cookies set in code (see the module's notes), named as cookies.
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
  // (a text that names no cookie holds none of these: one search for the word's rare `k`,
  // shared with the `Cookie:` headers' rule)
  if (cookieAt(text, hints) < 0) return out;
  out.push(...setCookieHeaders(text), ...setterCalls(text));
  GO_COOKIE.lastIndex = 0;
  for (const m of text.matchAll(GO_COOKIE)) {
    const [start] = m.indices!.groups!.v!;
    out.push(...cookieValues(`c=${m.groups!.v}`, start - 2));
  }
  COOKIE_MAP.lastIndex = 0;
  for (const m of text.matchAll(COOKIE_MAP)) {
    const at = m.indices!.groups!.body![0];
    MAP_PAIR.lastIndex = 0;
    for (const p of m.groups!.body.matchAll(MAP_PAIR)) {
      out.push(...cookieValues(`c=${p.groups!.v}`, at + p.indices!.groups!.v![0] - 2));
    }
  }
  return out.map((s) => ({ ...s, rule: "cookie" }));
}

/** Each `Set-Cookie` literal's first pair (the rest are its attributes: `Path=/`, `HttpOnly`). */
function setCookieHeaders(text: string): Span[] {
  const out: Span[] = [];
  SET_COOKIE.lastIndex = 0;
  for (let m = SET_COOKIE.exec(text); m; m = SET_COOKIE.exec(text)) {
    LITERAL.lastIndex = m.index + m[0].length;
    for (let i = 0; i < 4; i++) {
      const l = LITERAL.exec(text);
      if (!l) break;
      const v = l.groups!.v;
      // a header line's text (`Set-Cookie: a=…`) is the `Cookie:` rule's; a literal is its value
      out.push(...cookieValues(v.slice(0, (v + ";").indexOf(";")), l.indices!.groups!.v![0]));
    }
  }
  return out;
}

/** The value literal after a cookie setter's name literal (`res.cookie('sid', '…')`). */
function setterCalls(text: string): Span[] {
  const out: Span[] = [];
  SETTER.lastIndex = 0;
  for (const m of text.matchAll(SETTER)) {
    LITERAL.lastIndex = m.index! + m[0].length;
    const l = LITERAL.exec(text);
    if (!l) continue;
    out.push(...cookieValues(`c=${l.groups!.v}`, l.indices!.groups!.v![0] - 2));
  }
  return out;
}
