/**
 * The rule for HTTP Basic credentials with no name around them (`secret_rules.ts` is the public
 * face): `Basic <base64>` anywhere (`replacement=Basic QWxh…`, a header in prose or a test), found
 * by what the base64 decodes to, not by the name before it.
 *
 * @module
 */

import { isPlaceholder } from "./_secret_rules_common.ts";

/** The base64 after `Basic `: 8 to 1024 characters and their padding. */
export const BASIC_VALUE: RegExp = /[A-Za-z0-9+/]{8,1024}={0,2}(?![A-Za-z0-9+/=])/y;
/**
 * `user:password` as Basic credentials decode: printable ASCII, one colon, a user and a password
 * that are not empty (a blank inside the password: `Aladdin:open sesame`).
 */
const USER_PASSWORD =
  /^[\x21-\x39\x3b-\x7e]{1,128}:[\x20-\x39\x3b-\x7e]{0,127}[\x21-\x39\x3b-\x7e]$/;

/**
 * Whether `value` is base64 of Basic credentials ({@linkcode USER_PASSWORD}): decoded and its
 * shape checked, so that a word or a random token after `Basic ` seldom passes (`Basic Auth`
 * decodes to bytes that are not text), and not a stand-in's (`user:pass`, `test:test`).
 */
function decodesToCredentials(value: string): boolean {
  if (value.length % 4 === 1) return false;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  if (!USER_PASSWORD.test(decoded)) return false;
  // A stand-in: `user:pass`, `foo:bar`, `test:test` (the password a placeholder, or the user)
  const colon = decoded.indexOf(":");
  const password = decoded.slice(colon + 1);
  return !isPlaceholder(password) && password !== decoded.slice(0, colon);
}

/**
 * The base64 of every `Basic <base64>` (one blank after `Basic`, `basic` or `BASIC`, not inside a
 * longer word) that decodes to `user:password`. One `indexOf` search for each spelling: each skips
 * quickly over text without its first letter, where one search for `asic` (to take them all at
 * once) would stop at every `a`.
 *
 * @example
 * ```ts
 * import { findBareBasic } from "./_secret_rules_basic.ts";
 * findBareBasic("replacement=Basic " + btoa("bob:hunter22")); // [{ start: 18, end: 34 }]
 * ```
 */
export function findBareBasic(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const scheme of ["Basic ", "basic ", "BASIC "]) {
    for (let at = text.indexOf(scheme); at >= 0; at = text.indexOf(scheme, at + 6)) {
      if (at > 0 && /[A-Za-z0-9_]/.test(text[at - 1])) continue; // inside a word
      BASIC_VALUE.lastIndex = at + 6;
      const m = BASIC_VALUE.exec(text);
      if (m && decodesToCredentials(m[0])) out.push({ start: at + 6, end: at + 6 + m[0].length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
