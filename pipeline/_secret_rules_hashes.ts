/**
 * The rules for password hashes and key files known by their own syntax (`secret_rules.ts` is the
 * public face): crypt(3) hashes as `/etc/shadow`, `.htpasswd` and user tables keep them (bcrypt,
 * SHA-crypt, MD5-crypt, Apache's MD5, yescrypt, Argon2), which a dictionary attack turns back
 * into the password, LDAP-style hashes (`{SHA}…`, `{SSHA}…`) and PuTTY's private key files (`.ppk`).
 *
 * @module
 */

import { fewCharacters } from "./_secret_rules_common.ts";

/** crypt(3)'s alphabet: `./`, digits and letters. */
const C = "[./A-Za-z0-9]";
/**
 * A crypt(3) hash, from its `$`: bcrypt (`$2b$12$` and 53 characters), SHA-256/512 and MD5 crypt
 * (`$5$`, `$6$`, `$1$`, a salt of up to 16 characters, maybe `rounds=N$` first), Apache's MD5
 * (`$apr1$`), yescrypt (`$y$`) and Argon2 (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`). The hash
 * part has the length its scheme gives it, and no character of the alphabet follows it.
 */
export const CRYPT_HASH: RegExp = new RegExp(
  "\\$(?:" + [
    `2[abxy]?\\$[0-9]{2}\\$${C}{53}`,
    `[156]\\$(?:rounds=[0-9]{1,9}\\$)?${C}{1,16}\\$(?:${C}{86}|${C}{43}|${C}{22})`,
    `apr1\\$${C}{1,8}\\$${C}{22}`,
    `y\\$${C}{1,12}\\$${C}{1,64}\\$${C}{43}`,
    "argon2(?:id|i|d)\\$v=[0-9]{1,3}\\$m=[0-9]{1,10},t=[0-9]{1,10},p=[0-9]{1,4}" +
    "\\$[A-Za-z0-9+/]{8,128}\\$[A-Za-z0-9+/]{16,256}",
  ].join("|") + `)(?!${C})`,
  "g",
);

const CRYPT_HASH_AT = new RegExp(CRYPT_HASH.source, "y");
/** A crypt(3) hash with each `$` doubled, as Docker Compose and make escape it (`$$apr1$$…`). */
const ESCAPED_HASH_AT = new RegExp(CRYPT_HASH.source.replaceAll("\\$", "\\$\\$"), "y");

/**
 * The crypt(3) hashes of `text`, tried at each `$` (`indexOf` finds them: `$` is rare in most
 * code, so this reads few places, where a pattern would be tried at every character, and a
 * branch of the hint search from `$` would cost that search its quick skip), its `$`s doubled
 * after a `$$` (Compose's escape). A hash of few different characters is a stand-in
 * (`$2b$12$aaaa…`).
 */
export function findCryptHashes(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (let at = text.indexOf("$"); at >= 0; at = text.indexOf("$", at + 1)) {
    const pattern = text.charCodeAt(at + 1) === 36 ? ESCAPED_HASH_AT : CRYPT_HASH_AT;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m || fewCharacters(m[0])) continue;
    out.push({ start: at, end: at + m[0].length });
    at += m[0].length - 1;
  }
  return out;
}

/**
 * An LDAP-style password hash, as `.htpasswd`, `slapd.conf`'s `rootpw` and LDIF's `userPassword`
 * keep it: `{SHA}` (SHA-1, 28 characters of base64), `{SSHA}`, `{SHA256}`, `{SSHA512}` (the
 * digest and its salt), `{MD5}`, `{SMD5}`, from its scheme to the base64's end; a dictionary
 * attack turns it back into the password as it does a crypt(3) hash's.
 */
const LDAP_HASH =
  /\{(?:S?SHA(?:224|256|384|512)?|S?MD5)\}(?<v>[A-Za-z0-9+\/]{22,128}={0,2})(?![A-Za-z0-9+\/=])/g;

/**
 * The LDAP-style password hashes of `text` ({@linkcode LDAP_HASH}); a hash of few different
 * characters is a stand-in (`{SHA}AAAA…`).
 *
 * @example
 * ```ts
 * import { findLdapHashes } from "./_secret_rules_hashes.ts";
 * findLdapHashes("deploy:{SHA}cYd1zwhZMmF0xMaHIjAtxqOXgPT="); // [{ start: 12, end: 40 }]
 * ```
 */
export function findLdapHashes(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  LDAP_HASH.lastIndex = 0;
  for (const m of text.matchAll(LDAP_HASH)) {
    const [start, end] = [m.index! + m[0].length - m.groups!.v.length, m.index! + m[0].length];
    if (!fewCharacters(m.groups!.v)) out.push({ start, end });
  }
  return out;
}

/** The header of a PuTTY private key file. */
export const PUTTY_BEGIN: RegExp = /PuTTY-User-Key-File-[1-9]: /g;
/** Where its private part ends: the MAC (or, in version 1, the hash) after the private lines. */
export const PUTTY_END: RegExp = /Private-(?:MAC|Hash): [0-9a-fA-F]{20,128}/g;
/** Longest key file (header to MAC) that is redacted whole. */
const MAX_PUTTY = 16 * 1024;

/**
 * PuTTY private key files (`.ppk`), from the `PuTTY-User-Key-File-N:` line to the end of its
 * `Private-MAC:` line, whatever lies between (lines, a JSON string's `\n` escapes, a YAML block's
 * indent), as a PEM block is redacted whole. A header with no MAC within 16K characters is
 * redacted to the end of its `Private-Lines:` block: the header line and the base64 lines after it.
 */
export function findPutty(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let from = 0;
  PUTTY_BEGIN.lastIndex = 0;
  for (let m = PUTTY_BEGIN.exec(text); m; m = PUTTY_BEGIN.exec(text)) {
    if (m.index < from) continue;
    PUTTY_END.lastIndex = m.index;
    const e = PUTTY_END.exec(text);
    let end: number;
    if (e && e.index - m.index <= MAX_PUTTY) end = e.index + e[0].length;
    else {
      const lines = text.slice(m.index, m.index + MAX_PUTTY).search(/Private-Lines: [0-9]{1,4}/);
      if (lines < 0) continue;
      PUTTY_BODY.lastIndex = m.index + lines;
      end = m.index + lines + PUTTY_BODY.exec(text)![0].length;
    }
    out.push({ start: m.index, end });
    from = end;
    PUTTY_BEGIN.lastIndex = end;
  }
  return out;
}

/** A `Private-Lines: N` line and the base64 lines after it (newlines, escapes, indent, quotes). */
const PUTTY_BODY =
  /Private-Lines: [0-9]{1,4}(?:(?:\\[nr]|[\s"',+]){1,16}[A-Za-z0-9+/=]{16,80}){0,256}/y;
