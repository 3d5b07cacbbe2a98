/**
 * The rule for a secret a test's stub expects (`secret_rules.ts` is the public face): a mock
 * server's matcher of a header, a query parameter or a cookie under a secret's name, WireMock's
 * JSON `"X-Api-Key": {"equalTo": "…"}` and Java's `withHeader("X-Api-Key", equalTo("…"))`. The
 * matcher stands between the name and its value, so the named rules, which read a value right
 * after its name's operator, pass it by.
 *
 * @module
 */

import { looksGenerated, looksRandom } from "./_secret_rules_common.ts";
import { passwordLike } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * The files a stub is written in: WireMock's JSON mappings, and tests in the JVM's languages and
 * .NET's (WireMock.Net).
 */
const STUB_FILE = /\.(?:json|java|kt|kts|scala|groovy|cs)$/i;
/** The words of {@linkcode MATCHER}, looked for in a stub's file before it is read. */
const MATCHER_WORDS = ["equalTo", '"matches"', '"contains"', "matching(", "containing("];

/** A matcher's word, as a JSON key (`"equalTo"`) or a Java call (`equalTo(`), from its first letter. */
const MATCHER =
  /(?<=["(,{ \t])(?:equalTo(?:IgnoreCase)?|matches|contains|matching|containing)(?=["(])/g;

/**
 * Before a matcher's word: the quoted name (group `n`) then, in JSON, `:` and the matcher object's
 * `{` and quote, or in Java, a `,` (the name as the call's first argument).
 */
const NAME_BEFORE =
  /(["'])(?<n>[A-Za-z0-9_.-]{1,64})\1[ \t]{0,16}(?::[ \t]{0,16}\{[ \t]{0,16}"|,[ \t]{0,16})$/;

/** After a matcher's word: the JSON key's `":` or the call's `(`, then the quoted value (`v`). */
const VALUE_AFTER = /(?:"[ \t]{0,16}:[ \t]{0,16}|\([ \t]{0,16})"(?<v>[^"\\\r\n]{1,512})"/dy;

/** A name that holds a secret: an API key, a token, a secret, a password, a session, a signature. */
const SECRET_NAME =
  /api[-_]?key|token|secret|passw|auth|credential|session|signature|cookie|(?:^|[-_])key$/i;
/** A password's name, whose value is judged as a password's (not only a token's). */
const PASSWORD_NAME = /passw/i;
/** An authorization's scheme before its credentials (`Token …`, `Bearer …`). */
const SCHEME = /^(?:Bearer|Token|Basic|Digest|ApiKey|Key)[ \t]{1,4}/i;

/**
 * The values of stubs' matchers under a secret's name (see the module's notes) that read as a
 * token (random, or generated) or, under a password's name, as a password; the value's part after
 * an authorization's scheme (`Token …`).
 *
 * @example
 * ```ts
 * import { findStubMatchers } from "./_secret_rules_stubs.ts";
 * findStubMatchers('{"X-Api-Key": {"equalTo": "9MBJwaIUm82E26IGp3NoynMIa1yb"}}', {}, "a.json");
 * // [{ start: 27, end: 55 }]
 * findStubMatchers('{"Content-Type": {"equalTo": "application/json"}}', {}, "a.json"); // []
 * ```
 */
export function findStubMatchers(text: string, _hints?: unknown, path?: string): Span[] {
  const out: Span[] = [];
  // (stubs' files only, and those that name a matcher: a search of every text for the words
  // cost the stdlib's scan 8%, see bench/README.md)
  if (!path || !STUB_FILE.test(path) || !MATCHER_WORDS.some((w) => text.includes(w))) return out;
  MATCHER.lastIndex = 0;
  for (let m = MATCHER.exec(text); m; m = MATCHER.exec(text)) {
    const name = NAME_BEFORE.exec(text.slice(Math.max(0, m.index - 96), m.index))?.groups?.n;
    if (!name || !SECRET_NAME.test(name)) continue;
    VALUE_AFTER.lastIndex = m.index + m[0].length;
    const v = VALUE_AFTER.exec(text);
    if (!v) continue;
    const scheme = SCHEME.exec(v.groups!.v)?.[0].length ?? 0;
    const value = v.groups!.v.slice(scheme);
    const secret = looksRandom(value) || looksGenerated(value) ||
      (PASSWORD_NAME.test(name) && passwordLike(value, true));
    if (!secret) continue;
    const [start, end] = v.indices!.groups!.v!;
    out.push({ start: start + scheme, end });
  }
  return out;
}
