/**
 * Rules for credentials that a tool's own format gives away, with no secret word around them
 * (`secret_rules.ts` is the public face): a New Relic license key (36 characters and `NRAL`), a
 * SonarQube token under `sonar.login` (its older name for the token), and PsExec's `-p` password.
 *
 * @module
 */

import { fewCharacters } from "./_secret_rules_common.ts";
import { PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/** The 36 characters before a New Relic license key's `NRAL`: hex, a region first in the EU. */
const LICENSE_BODY = /^(?:[a-z]{2}[0-9]{2}xx[0-9a-f]{26}|[0-9a-f]{32})(?:[0-9a-f]{4}|FFFF)$/;
/** What may not touch a whole token on either side. */
const TOKEN_CHAR = /[A-Za-z0-9_]/;

/**
 * New Relic's license keys (the ingest keys agents send with): 40 characters that end in `NRAL`,
 * the 36 before it hex in lower case, or 32 of them and `FFFF` (most end in `FFFFNRAL`), after a
 * region's `eu01xx` in the EU. Found from each `NRAL`, whole, whatever name it is under (`license: …` in
 * `newrelic.yml`, `--set global.licenseKey=…`). Not a stand-in of few characters (`aaaa…NRAL`).
 *
 * @example
 * ```ts
 * import { findNewRelicLicenses } from "./_secret_rules_tools.ts";
 * findNewRelicLicenses("license: eu01xxaa7460e1ea3abdfbbbd36e85c10cd0NRAL");
 * // [{ start: 9, end: 49 }]
 * ```
 */
export function findNewRelicLicenses(text: string): Span[] {
  const out: Span[] = [];
  for (let at = text.indexOf("NRAL"); at >= 0; at = text.indexOf("NRAL", at + 4)) {
    const start = at - 36;
    if (
      start < 0 || TOKEN_CHAR.test(text[start - 1] ?? "") || TOKEN_CHAR.test(text[at + 4] ?? "")
    ) {
      continue;
    }
    const body = text.slice(start, at);
    if (!LICENSE_BODY.test(body) || !/[0-9]/.test(body) || fewCharacters(body)) continue;
    out.push({ start, end: at + 4 });
  }
  return out;
}

/**
 * A SonarQube token under `sonar.login` (its name before `sonar.token`, in
 * `sonar-project.properties`, `-Dsonar.login=…`, `/d:sonar.login="…"`, `SONAR_LOGIN=…`): 40 hex
 * digits, as tokens were before their `squ_` prefix, on the name's line or the next (however the
 * name is written apart from it: `ENV SONAR_LOGIN …`, `- name: SONAR_LOGIN` then `value: …`,
 * `<add key="sonar.login" value="…"/>`). A user's name under it (`sonar.login=admin`, with
 * `sonar.password`) is no token and stays.
 */
export const SONAR_LOGIN: RegExp =
  /(?<=(?:[Ss]onar|SONAR))[._-]?(?:[Ll]ogin|LOGIN)(?![A-Za-z0-9])[^\r\n]{0,64}?(?:\r?\n[^\r\n]{0,64}?)?(?<![A-Za-z0-9_])(?<v>[0-9a-f]{40})(?![A-Za-z0-9_])/dy;

/**
 * The SonarQube tokens of `text` ({@linkcode SONAR_LOGIN}), looked for from each `onar` and
 * `ONAR` (`indexOf`: a search for the whole name, or a pattern of its own, would stop at every
 * `s` of a text).
 *
 * @example
 * ```ts
 * import { findSonarLogins } from "./_secret_rules_tools.ts";
 * findSonarLogins("sonar.login=" + "0123456789abcdef".repeat(2) + "01234567"); // [{ start: 12, end: 52 }]
 * ```
 */
export function findSonarLogins(text: string): Span[] {
  return fromEach(text, ["onar", "ONAR"], 4, SONAR_LOGIN);
}

/**
 * PsExec's password (`psexec \\host -u admin -p S3cret cmd`, `PsExec64.exe`, and PAExec, its
 * open copy): the `-p` option after the command on its line, the value quoted (blanks and all) or
 * up to a blank. `-p` with no value makes PsExec prompt.
 */
export const PSEXEC_OPTION: RegExp =
  /(?<=(?<![A-Za-z0-9_-])(?:[Pp][Ss]|[Pp][Aa])[Ee])[Xx][Ee][Cc](?:64)?(?:\.[Ee][Xx][Ee])?["']?[ \t][^\r\n;&|`]{0,256}?[ \t]-p[ \t]{1,16}(?<q>["']?)(?<v>(?<=["'])[^"'\r\n]{1,256}(?=["'])|[^\s"'`\\-][^\s"'`\\]{0,255})(?=\k<q>(?:[\s;&|)"'`\\]|$))/dy;

/**
 * The PsExec passwords of `text` ({@linkcode PSEXEC_OPTION}), looked for from each `xec` and `XEC`
 * (`x` is rare in code: the search skips most of a text).
 *
 * @example
 * ```ts
 * import { findPsexecPasswords } from "./_secret_rules_tools.ts";
 * findPsexecPasswords("psexec \\\\host -u admin -p S3cret9 cmd"); // [{ start: 26, end: 33 }]
 * ```
 */
export function findPsexecPasswords(text: string): Span[] {
  return fromEach(text, ["xec", "XEC"], 0, PSEXEC_OPTION, commandPasswordLike);
}

/**
 * The group `v` spans of a sticky `pattern` (flag `d`) tried `offset` characters into each
 * occurrence of each of `words` (a lookbehind of the pattern checks what comes before), the
 * values `accept` takes, in order.
 */
function fromEach(
  text: string,
  words: string[],
  offset: number,
  pattern: RegExp,
  accept: (value: string) => boolean = () => true,
): Span[] {
  const out: Span[] = [];
  for (const word of words) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      pattern.lastIndex = at + offset;
      const m = pattern.exec(text);
      if (!m || !accept(m.groups!.v)) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether a command's password is one: 3+ characters, not a reference nor a placeholder. */
function commandPasswordLike(value: string): boolean {
  return value.length >= 3 && !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value);
}
