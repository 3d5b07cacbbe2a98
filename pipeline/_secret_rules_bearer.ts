/**
 * The rule for a bearer token written with no name before it (`secret_rules.ts` is the public
 * face): a string that is `Bearer` and a token (`.header("Authorization", "Bearer …")`,
 * `'Bearer …'`), the scheme and the token as two literals (.NET's
 * `new AuthenticationHeaderValue("Bearer", "…")`), and a YAML list's item (a VCR cassette's `Authorization:` then `- Bearer …`).
 *
 * @module
 */

import { isPlaceholder, type TextHints } from "./_secret_rules_common.ts";
import { namesOf, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * After `Bearer`: blanks, or its closing quote, a `,` and the next literal's quote (the scheme
 * and the token given apart), then the token (group `v`) up to a quote or its line's end.
 */
export const BEARER_TOKEN: RegExp =
  /(?:[ \t]{1,4}|(?<q>["'])[ \t]{0,16},[ \t]{0,16}\k<q>)(?<v>[A-Za-z0-9_\-.~+\/]{16,4096}={0,2})(?=["'`]|[ \t]{0,16}(?:\r?\n|$))/dy;
/** What stands before a `Bearer` that opens a value: a quote, or a YAML list item's `- `. */
const OPENS = /(?:["'`]|(?:^|\n)[ \t]{0,64}-[ \t]{1,4})$/;

/**
 * The tokens after a `Bearer` that opens a string or a list's item, each a token's shape: letters
 * and digits mixed, no placeholder (`Bearer <token>`) nor reference (`Bearer ${TOKEN}`).
 *
 * @example
 * ```ts
 * import { findBareBearers } from "./_secret_rules_bearer.ts";
 * findBareBearers('h("Authorization", "Bearer Xk29fjQ02aLpZ8wq7Rt5")'); // [{ start: 27, end: 47 }]
 * ```
 */
export function findBareBearers(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  for (const end of namesOf(text, hints).bearers) {
    if (!OPENS.test(text.slice(Math.max(0, end - 6 - 72), end - 6))) continue;
    BEARER_TOKEN.lastIndex = end;
    const m = BEARER_TOKEN.exec(text);
    if (!m) continue;
    const v = m.groups!.v;
    if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v) || isPlaceholder(v) || REFERENCE.test(v)) continue;
    const [start, stop] = m.indices!.groups!.v;
    out.push({ start, end: stop });
  }
  return out;
}
