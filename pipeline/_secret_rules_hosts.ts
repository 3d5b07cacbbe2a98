/**
 * Rules for tokens that a service's own place gives away, where their shape alone would not
 * (`secret_rules.ts` is the public face): Azure DevOps personal access tokens (in a text that
 * names a PAT, as a URL's user before `dev.azure.com`, and the 84-character format with its `AZDO`
 * signature anywhere), Facebook and Meta access tokens (`EAA…`), and the tokens of Composer's
 * `auth.json` (`"github-oauth": {"github.com": "…"}`, `gitlab-oauth`, `gitlab-token`, `bearer`,
 * and `composer config github-oauth.github.com …`).
 *
 * @module
 */

import {
  fewCharacters,
  looksGenerated,
  looksRandom,
  type TextHints,
} from "./_secret_rules_common.ts";
import { namesOf } from "./_secret_rules_names.ts";

type Found = { start: number; end: number; rule: string };

/**
 * An Azure DevOps PAT: 52 lower-case letters and digits (the format before July 2024), or 84
 * letters and digits with `AZDO` at 76 (the format since). The old one is what a random value of
 * that alphabet looks like: a digit and a letter among the 52, not few characters.
 */
function devopsPat(value: string): boolean {
  if (/^[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}$/.test(value)) return !fewCharacters(value);
  return /^[a-z0-9]{52}$/.test(value) && /[0-9].{0,64}[0-9]/.test(value) && /[a-z]/.test(value) &&
    !fewCharacters(value);
}

/** 52 of `[a-z0-9]`, a word of its own: the format of an Azure DevOps PAT before July 2024. */
const OLD_PAT = /\b[a-z0-9]{52}\b/g;
/** A URL's user (no password) before an Azure DevOps host: `https://PAT@dev.azure.com/…`. */
const DEVOPS_USER =
  /\/\/(?<v>[A-Za-z0-9]{52,84})@(?:dev\.azure\.com|[A-Za-z0-9-]{1,64}\.visualstudio\.com)(?![A-Za-z0-9-])/dg;
/** `AZDO` with 76 letters and digits before it and 4 after: the 84-character PAT, bare. */
const AZDO = /AZDO/g;

/**
 * Azure DevOps PATs in `text`: 52 of `[a-z0-9]` in a text that names a PAT (family `p`: a name
 * that ends in `PAT` as a word of its own, `AZURE_DEVOPS_EXT_PAT`, `ado_pat`, `ado-pat`,
 * `azure.devops.pat`; or `adoPat`, which `nameSpots` finds), anywhere in it (after the name, in a
 * pair's `value:`, an element, a JSON string); as a URL's user before its host (family `@`); and
 * the 84-character format anywhere (family `A`).
 *
 * @example
 * ```ts
 * import { findDevopsTokens } from "./_secret_rules_hosts.ts";
 * findDevopsTokens("AZURE_DEVOPS_EXT_PAT=" + "k3m9q2x7".repeat(6) + "a1b2").length; // 1
 * ```
 */
export function findDevopsTokens(text: string, hints?: TextHints): Found[] {
  const out: Found[] = [];
  const families = hints?.families;
  const has = (f: string) => families === undefined || [...f].some((c) => families.includes(c));
  if (has("p") || namesOf(text, hints).pats.length) {
    OLD_PAT.lastIndex = 0;
    for (const m of text.matchAll(OLD_PAT)) {
      if (devopsPat(m[0])) out.push({ start: m.index!, end: m.index! + 52, rule: "azure-devops" });
    }
  }
  if (has("@")) {
    DEVOPS_USER.lastIndex = 0;
    for (const m of text.matchAll(DEVOPS_USER)) {
      const value = m.groups!.v;
      if (!devopsPat(value)) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end, rule: "azure-devops" });
    }
  }
  if (families === undefined || families.includes("A")) {
    AZDO.lastIndex = 0;
    for (const m of text.matchAll(AZDO)) {
      const start = m.index! - 76;
      if (start < 0 || /[A-Za-z0-9]/.test(text[start - 1] ?? "")) continue;
      const value = text.slice(start, m.index! + 8);
      if (/[A-Za-z0-9]/.test(text[m.index! + 8] ?? "") || !devopsPat(value)) continue;
      out.push({ start, end: start + 84, rule: "azure-devops" });
    }
  }
  return out;
}

/**
 * A Facebook or Meta access token (`EAA` and the app's letters, then 90+ letters and digits): no
 * token's character before it; the rest of its run is {@linkcode FACEBOOK_RUN}'s.
 */
export const FACEBOOK_TOKEN: RegExp = /EAA(?<![A-Za-z0-9_-]EAA)[A-Za-z0-9]{90,1024}/g;

/**
 * The rest of a Facebook token's run, with nothing of base64 after it (`+`, `/`, `=`: then it is
 * a piece of a base64 blob, and no match). The lookahead reads the whole run once and the
 * backreference takes it, so the run is never cut shorter to pass the test.
 */
export const FACEBOOK_RUN: RegExp = /(?=([A-Za-z0-9_-]*))\1(?![+/=])/y;

/** Whether a match of {@linkcode FACEBOOK_TOKEN} is a token: both cases and digits, mixed. */
export function facebookLike(value: string): boolean {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z].{0,1024}[A-Z]/.test(value.slice(3)) &&
    !fewCharacters(value);
}

/**
 * The keys of Composer's `auth.json` whose value maps hosts to tokens (`"github-oauth":
 * {"github.com": "…"}`), also inside a JSON string (`COMPOSER_AUTH='{\"github-oauth\": …}'`).
 */
const COMPOSER_KEY = /(?:github-oauth|gitlab-oauth|gitlab-token|bearer)\\?["'][ \t]{0,64}$/;
/** One member of such a map: the host, then its token (group `v`). */
const HOST_TOKEN =
  /\\?["'][A-Za-z0-9.-]{1,253}\\?["'][ \t]*:[ \t]*\\?["'](?<v>[A-Za-z0-9_.~+/=-]{12,1024})\\?["']/gy;
/** Blanks and a separator between two members of a map. */
const MEMBER_GAP = /[\s,]*/y;
/** `composer config github-oauth.github.com TOKEN` (and the other token keys): the token. */
const COMPOSER_CONFIG =
  /composer(?<![\w.-]composer)(?:\.phar)?[ \t](?:[^\r\n;&|]{0,256}[ \t])?(?:github-oauth|gitlab-oauth|gitlab-token|bearer)\.[A-Za-z0-9.-]{1,253}[ \t]{1,8}(?<q>["']?)(?<v>[A-Za-z0-9_.~+/=-]{12,1024})\k<q>(?![^\s;&|"'`])/g;

/**
 * The tokens of Composer's `auth.json` maps and `composer config` commands in `text`: a value
 * that reads as generated (letters and digits mixed, or 32+ hex digits), not a stand-in.
 *
 * @example
 * ```ts
 * import { findComposerTokens } from "./_secret_rules_hosts.ts";
 * findComposerTokens('{"github-oauth": {"github.com": "' + "3f9a".repeat(10) + '"}}').length; // 1
 * ```
 */
export function findComposerTokens(text: string, hints?: TextHints): Found[] {
  const out: Found[] = [];
  const tokenLike = (v: string) =>
    !fewCharacters(v) && (looksRandom(v) || looksGenerated(v) || /^[0-9a-f]{32,}$/.test(v));
  for (const at of namesOf(text, hints).operators) {
    if (text[at] !== ":" || !/["']/.test(text[at - 1])) continue;
    if (!COMPOSER_KEY.test(text.slice(Math.max(0, at - 20), at))) continue;
    // `{`, then its members, each `"host": "token"`
    let i = at + 1;
    while (/[ \t\r\n]/.test(text[i] ?? "")) i++;
    if (text[i] !== "{") continue;
    i++;
    for (let n = 0; n < 64; n++) {
      MEMBER_GAP.lastIndex = i;
      i += MEMBER_GAP.exec(text)![0].length;
      HOST_TOKEN.lastIndex = i;
      const m = HOST_TOKEN.exec(text);
      if (!m) break;
      const v = m.groups!.v;
      const start = i + m[0].length - v.length -
        (m[0].endsWith('\\"') || m[0].endsWith("\\'") ? 2 : 1);
      if (tokenLike(v)) out.push({ start, end: start + v.length, rule: "composer" });
      i += m[0].length;
    }
  }
  if (!hints || hints.families.includes("c")) {
    COMPOSER_CONFIG.lastIndex = 0;
    for (const m of text.matchAll(COMPOSER_CONFIG)) {
      const v = m.groups!.v;
      if (!tokenLike(v)) continue;
      const start = m.index! + m[0].length - v.length - m.groups!.q.length;
      out.push({ start, end: start + v.length, rule: "composer" });
    }
  }
  return out;
}
