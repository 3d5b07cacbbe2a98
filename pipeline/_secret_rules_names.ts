/**
 * The rules for values under a secret's name (`secret_rules.ts` is the public face): hex values and
 * key maps (`hex-secret`, `key-map`), tokens (`named-token`) and passwords (`named-password`), each
 * tried only where a name's operator may be (`nameSpots`).
 *
 * @module
 */

import {
  alphabetRun,
  anyCase,
  echoesName,
  fewCharacters,
  isPlaceholder,
  LONG_QUOTED,
  LONG_TOKEN,
  LONG_UNQUOTED,
  looksGenerated,
  looksRandom,
  markedKey,
  nameBefore,
  type NameSpots,
  PLACEHOLDER,
  randomLetters,
  runEnd,
  testValue,
  type TextHints,
  withoutFullStops,
} from "./_secret_rules_common.ts";
import { PUBLIC_DER_HEX, PUBLIC_KEY_NAME, shortToken } from "./_secret_rules_short.ts";
import { codeByPlace, codeExpression, codeType, shellComparison } from "./_secret_rules_code.ts";

/**
 * A secret-like name (`…SECRET…`, `…KEY…`, `…TOKEN…`, passwords, credentials)
 * assigned a hex value of 32+ digits (group 1) or a map (the match ends at its `{`): the name,
 * `[A-Za-z0-9_]*["']?\s*`, the operator, then the value. It is looked for from the operator, not
 * from the name: a lookahead checks that a value follows, then a lookbehind that a name precedes.
 * Words that start like a name (`t`, `s`, `c`, `p`, `k`) are everywhere, a `:` or `=` followed by
 * such a value is rare, so the search stops at far fewer places.
 * A match starts at its operator, not at the name; its end and group 1 are those of
 * {@linkcode NAMED_VALUE_SPEC}, the plain spelling (a test compares the two): the name cannot
 * reach back into the match before, which ends at a `{` or after hex digits (no name is made of
 * hex digits).
 *
 * @example
 * ```ts
 * import { NAMED_VALUE } from "./secret_rules.ts";
 * const [m] = `API_SECRET=${"4d".repeat(16)}`.matchAll(NAMED_VALUE);
 * m[1]; // "4d4d…" (32 digits), m.index: 10 (the "=")
 * ```
 */
export const NAMED_VALUE: RegExp = new RegExp(
  `(?=(?::|=>|=)\\s*(?:(?:\\\\\\\\)?\\\\?["']?[0-9a-fA-F]{32}|(?:\\\\\\\\)?\\\\?['"]?\\{))` +
    `(?<=(?:secret|key|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*(?:\\\\\\\\)?\\\\?["']?\\s*)` +
    `(?::|=>|=)\\s*(?:(?:\\\\\\\\)?\\\\?["']?([0-9a-fA-F]{32,})(?![A-Za-z0-9_])|(?:\\\\\\\\)?\\\\?['"]?\\{)`,
  "gi",
);

/**
 * {@linkcode NAMED_VALUE} spelled plainly, from the name on: the rule as it reads, for the test
 * and the benchmark that check the faster spelling against it.
 *
 * @example
 * ```ts
 * import { NAMED_VALUE_SPEC } from "./secret_rules.ts";
 * const [m] = `API_SECRET=${"4d".repeat(16)}`.matchAll(NAMED_VALUE_SPEC);
 * m.index; // 4 (the name: "SECRET")
 * ```
 */
export const NAMED_VALUE_SPEC: RegExp =
  /(?:secret|key|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*(?:\\\\)?\\?["']?\s*(?::|=>|=)\s*(?:(?:\\\\)?\\?["']?([0-9a-fA-F]{32,})(?![A-Za-z0-9_])|(?:\\\\)?\\?['"]?\{)/gi;

export const MAP_VALUE: RegExp = /"[^"\\\n]{1,200}"\s*:\s*"([^"\\\n]{8,})"/g;
/** Longest JSON map (in characters) the key-map rule looks into. */
const MAX_MAP = 64 * 1024;

/**
 * Hex values of 32+ digits assigned to a secret-like name (`API_SECRET=4dac…`,
 * rule `hex-secret`), and the string values of a JSON map assigned to one
 * (`LLM_API_KEY_MAP={"together":"…"}`, rule `key-map`) that look like keys:
 * 8+ characters without blanks, with letters and digits (a map of words,
 * such as `KEYWORDS = {"if": "keyword if"}`, keeps its values). One pass.
 */
export function findNamedValues(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  const matches = [...matchesAt(NAMED_VALUE_AT, text, namesOf(text, hints).valueOperators)];
  // The `{` of each map under a name of its own, all matched in one pass.
  const opens = matches.flatMap((m) =>
    !m[1] && ownName(text, m.index) && wordEnds(text, m.index) ? [m.index + m[0].length - 1] : []
  );
  const closes = opens.length ? braceMatches(text, opens) : undefined;
  for (const m of matches) {
    const end = m.index + m[0].length;
    // A public key's value is public (`publicKey: "04…"`, a SubjectPublicKeyInfo's DER in hex).
    if (PUBLIC_KEY_NAME.test(nameBefore(text, m.index))) continue;
    if (m[1]) {
      // One digit repeated (`"0000…"`) is a placeholder of a key's length, not a key.
      if (!PUBLIC_DER_HEX.test(m[1]) && !oneDigit(m[1]) && !periodic(m[1])) {
        out.push({ start: end - m[1].length, end, rule: "hex-secret" });
      }
      continue;
    }
    const open = end - 1;
    const close = closes?.get(open) ?? -1;
    if (close < 0) continue;
    const body = text.slice(open, close + 1);
    // A map that says it is a public key (`"type": "EcPublicKey"`, Wycheproof's test vectors)
    if (PUBLIC_TYPE.test(body)) continue;
    for (const v of body.matchAll(MAP_VALUE)) {
      if (!KEY_LIKE.test(v[1]) || isPlaceholder(v[1]) || wordsJoined(v[1])) continue;
      // A member that names or describes its entry (`"name": "allow_policy_1"`) holds no key, nor
      // a package's in a lockfile (`"gtoken": { "resolved": "https://…", "integrity": "sha512-…" }`).
      const member = v[0].slice(1, v[0].indexOf('"', 1));
      if (LABEL_MEMBER.test(member) || PACKAGE_MEMBER.test(member)) continue;
      const at = open + v.index! + v[0].lastIndexOf(`"${v[1]}"`) + 1;
      // Laravel's `base64:` says how the key is written: not part of it
      const skip = v[1].startsWith("base64:") ? 7 : 0;
      out.push({ start: at + skip, end: at + v[1].length, rule: "key-map" });
    }
  }
  return out;
}

/**
 * Whether the name before an operator at `at` is a name of its own, not the end of a path or a
 * package name (`"node_modules/eslint-visitor-keys": {` in a lockfile).
 */
function ownName(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && i > at - 20 && /[\s"']/.test(text[i - 1])) i--;
  while (i > 0 && /[A-Za-z0-9_]/.test(text[i - 1]) && i > at - 300) i--;
  return i === 0 || !/[-/.@]/.test(text[i - 1]);
}

/** The secret words of a name (`key` of `keyMap`, `TOKEN` of `API_TOKENS`). */
const SECRET_WORD = /(?:secret|key|token|passw(?:or)?d|pwd|credential)/gi;

/**
 * Whether the name before the operator at `at` holds a secret word that ends there, or goes on
 * only as a plural (`keys`, `API_KEYS`) or with a word of its own (`keyMap`, `KEY_MAP`): not
 * only as the start of another word (`keyv`, `keyboard`, `tokenizer`, `KEYWORDS`), whose map is
 * a package's entry in a lockfile or a table of words, not of keys.
 */
function wordEnds(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && i > at - 20 && /[\s"'\\]/.test(text[i - 1])) i--;
  const end = i;
  while (i > 0 && /[A-Za-z0-9_]/.test(text[i - 1]) && i > at - 300) i--;
  const name = text.slice(i, end);
  for (const m of name.matchAll(SECRET_WORD)) {
    const rest = name.slice(m.index + m[0].length);
    const cased = /[a-z]/.test(m[0][m[0].length - 1]) ? /[a-z]/ : /[A-Z]/;
    if (!cased.test(rest[0] ?? "")) return true;
    if (/^[sS]/.test(rest) && !cased.test(rest[1] ?? "")) return true;
  }
  return false;
}

/** A map's member that says it holds a public key: `"type": "EcPublicKey"`. */
const PUBLIC_TYPE = /"type"\s{0,16}:\s{0,16}"[A-Za-z0-9 _-]{0,32}Public ?Key/i;

/** A lockfile's member of a package's entry: where it came from and its checksum. */
const PACKAGE_MEMBER = /^(?:version|resolved|integrity|tarball|shasum|checksum)$/;

/** A map member's name that names or describes its entry: `"name"`, `"title"`, `"type"`, … */
const LABEL_MEMBER = /^(?:name|title|label|description|display_?name|type|kind)$/i;

/**
 * Whether `value` is words and numbers joined by `_`, `-` or `.` (`allow_policy_1`,
 * `path-foo-2024`): two or more words of 3+ letters with a vowel, the other parts short numbers
 * or such words; a name, not a key. A key mixes digits into its parts (`k3x_Qz9pW2_…`).
 */
function wordsJoined(value: string): boolean {
  const parts = value.split(/[-_.]/);
  let words = 0;
  for (const part of parts) {
    if (/^[0-9]{1,8}$/.test(part)) continue;
    if (!/^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)$/.test(part) || !/[aeiouyAEIOUY]/.test(part)) return false;
    if (part.length >= 3) words++;
  }
  return words >= 2;
}

/** A map value that looks like a key: no blanks, a letter and a digit. */
const KEY_LIKE = /^(?=[^0-9]*[0-9])(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9_\-.~+/=:]+$/;

/**
 * The matching `}` of each `{` at `opens` (ascending; by depth, as counted in one pass), when it
 * is at most {@linkcode MAX_MAP} characters on: one pass for every map of a text, where a count
 * from each `{` read up to 64K characters for each (`k={k={…`: quadratic). The pass starts at the
 * first of them (the braces before it cannot pair with one after it that is not paired before)
 * and stops when every one is matched or 64K characters past the last: a file of code holds
 * thousands of braces and a name's map or two.
 */
function braceMatches(text: string, opens: number[]): Map<number, number> {
  const wanted = new Set(opens);
  const closes = new Map<number, number>();
  const last = opens[opens.length - 1];
  const open: number[] = [];
  for (let i = opens[0]; i < text.length && i - last < MAX_MAP && closes.size < wanted.size; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) open.push(i);
    else if (c === 125 && open.length) {
      const from = open.pop()!;
      if (i - from < MAX_MAP && wanted.has(from)) closes.set(from, i);
    }
  }
  return closes;
}

/** Names that hold secrets (matched case-insensitively, anywhere in the name). */
const SECRET_NAME = anyCase(
  "(?:secret|token|passw(?:or)?d|pwd|passphrase|credential|auth|bearer|" +
    "(?:api|access|private|client|master|signing|encryption|account|storage|app|preshared|functions?)" +
    "[_.-]?key|apikey|" +
    // (a name of two words in prose or a comment: `secret key: …`, `Storage account key: …`)
    "(?:secret|api|access|private|client|master|signing|encryption|account|storage|app)[ ]key)",
);

export const OP = "(?::=|=>|=|:)";
/**
 * A line that starts a key of its own: a plain key (`  hashed: …`) or a quoted one (`"k": …`).
 * A plain key holds no quote nor bracket, so a value that ends a call (`"hunter2Xy9"):`) or a
 * quoted string followed by more than its `:` is not one.
 */
const OWN_KEY =
  "(?:[^\\s:\"'`()\\[\\]{},]{1,64}|\"[^\"\\r\\n]{1,64}\"|'[^'\\r\\n]{1,64}'):(?:\\s|$)";
/**
 * Between an operator and its value: blanks (and a YAML anchor, `!!str` or Ansible's `!unsafe`
 * tag), or a YAML block scalar's header and indent, or a
 * line end and an indent (a YAML value on the line after its key: `password:` then `  S3cr3t9`;
 * an argument on the line after its name: `connect(password=` then `  "…")`), unless that line is
 * a list entry, a comment, blank, or a key of its own ({@linkcode OWN_KEY}), or a `\` line
 * continuation and the next line, indented or not (`api_key = \` then `"…"`).
 */
export const GAP =
  "[ \\t]{0,16}(?:(?<=:[ \\t]{1,16})(?:&[A-Za-z0-9_-]{1,64}|!!str|!unsafe)[ \\t]{1,16})?" +
  "(?:[|>][-+1-9]{0,2}[ \\t]{0,16}\\r?\\n[ \\t]{0,64}|" +
  `(?:\\\\\\r?\\n[ \\t]{0,64}|\\r?\\n[ \\t]{1,64})(?![-#\\s]|${OWN_KEY}))?`;
const TOKEN = "[A-Za-z0-9_\\-.~+/]";
/**
 * The quotes that open a value: none, one, a triple (`"""`, `'''`), each maybe escaped (`\\"`
 * in a JSON string that holds code: a notebook's cell source).
 */
const QUOTE = "(?:(?:\\\\\\\\)?\\\\?[\"'`]|&quot;|&#3[49];){0,3}";
/** After a triple quote, a line end: TOML's multi-line strings (`key = """` then the value). */
const TRIPLE_BREAK = "(?:(?<=[\"']{3})\\r?\\n)?";
/**
 * A string literal's prefix before its quote: Objective-C's and C#'s `@"…"` (and `$"…"`, `@$"…"`),
 * Python's `r"…"`, `u"…"`, `b"…"`, `f"…"`, C++'s `L"…"`, `u8"…"`, `R"…"`, Rust's `r#"…"#`, Erlang's
 * and Elixir's binaries (`<<"…">>`), Julia's `raw"…"`, Scala's interpolated `s"…"`, Rust's
 * `String::from("…")`, Go's conversion to bytes (`[]byte("…")`, a signing key's
 * usual spelling: `var jwtSecret = []byte("…")`), Python's parentheses around a value (`SECRET_KEY
 * = ('…')`, or `(` then the literals on the lines after: a long key's usual spelling).
 */
const STRING_PREFIX =
  '(?:(?:@\\$?|\\$@?|u8|r#|<<|raw|[rRuUbBfFLs])(?=["\'])|\\[\\]byte\\((?=["\'`])|String::from\\((?=")|' +
  "\\((?:[ \\t]{0,16}\\r?\\n[ \\t]{0,64})?(?=[\"']))?";
/** A quote (maybe escaped) that closes a name: `"api_key": …`, `\\"api_key\\": …`. */
export const NAME_QUOTE = "(?:(?:\\\\\\\\)?\\\\?[\"'])?";

/**
 * A value assigned to a secret-looking name, in any common syntax: `.env`
 * and shell (`export API_TOKEN=…`), YAML (`auth_token: …`, quoted or in a
 * block scalar), JSON (`"apiKey": "…"`), TOML and INI (`key = "…"`), and
 * literals in Python, JS/TS, Go (`:=`), Ruby (`=>`), Java, also as a subscript
 * (`SETTINGS["api_token"] = …`, `CONFIG[:api_token] = …`). It is looked for
 * from the operator (a lookahead checks that a token follows, then a
 * lookbehind that a name precedes): operators followed by a token are rare
 * in code, names that start like these are everywhere. Groups: `q` the
 * opening quote, `b` a `Bearer ` prefix (or Laravel's `base64:`), `v` the value: 8+ token
 * characters (under 16, only a short `user:password` in base64, `.npmrc`'s `_auth`, and a short
 * token written as a value, `_secret_rules_short.ts`, are taken).
 */
/**
 * An HTTP authorization scheme before a token: `Bearer`, `Basic`, `Token`, and services' own
 * (Okta's `SSWS`, Splunk's HEC `Splunk`, Elastic's `ApiKey`, Discord's `Bot`, Opsgenie's
 * `GenieKey`, `OAuth`, DeepL's `DeepL-Auth-Key`, Klaviyo's `Klaviyo-API-Key`, Zoho's
 * `Zoho-oauthtoken`, `Key`, Fly.io's `FlyV1`).
 */
const SCHEME =
  "(?:[Bb]earer|[Bb]asic|[Tt]oken|SSWS|Splunk|ApiKey|Bot|GenieKey|OAuth|DeepL-Auth-Key|Klaviyo-API-Key|Zoho-oauthtoken|Key|FlyV1)";
/**
 * A URL's query parameter that holds a key with no secret word in its name: `?code=` (an Azure
 * Function's key), `?key=` (an API's key): a value of 20+ characters under it is judged as a token.
 */
const QUERY_NAME = "[?&](?:code|key)";
/** A name that is {@linkcode QUERY_NAME}, before its `=`. */
export const QUERY_NAME_END: RegExp = new RegExp(`${QUERY_NAME}$`);
export const NAMED_TOKEN: RegExp = new RegExp(
  `(?=(?:${OP}|>)${GAP}${STRING_PREFIX}${QUOTE}${TRIPLE_BREAK}(?:${SCHEME}[ \\t]{1,4}|base64:)?${TOKEN}{8})` +
    `(?<=${SECRET_NAME}[A-Za-z0-9_.-]{0,40}${NAME_QUOTE}\\]?[ \\t]{0,16}|${QUERY_NAME})` +
    `(?:${OP}|>)${GAP}${STRING_PREFIX}(?<q>${QUOTE})${TRIPLE_BREAK}(?<b>(?:${SCHEME}[ \\t]{1,4}|base64:)?)` +
    // a URL's percent-escapes of a base64 token's `+`, `/` and `=` (`…%2B…%3D`, in a query)
    `(?<v>(?:${TOKEN}|%(?:2[BbFf]|3[Dd])){8,1024}={0,2})`,
  "g",
);

/**
 * Whether the value of an assignment, from `text[at]` on, ends as it must: at its closing quote
 * `q` (the same quotes, escaped alike: `\\"` in a JSON string of code), or, unquoted, at a blank,
 * the line's end, a separator (`,;)}]#`, `&` of a query string, `<` of an XML element), the
 * quote or escape of a string it sits in (`"API_TOKEN=…"` in a compose list, `…\\n"` in a notebook)
 * or the `@` before a host (`TOKEN@deno.land`).
 */
function endsValue(text: string, at: number, q: string): boolean {
  if (q.length === 3 && (text[at] === "\n" || text[at] === "\r")) {
    return text.startsWith(q, at + (text.startsWith("\r\n", at) ? 2 : 1));
  }
  if (q) return text.startsWith(q, at);
  if (text[at] === "@") return TOKEN_AT_HOST.test(text.slice(at, at + 300));
  return at >= text.length || UNQUOTED_END.test(text[at]);
}
const UNQUOTED_END = /[\s,;)}\]#&<"'`\\]/;
/** After a number and `:`, its secret: 20 to 256 token characters. */
const ID_SECRET = /:[A-Za-z0-9_-]{20,256}/y;

/**
 * Where a value that is a number (`v`, ending at `end`) ends when a `:` and a secret follow it (a
 * Telegram bot's `123456789:…` under `bot_token`), and how many of its characters are the number
 * and its `:` (none when no secret follows).
 */
function idSecretEnd(text: string, end: number, v: string): [number, number] {
  if (text.charCodeAt(end) !== 58 || !/^[0-9]{5,16}$/.test(v)) return [end, 0];
  ID_SECRET.lastIndex = end;
  const r = ID_SECRET.exec(text);
  return r ? [end + r[0].length, v.length + 1] : [end, 0];
}
/**
 * A host after a token's `@` (Deno's `DENO_AUTH_TOKENS=TOKEN@deno.land;…`, a registry's
 * `TOKEN@host:port`): the token ends there.
 */
const TOKEN_AT_HOST =
  /^@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}(?::[0-9]{1,5})?(?:[\s;,"'`]|$)/;

/**
 * Whether `value` is HTTP Basic credentials: base64 of `user:password` (printable ASCII, blanks in
 * the password: `Aladdin:open sesame`), so that the bytes of a random token seldom pass for them.
 */
function isBasicCredentials(value: string): boolean {
  try {
    return /^[\x21-\x39\x3b-\x7e]{0,128}:[\x20-\x7e]{4,}$/.test(atob(value));
  } catch {
    return false;
  }
}

/**
 * A name of an id in camel case (`credentialsId`, `<UserSecretsId>`): a generated value under it
 * names a thing. Not `secretId` (a Vault AppRole's secret) nor `SECRET_ID`.
 */
const ID_NAME = /(?<![Ss]ecret)(?<=[a-z])Id(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/;
const AWS_SECRET_NAME = /secret[_.-]?access[_.-]?key|aws[_.-]?secret/i;
/** A name that ends in `auth` (`_auth`, `"auth"`): its value may be base64 of `user:password`. */
const AUTH_NAME = /auth(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/i;
const AZURE_SECRET = /^[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}$/;
const JWT = /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
/**
 * Provider tokens that are named by their shape under a name, as a JWT is: their prefix has no
 * separator a hint could start from (`dapi…`, `pat….…`), or a `.` (`dp.pt.…`, `ya29.…`, which the
 * prefixed tokens' hint does not look for: the `.` of code is everywhere, too many places to look
 * behind). With no name around them, only secretlint's Databricks rule finds one.
 */
const NAMED_SHAPES: Array<[RegExp, string]> = [
  [/^dapi[a-f0-9]{32}(?:-[0-9])?$/, "databricks"],
  [/^pat[A-Za-z0-9]{14}\.[a-f0-9]{64}$/, "airtable"],
  [/^[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}$/, "hashicorp"],
  [/^dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}$/, "doppler"],
  [/^dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}$/, "dynatrace"],
  [/^ya29\.[A-Za-z0-9_-]{30,2048}$/, "google-oauth"],
  [/^(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}$/, "harness"],
  [/^1000\.[a-f0-9]{32}\.[a-f0-9]{32}$/, "zoho"],
  // Vault tokens: `hvs.`, `hvb.`, `hvr.` (1.10 on); `s.`, `b.`, `r.` and 24 characters before,
  // with a digit and both cases (`s.accessTokenFromReply` is a member of code)
  [/^hv[sbr]\.[A-Za-z0-9_-]{24,512}$/, "hashicorp-vault"],
  [
    /^[sbr]\.(?=[A-Za-z]*[0-9])(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])[A-Za-z0-9]{24,64}$/,
    "hashicorp-vault",
  ],
  // a Kubernetes bootstrap token (`kubeadm token create`): 6 and 16 of `[a-z0-9]`, a digit after
  [/^[a-z0-9]{6}\.(?=[a-z]*[0-9])[a-z0-9]{16}$/, "kubernetes-token"],
];

/**
 * A token made to be sent to browsers, by its prefix: Mapbox's public `pk.eyJ…` (its secret
 * tokens start `sk.eyJ`).
 */
const BROWSER_TOKEN = /^pk\.eyJ/;

/**
 * A path of three or more names, each words in camel case with at most three digits after them,
 * or a number (`traefik/tls/options/Options0/clientAuth/caFiles/0`, a key-value store's key). A
 * base64 secret's parts mix case and digits within their words (`wJalrXUtnFEMI/K7MDENG/…`).
 */
const STORE_PATH =
  /^(?:(?:[a-z]{1,32}|[A-Z][a-z]{1,32})(?:[A-Z][a-z]{1,32}){0,8}[0-9]{0,3}|[0-9]{1,3})(?:\/(?:(?:[a-z]{1,32}|[A-Z][a-z]{1,32})(?:[A-Z][a-z]{1,32}){0,8}[0-9]{0,3}|[0-9]{1,3})){2,16}$/;

/** Values under a token's name that are not a token, whatever their characters. */
function notATokenValue(value: string, { name, q, b }: { name: string; q?: string; b?: string }) {
  // `=` pads base64 only at its end
  if (/=[^=]/.test(value)) return true;
  if (BROWSER_TOKEN.test(value)) return true;
  // The alphabet written out, forwards or backwards (`ponmlkjihgfedcba…`): a test's stand-in
  if (alphabetRun(value)) return true;
  // An object named as itself (WinForms' designer: `txtSecretKey.Name = "txtSecretKey"`), or
  // code that sets a name to itself negated (`aResultToken.value_int64 = -aResultToken.…`)
  const path = /([A-Za-z_$][\w$.]{0,255})[\s"'\]]{0,64}$/.exec(name)?.[1];
  const bare = q ? value : value.replace(/^[-!~]/, "");
  if (path && (path === bare || path.split(".").includes(bare))) return true;
  // an OpenPGP message (Renovate's `encrypted` tokens): encrypted, no secret in the clear
  if (value.length > 84 && /^(?:wc|wV|hQ)/.test(value) && isPlaceholder(value)) return true;
  // A key-value store's path of names (`traefik/tls/options/Options0/clientAuth/caFiles/0`)
  if (STORE_PATH.test(value)) return true;
  // A number literal of code (`FunctionKeySeed = 0x4675…`), not a value of a data file
  if (!q && /^0[xX][0-9A-Fa-f]+$/.test(value)) return true;
  // A query's `?key=` or `?code=`: a key of 20+ characters with digits, not letters alone; or
  // shorter, mixed as a generator mixes them (`?code=S47Qk7uWomoLZM`, not `?code=SUMMER2024`)
  return QUERY_NAME_END.test(name) &&
    (!!b || !/[0-9]/.test(value) ||
      value.length < 20 && !shortToken(value, "token") && !looksGenerated(value));
}

/**
 * Whether the value `value` of the assignment at `at` repeats the end of the name its line
 * declares first: Go's string enums name a constant after its type and value
 * (`ReasonConfigNotInWellKnown Reason = "ConfigNotInWellKnown"`), so the value is a label.
 */
function ownNameEnd(text: string, at: number, value: string): boolean {
  if (value.length < 8) return false;
  const first = /^[ \t]{0,64}([A-Za-z_$][\w$]{0,255})/.exec(lineBefore(text, at))?.[1];
  return !!first && first.length > value.length && first.endsWith(value);
}

/** Files of languages in which an unquoted word is a name of code, never a value. */
const SOURCE_FILE =
  /\.(?:go|java|kt|kts|scala|groovy|cs|fs|c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm|rs|swift|dart|ts|tsx|mts|cts|js|jsx|mjs|cjs|py|rb|php|lua)$/i;

/**
 * Whether `value` is words joined as a name of code joins them (`TLessThanLessThan`,
 * `TokenKindOpenBracket`): three or more parts at each change to upper case, each a word with a
 * vowel (capitalised or not) or a capital or an acronym of up to five. Random letters cut so leave
 * parts with no vowel (`kXqPzRtW…`: `k`, `Xq`, `Pz`, …).
 */
function wordsOfCode(value: string): boolean {
  const parts = value.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
  return parts.length >= 3 &&
    parts.every((part) =>
      /^[A-Z]{1,5}$/.test(part) || /^[A-Z]?[a-z]{0,64}[aeiouy][a-z]{0,64}$/.test(part)
    );
}

/** `value` with its `%2B`, `%2F` and `%3D` read as the `+`, `/` and `=` they stand for. */
function unescapePercents(value: string): string {
  return value.replace(/%(2[BbFf]|3[Dd])/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The rule of a short value (under 16 characters) under a secret's name: base64 of
 * `user:password` under an `auth` name (`.npmrc`'s `_auth = …`), or a token's mix of characters
 * `written` as a value is (quoted, `NAME=…`, a line of its own); none otherwise.
 */
function shortTokenRule(
  judged: string,
  { name, written }: { name: string; written: () => boolean },
): string | undefined {
  if (AUTH_NAME.test(name) && isBasicCredentials(judged)) return "basicauth";
  const token = shortToken(judged, QUERY_NAME_END.test(name) ? "token" : name) &&
    !ID_NAME.test(name) && !PASSWORD_NAME_END.test(name);
  return token && written() ? "named-secret" : undefined;
}

/**
 * Values assigned to secret-looking names ({@linkcode NAMED_TOKEN}), each
 * named by its shape: an AWS secret access key (40 base64 characters under
 * an AWS secret name), a JWT, a `Bearer` token, an Azure client secret, a
 * Twilio auth token, or any random-looking token of 20+ characters (upper
 * case, lower case and digits). Hex values are left to `hex-secret`.
 */
export function findNamedTokens(
  text: string,
  hints?: TextHints,
  path = "",
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  for (const m of matchesAt(NAMED_TOKEN_AT, text, namesOf(text, hints).operators)) {
    const { q, b, v } = m.groups!;
    const start = m.index! + m[0].length - v.length;
    // A value as long as the pattern reads (an AWS session token) goes on to its end.
    const run = v.length < 1024 ? start + v.length : runEnd(LONG_TOKEN, text, start + v.length);
    // A bot's or client's number, `:` and its secret (`123456789:…`): one value, the secret judged
    const [end0, id] = idSecretEnd(text, run, v);
    let value = text.slice(start, end0);
    // The value ends at its closing quote, or (unquoted) at a blank, a separator or the line's end.
    if (!endsValue(text, end0, q)) continue;
    const name = nameBefore(text, m.index!);
    // judged with a URL's percent-escapes read (`%3D` is a base64 token's `=`)
    const judged = value.includes("%") ? unescapePercents(value.slice(id)) : value.slice(id);
    if (notATokenValue(judged, { name, q, b }) || ownNameEnd(text, m.index!, judged)) continue;
    // A public key, by its name or its DER (a provider's token keeps its shape's rule)
    const isPublic = PUBLIC_KEY_NAME.test(name) || PUBLIC_DER_HEX.test(judged) ||
      publicPemBase64(judged);
    let rule: string | undefined;
    if (judged.length < 16) {
      rule = shortTokenRule(judged, { name, written: () => lettersValue(text, m.index!, end0, q) });
    } else if (b === "base64:") {
      // a key written `base64:…` (Laravel's `APP_KEY`): base64 of random bytes
      if (!fewCharacters(judged)) rule = "named-secret";
    } else if (AWS_SECRET_NAME.test(name) && /^[A-Za-z0-9/+]{40}$/.test(judged)) rule = "aws";
    else if (JWT.test(judged)) rule = "jwt";
    else if (NAMED_SHAPES.some(([shape]) => shape.test(judged)) && !fewCharacters(judged)) {
      rule = NAMED_SHAPES.find(([shape]) => shape.test(judged))![1];
    } else if (AZURE_SECRET.test(judged)) rule = "azure";
    else if (/twilio/i.test(name) && /^[0-9a-f]{32}$/.test(judged)) rule = "twilio";
    else if (isPublic) continue;
    else if (/^[0-9a-fA-F]+$/.test(judged)) {
      // Hex: `hex-secret`, as NAMED_VALUE names it (which misses Go's `:=` and a YAML block)
      if (judged.length < 32 || oneDigit(judged)) continue;
      rule = "hex-secret";
    } else if (/^[Bb]asic/.test(b) && isBasicCredentials(judged)) rule = "basicauth";
    else if (b && judged.length >= 20 && /[0-9]/.test(judged) && !isPlaceholder(judged)) {
      rule = "bearer";
    } else if ((looksRandom(judged) || looksGenerated(judged)) && !ID_NAME.test(name)) {
      rule = "named-secret";
    } else if (AUTH_NAME.test(name) && isBasicCredentials(judged)) rule = "basicauth";
    else if (
      randomLetters(judged) && lettersValue(text, m.index!, end0, q) && !ID_NAME.test(name) &&
      !(!q && SOURCE_FILE.test(path) && wordsOfCode(judged))
    ) {
      // random letters alone, quoted, written `NAME=kXqPz…` or on a line of their own
      // (`token: kXqPzRtW…`): unquoted elsewhere, a run of letters is a name of code
      rule = "named-secret";
    }
    if (!rule) continue;
    value = withoutFullStops(value); // a sentence's full stop is not part of it
    out.push({ start, end: start + value.length, rule });
  }
  return out.concat(keyNamedTokens(text, namesOf(text, hints).operators));
}

/**
 * Random letters with two digits at most among them (`RduvKBn7fHjLbTjP…`, 24+ characters): a
 * generator's key that {@linkcode looksGenerated} passes by for its few digits, read as
 * {@linkcode randomLetters} reads letters alone (without its digits and token marks); a name of
 * code with a digit (`userProfile2Settings`) reads as words.
 */
function fewDigitsRandom(value: string): boolean {
  if (value.length < 24 || value.replace(/[^0-9]/g, "").length > 2) return false;
  return randomLetters(value.replace(/[0-9+/_=-]/g, ""));
}

/**
 * A name whose last word is `key` with no secret word before it (`SENDGRID_KEY`, `jwtKey`, a map's
 * `"Key"` under `"Jwt": {`: the map's name and `Key` name the secret), before its operator.
 */
export const KEY_NAME_END: RegExp =
  /(?:(?<![A-Za-z])(?:key|KEY|Key)|(?<=[a-z0-9])Key)(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/;
/** A name that {@linkcode NAMED_TOKEN} reads: its value is judged there. */
export const NAMED_TOKEN_NAME_END: RegExp = new RegExp(
  `${SECRET_NAME}[A-Za-z0-9_.-]{0,40}${NAME_QUOTE}\\]?[ \\t]{0,16}$`,
);
/** An operator, blanks, maybe a quote, and a token of 20 to 1024 characters (base64 too). */
const KEY_VALUE_AT =
  /(?::=|=>|=|:)[ \t]{0,16}(?:\[\]byte\((?=["'`]))?(?<q>\\?["'`]?)(?<v>[A-Za-z0-9+/_-]{20,1024}={0,2})/y;
/**
 * Whether `value` counts as a stand-in counts (`a1b2c3d4e5f6…`, `abcdef123456…`): its letters, or
 * its digits, read in order, hold a run of 6 of the alphabet or of the digits: 4 in 100,000
 * random keys of 44 base64 characters do.
 */
function counts(value: string): boolean {
  const run = (chars: string) => {
    let n = 1;
    for (let i = 1; i < chars.length && n < 6; i++) {
      n = chars.charCodeAt(i) === chars.charCodeAt(i - 1) + 1 ? n + 1 : 1;
    }
    return n >= 6;
  };
  return run(value.toLowerCase().replace(/[^a-z]/g, "")) || run(value.replace(/[^0-9]/g, ""));
}
/**
 * A key made to be given to a browser or sent in the clear, by its name: Stripe's and Clerk's
 * `publishableKey`, Web Push's public key (`vapidKey`, `applicationServerKey`; not
 * `vapidPrivateKey`), a request's nonce (`Sec-WebSocket-Key`, `Idempotency-Key`).
 */
const CLIENT_KEY =
  /(?:publishable|vapid|application[_-]?server|websocket|idempotency)[_.-]?key(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/i;
/** A publishable key by its prefix (Stripe's, Clerk's), under any name: `pk_live_…`, `pk_test_…`. */
const PUBLISHABLE_VALUE = /^pk_(?:live|test)_/;
/** A path of names (`Uploads/User123/Profile`): an object's key in a store, not a secret. */
const PATH_OF_NAMES = /^[A-Za-z][a-z0-9_-]*(?:\/[A-Za-z][a-z0-9_-]*)+$/;

/**
 * Generated keys under a name whose last word is `key` but that holds no secret word of
 * {@linkcode NAMED_TOKEN}'s (`"Jwt": {"Key": "…"}`, `SENDGRID_KEY=…`): both cases and digits
 * mixed as a generator mixes them ({@linkcode looksGenerated}), quoted or written as a value. Hex
 * (a hash under `cache_key`), words, paths of an object store (`"Key": "uploads/…"`, which hold a
 * `.` or read as names), a public key's value and code stay.
 */
function keyNamedTokens(
  text: string,
  operators: number[],
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  for (const at of operators) {
    KEY_VALUE_AT.lastIndex = at;
    const m = KEY_VALUE_AT.exec(text);
    if (!m) continue;
    const { q, v } = m.groups!;
    const end = at + m[0].length;
    if (q ? !text.startsWith(q, end) : !(end >= text.length || UNQUOTED_END.test(text[end]))) {
      continue;
    }
    const name = nameBefore(text, at);
    if (
      !KEY_NAME_END.test(name) || PUBLIC_KEY_NAME.test(name) || NAMED_TOKEN_NAME_END.test(name) ||
      CLIENT_KEY.test(name) || PUBLISHABLE_VALUE.test(v) || publicPemBase64(v)
    ) {
      continue;
    }
    if (
      !/[A-Z]/.test(v) || !/[a-z]/.test(v) || !(looksGenerated(v) || fewDigitsRandom(v)) ||
      PATH_OF_NAMES.test(v) || fewCharacters(v) || counts(v) || !lettersValue(text, at, end, q)
    ) continue;
    out.push({ start: end - v.length, end, rule: "named-secret" });
  }
  return out;
}

/**
 * The start of a line that is a name and its operator: an indent (a BOM), a line comment's
 * opener of any language (`#`, `//`, `--`, `;`, `%`, `!`, `'`, a block comment's `/*` or `*`, `REM`: a
 * setting commented out, `; key = …` in an assembly file), a YAML list's `- ` (and a compose
 * entry's quote: `- "API_KEY=…"`), `export `, Dockerfile's `ENV ` or `ARG `, the name (quoted or
 * not); or an element's start tag with no attribute (`<apiKey>`).
 */
const NAME_LINE =
  /(?:(?:^|[\r\n])\uFEFF?[ \t]{0,64}(?:(?:#{1,2}|\/\/|\/\*{1,2}|--|;{1,2}|%{1,2}|!|\*|'(?=[ \t])|REM(?=[ \t]))[ \t]{0,16})?(?:-[ \t]{1,16}["']?|(?:export|ENV|ARG)[ \t]{1,16})?["']?[A-Za-z0-9_.-]{1,128}["']?[ \t]{0,16}|<[A-Za-z0-9_.:-]{1,128})$/;
/**
 * Blanks, or a comment after a blank, or a block comment's close, to the line's end; or an
 * end tag, or a compose entry's quote.
 */
const LINE_REST =
  /^(?:["']?(?:[ \t]{1,64}#[^\r\n]{0,1024}|[ \t]{1,16}\*\/)?[ \t]{0,64}(?:\r?\n|\r|$)|<\/)/;

/**
 * Whether the operator at `at` and the unquoted value that ends at `end` make a line of their own
 * (`token: kXqPz…`, `API_KEY=kXqPz…`, `ENV API_KEY=kXqPz…`, `<apiKey>kXqPz…</apiKey>`), as a data
 * file writes one.
 */
function ownLine(text: string, at: number, end: number): boolean {
  return NAME_LINE.test(text.slice(Math.max(0, at - 200), at)) &&
    LINE_REST.test(text.slice(end, end + 1100));
}

/**
 * Whether letters at `at` (an operator) to `end` are written as a value, not as a name of code:
 * quoted (`q`), `NAME=value` with no blank around the `=` (a shell's or `.env`'s assignment, also
 * in prose: `set API_KEY=kXqPz… in the shell`), or on a line of their own ({@linkcode ownLine}).
 */
function lettersValue(text: string, at: number, end: number, q: string): boolean {
  if (q) return true;
  if (text[at] === "=" && /[A-Za-z0-9_]/.test(text[at - 1] ?? "") && text[at + 1] !== " ") {
    return true;
  }
  return ownLine(text, at, end);
}

/**
 * Environment variables that hold a password or token for a well-known tool, whose names the
 * password words do not end (`SSHPASS` for sshpass, `REDISCLI_AUTH` for redis-cli, `MYSQL_PWD`
 * for mysql, `AWS_SESSION_TOKEN`, `NPM_TOKEN`, …): these names exactly, in any case, their words
 * joined by `_`, `.`, `-` or nothing (`sshpass`, `redisCliAuth`, `aws_session_token`).
 */
const ENV_PASSWORDS = [
  "SSHPASS",
  "REDISCLI_AUTH",
  "NPM_AUTH_IDENT", // Yarn's `npmAuthIdent: "user:password"`
  "MYSQL_PWD",
  "AWS_SESSION_TOKEN",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GITLAB_TOKEN",
  "HF_TOKEN",
  "VAULT_TOKEN",
  "CONSUL_HTTP_TOKEN",
  "NOMAD_TOKEN",
  "CODECOV_TOKEN",
  "SONAR_TOKEN",
  "CARGO_REGISTRY_TOKEN",
  "DOCKER_PASSWORD",
  "TWINE_PASSWORD",
  "HTPASSWD",
  "SMTP_PASS", // git's `sendemail.smtpPass` (written `smtppass` too), msmtp's and mailers'
];

/** One of {@linkcode ENV_PASSWORDS} as a pattern: each word in any case, the `_` optional. */
function spelled(name: string): string {
  return name.split("_").map((w) => anyCase(w.toLowerCase())).join("[_.-]?");
}

/** A name that ends in one of {@linkcode ENV_PASSWORDS} (for the names written apart). */
export const ENV_PASSWORD_NAME: RegExp = new RegExp(
  `(?<![A-Za-z0-9_])(?:${ENV_PASSWORDS.map(spelled).join("|")})$`,
);

/**
 * Names whose value is a password whatever it looks like: the name ends in a password, API key
 * or token word (`DB_PASSWORD`, `passwd`, `admin_pwd`, `passphrase`, `client_secret`,
 * `SECRET_KEY`, `X-Api-Key`, `access_token`, `db_pass`, `dbPass`), not in another word after it
 * (`password_file`, `secretName`, `password_hash` name something else).
 */
const PASSWORD_NAME = "(?:" +
  anyCase(
    "(?:passw(?:or)?ds?|passwort|pwd|pass[_.-]?phrase|secret|api[_.-]?key|apikey|" +
      "(?:access|auth|api|bearer|refresh|secret)[_.-]?token)",
  ) +
  // `pass` as a word of its own: `db_pass`, `MLAB_PASS`, `"pass"`, `dbPass` (not `bypass`)
  "|(?<![A-Za-z])(?:pass|Pass|PASS)|(?<=[a-z0-9])Pass" +
  // `pw` as a word of its own: `LDAP_BIND_PW`, `db_pw`, `dbPw`, `"pw"`
  "|(?<![A-Za-z])(?:pw|Pw|PW)|(?<=[a-z0-9])Pw" +
  // an abbreviation in capitals as a word of its own: `GITHUB_PAT`, `WIFI_PSK`, `API_TKN`; a
  // code host's `pat` in lower or camel case (`github_pat`, `githubPat`: `SERVICE_BEFORE`)
  "|(?<![A-Za-z0-9])(?:PAT|PSK|TKN|CREDS?)" +
  "|(?<=(?<![A-Za-z])(?:[Gg]it[Hh]ub|[Gg]it[Ll]ab|gh|[Aa]do|[Aa]zure|[Dd]ev[Oo]ps|[Bb]itbucket|[Gg]itea|[Ff]orgejo|[Dd]ocker|hf)[_.-]?)(?:pat|Pat)" +
  // an environment variable's name (upper case, digits and `_` from its start) that ends in
  // `PASS` or `PW` glued to its last word (`SMBPASS`, `FTPPASS`, `LDAPPW`): in lower case,
  // `bypass` and `compass` are words
  "|(?<=(?<![A-Za-z0-9_.-])[A-Z0-9_]{1,40})(?<!BY|COM|SUR|TRES|OVER|UNDER)(?:PASS|PW)" +
  // the same in lower case (`dbpass`, `remotepass`, `smtp_adminpass`), not a word that ends so
  // (`bypass`, `compass`, `overpass`) nor a pass of code or a filter's (`renderpass`, `lowpass`)
  "|(?<=(?<![A-Za-z0-9_.-])[a-z0-9_]{1,40})(?<!by|com|sur|tres|over|under|multi|mini|render|sub|low|high|band|all|first|second|two|one|single|double|no)pass" +
  // well-known environment names whose password word is inside a longer word, or is a word
  // (`auth`, `token`) that names a password only there (`SSHPASS`, `REDISCLI_AUTH`)
  `|(?<![A-Za-z0-9_])(?:${ENV_PASSWORDS.map(spelled).join("|")}))` +
  // (and a suffix that says how it is stored, WinSCP's `PasswordPlain`, `password_cleartext`, or
  // that it is the same typed again: Rails' `password_confirmation`, `confirmPassword`'s twin)
  anyCase(
    "(?:[_.-]?key|[_.-]?value|[_.-]?plain(?:text)?|[_.-]?clear(?:text)?|[_.-]?confirm(?:ation)?)?",
  );

/** A name that ends in a {@linkcode PASSWORD_NAME}: its short values are the password rule's. */
export const PASSWORD_NAME_END: RegExp = new RegExp(
  `${PASSWORD_NAME}${NAME_QUOTE}\\]?[ \\t]{0,64}$`,
);

/**
 * A value of 6+ characters without blanks assigned to a {@linkcode PASSWORD_NAME}, looked for
 * from the operator as {@linkcode NAMED_TOKEN} is (`>` too: `<password>…</password>`). Groups:
 * `op` the operator, `q` the opening quote, `v` the value up to an escape, tab or line end
 * (cut at its closing quote, or unquoted at a quote or blank, by `passwordEnd`), so that it may
 * hold quotes other than its own (`'a"b`c'`: a WordPress salt) and `=` or `>` after its first
 * character (a Django `SECRET_KEY`), or first after a quote (not unquoted: `password == x`,
 * `token >= 8`).
 */
export const NAMED_PASSWORD: RegExp = new RegExp(
  `(?=(?:${OP}|>)${GAP}${STRING_PREFIX}${QUOTE}${TRIPLE_BREAK}(?:(?<=["'\`])[^\\s"'\`\\\\]|[^\\s"'\`\\\\=>])[^\\s\\\\]{5})` +
    `(?<=${PASSWORD_NAME}${NAME_QUOTE}\\]?[ \\t]{0,16})` +
    `(?<op>${OP}|>)(?<gap>${GAP})${STRING_PREFIX}(?<q>${QUOTE})${TRIPLE_BREAK}(?<v>[^\\r\\n\\t\\\\]{6,256})`,
  "g",
);

/**
 * The words that every name {@linkcode NAMED_VALUE}, {@linkcode NAMED_TOKEN} and
 * {@linkcode NAMED_PASSWORD} look behind for holds, in any case: `key`, `token`, `passw`, `pwd`,
 * `auth`, `passphrase`, `secret`, `credential`, `bearer`. Each is looked for from a letter rarer in
 * code than its first (`k`, `w`, `h`, `c`, `b`) and checked behind it; a match ends where its word
 * does, and holds at most 10 characters (`credential`). The same search finds the words the
 * command and SQL rules start from (`_secret_rules_commands.ts`): `mysql` (`mysqldump`, …),
 * `sshpass`, `redis-cli` and `identified` (groups `mysql`, `sshpass`, `rediscli`, `sql`), each from
 * a few characters of its own (a single `c` or `a` first made the search visit every one), and
 * marks the `passw` words (group `pw`) for SQL's `PASSWORD '…'`.
 */
export const NAME_WORD: RegExp = new RegExp(
  [
    // (each branch also finds, from the letter it starts at, words after which a secret comes by
    // position, `NameSpots.positions`: `ngrok authtoken` and `ngrok config add-authtoken`,
    // `::add-mask::`, a Wi-Fi `psk =`,
    // `wpa_passphrase SSID …`, `db2 connect`, FreeRDP's `xfreerdp`; and calls given a password
    // by position, `NameSpots.calls`: `ldap_bind(`, `simple_bind_s(`)
    // (`iwconfig … key s:…` and a WEP key's hex digits; `wpa_cli … set_network N psk '"…"'`)
    // (and Danish `adgangskode`, Croatian `lozinka`, Indonesian `kata_sandi`, Malay
    // `katalaluan`, Vietnamese `mat_khau`, Polish `klucz_api` and `tajny_klucz`)
    `[Kk](?:(?<fw4>ode(?![a-z])(?<=[Aa]dgangskode)|ODE(?![A-Z])(?<=ADGANGSKODE)|` +
    `a(?![a-z])(?<=[Ll]ozinka)|A(?![A-Z])(?<=LOZINKA)|ata(?:[_ -]?sandi|laluan)(?![a-z])|` +
    `ATA(?:[_ -]?SANDI|LALUAN)(?![A-Z])|h(?:au|ẩu)(?![a-z])(?<=[Mm](?:at|ật)[_ -]?kh(?:au|ẩu))|` +
    `HAU(?![A-Z])(?<=MAT[_ -]?KHAU)|lucz[_ -]?(?:api|API)(?![a-z])|LUCZ_API|lucz(?![a-z])(?<=tajny[_ -]?klucz)|LUCZ(?![A-Z])(?<=TAJNY[_ -]?KLUCZ))|` +
    `${anyCase("e")}(?:${anyCase("y")}(?:(?<iwkey>(?=[ \\t]{1,8}(?:\\[[0-9]\\][ \\t]{1,8})?` +
    `(?:s:|[0-9A-Fa-f]{4}))(?<=iwconfig[^\\r\\n]{1,128}[ \\t]key))|)|${anyCase("n")}(?:` +
    `(?<ngrok>(?=[ \\t])(?<=(?:add-|ngrok(?:\\.exe)?[ \\t]{1,8})authtoken))|(?<=${
      anyCase("token")
    })))|` +
    `(?<mask>::(?<=::add-mask::))|(?<psk>(?=[ \\t]{0,16}=|"[ \\t]{0,16}:)(?<=(?<![A-Za-z_-])psk))|` +
    `(?<wpacli>(?=[ \\t]{1,8}["'\\\\0-9a-fA-F])(?<=set_network[ \\t]{1,8}[0-9]{1,4}[ \\t]{1,8}psk)))`,
    // (`*assw`: the `*assword*` an `expect` waits for, which holds no `passw`)
    // (German `Kennwort`, Dutch `wachtwoord`)
    `${
      anyCase("w")
    }(?:(?<fw2>ort(?![a-z])(?<=[Kk]ennwort)|ORT(?![a-z])(?<=KENNWORT)|achtwoord(?![a-z])(?<=(?:^|[^a-z])wachtwoord|Wachtwoord)|ACHTWOORD(?![a-z])(?<=WACHTWOORD))|` +
    `(?<pw>(?<=${anyCase("passw")}|\\*${anyCase("assw")}))|${anyCase("d")}(?<=${anyCase("pwd")}))`,
    // …, a wallet's `seed_phrase` and `recovery phrase` (its words: `_secret_rules_admin.ts`)
    // (and passwords' words of other languages: Portuguese `senha`, Polish `haslo`, Czech `heslo`)
    `${
      anyCase("h")
    }(?:(?<fw1>a(?<=[Ss]enha)|A(?<=SENHA)|itza(?![a-z])(?<=[Pp]asahitza)|ITZA(?<=PASAHITZA)|` +
    // (Basque `pasahitza`, Turkish `api_anahtari`, German `api_schluessel`)
    `tar[ıi]?(?![a-z])(?<=(?:[Aa]pi|API|gizli)[_ -]?anahtar[ıi]?)|` +
    `l(?:ue|ü)ssel(?![a-z])(?<=(?:[Aa]pi|API|geheimer?)[_ -]?[Ss]chl(?:ue|ü)ssel)|[ae]slo(?![a-z])(?<=(?:^|[^a-z])h[ae]slo|H[ae]slo)|[AE]SLO(?![A-Za-z])(?<=H[AE]SLO))|` +
    `(?<au>(?<=${anyCase("auth")}))|${anyCase("rase")}` +
    `(?:(?<wpa>(?=[ \\t])(?<=(?<![\\w.-])wpa_passphrase))|(?<=(?:${anyCase("pass")}|(?:${
      anyCase("seed")
    }|${anyCase("recovery")})[_ -]?|${anyCase("pass")}[_.-])${anyCase("phrase")}))|` +
    `(?<sshpass>${anyCase("pass")}(?<=${anyCase("sshpass")}))|` +
    // `algoliasearch(APP_ID, KEY)` (and Python's `algoliasearch.Client(…)`): a key by position
    "(?<algolia>(?=(?:\\.Client)?\\()(?<=algoliasearch)))",
    // (the words from `c` and `C` in one branch: as four, each `c` of a text tried each)
    `[Cc](?:${anyCase("re")}(?:${anyCase("t")}(?<=${anyCase("secret")})|(?<cr>${
      anyCase("dential")
    }))|` +
    "ode(?==)(?<=[?&]code)|" + // a URL's `?code=` (see QUERY_NAME)
    // Spanish's and Catalan's `contraseña`, `contrasena`, `contrasenya` (other scripts' words are
    // the foreign rule's own search)
    "(?<fw3>ontrase(?:ñ|n)y?a|(?<=C)ONTRASE(?:Ñ|N)Y?A|ontrasinal|(?<=C)ONTRASINAL|" +
    // (Spanish's, Portuguese's and French's API keys: `clave_api`, `chave_secreta`, `cle_api`)
    "(?:lave|have|l[eé])[_ -]?(?:api|secret[ao]|secr[eè]te)|(?<=C)(?:LAVE|HAVE|LE)_(?:API|SECRET[AO]))(?![a-z])|" +
    // Algolia's other clients (`SearchClient.create(`, `Search::Client.create(`,
    // `search.NewClient(`): a key by position after the application id
    "(?<algoliaClient>lient(?<=Search(?:::)?Client|search\\.NewClient)(?=(?:(?:\\.|::)create)?\\())|" +
    "(?<rclone>lone(?<=rclone)))", // `rclone config create` (`_secret_rules_positional.ts`)
    "(?<pat>Pat(?![A-Za-z0-9])(?<=[a-z0-9]Pat))", // `adoPat` (see `_secret_rules_hosts.ts`)
    `[Bb](?:${anyCase("earer")}|(?<db2>2(?=[ \\t]{1,8}["']?${
      anyCase("connect")
    }[ \\t])(?<=(?<![\\w.-])db2))|` +
    `(?<bind>ind(?=(?:_s)?\\()(?<=(?:ldap|simple)_bind))|` +
    // `wandb login KEY` (Weights & Biases: 40 hex digits by position)
    `(?<wandb>(?=[ \\t]{1,8}login(?![\\w-]))(?<=(?<![\\w.-])wandb)))`,
    `(?<rediscli>-${anyCase("cli")}(?<=${anyCase("redis-cli")}))`,
    `(?<mysql>${anyCase("ql")}(?<=${anyCase("mysql")}))`,
    `[Ff](?:(?<fw5>re(?![a-z])(?<=(?:^|[^A-Za-z])[Ss]ifre)|RE(?![A-Z])(?<=SIFRE))|(?<sql>${
      anyCase("ied")
    }(?<=${anyCase("identified")}))|(?<rdp>reerdp[0-9]?(?![\\w-]))|` +
    // an `ftp` fed a script by a heredoc (`ftp -n host <<EOF`): its `user NAME PASSWORD` line
    `(?<ftp>tp(?<=(?<![\\w.-])ftp)(?=(?:\\.exe)?[ \\t][^\\r\\n]{0,256}<<)))`,
  ].join("|"),
  "g",
);
/**
 * What {@linkcode NAMED_TOKEN} and {@linkcode NAMED_PASSWORD} read between a name's word and the
 * operator: the rest of the name, a quote (maybe escaped), `]`, blanks. Each class differs from
 * the next, so a match of theirs ends its run exactly at its operator.
 */
const TOKEN_NAME_REST = /[A-Za-z0-9_.-]*(?:(?:\\\\)?\\?["'])?\]?[ \t]*/y;
/** What {@linkcode NAMED_VALUE} reads between its name's word and the operator. */
const VALUE_NAME_REST = /[A-Za-z0-9_]*(?:\\\\)?\\?["']?\s*/iy;

/** The {@linkcode NameSpots} of `text`, found once per {@linkcode TextHints}. */
export function namesOf(text: string, hints?: TextHints): NameSpots {
  if (!hints) return nameSpots(text);
  return hints.names ??= nameSpots(text);
}

/**
 * Where the operators of {@linkcode NAMED_VALUE}, {@linkcode NAMED_TOKEN} and
 * {@linkcode NAMED_PASSWORD} matches may be, in one search for the words of their names
 * ({@linkcode NAME_WORD}) and one read of each name's rest: every match of theirs starts at one
 * of these positions (a match's name holds a word and its rest ends at the operator; a word the
 * search went past is in the same name as the word it found, whose rest is the same).
 *
 * @example
 * ```ts
 * import { nameSpots } from "./secret_rules.ts";
 * nameSpots("x = 1\nAPI_KEY = 'abc'\n").operators; // [14]
 * nameSpots("x = 1\nAPI_KEY = 'abc'\n").valueOperators; // [14]
 * ```
 */
export function nameSpots(text: string): NameSpots {
  const spots = noSpots();
  let tokenRest = -1; // where the last name's rests ended
  let valueRest = -1;
  NAME_WORD.lastIndex = 0;
  for (let m = NAME_WORD.exec(text); m; m = NAME_WORD.exec(text)) {
    const end = m.index + m[0].length;
    const g = m.groups!;
    if (g.pw !== undefined) {
      spots.passwords.push(end);
      // `keyring.set_password(service, user, "…")`: a call that takes the password third
      if (text.startsWith("set_", end - 9)) spots.calls.push(end);
    }
    if (g.au !== undefined || g.cr !== undefined) spots.calls.push(end);
    if (g.pat !== undefined) {
      spots.pats.push(end);
      continue;
    }
    // (`Bearer` and a blank or its closing quote: a token may follow, named or not, or apart)
    if (m[0].length === 6 && /^[ "']/.test(text[end] ?? "") && /^bearer$/i.test(m[0])) {
      spots.bearers.push(end);
    }
    if (foreignWord(g)) {
      spots.foreign.push(end);
      continue;
    }
    if (g.bind !== undefined) {
      spots.calls.push(end);
      continue;
    }
    const position = positionKind(g);
    if (position) {
      spots.positions.push({ at: end, kind: position });
      continue;
    }
    const command = commandKind(g);
    if (command) {
      // not a name's word: where the command (or `identified`) ends, and its kind
      spots.commands.push({ at: end, kind: command });
      continue;
    }
    // A word that ends inside the last rest is in the same name: its rest ends there too.
    if (end > tokenRest) {
      tokenRest = runEnd(TOKEN_NAME_REST, text, end);
      tokenRestSpot(text, tokenRest, spots);
    }
    if (end > valueRest) {
      valueRest = runEnd(VALUE_NAME_REST, text, end);
      const c = text.charCodeAt(valueRest);
      if (c === 58 || c === 61) spots.valueOperators.push(valueRest);
    }
  }
  const passRests: number[] = [];
  const pass = passSpots(text, spots.directives, spots.declared, passRests, spots.foreign);
  spots.foreign.sort((a, b) => a - b);
  if (pass.length) spots.operators = mergeAscending(spots.operators, pass);
  if (passRests.length) spots.rests = mergeAscending(spots.rests, passRests.sort((a, b) => a - b));
  return spots;
}

/** Records where a name's rest ends (`at`), by the character there: an operator, a list's, a type's. */
function tokenRestSpot(text: string, at: number, spots: NameSpots): void {
  const c = text.charCodeAt(at);
  if (c === 58 || c === 61 || c === 62) spots.operators.push(at); // : = >
  else if (c === 44 || c === 41 || c === 124 || c === 63 || c === 123) {
    spots.rests.push(at); // , ) | ? {
  } else if (declares(c)) spots.declared.push(at);
  else if (c === 96) {
    // a name in MySQL's backticks, in a list (`(\`id\`, \`secret\`)`): the SQL rows rule's
    const next = text.charCodeAt(at + 1);
    if (next === 44 || next === 41) spots.rests.push(at + 1);
  }
}

/** Spots with nothing found yet. */
function noSpots(): NameSpots {
  return {
    operators: [],
    valueOperators: [],
    commands: [],
    passwords: [],
    calls: [],
    pats: [],
    bearers: [],
    rests: [],
    directives: [],
    declared: [],
    foreign: [],
    positions: [],
  };
}

/** Whether the name search's match is a password's or a key's word in another language. */
function foreignWord(g: Record<string, string | undefined>): boolean {
  return g.fw1 !== undefined || g.fw2 !== undefined || g.fw3 !== undefined ||
    g.fw4 !== undefined || g.fw5 !== undefined;
}

/** The secret a word announces by its place after it (`ngrok authtoken X`), by the group it matched. */
function positionKind(
  g: Record<string, string | undefined>,
): NameSpots["positions"][number]["kind"] | undefined {
  if (g.ngrok !== undefined) return "ngrok";
  if (g.psk !== undefined) return "psk";
  if (g.rdp !== undefined) return "rdp";
  if (g.mask !== undefined) return "mask";
  if (g.wpa !== undefined) return "wpa";
  if (g.db2 !== undefined) return "db2";
  if (g.wpacli !== undefined) return "wpacli";
  if (g.iwkey !== undefined) return "iwkey";
  if (g.ftp !== undefined) return "ftp";
  if (g.wandb !== undefined) return "wandb";
  if (g.algolia !== undefined) return "algolia";
  if (g.algoliaClient !== undefined) return "algoliaClient";
  return undefined;
}

/** The command a word starts (`mysql`, `sshpass`, …, SQL's `identified`), by the group it matched. */
function commandKind(
  g: Record<string, string | undefined>,
): NameSpots["commands"][number]["kind"] | undefined {
  if (g.sql !== undefined) return "sql";
  if (g.rclone !== undefined) return "rclone";
  if (g.sshpass !== undefined) return "sshpass";
  if (g.rediscli !== undefined) return "redis-cli";
  if (g.mysql !== undefined) return "mysql";
  return undefined;
}

/**
 * Where French's `mot de passe` (`mot_de_passe`, `motdepasse`) or Norwegian's `passord` ends, when
 * the `pass` at `at` starts one, else 0.
 */
function foreignPass(text: string, at: number): number {
  if (text.startsWith("passord", at) && !/[a-z]/.test(text[at + 7] ?? "")) return at + 7;
  if (
    /^[Pp]asse/.test(text.slice(at, at + 5)) && !/[a-z]/.test(text[at + 5] ?? "") &&
    /(?:^|[^A-Za-z])[Mm]ot[ _-]?[Dd]e[ _-]?$/.test(text.slice(Math.max(0, at - 8), at))
  ) return at + 5;
  // in capitals (`ADMIN_MOT_DE_PASSE`, `PASSORD`)
  if (text.startsWith("PASSORD", at) && !/[A-Za-z]/.test(text[at + 7] ?? "")) return at + 7;
  if (
    text.startsWith("PASSE", at) && !/[A-Za-z]/.test(text[at + 5] ?? "") &&
    /(?:^|[^A-Za-z])MOT[ _-]?DE[ _-]?$/.test(text.slice(Math.max(0, at - 8), at))
  ) return at + 5;
  return 0;
}

/**
 * Abbreviations that name a credential as an environment variable's last word, in capitals:
 * `PAT` (a personal access token: `GITHUB_PAT`, `AZURE_DEVOPS_PAT`), `PSK` (a pre-shared key:
 * `WIFI_PSK`), `TKN` (`API_TKN`), `CRED` and `CREDS` (`API_CREDS`). In lower case and camel case they are words of code too (`pat`
 * and `filePat` name patterns), so only the capitals, as a word of their own.
 */
const ABBREVIATIONS = ["PAT", "PSK", "TKN", "CRED", "CREDS"];

/**
 * A code host's or a registry's name right before a `pat` or `Pat` (`github_pat`, `githubPat`,
 * `vault_gitlab_pat`, `hf-pat`): a personal access token's name in lower or camel case too.
 */
const SERVICE_BEFORE =
  /(?<![A-Za-z])(?:[Gg]it[Hh]ub|[Gg]it[Ll]ab|gh|[Aa]do|[Aa]zure|[Dd]ev[Oo]ps|[Bb]itbucket|[Gg]itea|[Ff]orgejo|[Dd]ocker|hf)[_.-]?$/;

/**
 * Where the operators after names that end in one of {@linkcode ABBREVIATIONS} are (ascending): the word
 * with no letter or digit before it and none after (`GITHUB_PAT=`, `"GITHUB_PAT":`, not `PATH=`);
 * and a code host's `pat` in lower or camel case ({@linkcode SERVICE_BEFORE}: `github_pat:`).
 */
function abbreviationSpots(text: string): number[] {
  const out: number[] = [];
  for (const word of [...ABBREVIATIONS, "pat", "Pat"]) {
    const n = word.length;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + n)) {
      if (/[A-Za-z0-9]/.test(text[at + n] ?? "")) continue;
      // (`pat`, `Pat`: after a code host's name; a capitals' word: after no letter nor digit)
      const owned = word === "pat" || word === "Pat"
        ? SERVICE_BEFORE.test(text.slice(Math.max(0, at - 12), at))
        : !/[A-Za-z0-9]/.test(text[at - 1] ?? "");
      if (!owned) continue;
      const rest = runEnd(TOKEN_NAME_REST, text, at + n);
      const c = text.charCodeAt(rest);
      if (c === 58 || c === 61) out.push(rest); // : =
    }
  }
  return out.sort((a, b) => a - b);
}

/** The short password words that {@linkcode NAME_WORD} does not look for, in their three cases. */
const PASS_WORDS = ["pass", "Pass", "PASS", "pw", "Pw", "PW"];

/**
 * Where the operators after `pass` and `pw` names are (ascending; and those after
 * {@linkcode ABBREVIATIONS}), and where each `requirepass`
 * ends (into `directives`), where such a name's rest ends at a call's `)` or `,` (into `rests`:
 * `env::var("DB_PASS")`), and where at a declaration (into `declared`): the word as a name's last
 * (`DB_PASS`, `"pass"`, `dbPass`, `<Pass>`, `LDAP_BIND_PW`, `SMBPASS`), not followed by a lower
 * case letter (`password`, `passage` are found or not by their own words). `indexOf` searches,
 * the cheapest way: a branch of {@linkcode NAME_WORD} from `s` or `p` (common letters in code)
 * would cost that search its quick skip, and a pattern of its own stops at every such letter.
 */
function passSpots(
  text: string,
  directives: number[],
  declared: number[],
  rests: number[],
  foreignEnds: number[],
): number[] {
  const out: number[] = [];
  for (const word of PASS_WORDS) {
    const n = word.length;
    // Where the last rest read ends: a word inside it has the same rest (`PASSPASS…` would read
    // its run again from each word, quadratic in its length).
    let restEnd = -1;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + n)) {
      const after = text.charCodeAt(at + n);
      if (after >= 97 && after <= 122) {
        // a longer word: French `mot de passe` or Norwegian `passord` (the foreign rule's)
        const foreign = n === 4 && foreignPass(text, at);
        if (foreign) foreignEnds.push(foreign);
        continue;
      }
      if (after === 69 || after === 79) {
        // the same in capitals (`MOT_DE_PASSE`, `PASSORD`)
        const foreign = n === 4 && foreignPass(text, at);
        if (foreign) {
          foreignEnds.push(foreign);
          continue;
        }
      }
      if (at + n <= restEnd) continue;
      const rest = restEnd = runEnd(TOKEN_NAME_REST, text, at + n);
      const c = text.charCodeAt(rest);
      if (c === 58 || c === 61 || c === 62) out.push(rest); // : = >
      else if (n === 4 && text.startsWith("require", at - 7)) directives.push(at + n); // Redis's
      else if (c === 41 || c === 44) rests.push(rest); // `env::var("DB_PASS")`, `getenv("DB_PW",`
      else if (declares(c)) declared.push(rest);
    }
  }
  return mergeAscending(out.sort((a, b) => a - b), abbreviationSpots(text));
}

/**
 * Whether a name's rest that ends at the character `c` may end at its declaration's type or
 * declarator (`NameSpots.declared`): a lower case letter, `[`, `"`, `(` or Objective-C's `@"`.
 */
function declares(c: number): boolean {
  return (c >= 97 && c <= 122) || c === 91 || c === 34 || c === 40 || c === 64;
}

/** Two ascending lists as one, each position once. */
function mergeAscending(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

/**
 * Where an unquoted value stops though no blank follows: a separator before a blank, an escape or
 * the quote of a string the value sits in (`,` `;` `)` `}` `]`: `"…;Pwd=S3cret;"`), the `&` of a
 * query string's next parameter, the `;` of a connection string's next key
 * (`Password=…;Database=app`, `User Id=`), the `<` of an element's end tag.
 */
const UNQUOTED_STOP =
  /[,;)}\]](?=[\s,;)}\]\\"'`]|$)|&(?=[A-Za-z0-9_.-]{1,64}=)|;(?=[A-Za-z][A-Za-z0-9 _.-]{0,63}=)|<(?=\/)/;
/**
 * A terminal's colour codes (SGR: `0;38;5;149`, `01;31`), alone or before the next entry of an
 * `LS_COLORS` or `GREP_COLORS` list (`:*.swift=`, `:di=`).
 */
const COLOR_CODES = /^[0-9]{1,3}(?:;[0-9]{1,3}){0,15}(?::(?:\*|[a-z]{2}=)|$)/;

/**
 * Whether colour codes (`value`) at a name before `at` are an `LS_COLORS` entry's: the next
 * entry follows, or the name is a file pattern (`*passwd`, `*.pem`).
 */
function colorEntry(text: string, at: number, value: string): boolean {
  return value.includes(":") || /\*[\w.-]{1,64}$/.test(text.slice(Math.max(0, at - 66), at));
}
/** The `,` before a next item's `name=` in a call's arguments or an option list. */
const NEXT_ITEM = /,(?=[A-Za-z_][A-Za-z0-9_]{0,63}=)/;
/**
 * A name after a `(`, a `,` or a `{` (a call's keyword argument, an option list's item, a record's
 * or a table's field: Erlang's `#user{password=Pw,name=Name}`), up to its operator.
 */
const LIST_ITEM_NAME = /[(,{][ \t]{0,16}[A-Za-z_][\w.-]{0,63}$/;
/** A placeholder's words (`your-password`, `changeme`, `example`), as {@linkcode PLACEHOLDER} has them. */
export const PLACEHOLDER_WORD: RegExp = new RegExp(
  PLACEHOLDER.source.replace("[${}<>%[\\]()]|", ""),
  "i",
);
/**
 * A reference to a value kept elsewhere: `$VAR`, `${VAR}`, `{{ .Values.pw }}`, `%(pw)s`, `<pw>`,
 * a format's `%s` (not `%dGz` in a random password); or the code between two string literals
 * that a value's quotes seem to enclose, joined to them on both sides (`'…'+pw+'…'`,
 * `' . $db->quote($pw) . '`, `' || quote_literal(pw) || '`): a joining sign at each end, no quote,
 * and between them a call, a member, a variable or a name without digits (`+Zq7wK2p9+` is none).
 */
export const REFERENCE: RegExp = new RegExp(
  /^[$%<{[]|\$\{|\{\{|%\(|%(?:0?[1-9][0-9]?)?[sd](?![A-Za-z0-9])|\$\(/.source +
    // a build's or a deploy tool's token to replace: autoconf's and Maven's `@DB_PASSWORD@`,
    // `__SMTP_PASSWORD__` (Azure's and Octopus' token replacement), Octopus' and Ruby's `#{…}`
    /|^@[A-Za-z_][\w.-]{0,127}@$|^__[A-Z][A-Z0-9_]{0,127}__$|^#\{/.source +
    // TeamCity's reference to a stored secure value (`credentialsJSON:<uuid>`)
    /|^credentialsJSON:[0-9a-f-]{36}$/.source +
    // PHP's variable joined to the literal before it (`'--password='.$conn['password']`)
    /|^[ \t]{0,16}\.[ \t]{0,16}\$[A-Za-z_]\w{0,64}(?:->[A-Za-z_]\w{0,64}){0,8}(?:\[|[ \t]{0,16}\.[ \t]{0,16})?$/
      .source +
    /|^[ \t]{0,16}(?:[+&]|\|\||\.[ \t])[ \t]{0,16}/.source +
    /(?:[^'"\r\n]{0,256}[(.$][^'"\r\n]{0,256}|[A-Za-z_][A-Za-z_]{0,256})/.source +
    /[ \t]{0,16}(?:[+&]|\|\||[ \t]\.)[ \t]{0,16}$/.source,
);
/**
 * The word for password (or an API key, a token) in another language, as a locale file writes
 * it for a label: a value that is one of these alone is a translation, not a password.
 */
const TRANSLATED_LABEL =
  /^(?:passwort|kennwort|wachtwoord|contraseña|contrasena|contrasenya|contrasinal|mot de passe|senha|hasło|haslo|heslo|salasana|lösenord|losenord|jelszó|jelszo|şifre|sifre|parool|geslo|lozinka|adgangskode|passord|slaptažodis|parola|parolă|пароль|парола|лозинка|гасло|κωδικός|密码|密碼|口令|パスワード|비밀번호|암호|รหัสผ่าน|पासवर्ड|كلمة المرور|סיסמה|mật khẩu|kata sandi|api[ -]?(?:schlüssel|키|キー)|jeton|토큰|токен|令牌|トークン)$/i;
/**
 * Words of a language: letters and marks of any script, joined by blanks, hyphens, apostrophes
 * and CJK commas, a sentence's stop at the end (the digits and symbols a password has are none).
 */
const TRANSLATED_TEXT =
  /^[\p{L}\p{M}][\p{L}\p{M} '\u2019\-\uff0c\u3001]*[\p{L}\p{M}\u3002\uff01\uff1f.!?]$/u;
/**
 * A message of words of any script with CJK's full-width marks (`！`, `？`, `：`, `（…）`, `「…」`) or
 * digits between them, ending in a letter or a sentence's stop.
 */
const CJK_MESSAGE =
  /^[\p{L}\p{M}][\p{L}\p{M}\p{N} '\u2019\-\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]*[\p{L}\p{M}\u3002\uff01\uff1f.!?]$/u;
/** A letter of Chinese, Japanese (kana) or Korean (Hangul). */
const CJK_LETTER = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;
/** Where XML's `<![CDATA[…]]>` that starts at `start` ends, when what it holds is a password. */
function cdataEnd(text: string, start: number): number | undefined {
  const close = text.slice(start, start + 512).indexOf("]]>");
  if (close < 0 || !passwordLike(text.slice(start, start + close), true)) return undefined;
  return start + close;
}

/**
 * Whether words follow a value that ends at `end` on its line (prose: `pwd: expected bytes, got
 * …`); a comment's closing marker is none (`(* password: … *)`, `<%-- … --%>`).
 */
function wordsAfter(text: string, end: number): boolean {
  return /^[ \t]+[^\s#/]/.test(text.slice(end, end + 3)) &&
    !COMMENT_CLOSE.test(text.slice(end, end + 24));
}

/** A block comment's closing marker, the last thing on its line (`*)`, `-->`, `--%>`, `*@`, `#}`, `}`). */
const COMMENT_CLOSE =
  /^[ \t]{1,16}(?:\*\)|\*\/|-->|--%>|%>|\*@|#\}|--\}\}|-\}|\]\]|\})[ \t]{0,16}(?:\r?\n|$)/;
/** Words of code (types, literals) that follow a password name unquoted: not values. */
const CODE_WORD =
  /^(?:boolean|number|bigint|object|unknown|undefined|symbol|buffer|bytes|string|true|false|null|none|nil|required|optional|readonly|private|public)$/i;
/** A version or version range as a lockfile writes one: `^4.0.0`, `~1.2`, `13.0.0-next-8.29`. */
const VERSION = /^(?:[~^]|[<>]=?)?v?[0-9]{1,5}(?:\.[0-9]{1,5}){1,3}(?:-[0-9A-Za-z.-]{1,40})?$/;
/** A dependency's protocol and version (Yarn's and pnpm's `npm:^7.0.3`, `workspace:*`, `0.10.x`). */
const PACKAGE_SPEC =
  /^(?:(?:npm|workspace|patch|portal|link|file|jsr):[^\s]{0,128}|[~^<>=]{0,2}[0-9]{1,5}(?:\.(?:[0-9]{1,5}|x|\*)){1,3})$/;
/** An identifier as code writes one: camelCase, PascalCase with a lower case letter first, snake_case. */
const CODE_NAME = /^[A-Za-z_$][\w$]*$/;

/** A relative path of words to a file of a secret's kind (`certs/tls.key`, `secrets/db.txt`). */
const SECRET_FILE_PATH =
  /^[A-Za-z0-9_.-]{1,64}(?:\/[A-Za-z0-9_.-]{1,64}){1,8}\.(?:txt|pem|key|json|ya?ml|env|crt|cer|p12|pfx|jks|conf|cfg|ini|gpg|asc|age|enc|secret|pass|password|token)$/;

/** Whether `value` is one to four characters repeated (`0b0b0b0b…`, `abcabcabc…`). */
function periodic(value: string): boolean {
  return value.length >= 8 && /^([\s\S]{1,4})\1+$/.test(value);
}

/** Whether `value` is a label's or a message's text in a language, not a password. */
function languageText(value: string): boolean {
  // The word "password" in a language (`Пароль`, `Contraseña`, `Mot de passe`): a locale file's
  // label under its key, not a password.
  if (TRANSLATED_LABEL.test(value)) return true;
  // Words of a language, no digit or symbol among them (`パスワードを忘れた`, `API-ключ`, `API-avain`,
  // `请联系你的管理员以重置你的密码。`): a locale file's label or message, not a password.
  if (TRANSLATED_TEXT.test(value) && /[\u0080-\uffff]|^API[ -]/.test(value)) return true;
  // A message in Chinese, Japanese or Korean with full-width marks or digits between its words
  // (`密碼不對喔！請檢查帳號及密碼大小寫有無輸入錯誤。`, a BBS's `#define ERR_PASSWD`).
  return CJK_MESSAGE.test(value) && (value.match(CJK_LETTER) ?? []).length >= 4;
}

/**
 * A URN (`urn:k8s:secret:redis:password`: Traefik's reference to a Kubernetes secret's key): a
 * name of where a secret is kept, never the secret.
 */
const URN = /^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:[^\s"'`]{1,256}$/;
/**
 * A name in its namespace, lower-case words without a digit (`default/basic-auth`: an ingress
 * annotation's Kubernetes secret, `auth-secret: "default/basic-auth"`).
 */
const NAMESPACED_NAME = /^[a-z]{1,32}(?:-[a-z]{1,32}){0,8}\/[a-z]{1,32}(?:-[a-z]{1,32}){0,8}$/;
/**
 * Whether a value under a password's name says where the password is, not what: an environment
 * variable's name (`"DB_PASSWORD"`), a URN or a name in its namespace, a secret store's reference
 * by such a name, the store first (`pgp:PGP_SIGN_KEY_PASSPHRASE`, `vault:DB_PASSWORD`, as shared
 * CI workflows take them), a path or a URL, a relative path to the file that holds it
 * (`secrets/db-password.txt`, Kustomize's `files:`), or Azure's Key Vault reference
 * (`@Microsoft.KeyVault(SecretUri=…)`).
 */
function namesWhereItIs(value: string): boolean {
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) || URN.test(value) ||
    NAMESPACED_NAME.test(value) ||
    /^[a-z][a-z0-9-]{0,31}:[A-Z][A-Z0-9]{0,63}(?:_[A-Z0-9]{1,64}){1,16}$/.test(value) ||
    /^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/)/.test(value) ||
    SECRET_FILE_PATH.test(value) || value.startsWith("@Microsoft.KeyVault(");
}

/**
 * Lower-case words after a `.`, joined by `.` or `-`: an event namespace or a class
 * (Bootstrap's `DATA_API_KEY = '.data-api'`, `.bs.modal`) or a dotfile's name (`.htpasswd`,
 * `.env-local`). A name, not a password: one has a digit, a capital or a mark.
 */
const DOTTED_NAME = /^\.[a-z]{1,32}(?:[.-][a-z]{1,32}){0,8}$/;

/** A GraphQL schema's built-in type, not null, maybe a list's (`String!`, `[ID!]!`). */
const GRAPHQL_TYPE = /^\[?(?:String|Int|Float|Boolean|ID)!?\]?!?$/;

/** A command line's option, maybe with its `=`: `--password=`, `-password`. */
const OPTION_NAME = /^--?[A-Za-z][A-Za-z0-9]{0,31}(?:-[A-Za-z0-9]{1,32}){0,8}=?$/;

/**
 * A validator's rules: rule names (words) with their arguments after a `:`, joined by `|`
 * (`required|string|min:8|confirmed`: Laravel's, and the libraries that took its syntax), or one
 * of the rules a password takes with its argument (`current_password:api`,
 * `Confirmed:passwordConfirmation`).
 */
const VALIDATION_RULES =
  /^(?:[a-z]{1,32}(?:_[a-z]{1,32}){0,4}(?::[\w.,-]{0,64})?(?:\|[a-z]{1,32}(?:_[a-z]{1,32}){0,4}(?::[\w.,-]{0,64})?){1,16}|(?:confirmed|current_password|different|same|min|max|size|between|regex):[\w.,-]{1,64})$/i;

/**
 * Whether `value` has blanks and reads as a sentence or a label, not a passphrase: one has a digit
 * and does not end as a sentence does (`What is the decryption key?`, `Try again.`).
 *
 * @example
 * ```ts
 * import { readsAsProse } from "./_secret_rules_names.ts";
 * readsAsProse("What is the decryption key?"); // true
 * readsAsProse("correct horse 42 battery"); // false
 * ```
 */
export function readsAsProse(value: string): boolean {
  return / /.test(value) && (!/[0-9]/.test(value) || /[.!?:]$|^ | $/.test(value));
}

/** Whether `value` under a password name is a password, not a placeholder, a reference or code. */
export function passwordLike(value: string, quoted: boolean): boolean {
  if (value.length < 6 || PLACEHOLDER_WORD.test(value)) return false;
  // A random key of letters, digits and marks (Django's): its `%(`, `$(`, a leading `$` and its
  // parentheses are chance, not a reference or code.
  if (markedKey(value)) return true;
  if (REFERENCE.test(value) || languageText(value) || BROWSER_TOKEN.test(value)) return false;
  // A test's value of words and numbers that says so (`builtin:test_00000001:0`).
  if (testValue(value)) return false;
  // Letters alone are a word or a name (`'passphrase'`, `"randomPassword"`), unless quoted and
  // random (`'kXqPzRtWvBnMlYhG'`); one character repeated is a stand-in.
  if (/^[A-Za-z]+$/.test(value) && !(quoted && randomLetters(value))) return false;
  if (/^(.)\1*$/.test(value)) return false;
  // A token's stand-in: its prefix, then one character repeated (`pplx-xxxx…`, `fo1_XXXX…`).
  if (/([A-Za-z0-9])\1{15}$/.test(value)) return false;
  // Words joined, no digit, one of them a secret's name: a test's stand-in (`new-password`).
  // Also as a file's name (`git-credential-libsecret.o`, a Makefile's target and its object).
  if (
    /^[A-Za-z]+(?:[-_][A-Za-z]+)+(?:\.[A-Za-z]{1,5})?$/.test(value) &&
    /pass|secret|key|token|credential/i.test(value)
  ) {
    return false;
  }
  // A label (`Password:`, `API key:`) or a version (`^4.0.0`, `13.0.0-next-8.29`): text and
  // data that sit under a password's name in markup and lockfiles, not a password.
  if (/^[A-Za-z][A-Za-z ]*:$/.test(value) || VERSION.test(value)) return false;
  // A package manager's dependency spec (`npm:1.0.5`, `workspace:^`, a lockfile's under `pgpass`).
  if (PACKAGE_SPEC.test(value)) return false;
  // A command line's option (`'--password='.$pw`: Laravel's `db` command) or a validator's rules
  // (`'required|confirmed'`, `'current_password:api'`), not a password.
  if (OPTION_NAME.test(value) || VALIDATION_RULES.test(value)) return false;
  // A port's mapping (`docker run … -p 13306:3306`) or a GraphQL schema's type (`password: String!`)
  if (/^[0-9]{1,5}:[0-9]{1,5}$/.test(value) || GRAPHQL_TYPE.test(value)) return false;
  if (readsAsProse(value)) return false;
  // A label that names the field (`'Password (optional, 7-500 characters)'`, `"API key for …"`).
  if (
    /^(?:pass(?:word|phrase)?|secret|token|api[ _-]?key|key)[ (:,-]/i.test(value) && / /.test(value)
  ) {
    return false;
  }
  if (namesWhereItIs(value) || DOTTED_NAME.test(value)) return false;
  // A few characters repeated (`0b0b0b…`, `abcabcabc…`) or the alphabet written out: a test
  // vector's or a stand-in's.
  if (periodic(value) || alphabetRun(value)) return false;
  if (quoted) return true;
  // Unquoted, it may be code: a member (`self.password`), a name (`hashedPassword`), a type.
  if (/[()[\]{}|]/.test(value) || CODE_WORD.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  // A Vim script variable in its scope (`s:netrw_passwd`, `g:db_password`, `b:auth_key`): a name.
  if (/^[gswbtlav]:[A-Za-z_][A-Za-z_#]{0,127}(?:\.[A-Za-z_#]{1,64}){0,8}$/.test(value)) {
    return false;
  }
  // An expression of code (`ri->auth_pass`, `&data->req.auth`, `std::nullopt`) or a type
  // (`Option<String>`, `*C.char`): see `_secret_rules_code.ts`.
  if (codeExpression(value) || codeType(value)) return false;
  // A name of code has no digit (`hashedPassword`, `password_hash`); a password mostly has one.
  return !(CODE_NAME.test(value) && !/[0-9]/.test(value));
}

/**
 * Values assigned to a {@linkcode PASSWORD_NAME} whatever their shape (`DB_PASSWORD=hunter2x`,
 * `password: "correct-horse"`, `<password>…</password>`, `\"secret\": \"…\"`): quoted, the
 * value up to its closing quote; unquoted, up to the line's end or a separator, and only when it
 * does not read as code ({@linkcode passwordLike}). A `:` needs a blank after it when unquoted (a
 * CSS selector `.password:focus-visible` is not an assignment).
 */
export function findNamedPasswords(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule?: string }> {
  const out: Array<{ start: number; end: number; rule?: string }> = [];
  const operators = namesOf(text, hints).operators;
  let from = 0;
  for (const at of operators) {
    if (at < from) continue;
    NAMED_PASSWORD_AT.lastIndex = at;
    const m = NAMED_PASSWORD_AT.exec(text);
    if (!m) {
      // under a token's name, a password by its marks alone (the named-token rule reads tokens)
      TOKEN_PASSWORD_AT.lastIndex = at;
      const t = TOKEN_PASSWORD_AT.exec(text);
      const found = t && tokenPassword(text, t, t.index + t[0].length - t.groups!.v.length);
      if (found) out.push(found);
      continue;
    }
    // a switch's label (`case Verdict.Pass:` then `passed++;`): code, no name's value; a file's
    // name in a path (`file:///etc/passwd" >`): no name of a value
    if (m.groups!.op === ":" && SWITCH_CASE.test(lineBefore(text, m.index))) continue;
    const name = nameBefore(text, m.index);
    if (PATH_FILE_NAME.test(name)) continue;
    const start = m.index + m[0].length - m.groups!.v.length;
    // a test runner's verdict (`--- PASS: TestLogin (0.00s)`, Go's and TAP's), not a password
    if (TEST_VERDICT.test(text.slice(Math.max(0, m.index - 5), start + 6))) continue;
    if (m.groups!.op === ">" && text.startsWith("<![CDATA[", start)) {
      // XML's `<password><![CDATA[…]]></password>`: the value ends at `]]>`, whatever it holds
      const end = cdataEnd(text, start + 9);
      if (end !== undefined) out.push({ start: start + 9, end });
      continue;
    }
    if (!m.groups!.q && text.charCodeAt(start) === 123) {
      // ODBC's and JDBC's braces around a value (`;PWD={…};`, `;password={…}`), a member of a
      // connection string (not a template's `secret={@client_secret}`, prose's `secret = {…}`)
      const member = MEMBER_NAME.test(text.slice(Math.max(0, m.index - 66), m.index));
      const braced = member ? bracedPassword(text, start) : undefined;
      if (braced) out.push(braced);
      from = braced?.end ?? start;
      continue;
    }
    const end = passwordEnd(text, m, start);
    // a raw string of a regular expression (`cl_pw = r'([0-9a-f]{64})'`), not a password
    const raw = m.groups!.q &&
      /(?:^|[^\w])[rR]$/.test(
        text.slice(Math.max(0, start - m.groups!.q.length - 2), start - m.groups!.q.length),
      );
    if (
      end !== undefined && !(raw && /[()[\]{}\\|]/.test(text.slice(start, end))) &&
      !secretObjectName(text.slice(start, end), name)
    ) {
      out.push({ start, end });
    }
    // The match may run past an unquoted value's end (to a blank): go on from where it ends.
    from = end ?? start;
  }
  return out;
}

/**
 * A name that holds the name of a Kubernetes Secret object, not a secret: Helm charts'
 * `existingSecret` (`auth.existingSecret`, `existingSecretName`), `configFromSecret`,
 * `secretName`, `secretRef`.
 */
const SECRET_OBJECT_KEY =
  /(?:existing[_-]?(?:[A-Za-z]{1,32}[_-]?)?secret(?:[_-]?name)?|from[_-]?secret|secret[_-]?(?:name|ref))(?:(?:\\)?\\?["'])?\]?[ \t]{0,16}$/i;
/** A Kubernetes object's name: lower-case letters, digits, `-` and `.` (`my-data-source`). */
const OBJECT_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/** Whether `value` under `name` is the name of a Secret object (`existingSecret: "my-db"`). */
function secretObjectName(value: string, name: string): boolean {
  return OBJECT_NAME.test(value) && SECRET_OBJECT_KEY.test(name);
}

/**
 * A connection string's value in braces (ODBC's and JDBC's SQL Server's `PWD={…}`), at `start`
 * (its `{`): the text inside when a `;`, a quote, a blank or the line's end follows the `}`, and it
 * reads as a password (a format's `{password}` is a name of code).
 */
/** A connection string's member's name before its `=`: after a `;`. */
const MEMBER_NAME = /;[ \t]{0,16}[A-Za-z][\w ]{0,48}$/;
const BRACED = /\{(?<v>[^{}\s"'$]{6,256})\}(?=[;"'\s]|$)/y;
function bracedPassword(text: string, start: number): { start: number; end: number } | undefined {
  BRACED.lastIndex = start;
  const v = BRACED.exec(text)?.groups?.v;
  if (!v || !passwordLike(v, false)) return undefined;
  return { start: start + 1, end: start + 1 + v.length };
}

/**
 * A name that ends an absolute path in a string, its closing quote and blanks after it
 * (`"file:///etc/passwd" >`): a file's name, not a value's (`"db/password": …` is a key).
 */
const PATH_FILE_NAME = /(?:^|[\s"'=]|file:\/\/)(?:\/[\w.-]{1,64}){2,16}\\?["'][ \t]{0,16}$/;

/** `PASS` alone, its `:` and a test's name (`PASS: TestTC39`): a test runner's verdict. */
const TEST_VERDICT = /(?:^|[^A-Za-z0-9_])PASS:[ \t]{1,4}Test[A-Z0-9_]/;
/** A line of code that opens a switch's case, up to its label's `:` (`case Verdict.Pass`). */
const SWITCH_CASE = /^[ \t]{0,64}case[ \t][^:]{0,256}$/;

/**
 * The text of the line that holds `text[at]`, up to `at` (256 characters at most: a search back
 * to the line's start on a long line, from each operator, was quadratic).
 */
function lineBefore(text: string, at: number): string {
  const before = text.slice(Math.max(0, at - 256), at);
  return before.slice(before.lastIndexOf("\n") + 1);
}

/** The named-value patterns tried at one position each (see {@linkcode nameSpots}). */
const NAMED_VALUE_AT = new RegExp(NAMED_VALUE.source, "iy");
const NAMED_TOKEN_AT = new RegExp(NAMED_TOKEN.source, "y");
const NAMED_PASSWORD_AT = new RegExp(NAMED_PASSWORD.source, "y");
/**
 * A name whose last word is `token` (`token`, `githubToken`, `BOT_TOKEN`) that is not a
 * {@linkcode PASSWORD_NAME}: {@linkcode NAMED_PASSWORD} with it, for {@linkcode MARKED_PASSWORD}s.
 */
export const TOKEN_PASSWORD: RegExp = new RegExp(
  NAMED_PASSWORD.source.replace(
    `(?<=${PASSWORD_NAME}`,
    "(?<=(?:(?<![A-Za-z])(?:token|Token|TOKEN)|(?<=[a-z0-9])Token)",
  ),
  "g",
);
const TOKEN_PASSWORD_AT = new RegExp(TOKEN_PASSWORD.source, "y");
/**
 * A password as people make them, under a token's name (`token = "Tr0ub4dor&3xY!q"`): 8 to 64
 * characters with no blank, a small letter, a capital, a digit and a password's mark. A token's
 * own characters (`-_./+=`) are the token rule's, and a name of code or a lexer's token
 * (`"&&"`, `"<=>"`) has not all four.
 */
const MARKED_PASSWORD =
  /^(?=[^a-z]{0,63}[a-z])(?=[^A-Z]{0,63}[A-Z])(?=[^0-9]{0,63}[0-9])(?=[^!#%&*?~^@]{0,63}[!#%&*?~^@])(?![^@]{0,63}@[\w-]{1,63}\.[a-z])[^\s$]{8,64}$/;

/** The value at `m` (a {@linkcode TOKEN_PASSWORD_AT} match) when it reads as a person's password. */
function tokenPassword(
  text: string,
  m: RegExpExecArray,
  start: number,
): { start: number; end: number } | undefined {
  const end = passwordEnd(text, m, start);
  if (end === undefined || !MARKED_PASSWORD.test(text.slice(start, end))) return undefined;
  return { start, end };
}

/**
 * The matches of a sticky `pattern` at the positions `at` (ascending), each tried from where the
 * last match ended: what a search over the whole text finds when every match starts at one of them.
 */
function* matchesAt(pattern: RegExp, text: string, at: number[]): Generator<RegExpExecArray> {
  let from = 0;
  for (const i of at) {
    if (i < from) continue;
    pattern.lastIndex = i;
    const m = pattern.exec(text);
    if (!m) continue;
    from = i + m[0].length;
    yield m;
  }
}

/** A number literal: hex, or digits (with `_` or one `.`). */
const NUMBER = /^(?:0[xX][0-9A-Fa-f_]+|[0-9][0-9_]*(?:\.[0-9]+)?)$/;
/** A name whose word is `pass` (not `password`), right before its operator. */
const PASS_WORD_BEFORE =
  /(?<![A-Za-z])(?:pass|Pass|PASS)(?:\\\\)?\\?["']?\]?[ \t]{0,64}$|(?<=[a-z0-9])Pass(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/;

/** A quoted value with escapes in it (`ab\"cd`), up to its closing quote, by its quote. */
const ESCAPED_VALUE: Record<string, RegExp> = {
  '"': /(?:[^"\\\r\n\t]|\\[^\r\n]){0,512}/y,
  "'": /(?:[^'\\\r\n\t]|\\[^\r\n]){0,512}/y,
  "`": /(?:[^`\\\r\n\t]|\\[^\r\n]){0,512}/y,
};

/**
 * Whether an unquoted `value` after the name at `at` is a number literal of code
 * (`STENCIL_PASS_DEPTH_PASS: 0x0B96`): digits alone are a password under a password's name
 * (`DB_PASSWORD=12345678`), not under `pass` (a render pass, a count).
 */
function codeNumber(text: string, at: number, value: string): boolean {
  if (!NUMBER.test(value)) return false;
  // (after `=>`, a number in a PHP or Ruby array or hash: `'password' => 10000000`)
  return /^0[xX]/.test(value) || text.startsWith("=>", at) ||
    PASS_WORD_BEFORE.test(text.slice(Math.max(0, at - 24), at));
}

/** Where the password of a {@linkcode NAMED_PASSWORD} match at `start` ends; undefined: none. */
function passwordEnd(text: string, m: RegExpExecArray, start: number): number | undefined {
  const { op, gap, q } = m.groups!;
  let value = m.groups!.v;
  let printed = false;
  // A quoted value as long as the pattern reads goes on to its closing quote.
  if (value.length === 256) {
    value = text.slice(start, runEnd(q ? LONG_QUOTED : LONG_UNQUOTED, text, start + 256));
  }
  // One quote: the value ends at it (other quotes are part of it); unquoted, or an escaped,
  // entity or triple quote: at any quote.
  const close = q.length === 1 ? value.indexOf(q) : value.search(/["'`]/);
  if (close >= 0) value = value.slice(0, close);
  else if (
    q.length === 1 && text[start + value.length] === "\\" &&
    (text[start + value.length + 1] === q || /[$`!]/.test(text[start + value.length + 1] ?? ""))
  ) {
    // An escaped quote inside (`"ab\"cd"`), or a shell's escaped `$`, `` ` `` or `!`
    // (`"ab\$cd"`): the value goes on to its closing quote (other escapes are a pattern's:
    // `"\d{8}"`, `"[\w\-]{12,}"`).
    ESCAPED_VALUE[q].lastIndex = start;
    value = ESCAPED_VALUE[q].exec(text)![0];
  }
  if (!q) {
    // A blank ends it, and a sentence's full stop is not part of it.
    const blank = value.indexOf(" ");
    value = withoutFullStops(blank < 0 ? value : value.slice(0, blank));
    const stop = text.slice(start, start + value.length + 1).search(UNQUOTED_STOP);
    // (a random key of marks keeps its own: Django's `…))ic*0^3(6m)&qw4…`)
    if (stop >= 0 && !markedKey(value)) value = value.slice(0, stop);
    // A name that is a call's keyword argument or an option list's item (after a `(` or a `,`:
    // `connect(user=u,password=pw,host=h)`, `mount -o user=bob,password=…,uid=0`): the next
    // item's `,name=` ends its value. A value written on its own (`PASSWORD=a,b=c` in `.env`)
    // keeps its commas.
    const next = value.search(NEXT_ITEM);
    if (next >= 0 && LIST_ITEM_NAME.test(nameBefore(text, m.index))) value = value.slice(0, next);
    // a terminal's colours for a file name (`LS_COLORS`' `*passwd=0;38;5;149:*.swift=…`)
    if (COLOR_CODES.test(value) && colorEntry(text, m.index, value)) return undefined;
    printed = op === ":" && !gap && printedField(text, m.index, start + value.length, value);
    if (op === ":" && !gap && !printed) return undefined;
  } else if (op === ">") return undefined;
  else if (q.length > 1 && value.includes(q)) value = value.slice(0, value.indexOf(q));
  const end = start + value.length;
  if (!endsValue(text, end, q) || (op === ">" && text[end] !== "<")) return undefined;
  // Unquoted after `: ` or ` = ` and followed by more words on its line: prose (`pwd: expected
  // bytes, got …`). Written `NAME=value`, it is a value whatever follows.
  const spaced = op === ":" || /[ \t]/.test(text[m.index + op.length] ?? "");
  if (!q && spaced && !printed && wordsAfter(text, end)) return undefined;
  // The text of an element named by the name (`<apikey>…</apikey>`) is a value, not code, as a
  // quoted one is (after an attribute's quote, `class="api_key">…`, it is markup's text).
  const element = op === ">" && !/["']/.test(text[m.index - 1] ?? "");
  if (!q && !element && codeNumber(text, m.index, value)) return undefined;
  // A name of code by where it stands: a ternary's branch, the end of a statement.
  if (!q && !element && codeByPlace(text, m.index, start, end)) return undefined;
  // A shell test's comparison (`test "$linkmode,$pass" = "lib,link"`), as `==` is elsewhere.
  if (op === "=" && shellComparison(text, m.index)) return undefined;
  // (unquoted, `%20` is a form body's blank: `password=secure%20password` is two words)
  if (!passwordLike(q ? value : value.replaceAll("%20", " "), !!q || element)) return undefined;
  // A test's value that spells its name and a counter (`AccessToken: "ACCESSX1"`).
  return echoesName(value, nameBefore(text, m.index)) ? undefined : end;
}

/**
 * Whether `Name:value` with no blank after its `:` (code's `password:string`, a namespace's
 * `ns:name`, is none) is a field of a struct a logger printed (Go's `%+v`:
 * `{Host:db User:app Password:… SSLMode:disable}`): the name after a `{`, `(` or a blank (not a
 * `,`: minified code's `{password:!0,image:!0}`), the value from a letter or digit (a shell's
 * `${PASSWORD:-…}` is a default's) with no separator of code in it,
 * the next field (`Name:`), a closing bracket or the line's end after the value, and the value a
 * password's shape (letters and digits, with both cases or a mark).
 */
function printedField(text: string, op: number, end: number, value: string): boolean {
  const name = /[A-Za-z_][\w.-]{0,63}$/.exec(nameBefore(text, op))?.[0] ?? "";
  const before = text[op - name.length - 1];
  if (name.length < 2 || (before !== undefined && !/[\s{(]/.test(before))) return false;
  if (/[,:;{}()[\]]/.test(value) || !/^[A-Za-z0-9]/.test(value)) return false;
  if (
    !/^(?:[ \t]{1,16}[A-Za-z_][\w.]{0,63}:|[ \t]{0,16}[})\]]|[ \t]{0,16}\r?$)/.test(
      text.slice(end, end + 80).split("\n")[0],
    )
  ) return false;
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) &&
    (/[A-Z]/.test(value) && /[a-z]/.test(value) || /[^A-Za-z0-9]/.test(value));
}

/**
 * Whether `value` is base64 of a PEM block that is public: a certificate, a public key, a
 * certificate request (a kubeconfig's `certificate-authority-data`, `client-certificate-data`).
 */
function publicPemBase64(value: string): boolean {
  if (!value.startsWith("LS0tLS1CRUdJTi")) return false;
  try {
    return /^-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}(?:CERTIFICATE|PUBLIC KEY|CERTIFICATE REQUEST|X509 CRL)-----/
      .test(atob(value.slice(0, 64)));
  } catch {
    return false;
  }
}

/** A hex value of one digit repeated (`0000…`, `ffff…`): a sample config's stand-in for a key. */
function oneDigit(value: string): boolean {
  return new Set(value.toLowerCase()).size === 1;
}
