/**
 * The rule for generated values under names that mean a secret without a secret word (`secret_rules.ts`
 * is the public face): a pepper (Devise's `config.pepper`, a `PEPPER` setting), a signer (Joken's
 * `default_signer:`), a salt (Phoenix's `signing_salt:` and `encryption_salt:`, `SALT = …`). The
 * names are code's words too (`signer: MyApp.Signer`, `hashlib.pbkdf2_hmac(…, salt, …)`), so only
 * a generated literal under them counts: 32+ hex digits, or 20+ characters of letters and digits
 * mixed as a key generator mixes them. Looked for only in configuration files (see
 * {@linkcode CONFIG_PATH}).
 *
 * @module
 */

import { fewCharacters, looksGenerated } from "./_secret_rules_common.ts";

type Span = { start: number; end: number };

/**
 * The names' last words (`pepper`, `signer`, `salt`) in their three cases, not inside a longer
 * word (`peppercorn`, `saltire`).
 */
const WORD = /(?:[Pp]epper|PEPPER|[Ss]igner|SIGNER|[Ss]alt|SALT)(?![a-z])/g;
/**
 * After the word: the rest of its name (`_key_base`, `"`, `]`), the operator (`:`, `=`, `=>`,
 * `:=`), and a quoted literal (group `v`, its quote in `q`) or an unquoted value up to a blank.
 */
const VALUE_AFTER =
  /[A-Za-z0-9_]{0,64}["']?\]?[ \t]{0,16}(?:=>|:=|[:=])[ \t]{0,16}(?<q>["'`]?)(?<v>[A-Za-z0-9+/=_.~-]{20,512})\k<q>(?![A-Za-z0-9+/=_.~-])/dy;

/**
 * The files these names hold their values in: configuration (a `config` or `settings` file or
 * folder, `.env`, YAML, TOML, INI, properties, JSON) and the languages whose configuration is code
 * (Ruby's initializers, Elixir's `config/*.exs`, PHP). Elsewhere the words are code's (a source
 * file's search for them would cost the scan more than all its other name searches: see
 * bench/README.md, fourteenth session).
 */
const CONFIG_PATH =
  /(?:^|\/)(?:[^\/]{0,128}(?:config|settings|secrets?|credentials|initializers)[^\/]{0,128}\/.{0,1024}|[^\/]{0,128}(?:config|settings|secrets?|credentials)[^\/]{0,128}|\.env[^\/]{0,128}|[^\/]{0,128}\.(?:ya?ml|toml|ini|cfg|conf|properties|json|rb|exs?|php|env))$/i;

/**
 * Whether `value` reads as generated: 32+ hex digits, or letters and digits mixed as a generator
 * mixes them (not a stand-in of few characters).
 */
function generatedSecret(value: string): boolean {
  if (fewCharacters(value)) return false;
  if (/^[0-9a-f]{32,}$|^[0-9A-F]{32,}$/.test(value)) return true;
  // (mixed as a generator mixes, not words joined: `HS256_default_signer_name` stays)
  return looksGenerated(value);
}

/**
 * The generated values under a pepper's, a signer's or a salt's name in `text`.
 *
 * @example
 * ```ts
 * import { findKeyingNames } from "./_secret_rules_key_names.ts";
 * findKeyingNames("config.pepper = '4dac1e76562939ea333df3c6d3652ee2'", undefined, "devise.rb");
 * // [{ start: 17, end: 49 }]
 * findKeyingNames("config :joken, default_signer: MyApp.Signer"); // []
 * ```
 */
export function findKeyingNames(text: string, _hints?: unknown, path?: string): Span[] {
  const out: Span[] = [];
  if (path === undefined || !CONFIG_PATH.test(path)) return out; // (as the rules by file name)
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    VALUE_AFTER.lastIndex = m.index + m[0].length;
    const v = VALUE_AFTER.exec(text);
    if (!v || !generatedSecret(v.groups!.v)) continue;
    const [start, end] = v.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}
