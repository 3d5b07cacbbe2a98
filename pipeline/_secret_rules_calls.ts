/**
 * The rule for passwords passed by position to a call that only takes credentials
 * (`secret_rules.ts` is the public face): `HTTPBasicAuth("user", "…")`, `auth=("user", "…")`,
 * `new NetworkCredential("user", "…")`, `smtp.login("user", "…")`, `new DirectoryEntry(path,
 * "user", "…")`, `new BasicAWSCredentials("AKIA…", "…")`. No name stands before such a password:
 * the call's own name says what its argument is.
 *
 * @module
 */

import { isPlaceholder } from "./_secret_rules_common.ts";
import { REFERENCE } from "./_secret_rules_names.ts";

/**
 * A quoted argument (its quotes maybe escaped, in a JSON string of code): 1 to 128 characters, a
 * `\` among them when it escapes no quote (`"domain\user"`), then its `,`.
 */
const ARGUMENT =
  `\\\\?(["'])(?:[^"'\\\\\\r\\n]|\\\\[^"'\\r\\n]){1,128}\\\\?\\1[ \\t]{0,16},\\s{0,64}`;

/**
 * A credentials call and its literal arguments up to the password (group `v`, quoted, 4 to 256
 * characters, its closing quote after it): the user's (or the access key's) first, and for
 * `DirectoryEntry` the path's before it. Looked for from the call's `(`, its name checked behind
 * it (a search from the names' letters would stop at every `H`, `N`, `l`, `a`).
 */
export const CREDENTIAL_CALL: RegExp = new RegExp(
  "\\((?<=(?:" +
    [
      "HTTPBasicAuth",
      "HTTPDigestAuth",
      "HttpNtlmAuth",
      "HTTPProxyAuth",
      "[Bb]asicAuth",
      "NetworkCredential",
      "PasswordAuthentication",
      "UsernamePasswordCredentials",
      "UsernamePasswordAuthenticationToken",
      "BasicAWSCredentials",
      "AwsBasicCredentials\\.create",
      "\\.login",
      "\\bauth[ \\t]{0,4}=[ \\t]{0,4}",
    ].join("|") +
    ")\\()[ \\t]{0,16}" + ARGUMENT + "\\\\?([\"'])(?<v>[^\"'\\\\\\r\\n]{4,256})(?=\\\\?\\2)" +
    "|\\((?<=DirectoryEntry\\()[ \\t]{0,16}" + ARGUMENT.replace("\\1", "\\4") +
    ARGUMENT.replace("\\1", "\\5") + "\\\\?([\"'])(?<w>[^\"'\\\\\\r\\n]{4,256})(?=\\\\?\\6)",
  "g",
);

/**
 * The password of every {@linkcode CREDENTIAL_CALL}, when it is not a stand-in (`password`,
 * `changeme`) or a reference (`$PASSWORD`, `%s`).
 *
 * @example
 * ```ts
 * import { findCredentialCalls } from "./_secret_rules_calls.ts";
 * findCredentialCalls('auth=HTTPBasicAuth("deploy", "Tr0ub4dor3")'); // [{ start: 30, end: 40 }]
 * ```
 */
export function findCredentialCalls(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  CREDENTIAL_CALL.lastIndex = 0;
  for (const m of text.matchAll(CREDENTIAL_CALL)) {
    const value = m.groups!.v ?? m.groups!.w;
    if (!value || isPlaceholder(value) || REFERENCE.test(value) || /^\s|\s$/.test(value)) continue;
    const end = m.index! + m[0].length;
    out.push({ start: end - value.length, end });
  }
  return out;
}
