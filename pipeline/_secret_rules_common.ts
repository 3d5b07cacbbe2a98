/**
 * The pieces every family of secret rules shares (`secret_rules.ts` is the public face): the
 * types of a match, a shape and a text's hints, what a placeholder and a random token look like,
 * and the small readers the rules written as code call.
 *
 * @module
 */

/** A span of a text that holds a secret, and the rule that found it. */
export interface SecretMatch {
  /** First character of the value. */
  start: number;
  /** One past its last character. */
  end: number;
  /** The label of the rule (`[REDACTED:<label>]`). */
  rule: string;
}

/** One credential shape. */
export interface SecretShape {
  /** Unique id (the knowledge scrubber names its findings by it). */
  id: string;
  /** Shown as `[REDACTED:<label>]` in documents; several shapes may share one (`aws`). */
  label: string;
  /** What it matches, for the docs. */
  kind: string;
  /** Literal substrings one of which every match holds: a text with none skips the rule. */
  hints: string[];
  /** Global pattern; the value is group `v` when the pattern has it, else the whole match. */
  pattern?: RegExp;
  /** Whether a match stands (`value`: the matched value). @default {always} */
  accept?: (value: string, text: string, start: number, end: number) => boolean;
  /**
   * A rule written as code: every value span of `text`; `hints` are those of `text` (one search
   * for every rule of a text), found again when not given; `path` is the file's, when the text is
   * one (a checksum file's digest is no key).
   */
  find?: (
    text: string,
    hints?: TextHints,
    path?: string,
  ) => Array<{ start: number; end: number; rule?: string }>;
  /** Only for prose (chat messages, knowledge lines), never for source files. */
  prose?: boolean;
  /**
   * Runs only on texts where {@linkcode TOKEN_GATE} finds a prefix that starts with one of these
   * characters (`A` for `AKIA…` and `AIza…`, `-` for `sk-…`, …), or where {@linkcode textHints}
   * finds an option (`u` for `-u` and `--user`, `o` for `--password` and the like).
   */
  gate?: string;
  /**
   * What may continue a token past its pattern's match (sticky, zero or more characters): the
   * match is redacted to the end of this run, however long (a key longer than its rule's bound,
   * or with a `-` or `_` and more after its body), never cut there nor dropped.
   */
  run?: RegExp;
  /**
   * Whether a match whose run goes on past it is still a token (`value`: the pattern's match, as
   * `accept` sees it): for a prefix that is a common word (`re_`, `secret_`), whose name of code
   * can look like a token's start. @default {always}
   */
  longer?: (value: string) => boolean;
}

/** The hints of a text: the first characters of its `TOKEN_GATE` prefixes, its `PAIR_GATE` hints. */
export interface TextHints {
  /** The first character of each prefix found (each once): `A` for `AKIA`, `-` for `sk-`, … */
  families: string;
  /** The pair hints found (`v`, `alue:`, `alue"`, `alue=`, `(`, `w`). */
  pairs: Set<string>;
  /** Where names' operators may be ({@linkcode nameSpots}), once a rule has asked. */
  names?: NameSpots;
  /** Where the text's first `kie` is (`Cookie`, `set_cookie`; -1: none), once a rule has asked. */
  kie?: number;
}

/**
 * Where `text`'s first `kie` is (-1: none), searched once per {@linkcode TextHints}: the cookie
 * rules' shared gate (`Cookie:`, `setHeader('Set-Cookie', …)`, `res.cookie(`), from its rare `k`
 * (a search from `o`, `ookie`, stops at every `o` of a text).
 *
 * @example
 * ```ts
 * import { cookieAt } from "./_secret_rules_common.ts";
 * cookieAt("res.cookie('a', 'b')"); // 7
 * ```
 */
export function cookieAt(text: string, hints?: TextHints): number {
  if (!hints) return text.indexOf("kie");
  return hints.kie ??= text.indexOf("kie");
}

/** Where the operators of names' values may be in a text. */
export interface NameSpots {
  /** Each `:`, `=` and `>` where a name's rest (`TOKEN_NAME_REST`) ends. */
  operators: number[];
  /** Each `:` and `=` where the rest of a name (`VALUE_NAME_REST`) ends. */
  valueOperators: number[];
  /** Where each `mysql`, `sshpass`, `redis-cli`, `rclone` or SQL `identified` ends, and which. */
  commands: Array<{ at: number; kind: "mysql" | "sshpass" | "redis-cli" | "sql" | "rclone" }>;
  /**
   * Where each `passw` word (any case) ends: SQL's `PASSWORD '…'` starts there; and each `*assw`
   * (an `expect`'s `"*assword*"`).
   */
  passwords: number[];
  /**
   * Where each `auth` and `credential` word (any case) ends: a credentials call's name holds one
   * (`HTTPBasicAuth(`, `NetworkCredential(`, `auth=(`).
   */
  calls: number[];
  /** Where each camel case name's `Pat` ends (`adoPat`: an Azure DevOps PAT's name). */
  pats: number[];
  /**
   * Where each `Bearer` (any case) with a blank or a quote after it ends: a token may follow
   * (`"Bearer …"`, `("Bearer", "…")`).
   */
  bearers: number[];
  /**
   * Each `,`, `)`, `|`, `?` and `{` where a name's rest ends instead of at an operator: a default
   * may follow (`getenv("DB_PASSWORD", "…")`, `env.DB_PASSWORD || "…"`, `variable "db_password" {`).
   */
  rests: number[];
  /** Where each `requirepass` ends (Redis's password directive), found by the `pass` search. */
  directives: number[];
  /**
   * Where a name's rest ends at what declares it in code rather than at an operator: a type's
   * first letter (Go's `apiSecret string = "…"`), an array's `[` (C's `kSecret[] = "…"`), a
   * quote (`#define API_KEY "…"`), a call's `(` (`SecretValue.plainText("…")`).
   */
  declared: number[];
  /**
   * Where each password's word in another language than English ends (`senha`, `contraseña`,
   * `Kennwort`, `wachtwoord`, `hasło`, `heslo`, `mot_de_passe`, `passord`, `şifre`, `пароль`, `密码`, `パスワード`, `비밀번호`).
   */
  foreign: number[];
  /**
   * Where each word ends after which a command or a format writes a secret by position, and which:
   * `ngrok authtoken` and `add-authtoken`, `wpa_passphrase`, GitHub Actions' `::add-mask::`,
   * `db2 connect`, a Wi-Fi `psk =` (Nix's `.psk = "…"`), FreeRDP's `xfreerdp` (its `/p:`),
   * `wandb login`, `algoliasearch(` and Algolia's `SearchClient` (hex keys by position).
   */
  positions: Array<
    {
      at: number;
      kind:
        | "ngrok"
        | "wpa"
        | "mask"
        | "db2"
        | "psk"
        | "rdp"
        | "wpacli"
        | "iwkey"
        | "ftp"
        | "wandb"
        | "algolia"
        | "algoliaClient";
    }
  >;
}

/** Characters of a token in base64url / base62 shapes, for the start of a match. */
const NOT_BEFORE = "(?<![A-Za-z0-9_-])";

/** A placeholder, not a value: `your-api-key-here`, `${VAR}`, `<secret>`, `changeme`, `xxxx`, `****`. */
export const PLACEHOLDER: RegExp =
  /[${}<>%[\]()]|^(?:x+|\*+|\.+|-+|#+)$|your|example|placeholder|changeme|change_me|dummy|sample|redacted|here$|^(?:pass(?:word|wd)?|pwd|secret|token|user(?:name)?|foo|bar|foobar|test|admin|root|guest|none|null|empty|string)$/i;

/**
 * Whether `value` is a placeholder rather than a credential.
 *
 * @example
 * ```ts
 * import { isPlaceholder } from "./secret_rules.ts";
 * isPlaceholder("your-api-key-here"); // true
 * isPlaceholder("${DB_PASSWORD}"); // true
 * isPlaceholder("Xk29fjQ02aLp"); // false
 * ```
 */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || PGP_MESSAGE.test(value) || alphabetRun(value);
}

/**
 * Whether `value` (12+ characters) is the alphabet or the digits written out in runs of 4 or
 * more, forwards or backwards (`abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`,
 * `0123456789abcdef`, `ponmlkjihgfedcba`): a test's stand-in for a key, typed, not generated.
 *
 * @example
 * ```ts
 * import { alphabetRun } from "./_secret_rules_common.ts";
 * alphabetRun("abcdefghijklmnopqrstuvwxyz0123456789"); // true
 * alphabetRun("ponmlkjihgfedcbaponmlkjihgfedcba"); // true
 * alphabetRun("abcdefq8Zp3LmW0xRt7YvKd2Nj"); // false
 * ```
 */
export function alphabetRun(value: string): boolean {
  if (value.length < 12 || value.length > 256) return false;
  // `run`: the length of the run that ends at `i - 1`; `step`: its direction, +1 or -1 (0 while
  // it is one character long)
  let run = 1;
  let step = 0;
  for (let i = 1; i <= value.length; i++) {
    const d = i < value.length ? value.charCodeAt(i) - value.charCodeAt(i - 1) : 0;
    if ((d === 1 || d === -1) && (step === 0 || d === step)) {
      run++;
      step = d;
      continue;
    }
    if (run < 4) return false;
    run = 1;
    step = 0;
  }
  return true;
}

/**
 * An OpenPGP message in base64 without its armor (a public-key encrypted session key packet
 * first: `wcBMA…`, `wcFMA…`, `wV4D…`, `hQEMA…`): encrypted for a key, as Renovate's
 * `encrypted` settings hold tokens; no secret in the clear.
 */
const PGP_MESSAGE = /^(?:wc[B-F]MA|wV4D|wV5G|hQ[EI]MA)[A-Za-z0-9+/]{80,65536}={0,2}$/;

/**
 * A test's value that says it is one: words and numbers joined by `-`, `_`, `:`, `.` or `/`, each
 * part letters alone (12 at most: words) or digits alone, one of them `test`, `fake`, `mock`,
 * `stub` or `fixture` (`test_api_key_0001`, git's `builtin:test_00000001:0`). A generated value
 * mixes letters and digits within its parts (`test_Pa55w0rd9`), a provider's token has a random
 * part longer than a word (`sk_test_…`).
 *
 * @example
 * ```ts
 * import { testValue } from "./_secret_rules_common.ts";
 * testValue("builtin:test_00000001:0"); // true
 * testValue("test_Pa55w0rd9"); // false
 * ```
 */
export function testValue(value: string): boolean {
  const parts = value.split(/[-_:./]/);
  if (
    parts.length < 2 || !parts.every((part) => /^(?:[A-Za-z]{1,12}|[0-9]{1,16})$/.test(part)) ||
    !parts.some((part) => TEST_WORD.test(part))
  ) {
    return false;
  }
  // With no number, every word must be one a stand-in is made of (`test-only`,
  // `fake-user-password`): a passphrase of other words is one (`test-river-stone-maple`).
  return parts.some((part) => /^[0-9]+$/.test(part)) ||
    parts.every((part) => TEST_WORD.test(part) || STAND_IN_WORD.test(part));
}

/** The words that say a value is a test's: `test`, `fake`, `mock`, `stub`, `fixture`. */
const TEST_WORD = /^(?:test(?:ing|s)?|fake|mock|stub|fixture|dummy)$/i;
/** Words a test's stand-in is made of besides those: what it stands in for, and where. */
const STAND_IN_WORD =
  /^(?:[a-z]{1,2}|api|app|key|keys|token|secret|pass|password|passwd|pwd|pw|passphrase|value|val|user|username|client|access|auth|jwt|session|cookie|salt|hmac|signing|signature|sig|private|bearer|webhook|encryption|master|refresh|credentials?|db|database|admin|root|account|service|bot|code|hash|payload|string|str|only|do|not|use|for|the|my|dev|local|ci|env|data|id|example|sample|placeholder|here|prod|staging|default|demo|unit|integration|e2e|spec|dev)$/i;

/**
 * Whether `value` spells the name written before it (`name`: the text before the operator), its
 * last word or the whole name, then `x`s and a counter, or another of its words then `x`s and a
 * counter: a test's value that names its field (`AccessToken: "ACCESSX1"`, `secret:
 * "secret_02"`, `apiToken: "apitoken1"`). Words of 4+ letters; `secretive_02` or `password123`
 * under `MLAB_PASS` spell no word of theirs. Another word with no `x` is a service's default
 * password, not a test's echo (`postgres123` under `POSTGRES_PASSWORD`).
 *
 * @example
 * ```ts
 * import { echoesName } from "./_secret_rules_common.ts";
 * echoesName("ACCESSX1", '\tcfg := Config{AccessToken'); // true
 * echoesName("ACC9zq7X1", "AccessToken"); // false
 * echoesName("postgres123", "POSTGRES_PASSWORD"); // false
 * ```
 */
export function echoesName(value: string, name: string): boolean {
  const last = /([A-Za-z][A-Za-z0-9_.-]{0,63})(?:\\\\)?\\?["']?\]?[ \t]{0,64}$/.exec(name)?.[1];
  if (!last) return false;
  const words = last.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[ _.-]+/);
  const own = new Set([words[words.length - 1], words.join("")]);
  const lower = value.toLowerCase();
  return [...words, words.join("")].some((word) => {
    if (word.length < 4 || !lower.startsWith(word)) return false;
    const rest = lower.slice(word.length);
    return own.has(word) ? /^x*[-_]?[0-9]{0,8}$/.test(rest) : /^x+[-_]?[0-9]{0,8}$/.test(rest);
  });
}

/**
 * `value` without the full stops that end it (a sentence's, not part of a value), in one pass from
 * its end: `/\.+$/` would read each run of dots to its end from each of its dots.
 *
 * @example
 * ```ts
 * import { withoutFullStops } from "./_secret_rules_common.ts";
 * withoutFullStops("S3cr3t9x.."); // "S3cr3t9x"
 * ```
 */
export function withoutFullStops(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 46) end--;
  return value.slice(0, end);
}

/** Upper case, lower case and digits, 20+ characters: a random token, not a word or a name. */
export function looksRandom(value: string): boolean {
  return value.length >= 20 && /[A-Z]/.test(value) && /[a-z]/.test(value) &&
    /[0-9]/.test(value) && !isPlaceholder(value) &&
    // a member access (`config.secrets.apiKey2024`) or a path of words (`src/utils/db2`) is
    // code, not a value; base64 with `/` in it (`SwuQByNRHe/PF2Ua/…`) is
    !memberOfCode(value) &&
    !/^[A-Za-z_$][a-z0-9_$-]*(?:\/[A-Za-z_$][a-z0-9_$-]*)+$/.test(value);
}

/**
 * Whether `value` reads as a random key of letters, digits and the marks `!@#$%^&*(-_=+)`, as
 * Django's `get_random_secret_key()` writes one (50 of `a-z0-9` and those marks): 40 to 64 of
 * them, 3+ digits, 8+ letters, 3+ different marks of `!@#$%^&*()`, half its characters different.
 * Its marks spell a reference's opener by chance (`%(`, `$(`, a leading `$`: one key in seven) and
 * a call's parentheses (most keys), which the password rules read as a reference or as code.
 *
 * @example
 * ```ts
 * import { markedKey } from "./_secret_rules_common.ts";
 * markedKey("6y%n&a%(44k^ufb2dmd0pd+cv#7i1ry999p4kpn3zvzrtd5gmx"); // true
 * markedKey("%(database_password_for_production_use)s"); // false (no digits, few marks)
 * ```
 */
export function markedKey(value: string): boolean {
  if (saltKey(value)) return true;
  if (!MARKED_KEY.test(value)) return false;
  const digits = value.replace(/[^0-9]/g, "").length;
  const letters = value.replace(/[^A-Za-z]/g, "").length;
  return digits >= 3 && letters >= 8 && new Set(value.replace(/[^!@#$%^&*()]/g, "")).size >= 3 &&
    new Set(value).size * 2 >= value.length;
}

/**
 * WordPress's generated keys and salts (`AUTH_KEY`, `NONCE_SALT`: 64 characters of letters,
 * digits and the marks of `[]{}<>~+=,.;:/?|!@#$%^&*()-_`): many of each kind, and few repeats,
 * which code of the same length (a pattern, a path) has not.
 */
function saltKey(value: string): boolean {
  if (value.length !== 64 || !/^[A-Za-z0-9!@#$%^&*()\-_\[\]{}<>~+=,.;:\/?|`]{64}$/.test(value)) {
    return false;
  }
  const kinds = [/[a-z]/g, /[A-Z]/g, /[0-9]/g, /[^A-Za-z0-9]/g].map((k) =>
    value.match(k)?.length ?? 0
  );
  return kinds[0] >= 8 && kinds[1] >= 8 && kinds[2] >= 3 && kinds[3] >= 8 &&
    new Set(value).size >= 36;
}

/** 40 to 64 of the characters of Django's generated keys (both cases). */
const MARKED_KEY = /^[A-Za-z0-9!@#$%^&*(\-_=+)]{40,64}$/;

/**
 * How `value` mixes letters and digits: its digits, and its changes between a letter and a
 * digit; other characters are passed over (`a-1` has one change).
 *
 * @example
 * ```ts
 * import { digitMix } from "./_secret_rules_common.ts";
 * digitMix("a1b2"); // { digits: 2, changes: 3 }
 * ```
 */
export function digitMix(value: string): { digits: number; changes: number } {
  let digits = 0;
  let changes = 0;
  let last = ""; // "a" letter, "9" digit
  for (const c of value) {
    const kind = c >= "0" && c <= "9" ? "9" : /[A-Za-z]/.test(c) ? "a" : "";
    if (!kind) continue;
    if (kind === "9") digits++;
    if (last && kind !== last) changes++;
    last = kind;
  }
  return { digits, changes };
}

/**
 * Letters and digits mixed as a generated key mixes them, in one case or both (`o8oqti3tghu2…`,
 * `K7SOW2B8…`, a UUID): 16+ characters, 3+ of them digits, and 4+ changes between a letter and a
 * digit, one per 8 characters at least, and not two words among its parts. Words and numbers
 * joined (`build-2024-linux-x64`, `sha256_hmac_v2_compat`, `config.v1.2`) are names; a path or a
 * member access is code.
 */
export function looksGenerated(value: string): boolean {
  if (value.length < 16 || isPlaceholder(value)) return false;
  const { digits, changes } = digitMix(value);
  // Two or more words among its parts (`sha256_hmac_v2_compat`): a name, not a key.
  const words = value.split(/[-_.~+/=]/).filter((part) => /^[A-Za-z]{3,}$/.test(part)).length;
  return digits >= 3 && changes >= 4 && changes * 8 >= value.length && words < 2 &&
    !memberOfCode(value) &&
    !/^[A-Za-z_$][a-z0-9_$-]*(?:\/[A-Za-z_$][a-z0-9_$-]*)+$/.test(value);
}

/**
 * Whether `value` reads as a member access of code (`config.secrets.apiKey2024`): names joined by
 * `.`, none of them generated. A token whose prefix ends in a `.` reads so too, but its part after
 * it is a generated key of 16+ characters: a Vault token (`s.Z4bTMtngfLeQ18AqVoBBkUAOD1`,
 * `hvs.…`), a Kubernetes bootstrap token (`be8dfd.da8a689a46edc282`).
 */
function memberOfCode(value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  return !value.split(".").some((part) => part.length >= 16 && looksGenerated(part));
}

/**
 * Whether `value`, 16 to 256 letters and nothing else, reads as random letters rather than words
 * or a name of code: few vowels (random letters hold about one in five, words and names of code
 * two in five), a run of 4+ letters with no vowel (`y` counted as one), and, in mixed case, about
 * as many case changes as a random value has (`getJSDocReturnTag` changes case 6 times in 17
 * letters, a random value about 8); not the alphabet in order (`abcdefgh…`) nor few characters
 * (`vvvv…`). A few long names of code pass (`XMLHttpRequestEventMap`, `isJSDocThrowsTag`), and
 * most random values do, the more the longer they are.
 *
 * @example
 * ```ts
 * import { randomLetters } from "./_secret_rules_common.ts";
 * randomLetters("sampleHerokuKey"); // false (15 letters, and words)
 * randomLetters("kXqPzRtWvBnMlYhGfD"); // true
 * ```
 */
export function randomLetters(value: string): boolean {
  const n = value.length;
  if (n < 16 || n > 256 || !/^[A-Za-z]+$/.test(value) || fewCharacters(value)) return false;
  if (
    /abcd|bcde|cdef|defg|efgh|fghi|ghij|hijk|ijkl|jklm|klmn|lmno|mnop|nopq|opqr|pqrs|qrst|rstu|stuv|tuvw|uvwx|vwxy|wxyz/i
      .test(value)
  ) return false;
  const vowels = value.replace(/[^aeiouAEIOU]/g, "").length;
  const upper = value.replace(/[^A-Z]/g, "").length;
  if (!/[^aeiouyAEIOUY]{4}/.test(value)) return false;
  if (upper === 0 || upper === n) return vowels <= n * 0.25 && /[^aeiouyAEIOUY]{5}/.test(value);
  if (upper < n * 0.25 || upper > n * 0.75 || vowels > n * 0.3) return false;
  let changes = 0;
  for (let i = 1; i < n; i++) if ((value[i] < "a") !== (value[i - 1] < "a")) changes++;
  return changes >= n * 0.3;
}

/** `source` in either case, letter by letter (`[Kk][Ee][Yy]` for `key`), so no `i` flag is needed. */
export function anyCase(source: string): string {
  return source.replace(/(?<!\\|\[[^\]]*)[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
}

/** The rest of a token that a pattern's bound cut (64 KB at most: a key, not a file). */
export const LONG_TOKEN = /[A-Za-z0-9_\-.~+/]{0,65536}={0,2}/y;
/** The rest of a quoted password that a pattern's bound cut, up to its line's end. */
export const LONG_QUOTED = /[^\r\n"'`\\]{0,4096}/y;
/** The rest of an unquoted password that a pattern's bound cut, up to a blank. */
export const LONG_UNQUOTED = /[^\s"'`\\]{0,4096}/y;
/** The rest of a pair's value past the part read at once, with its closing quote. */
export const LONG_PAIR_VALUE = /[^\s"'`<]{0,65536}["'`]?/y;

/** Where a run of `pattern` (sticky) that starts at `at` ends. */
export function runEnd(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return at + pattern.exec(text)![0].length;
}

/** The name before an operator at `at` (up to 64 characters back, on its line). */
export function nameBefore(text: string, at: number): string {
  // Read back 64 characters at most: `lastIndexOf` would read to the text's start on a text
  // without newlines, for every match.
  let start = at;
  while (start > 0 && start > at - 64 && text.charCodeAt(start - 1) !== 10) start--;
  return text.slice(start, at);
}

/**
 * The run of a token's characters (`[A-Za-z0-9_-]`) that continues a prefixed token: its shapes
 * take it as their `run`, so a key is redacted to the run's end (a lookahead that a token must end
 * at its rule's bound dropped a longer key whole; a bounded tail left what lay past it).
 */
export const TOKEN_RUN = /[A-Za-z0-9_-]*/y;

/** {@linkcode TOKEN_RUN} of a token in base64 (`+`, `/` and `=` too). */
export const BASE64_RUN = /[A-Za-z0-9+/=_-]*/y;

/** {@linkcode TOKEN_RUN} of a token that holds `.` and `=` (a `.` only before more of it). */
export const DOTTED_RUN = /(?:[A-Za-z0-9=_-]|\.(?=[A-Za-z0-9=_-]))*/y;

/**
 * A known prefix, then a bounded run of token characters (its shape's `run` reads the rest).
 *
 * @example
 * ```ts
 * import { token } from "./_secret_rules_common.ts";
 * token("npm_", "[A-Za-z0-9]", 36).test("npm_" + "aB3".repeat(12)); // true
 * ```
 */
export function token(prefix: string, body: string, min: number, max = 255): RegExp {
  return new RegExp(`${NOT_BEFORE}${prefix}${body}{${min},${max}}`, "g");
}

export const B62 = "[A-Za-z0-9]";
export const B64URL = "[A-Za-z0-9_-]";

/**
 * Whether a token is a placeholder: few distinct letters and digits among its last 20 (`ghp_xxxx…`,
 * `glc_1111…`, `github_pat_xxxx…`, `xoxb-xxxx-xxxx`). A generated token's last 20 hold 11 or more
 * (hex about 12, base62 about 17).
 *
 * @example
 * ```ts
 * import { fewCharacters } from "./_secret_rules_common.ts";
 * fewCharacters("ghp_" + "x".repeat(36)); // true
 * fewCharacters("ghp_Xk29fjQ02aLpWm81rTz6Yb4Nc7Vd3Hq0Gs5J"); // false
 * ```
 */
export function fewCharacters(value: string): boolean {
  const seen = new Set<string>();
  let n = 0;
  for (let i = value.length - 1; i >= 0 && n < 20; i--) {
    if (!/[A-Za-z0-9]/.test(value[i])) continue;
    n++;
    seen.add(value[i]);
  }
  return seen.size < 6;
}

/**
 * The last `needle` that starts at or before `at` and no more than `limit` characters before it,
 * or -1. A rule that looks back from each of its starts reads a bounded span this way: a plain
 * `lastIndexOf` reads back to the text's start when there is none, so a text of many starts and
 * no `needle` (one long line) cost the square of its length.
 *
 * @example
 * ```ts
 * import { lastIndexNear } from "./_secret_rules_common.ts";
 * lastIndexNear("a\nbc", "\n", 3, 64); // 1
 * lastIndexNear("a\nbc", "\n", 3, 1); // -1
 * ```
 */
export function lastIndexNear(text: string, needle: string, at: number, limit: number): number {
  const from = Math.max(0, at - limit);
  const found = text.slice(from, at + needle.length).lastIndexOf(needle);
  return found < 0 ? -1 : from + found;
}

/**
 * The first `needle` that starts at or after `at` and no more than `limit` characters after it,
 * or -1: the forward twin of {@linkcode lastIndexNear}, for a rule that looks ahead a bounded
 * span from each of its starts.
 *
 * @example
 * ```ts
 * import { indexNear } from "./_secret_rules_common.ts";
 * indexNear("ab\nc", "\n", 0, 64); // 2
 * indexNear("ab\nc", "\n", 0, 1); // -1
 * ```
 */
export function indexNear(text: string, needle: string, at: number, limit: number): number {
  const found = text.slice(at, at + limit + needle.length).indexOf(needle);
  return found < 0 ? -1 : at + found;
}
