/**
 * Rules for passwords that administrators' commands and daemons' configs take with no secret
 * word around them (`secret_rules.ts` is the public face): Windows' switches (`cmdkey /pass:…`,
 * `schtasks … /RP …`, `net user NAME PASSWORD /add`), 7-Zip's glued `-pPASSWORD`, and HAProxy's
 * `user NAME insecure-password PASSWORD`.
 *
 * @module
 */

import { commandBefore } from "./_secret_rules_cli.ts";
import { PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * A Windows switch that holds a password (`/pass:` of cmdkey, `/RP` of schtasks, in any case),
 * after a blank, and its value (group `v`): quoted up to its quote, else up to a blank.
 */
export const WINDOWS_SWITCH =
  /\/(?:[Pp][Aa][Ss][Ss]:|[Rr][Pp][ \t]{1,4})(?<=[ \t]\/(?:[Pp][Aa][Ss][Ss]:|[Rr][Pp][ \t]{1,4}))(?:"(?<q>[^"\r\n]{3,256})"|(?<v>[^\s"/]{3,256}))/g;
/** `net user NAME PASSWORD` (a command's start, any case), then the password (group `v`). */
export const NET_USER =
  /(?<![\w.-])[Nn][Ee][Tt](?:\.exe)?[ \t]{1,4}[Uu][Ss][Ee][Rr][ \t]{1,4}(?:"[^"\r\n]{1,64}"|[^\s"/]{1,64})[ \t]{1,4}(?:"(?<q>[^"\r\n]{3,256})"|(?<v>[^\s"/*]{3,256}))(?=[ \t]|$)/gm;
/** 7-Zip's password, glued to its `-p` (group `v`), after a blank. */
export const SEVEN_ZIP_OPTION = /-p(?<=[ \t]-p)(?<v>[^\s"'`-][^\s"'`]{2,255})/g;
/** The 7-Zip command an option belongs to (`7z`, `7za`, `7zr`, `7z.exe`). */
const SEVEN_ZIP = /(?:^|[^\w.-])7z[ar]?(?:\.exe)?[ \t]/;
/** HAProxy's `user NAME insecure-password PASSWORD` in a `userlist` (group `v`). */
export const INSECURE_PASSWORD = /[ \t]insecure-password[ \t]{1,16}(?<v>[^\s]{3,256})/g;

/** A password written out, not a reference (`$PW`, `%PW%`) or a placeholder's word. */
function written(value: string): boolean {
  return !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value) && !/^%\w+%$/.test(value) &&
    !/^(.)\1*$/.test(value);
}

/** The value group of a match of a pattern with `q` (quoted) and `v` groups, as a span. */
function span(m: RegExpMatchArray): Span | undefined {
  const value = m.groups!.q ?? m.groups!.v;
  if (value === undefined || !written(value)) return undefined;
  const end = m.index! + m[0].length - (m.groups!.q !== undefined ? 1 : 0);
  return { start: end - value.length, end };
}

/**
 * The passwords of Windows' switches, `net user NAME PASSWORD`, 7-Zip's `-p…` and HAProxy's
 * `insecure-password` in `text`.
 *
 * @example
 * ```ts
 * import { findAdminPasswords } from "./_secret_rules_admin.ts";
 * findAdminPasswords("cmdkey /add:fs /user:bob /pass:S3cr3t9x"); // [{ start: 31, end: 39 }]
 * findAdminPasswords("net user bob /delete"); // []
 * ```
 */
export function findAdminPasswords(text: string): Span[] {
  const out: Span[] = [];
  for (const pattern of [WINDOWS_SWITCH, NET_USER, INSECURE_PASSWORD]) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const s = span(m);
      if (s) out.push(s);
    }
  }
  if (text.includes("7z")) {
    SEVEN_ZIP_OPTION.lastIndex = 0;
    for (const m of text.matchAll(SEVEN_ZIP_OPTION)) {
      const s = span(m);
      if (s && SEVEN_ZIP.test(commandBefore(text, m.index!))) out.push(s);
    }
  }
  return out;
}
