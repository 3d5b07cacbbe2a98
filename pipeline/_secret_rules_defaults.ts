/**
 * The rule for a secret's default (`secret_rules.ts` is the public face): a value written as the
 * fallback of a secret read from elsewhere is a secret written in the file, whatever reads it
 * first. A reference's default (`${DB_PASSWORD:-…}` in a compose file, `${db.password:…}` in
 * Spring), an environment read's fallback (`os.getenv("API_KEY", "…")`, `ENV.fetch("…") { "…" }`,
 * `process.env.DB_PASSWORD || "…"`, Laravel's `env('DB_PASSWORD', '…')`, Swift's
 * `Environment.get("…") ?? "…"`, Dart's `String.fromEnvironment("…", defaultValue: "…")`), a template's
 * `db_password | default('…')` and a Terraform variable's `default` (`variable "db_password" {`).
 * Each is found from where a secret's name ends ({@linkcode NameSpots}), so a text without one
 * costs nothing.
 *
 * @module
 */

import {
  echoesName,
  indexNear,
  looksGenerated,
  looksRandom,
  type TextHints,
} from "./_secret_rules_common.ts";
import {
  KEY_NAME_END,
  NAMED_TOKEN_NAME_END,
  namesOf,
  PASSWORD_NAME_END,
  passwordLike,
} from "./_secret_rules_names.ts";
import { lettersPassword } from "./_secret_rules_letters.ts";

/**
 * A reference's default after its name: `:-`, `:=` or Spring's `:`, then the value and `}` (not
 * the shell's `:+`, a value used when the name is set, nor `:?`, the error when it is not).
 */
export const BRACE_DEFAULT: RegExp = /:(?![+?])[-=]?(?<v>[^\s{}"'`$\\]{1,256})\}/dy;
/** A call that reads the environment or a setting, right before a quoted name. */
const ENV_CALL =
  /(?:getenv|getEnv|get_env|Getenv|GetEnv|environ\.get|ENV\.fetch|\benv|getProperty|GetEnvironmentVariable|env_or|env_var_or|LookupEnv|getOrDefault|env::var|dotenv::var|\bvar|Environment\.get|fromEnvironment)\([ \t]{0,16}\\?["']$/;
/** Rust's environment read (`std::env::var("…")`, `dotenv::var`, `var` imported alone). */
const RUST_ENV = /(?:\bvar|env::var)\([ \t]{0,16}"$/;
/**
 * An environment object's member or subscript, up to the name's end (`process.env.DB_PASSWORD`),
 * or a configuration's subscript by a key of `:` or `.` parts (.NET's `Configuration["Jwt:Key"]`,
 * `config["api.token"]`), or any object's by a .NET configuration path (`c["Jwt:Key"]`: a section,
 * `:`, a key).
 */
const ENV_MEMBER =
  /(?:\benv\.|(?:\bENV|\benviron(?:ment)?|\$_ENV|\$_SERVER)\[["'])[A-Za-z0-9_]{1,64}$|(?:[Cc]onfig(?:uration)?|[Ss]ettings)\[["'][A-Za-z0-9_:.]{1,64}$|[\w\]]\[["'][A-Za-z0-9_.]{1,64}:[A-Za-z0-9_:.]{1,64}$/;
/**
 * Rust's fallback after an environment read: `.unwrap_or("…")`, `.unwrap_or_else(|_| "…")`, maybe
 * through `String::from(` or `.to_string()` (the value quoted).
 */
const UNWRAP_FALLBACK =
  /\)[ \t]{0,16}(?:\r?\n[ \t]{0,64})?\.unwrap_or(?:_else)?\([ \t]{0,16}(?:\|[^|\r\n]{0,16}\|[ \t]{0,16}(?:\{[ \t]{0,16})?)?(?:(?:String::from|Ok|Some)\([ \t]{0,16})?(?<q>")(?<v>[^"\r\n\\]{1,256})"/dy;
/** A call's fallback argument: `, "…"` (Dart's `, defaultValue: "…"`), the value quoted. */
const FALLBACK_ARGUMENT =
  /,[ \t]{0,16}(?:defaultValue:[ \t]{0,16})?\\?(?<q>["'])(?<v>[^"'\r\n\\]{1,256})\\?\k<q>/dy;
/**
 * A fallback after the call or the member: `) { "…" }`, `|| "…"`, `?? "…"`, `?: "…"`, `or "…"`,
 * and the assignments of one (`process.env.API_KEY ||= "…"`, `??=`, Ruby's `@api_key ||= "…"`).
 */
export const FALLBACK_AFTER: RegExp =
  /(?:\)|\])?[ \t]{0,16}(?:\{|\|\|=?|\?\?=?|\?:|\bor\b)[ \t]{0,16}(?<q>["'])(?<v>[^"'\r\n\\]{1,256})\k<q>/dy;
/** make's `?=` and its value to the line's end (a comment after it), quoted or not. */
const MAKE_DEFAULT =
  /\?=[ \t]{0,16}(?<q>["']?)(?<v>[^\s"'#$]{1,256})\k<q>[ \t]{0,16}(?:#[^\r\n]{0,256})?(?=\r?\n|$)/dy;
/**
 * After an `auth` name's operator: a user, `:` (or `/`, group `s`: Neo4j's `NEO4J_AUTH=neo4j/…`)
 * and a password (group `v`), quoted or not, to the value's end (not a URL: no `//` after the
 * `:`, no `@`).
 */
const USER_PASSWORD =
  /=?[ \t]{0,16}(?<q>["']?)(?<u>[A-Za-z0-9_.+-]{1,64})(?::(?!\/\/)|(?<s>\/))(?<v>[^\s"'`@:\/]{6,256})\k<q>(?=[\s,;}\]]|$)/dy;
/** A UUID (a key some services issue). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A password of letters, digits and one of a password's marks (not `_`, `-`, `.`, `:`, `/`). */
const MARKED_PASSWORD = /^(?=[^]*[A-Za-z])(?=[^]*[0-9])(?=[^]*[!@#%^&*+=~?$])[^\s]{6,256}$/;
/**
 * A block that gives a literal alone (FactoryBot's and Fabrication's attributes in Ruby:
 * `api_key { "…" }`, `password { '…' }`, and RSpec's `let(:admin_password) { "…" }`): a test's
 * fixture that reads as real.
 */
const BLOCK_LITERAL = /\{[ \t]{0,16}(?<q>["'])(?<v>[^"'\r\n\\]{1,256})\k<q>[ \t]{0,16}\}/dy;
/** RSpec's memoized helper before its name: `let(:`, `let!(:`, `subject(:`. */
const LET_BEFORE = /(?:^|[^\w.])(?:let!?|subject)\([ \t]{0,4}:$/;
/** After the helper's name: `) { "…" }`, the block that gives its literal (RSpec's `let`). */
const LET_LITERAL =
  /\)[ \t]{0,16}\{[ \t]{0,16}(?<q>["'])(?<v>[^"'\r\n\\]{1,256})\k<q>[ \t]{0,16}\}/dy;
/** A template's filter: `| default('…')`, `| default("…")`. */
const FILTER_DEFAULT = /\|[ \t]{0,16}default\([ \t]{0,16}(?<q>["'])(?<v>[^"'\r\n\\]{1,256})\k<q>/dy;
/** A Terraform variable's block opening, right before its quoted name: `variable "`. */
const VARIABLE_BLOCK = /\bvariable[ \t]{1,16}"$/;
/** A variable block's `default = "…"` line, up to the block's end. */
const VARIABLE_DEFAULT = /^[ \t]*default[ \t]*=[ \t]*"(?<v>[^"\r\n\\]{1,256})"/dm;

/**
 * The default of every secret read from elsewhere: see the module's text. The name must be a
 * password's, a token's or a secret's (`PASSWORD_NAME`), the value read as a password, not a
 * test's echo of its name.
 *
 * @example
 * ```ts
 * import { findSecretDefaults } from "./_secret_rules_defaults.ts";
 * findSecretDefaults("POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-Tr0ub4dor3}"); // [{ start: 40, end: 50 }]
 * ```
 */
export function findSecretDefaults(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number }> {
  const spots = namesOf(text, hints);
  const out: Array<{ start: number; end: number }> = [];
  const take = (at: number, pattern: RegExp, from: number, to: number) =>
    takeDefault(text, at, { pattern, name: text.slice(from, to), out });
  for (const at of spots.operators) {
    // `user:password` under an `auth` name (`cloud.auth: "elastic:…"`, `basic_auth = admin:…`)
    if (authBefore(text, at)) userPassword(text, at, out);
    // `:` and then no blank (`${DB_PASSWORD:-…}`; a pair's `name: value` has one)
    const next = text.charCodeAt(at + 1);
    if (text.charCodeAt(at) !== 58 || next === 32 || next === 9 || next === 10) continue;
    const start = nameStart(text, at);
    if (text.slice(Math.max(0, start - 2), start) !== "${") continue;
    if (PASSWORD_NAME_END.test(text.slice(start, at))) take(at, BRACE_DEFAULT, start, at);
  }
  for (const at of spots.rests) {
    // The name (with its closing quote and blanks) ends at `at`.
    let end = at;
    while (end > 0 && /[ \t"'\\\]]/.test(text[end - 1])) end--;
    const start = nameStart(text, end);
    const name = text.slice(start, at); // (a token's too before make's `?=`: `TOKEN ?= …`)
    if (start === end || !(PASSWORD_NAME_END.test(name) || tokenName(name, text[at]))) continue;
    const before = text.slice(Math.max(0, start - 40), start);
    const c = text[at];
    if (ENV_CALL.test(before)) {
      const after = c === ","
        ? FALLBACK_ARGUMENT
        : RUST_ENV.test(before)
        ? UNWRAP_FALLBACK
        : FALLBACK_AFTER;
      take(at, after, start, end);
    } else if (c === "," && PASSWORD_NAME_END.test(name) && quotedName(text, start, end)) {
      // a quoted name, then its value as the next literal: a row's or a call's pair
      // (`VALUES ('smtp_password', '…')`, `user_pref("…password", "…")`, `param("env.X", "…")`)
      pairValue(text, at, [start, end], out);
    } else if (
      ENV_MEMBER.test(text.slice(Math.max(0, end - 80), end)) ||
      text.startsWith("||=", at) || text.startsWith("??=", at)
    ) {
      // an environment's member read with a fallback, or any name given a default by a logical
      // assignment (`options.password ||= "…"`, Ruby's `@api_key ||= "…"`, `??=`)
      take(at, FALLBACK_AFTER, start, end);
    } else if (c === "?" && text[at + 1] === "=") {
      // make's conditional assignment (`REGISTRY_PASSWORD ?= …`): a default too
      take(at, MAKE_DEFAULT, start, end);
    } else if (c === "|") take(at, FILTER_DEFAULT, start, end);
    else if (c === "{" && VARIABLE_BLOCK.test(before)) {
      variableDefault(text, at, text.slice(start, end), out);
    } else if (c === "{") take(at, BLOCK_LITERAL, start, end); // FactoryBot's `api_key { "…" }`
    else if (c === ")" && LET_BEFORE.test(before)) take(at, LET_LITERAL, start, end);
  }
  return out;
}

/** The default `pattern` reads at `at` after `name`, added to `out` when it is a secret written out. */
function takeDefault(
  text: string,
  at: number,
  { pattern, name, out }: {
    pattern: RegExp;
    name: string;
    out: Array<{ start: number; end: number }>;
  },
): void {
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  if (!m || !secretDefault(m.groups!.v, name, pattern)) return;
  const [start, end] = m.indices!.groups!.v;
  out.push({ start, end });
}

/**
 * Whether `value`, a default of `name` read by `pattern`, is a secret written out: a password's
 * shape, not its name's echo; under a token's or a key's name (`process.env.JWT_KEY || "…"`)
 * generated too (make's `API_TOKEN ?= …` takes a token's password, as it did before).
 */
function secretDefault(value: string, name: string, pattern: RegExp): boolean {
  if (!defaultLike(value, name) || echoesName(value, name)) return false;
  if (PASSWORD_NAME_END.test(name) || pattern === MAKE_DEFAULT) return true;
  // under a token's name, a list of short names (`AUTH_ALGORITHMS`' `"HS256,RS256,ES256"`) is none
  return !SHORT_LIST.test(value) && (looksGenerated(value) || looksRandom(value));
}

/** Two or more names of up to 16 letters, digits, `_` or `-`, joined by `,` (a blank after it). */
const SHORT_LIST = /^[A-Za-z0-9_-]{1,16}(?:, ?[A-Za-z0-9_-]{1,16}){1,32}$/;

/**
 * Whether `name` is a token's or a key's (`SLACK_TOKEN`, `JWT_KEY`) before make's conditional
 * assignment (`API_TOKEN ?= …`) or a fallback's `||`, `??` or `or`, or a call's `)` or `,` (whose
 * defaults are taken when generated).
 */
function tokenName(name: string, next: string): boolean {
  return next !== "{" && (NAMED_TOKEN_NAME_END.test(name) || KEY_NAME_END.test(name));
}

/** `user:password` after an `auth` name's operator at `at` (`cloud.auth: "elastic:…"`). */
function userPassword(text: string, at: number, out: Array<{ start: number; end: number }>): void {
  USER_PASSWORD.lastIndex = at + 1;
  const m = USER_PASSWORD.exec(text);
  // (after a `/`, letters and digits mixed: `oauth/callback_url` is a path)
  const v = m?.groups?.v ?? "";
  if (m?.groups?.s && !(/[0-9]/.test(v) && /[A-Za-z]/.test(v))) return;
  if (m && passwordLike(v, false)) {
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/**
 * A quoted name's value as the next literal (`VALUES ('smtp_password', '…')`): one token with a
 * secret's shape, generated (`Xk29fj…`, a UUID) or letters, digits and a password's mark
 * (`Pass@word1`); a list of names (`["auth_password", "auth_client_id"]`), a label, a test's word
 * (`'123456'`, `"new-secret-1234"`) is none. `name` is where the name is in `text`.
 */
function pairValue(
  text: string,
  at: number,
  name: [number, number],
  out: Array<{ start: number; end: number }>,
): void {
  FALLBACK_ARGUMENT.lastIndex = at;
  const m = FALLBACK_ARGUMENT.exec(text);
  const value = m?.groups?.v;
  if (!m || !value || /\s/.test(value) || !passwordLike(value, false)) return;
  if (!looksGenerated(value) && !UUID.test(value) && !MARKED_PASSWORD.test(value)) return;
  if (echoesName(value, text.slice(name[0], name[1]))) return;
  const [start, end] = m.indices!.groups!.v;
  out.push({ start, end });
}

/** A Terraform variable block's `default = "…"`, in its lines up to its closing `}` (2 KB at most). */
function variableDefault(
  text: string,
  at: number,
  name: string,
  out: Array<{ start: number; end: number }>,
): void {
  let close = indexNear(text, "\n}", at, 2048);
  if (close < 0) close = Math.min(text.length, at + 2048);
  const m = VARIABLE_DEFAULT.exec(text.slice(at, close));
  if (m && passwordLike(m.groups!.v, true) && !echoesName(m.groups!.v, name)) {
    const [s, e] = m.indices!.groups!.v;
    out.push({ start: at + s, end: at + e });
  }
}

/**
 * Whether a default `value` of the secret `name` is one written out: a password's shape, or letters
 * alone under a password's name (`os.getenv("DB_PASSWORD", "TigerRiverStone")`).
 */
function defaultLike(value: string, name: string): boolean {
  if (passwordLike(value, true)) return true;
  const word = /(?:passw(?:or)?ds?|passphrase|pwd|pass)(?=[^A-Za-z]{0,64}$)/i.exec(name)?.[0];
  return word !== undefined && lettersPassword(value, word);
}

/**
 * Whether the name from `start` to `end` is a literal of its own: a quote before it, the same
 * quote after it (the name is the whole string, not the end of a sentence's).
 */
function quotedName(text: string, start: number, end: number): boolean {
  const q = text[start - 1];
  return (q === '"' || q === "'") && text[end] === q;
}

/** Whether the name before the operator at `at` ends in `auth` (any case; a quote, blanks between). */
function authBefore(text: string, at: number): boolean {
  let e = at;
  while (e > 0 && at - e < 16 && /["' \t]/.test(text[e - 1])) e--;
  return e >= 4 && text.slice(e - 4, e).toLowerCase() === "auth";
}

/** Where the name that ends at `end` starts (64 characters back at most). */
function nameStart(text: string, end: number): number {
  let start = end;
  while (start > 0 && start > end - 64 && nameChar(text.charCodeAt(start - 1))) start--;
  return start;
}

/** Whether a character code is one of a name's: a letter, a digit, `_`, `.` or `-`. */
function nameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
    c === 46 || c === 45;
}
