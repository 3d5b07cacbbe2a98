/**
 * The rule for a user's password encoded for HTTP Basic auth in code (`secret_rules.ts` is the
 * public face): the plain `user:password` literal given to a base64 encoder, `btoa("deploy:…")`,
 * `Buffer.from('svc:…').toString('base64')`, Python's `base64.b64encode(b"admin:…")`, Go's
 * `EncodeToString([]byte("root:…"))`, Java's `encodeToString("api:…".getBytes())`, Ruby's
 * `Base64.strict_encode64("u:…")`, PHP's `base64_encode("u:…")`, PowerShell's
 * `ToBase64String([Text.Encoding]::ASCII.GetBytes("u:…"))`, Perl's and OpenResty's
 * `encode_base64("u:…")`, Dart's `base64Encode(utf8.encode("u:…"))`. The encoder says what the
 * literal is.
 *
 * @module
 */

import { passwordLike, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * The encoders' calls, each up to its `(`: looked for with `indexOf` in a text whose hint search
 * found one (family `(`, see `TOKEN_GATE`).
 */
const ENCODERS = [
  "btoa(",
  "b64encode(",
  "ncodeToString(",
  "encode64(",
  "base64_encode(",
  "Buffer.from(",
  "ToBase64String(",
  // Perl's and OpenResty's `encode_base64("u:…")` (`ngx.encode_base64`), Deno's and JavaScript
  // libraries' `encodeBase64("u:…")`, Dart's `base64Encode(utf8.encode("u:…"))`, Lua's and
  // Nim's `base64.encode("u:…")`, LuaSocket's `mime.b64("u:…")`
  "encode_base64(",
  "encodeBase64(",
  "base64Encode(",
  "base64.encode(",
  "mime.b64(",
];

/**
 * From an encoder's `(`: the literal's opening (Go's `[]byte(`, Python's `b`, .NET's
 * `[Text.Encoding]::UTF8.GetBytes(`), its quote, the user (group `u`), `:` and the password (group
 * `v`) to the closing quote.
 */
const PAIR_AT =
  /[ \t]{0,16}(?:\[\]byte\([ \t]{0,16}|b(?=["'])|\[[\w.]{1,64}\]::[\w.]{1,64}\.GetBytes\([ \t]{0,16}|utf8\.encode\([ \t]{0,16})?(?<q>["'`])(?<u>[A-Za-z0-9_.@+-]{1,64}):(?<v>[^"'`\s\\]{4,256})\k<q>/dy;

/** After `Buffer.from(…)`: its `.toString('base64')` (a buffer of other text is no credential). */
const TO_BASE64 =
  /^[ \t]{0,16}(?:,[ \t]{0,16}["'][\w-]{1,16}["'][ \t]{0,16})?\)\.toString\([ \t]{0,16}["']base64/;

/**
 * The passwords of `user:password` literals given to a base64 encoder in `text` (see the module's
 * notes), when they are passwords: not a reference (`${pass}`), a placeholder (`password`) or a
 * URL's rest (`https://…`).
 *
 * @example
 * ```ts
 * import { findEncodedAuth } from "./_secret_rules_encoded_auth.ts";
 * findEncodedAuth('btoa("deploy:Tr0ub4dor!x9")'); // [{ start: 13, end: 25 }]
 * findEncodedAuth('btoa("hello world")'); // []
 * ```
 */
export function findEncodedAuth(text: string): Span[] {
  const out: Span[] = [];
  for (const encoder of ENCODERS) {
    for (let at = text.indexOf(encoder); at >= 0; at = text.indexOf(encoder, at + 1)) {
      PAIR_AT.lastIndex = at + encoder.length;
      const m = PAIR_AT.exec(text);
      const value = m?.groups?.v;
      if (!m || !value || value.startsWith("//") || REFERENCE.test(value)) continue;
      if (!passwordLike(value, true)) continue;
      if (
        encoder === "Buffer.from(" &&
        !TO_BASE64.test(text.slice(PAIR_AT.lastIndex, PAIR_AT.lastIndex + 64))
      ) {
        continue;
      }
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
  return out;
}
