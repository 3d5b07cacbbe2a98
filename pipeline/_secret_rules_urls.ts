/**
 * The rule for a password in a URL (`secret_rules.ts` is the public face): `basicauth`, or
 * `database-connection-string` for a database's scheme; and the secret key given after a URL to
 * MinIO's client (`mc alias set NAME URL ACCESS SECRET`).
 *
 * @module
 */

import { isPlaceholder, looksGenerated } from "./_secret_rules_common.ts";
import { mcAliasSecret } from "./_secret_rules_positional.ts";

/**
 * A password in a URL (`scheme://user:PASSWORD@host`), from its `://`. The user may be an email
 * address and the password may hold an `@` left unescaped (git's credential store writes
 * `https://me@example.com:pa@ss@github.com`): the password runs to the last `@` before the host.
 * Group `u`: a user of 20+ token characters and no password (a token given as the user).
 */
// (group `mc`: a URL after `mc alias set NAME` or `mc config host add NAME`, looked for behind
// each `://` from the URL's scheme back: a URL after a word and a blank, as prose has it, fails at
// that word; a look back for `set` or `add` anywhere on the line cost the TypeScript lib 3x more)
export const URL_PASSWORD: RegExp =
  /:\/\/(?<=[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/)(?:[^\s:/'"`<>\\]{0,256}:(?<v>[^\s/'"`<>\\]{1,256})@(?=[A-Za-z0-9[])|(?<u>[A-Za-z0-9_-]{20,256})@(?=[A-Za-z0-9[])|(?<mc>(?<=(?<![\w.-])mc(?:\.exe)?[ \t]{1,8}(?:alias[ \t]{1,8}set|config[ \t]{1,8}host[ \t]{1,8}add)[ \t]{1,8}[^\s]{1,64}[ \t]{1,8}["']?[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/)))/g;
const DATABASE_SCHEME =
  /(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]{1,32}|cockroachdb|clickhouse)$/i;

/** A git host after a URL's `@`: a name with `git` in it (`github.com`, `git.corp.com`), Bitbucket, Azure DevOps. */
const GIT_HOST =
  /^(?:[\w-]{1,63}\.){0,4}(?:[\w-]{0,63}git[\w-]{0,63}|bitbucket|dev\.azure)\.[\w.-]{1,63}[/:]/;

/** The word itself, not a password: `user:password@host`, `user:my_passwd@host`. */
const URL_PASSWORD_WORD = /^(?:my|your|the|some|db)?[-_]?passw(?:or)?d[-_]?[0-9]{0,3}$/i;

/** URL passwords, named `database-connection-string` for database schemes, else `basicauth`. */
export function findUrlPasswords(
  text: string,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  URL_PASSWORD.lastIndex = 0;
  for (const m of text.matchAll(URL_PASSWORD)) {
    if (m.groups!.mc !== undefined) {
      // a URL after `mc alias set NAME` (MinIO's client): its secret key two words on
      const secret = mcAliasSecret(text, m.index!);
      if (secret) out.push({ ...secret, rule: "password" });
      continue;
    }
    const u = m.groups!.u;
    if (u !== undefined) {
      // A token as the URL's user, no password (`https://<token>@github.com/…`, as git takes a
      // personal access token): 32+ hex digits or a generated mix, not a name
      const end = m.index! + m[0].length - 1;
      // (on a git host only: a Sentry DSN's public key is its URL's user too)
      const host = GIT_HOST.test(text.slice(end + 1, end + 129));
      if (host && (/^[0-9a-f]{32,}$/.test(u) || looksGenerated(u))) {
        out.push({ start: end - u.length, end, rule: "basicauth" });
      }
      continue;
    }
    const v = m.groups!.v;
    // A port is not a password; one of 1-5 characters is a test's `u:p@host`.
    // `%40` is a password's `@`, percent-encoded; `%s` is a format's placeholder.
    const decoded = v.replace(/%[0-9A-Fa-f]{2}/g, "x");
    // (`user:password@@host`: the word, and the `@` a test left unescaped)
    if (
      v.length < 6 || isPlaceholder(decoded) || URL_PASSWORD_WORD.test(v.replace(/@{1,8}$/, ""))
    ) {
      continue;
    }
    // A control character escaped (`%0D%0A`, `%01`): a test of a URL's escapes, not a password
    // anyone types
    if (/%(?:[01][0-9A-Fa-f]|7[Ff])/.test(v)) continue;
    const end = m.index! + m[0].length - 1;
    const scheme = text.slice(Math.max(0, m.index! - 31), m.index!);
    const rule = DATABASE_SCHEME.test(scheme) ? "database-connection-string" : "basicauth";
    out.push({ start: end - v.length, end, rule });
  }
  return out;
}
