/**
 * Short tokens (8 to 15 characters) under a name that ends in a token's or key's word
 * (`token: a8Kx29fPq`, `SLACK_TOKEN=4f9a8b7c6d`, `"accessKey": "Xk29fPq3Lm"`), for the
 * named-token rule (`_secret_rules_names.ts`). A short value reads as a word or a name far more
 * often than a long one does, so it is taken only when its characters are mixed as a generator
 * mixes them, not as words and numbers are joined (`v1-linux`, `OAuth2Token`, `build-2024`).
 *
 * @module
 */

import { digitMix, fewCharacters, isPlaceholder } from "./_secret_rules_common.ts";

/**
 * A name whose last word is `token`, `key` or `secret` (the named-token rule's look behind has
 * checked that it names a secret: `api_key`, `APP_KEY`, `slack_token`), not a public key's.
 */
const SHORT_TOKEN_NAME = /(?:token|key|secret)(?:(?:\\\\)?\\?["'])?\]?[ \t]{0,64}$/i;
const PUBLIC_NAME = /pub(?:lic)?[_.-]?key/i;

/**
 * A public key's name at the end of the text before an operator (`publicKey`, `PUBLIC_KEY`,
 * `pub_key`, `publicKeyHex`, `"public_key_der"`), or a fingerprint's (`publicKeyFingerprint`,
 * `cert_thumbprint`, a digest of a key): what it holds is public by name.
 */
export const PUBLIC_KEY_NAME: RegExp =
  /(?:pub(?:lic)?[_. -]?key(?:s|[_-]?(?:hex|der|pem|b64|base64|bytes|data|jwk))?|(?:finger|thumb)[_.-]?prints?(?:[_-]?(?:sha(?:1|256|512)?|md5|hex))?)(?:(?:\\\\)?\\?["'])?\]?[ \t]{0,64}$/i;

/**
 * The DER of a public key or a certificate in hex: a SEQUENCE that opens with a SEQUENCE and then
 * an OID (a SubjectPublicKeyInfo's algorithm) or a certificate's `[0]` version; a private key's
 * DER opens with its version, an INTEGER (`020100`).
 */
export const PUBLIC_DER_HEX: RegExp =
  /^30(?:[0-7][0-9a-f]|81[0-9a-f]{2}|82[0-9a-f]{4})30(?:[0-7][0-9a-f]|81[0-9a-f]{2}|82[0-9a-f]{4})(?:06|a0)/i;

/**
 * Whether `value` (8 to 15 characters) under `name` (the text before its operator) is a short
 * token: letters and digits (`_`, `-`), 2+ of each, mixed as a generator mixes them: upper and
 * lower case and digits with no word-like run (3 lower-case letters with a vowel, 3 capitals), or
 * hex in one case with 3+ changes between a letter and a digit, or 4+ such changes.
 *
 * @example
 * ```ts
 * import { shortToken } from "./_secret_rules_short.ts";
 * shortToken("a8Kx29fPq", "token"); // true
 * shortToken("v1-linux", "cache_key"); // false
 * ```
 */
export function shortToken(value: string, name: string): boolean {
  if (value.length < 8 || value.length > 15 || !/^[A-Za-z0-9_-]+$/.test(value)) return false;
  if (!SHORT_TOKEN_NAME.test(name) || PUBLIC_NAME.test(name)) return false;
  if (fewCharacters(value) || isPlaceholder(value)) return false;
  const { digits, changes } = digitMix(value);
  const letters = value.replace(/[^A-Za-z]/g, "").length;
  if (digits < 2 || letters < 2) return false;
  if (changes >= 4) return true;
  if (/^(?:[0-9a-f_-]+|[0-9A-F_-]+)$/.test(value)) return changes >= 3;
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && changes >= 2 &&
    !(value.match(/[a-z]{3,}/g) ?? []).some((run) => /[aeiouy]/.test(run)) &&
    !/[A-Z]{3}/.test(value);
}
