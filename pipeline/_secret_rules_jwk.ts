/**
 * The rule for private JSON Web Keys (`secret_rules.ts` is the public face): the private members
 * of an object that holds a `kty` (`"d"` of an EC, OKP or RSA key, RSA's `"p"`, `"q"`, `"dp"`,
 * `"dq"`, `"qi"`, a symmetric key's `"k"`), in JSON, in a JSON string (`\"d\": \"…\"`) or in code
 * (`{kty: "EC", d: "…"}`). The public members (`"n"`, `"e"`, `"x"`, `"y"`) stay, so a JWKS of public
 * keys keeps every value.
 *
 * @module
 */

import { isPlaceholder } from "./_secret_rules_common.ts";

/** Whether the character code `c` is one of a name's: `kty` inside a longer name is not one. */
function nameCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
    c === 36;
}
/** How far from its `kty` a key's object may reach, each way (an RSA-4096 key is 3.2 KB). */
const REACH = 16 * 1024;

/**
 * A private member at a position: its name (not inside a longer name: `kid`), maybe quoted or
 * escaped, `:`, and a quoted base64url value of 16+ characters (group `v`).
 */
export const JWK_PRIVATE: RegExp =
  /(?<![A-Za-z0-9_$])(?:d|p|q|dp|dq|qi|k)(?:\\?["'])?[ \t]{0,8}:[ \t]{0,8}\\?["'](?<v>[A-Za-z0-9_-]{16,8192})(?=\\?["'])/g;

/**
 * The private members of every object that holds a `kty` name (quoted, escaped or not): the
 * object is the text from the `{` before the `kty` to the `}` after it (a JWK holds no nested
 * object but a multi-prime key's `oth`, whose members are looked at all the same), at most
 * {@linkcode REACH} characters each way. Each object is read once, however many `kty` it holds.
 *
 * @example
 * ```ts
 * import { findJwkPrivate } from "./_secret_rules_jwk.ts";
 * const d = "x".repeat(10) + "Q1w2E3r4";
 * findJwkPrivate(`{"kty":"EC","crv":"P-256","d":"${d}"}`); // [{ start: 32, end: 50 }]
 * ```
 */
export function findJwkPrivate(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let done = -1; // where the last object read ends
  for (let at = text.indexOf("kty"); at >= 0; at = text.indexOf("kty", at + 3)) {
    if (at < done || nameCode(text.charCodeAt(at - 1)) || nameCode(text.charCodeAt(at + 3))) {
      continue;
    }
    // The `{` before it, read back no further than the last object or REACH (a text of `kty`
    // and no brace is read once, not once for each)
    let open = at;
    const floor = Math.max(done, at - REACH, 0);
    while (open > floor && text.charCodeAt(open) !== 123) open--;
    if (text.charCodeAt(open) !== 123) {
      done = at; // the next `kty` reads back to here at most
      continue;
    }
    let close = at;
    const ceiling = Math.min(text.length, at + REACH);
    while (close < ceiling && text.charCodeAt(close) !== 125) close++;
    const body = text.slice(open, close);
    for (const m of body.matchAll(JWK_PRIVATE)) {
      if (isPlaceholder(m.groups!.v)) continue;
      const end = open + m.index! + m[0].length;
      out.push({ start: end - m.groups!.v.length, end });
    }
    done = close;
  }
  return out;
}
