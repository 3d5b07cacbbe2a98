/**
 * Rules for credentials in connection strings that are not URLs, in signed URLs, and a Discord
 * bot's token given to its client (`secret_rules.ts` is the public face): Go's MySQL DSN (`user:password@tcp(host)/db`), Oracle's
 * `user/password@db` given to `cx_Oracle.connect` or `oracledb.connect`, and the signature or
 * session token of a signed URL (`X-Amz-Signature=`, `X-Amz-Security-Token=`,
 * `X-Goog-Signature=`, CloudFront's `Signature=`, `sig=`).
 *
 * @module
 */

import { fewCharacters, isPlaceholder } from "./_secret_rules_common.ts";
import { PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/** Where a Go MySQL DSN's address starts: `@tcp(`, `@unix(`, `@udp(` (found from the `@`). */
const DSN_ADDRESS = /@(?=(?:tcp|unix|udp)6?\()/g;
/**
 * A DSN's `user:password` that ends where it is read back from (group `v`: the password, which
 * may hold `@`: Go's driver splits at the last one).
 */
const DSN_USER = /(?<![\w.-])[A-Za-z0-9_.-]{1,64}:(?<v>[^\s:"'`/]{3,128})$/d;

/**
 * The passwords of Go MySQL DSNs (`app:S3cret@tcp(db:3306)/app`), found from each `@tcp(` (the
 * hint search finds it: family `@`).
 *
 * @example
 * ```ts
 * import { findDsnPasswords } from "./_secret_rules_dsn.ts";
 * findDsnPasswords('dsn := "app:S3cr3t9x@tcp(db:3306)/app"'); // [{ start: 12, end: 20 }]
 * ```
 */
export function findDsnPasswords(text: string): Span[] {
  const out: Span[] = [];
  DSN_ADDRESS.lastIndex = 0;
  for (const m of text.matchAll(DSN_ADDRESS)) {
    const from = Math.max(0, m.index! - 200);
    const u = DSN_USER.exec(text.slice(from, m.index!));
    if (!u || !realPassword(u.groups!.v)) continue;
    const [start, end] = u.indices!.groups!.v!;
    out.push({ start: from + start, end: from + end });
  }
  return out;
}

/**
 * Oracle's `user/password@db` as the first string of `cx_Oracle.connect(…)` or
 * `oracledb.connect(…)`: looked for from `.connect(`, a literal the search skips to.
 */
export const ORACLE_CALL: RegExp =
  /\.connect\((?<=[Oo]racle(?:db)?\.connect\()[ \t]{0,16}(?:(?:user|dsn)[ \t]{0,4}=[ \t]{0,4})?(?<q>["'])[A-Za-z0-9_$#.]{1,64}\/(?<v>[^\s/"'`]{3,128})@(?=[^\s@"'`]{1,256}\k<q>)/dg;

/**
 * The passwords of Oracle's `user/password@db` given to the Python drivers' `connect` (gated: the
 * hint search finds `.connect(` after `Oracle` or `oracledb`, family `(`).
 *
 * @example
 * ```ts
 * import { findOracleCallPasswords } from "./_secret_rules_dsn.ts";
 * findOracleCallPasswords('cx_Oracle.connect("scott/T1ger99@orcl")'); // [{ start: 25, end: 32 }]
 * ```
 */
export function findOracleCallPasswords(text: string): Span[] {
  const out: Span[] = [];
  ORACLE_CALL.lastIndex = 0;
  for (const m of text.matchAll(ORACLE_CALL)) {
    if (!realPassword(m.groups!.v)) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}

/**
 * A signed URL's signature or session token (group `v`): `X-Amz-Signature=`,
 * `X-Amz-Security-Token=`, `X-Goog-Signature=`, `Signature=` (CloudFront, AWS's older
 * signatures), `sig=`; percent-encoded or not.
 */
export const SIGNED_URL: RegExp =
  /[?&;](?:[Xx]-(?:[Aa]mz|[Gg]oog)-(?:[Ss]ignature|[Ss]ecurity-[Tt]oken)|Signature|sig)=(?<v>(?:[A-Za-z0-9_~.+/-]|%[0-9A-Fa-f]{2}){16,8192})(?![A-Za-z0-9_~.+/%-])/g;

/**
 * Whether a signed URL's value is a signature: a digit among its characters, not a stand-in.
 *
 * @example
 * ```ts
 * import { signatureLike } from "./_secret_rules_dsn.ts";
 * signatureLike("4f1c9e0b7a2d4c8e9f0a1b2c3d4e5f6a"); // true
 * signatureLike("xxxxxxxxxxxxxxxxxxxx"); // false
 * ```
 */
export function signatureLike(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !fewCharacters(value) &&
    !isPlaceholder(value);
}

/** Not a reference (`$PW`, `%s`, `{{ .pw }}`) nor a placeholder's word (`changeme`, `password`). */
function realPassword(value: string): boolean {
  return !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value);
}

/**
 * A Discord bot's token given to its client's `run`, `login` or `start` (group `v`): the bot's id
 * (17 to 20 digits) in base64, each 3 digits 4 characters of these classes (1 or 2 digits left: 2
 * or 3), a time and an HMAC.
 */
export const DISCORD_CALL: RegExp = new RegExp(
  "\\.(?:run|login|start)\\([ \\t]{0,4}(?<q>[\"'`])(?<v>(?:[MNO][DTjz][AEIMQUYcgk][w-z0-5]){5,6}" +
    "(?:[MNO](?:[AQgw]|[DTjz][AEIMQUYcgk]))?\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38})\\k<q>",
  "dg",
);

/**
 * The Discord bot tokens given to a client in `text` ({@linkcode DISCORD_CALL}); under a name
 * (`DISCORD_TOKEN=…`) the named-token rule finds them.
 *
 * @example
 * ```ts
 * import { findDiscordCalls } from "./_secret_rules_dsn.ts";
 * const id = btoa("123456789012345678"); // "MTIzNDU2Nzg5MDEyMzQ1Njc4"
 * findDiscordCalls(`client.run("${id}.GaBcDe.Zk8sQ2pLm4Rt7Vw1Xy9Bn3Hj6Fd5Gc0A")`);
 * // [{ start: 12, end: 76 }]
 * ```
 */
export function findDiscordCalls(text: string): Span[] {
  const out: Span[] = [];
  DISCORD_CALL.lastIndex = 0;
  for (const m of text.matchAll(DISCORD_CALL)) {
    if (fewCharacters(m.groups!.v.slice(-27))) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}
