/**
 * Rules for secrets that services' own tools and files hold with no secret word before them
 * (`secret_rules.ts` is the public face): Windows' `cmdkey /pass:…` and `schtasks … /RP …`,
 * `cargo login TOKEN`, a conda channel's `/t/TOKEN/`, ipsec.secrets' `: PSK "…"`, `: EAP "…"`
 * and `: XAUTH "…"`, Consul's gossip key (`encrypt`), a Bitcoin key in wallet import format under
 * a `WIF` name, and the cookies of a HAR file (its `Cookie` header and its `cookies` list) and of
 * an `.http` file's `Cookie:` header; and Python bytes with escapes under a secret's name
 * (`SECRET_KEY = b"\x8f…"`), whose value the named rules end at its first `\`.
 *
 * Each is looked for only in a text that holds its hint: most hints come from the hint search
 * every text gets already (`textHints`: `cargo login`, `conda.org/t/`, `: PSK`, `-encrypt=`,
 * `wif`, `"value"`), the rest are short substrings from a character rare in code (`/pass:`, `/RP`,
 * `WIF`), or the file's name (`.hcl`, `.http`).
 *
 * @module
 */

import { commandBefore, cookieValues } from "./_secret_rules_cli.ts";
import {
  cookieAt,
  fewCharacters,
  indexNear,
  isPlaceholder,
  type TextHints,
} from "./_secret_rules_common.ts";
import { namesOf, PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";
import { textHints } from "./_secret_rules_hints.ts";

type Span = { start: number; end: number; rule?: string };

/** cmdkey's `/pass:` and its password, quoted (group `q`) or not (group `v`). */
export const CMDKEY_PASS = /\/pass:(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))/diy;
/**
 * A Windows-style password option and its value, quoted (group `q`) or not (group `v`): FreeRDP's
 * `/p:` and WMIC's `/password:` (each checked against its command).
 */
const SLASH_PASSWORD = /\/(?:p|password):(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))/diy;
/** The command whose `/password:` is a password: WMIC (FreeRDP's `/p:` is the name search's). */
const SLASH_PASSWORD_TOOL = /(?:^|[^\w.-])wmic(?:\.exe)?[ \t]/i;
/** schtasks' `/RP` (the run-as user's password) and its value, quoted (`q`) or not (`v`). */
export const SCHTASKS_RP = /\/rp[ \t]{1,4}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"/]{1,256}))/diy;
/** `cargo login` (maybe for `--registry NAME`) and its token, quoted (`q`) or not (`v`). */
export const CARGO_LOGIN =
  /cargo[ \t]{1,4}login(?:[ \t]{1,4}--registry(?:[ \t]{1,4}|=)[^\s"'`]{1,64})?[ \t]{1,4}(?:(?<o>["'])(?<q>[^"'\r\n]{8,256})\k<o>|(?<v>[^\s"'`-][^\s"'`]{7,255}))(?=\s|$)/dy;
/** A conda channel's token in its URL's path (`https://conda.anaconda.org/t/TOKEN/acme`). */
export const CONDA_TOKEN = /\/t\/(?<v>[A-Za-z0-9_-]{8,128})\//dy;
/** The host before a conda channel's `/t/`: Anaconda's (`conda.anaconda.org`, `repo.anaconda.cloud`). */
const CONDA_HOST = /conda\.(?:org|com|cloud)$/;
/**
 * An ipsec.secrets line's shared secret or password (`[ids] : PSK "…"`, `: EAP "…"`,
 * `: XAUTH "…"`), quoted (`q`) or not (`v`, also `0x…` and `0s…`), on a line that is no comment.
 */
export const IPSEC_SECRET =
  /:[ \t]{1,4}(?:PSK|EAP|XAUTH)(?<=^[^#\r\n]{0,512}:[ \t]{1,4}(?:PSK|EAP|XAUTH))[ \t]{1,16}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"#]{3,256}))/dgm;
/**
 * Consul's gossip key: `encrypt = "…"` (HCL), `"encrypt": "…"` (JSON) or `-encrypt=…`, base64 of
 * 16, 24 or 32 random bytes (group `v`).
 */
export const CONSUL_ENCRYPT =
  /(?<![\w-])(?:-encrypt=|["']?encrypt["']?[ \t]{0,16}[:=][ \t]{0,16})["']?(?<v>[A-Za-z0-9+/]{22}==|[A-Za-z0-9+/]{32}|[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])/dg;
/** The files Consul's config is written in (its agent's HCL or JSON, Terraform's, Nomad's). */
const CONSUL_FILE = /\.(?:hcl|json|tf|nomad)$/;
/**
 * A Bitcoin private key in wallet import format after a name with `WIF` (`WIF = "…"`,
 * `wif: …`, `wif_key = "…"`): 51 base58 characters from `5` (`9` on testnet), or 52 from `K`
 * or `L` (`c`), group `v`.
 */
export const WIF_KEY =
  /(?:WIF|wif)[A-Za-z0-9_]{0,32}["']?[ \t]{0,16}[:=][ \t]{0,16}["'`]?(?<v>[59][1-9A-HJ-NP-Za-km-z]{50}|[KLc][1-9A-HJ-NP-Za-km-z]{51})(?![1-9A-Za-z])/dy;
/** A HAR's name/value pair (a header, a cookie): group `n` the name, `v` the value. */
export const HAR_PAIR =
  /"name"[ \t]{0,16}:[ \t]{0,16}"(?<n>[^"\\\r\n]{1,128})"[ \t]{0,16},\s{0,64}"value"[ \t]{0,16}:[ \t]{0,16}"(?<v>[^"\\\r\n]{1,4096})"/dg;
/**
 * A `Cookie:` or `Set-Cookie:` header on a line of its own, its pairs in group `v` (group `set`:
 * `Set-`): an `.http` file's request, a captured exchange (`curl -v`'s `> ` and `< `), a log.
 */
export const HEADER_COOKIE =
  /^[ \t]{0,16}(?:[<>][ \t]{1,4})?(?<set>Set-)?Cookie:[ \t]{0,16}(?<v>[^\r\n]{1,4096})/dgim;

/**
 * After a name's operator: a Python bytes literal with escapes (`b'_5#y2L"F4Q8z\n\xec]/'`,
 * Flask's example of a secret key), its body in group `v`.
 */
export const BYTES_LITERAL =
  /[ \t]{0,16}[bB](?<o>["'])(?<v>(?:[^"'\\\r\n]|\\[^\r\n]){8,512})\k<o>/dy;

/** A secret written out: not a reference (`$PW`, `%PW%`), a placeholder or one character repeated. */
function written(value: string): boolean {
  return value.length >= 3 && !isPlaceholder(value) && !REFERENCE.test(value) &&
    !PLACEHOLDER_WORD.test(value) && !/^%\w+%$/.test(value) && !/^(.)\1*$/.test(value);
}

/** A token's shape: letters and digits mixed, not a few characters repeated. */
function tokenLike(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !fewCharacters(value);
}

/** The value group (`q` or `v`) of a match, as a span, when `accept` takes it. */
function span(m: RegExpExecArray, accept: (value: string) => boolean = written): Span | undefined {
  const name = m.groups!.q !== undefined ? "q" : "v";
  const value = m.groups![name];
  if (value === undefined || !accept(value)) return undefined;
  const [start, end] = m.indices!.groups![name]!;
  return { start, end };
}

/** The matches of a sticky `pattern` tried at each `anchor` of `text`, as spans named `rule`. */
function fromAnchors(
  text: string,
  anchor: string,
  pattern: RegExp,
  keep: (m: RegExpExecArray, at: number) => Span | undefined,
  rule?: string,
): Span[] {
  const out: Span[] = [];
  for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 1)) {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    const s = m && keep(m, at);
    if (s) out.push(rule ? { ...s, rule } : s);
  }
  return out;
}

/**
 * The secrets of `cmdkey /pass:`, `schtasks /RP`, `cargo login`, a conda channel's `/t/`,
 * ipsec.secrets, Consul's `encrypt`, a `WIF` key and HAR's and `.http` files' cookies in `text`
 * (whose file is `path`, when it is one).
 *
 * @example
 * ```ts
 * import { findServiceSecrets } from "./_secret_rules_services.ts";
 * findServiceSecrets("cmdkey /add:fs /user:bob /pass:S3cr3t9x"); // [{ start: 31, end: 39 }]
 * findServiceSecrets("cmdkey /add:fs /user:bob /pass"); // []
 * ```
 */
export function findServiceSecrets(text: string, hints?: TextHints, path?: string): Span[] {
  const h = hints ?? textHints(text);
  const out: Span[] = [];
  const command = (word: RegExp) => (m: RegExpExecArray, at: number) =>
    word.test(commandBefore(text, at)) ? span(m) : undefined;
  if (text.includes("/pass")) {
    out.push(
      ...fromAnchors(text, "/pass:", CMDKEY_PASS, command(/(?:^|[^\w.-])cmdkey(?:\.exe)?[ \t]/i)),
      ...fromAnchors(text, "/password:", SLASH_PASSWORD, command(SLASH_PASSWORD_TOOL)),
    );
  }
  out.push(...rdpPasswords(text, h));
  for (const anchor of ["/RP", "/rp"]) {
    if (!text.includes(anchor)) continue;
    out.push(
      ...fromAnchors(text, anchor, SCHTASKS_RP, command(/(?:^|[^\w.-])schtasks(?:\.exe)?[ \t]/i)),
    );
  }
  if (h.families.includes("g")) {
    out.push(...fromAnchors(text, "cargo", CARGO_LOGIN, (m) => span(m), "token"));
  }
  if (h.families.includes(".")) out.push(...condaTokens(text));
  if (h.families.includes("i")) {
    IPSEC_SECRET.lastIndex = 0;
    for (const m of text.matchAll(IPSEC_SECRET)) {
      const s = span(m as RegExpExecArray);
      if (s) out.push(s);
    }
  }
  if (h.families.includes("e") || (path && CONSUL_FILE.test(path) && text.includes("encrypt"))) {
    CONSUL_ENCRYPT.lastIndex = 0;
    for (const m of text.matchAll(CONSUL_ENCRYPT)) {
      const s = span(m as RegExpExecArray, tokenLike);
      if (s) out.push({ ...s, rule: "consul" });
    }
  }
  // (`privateKeyWif`: a name with `Key`, whose value the named tokens' rule judges)
  for (const anchor of ["WIF", "wif"]) {
    if (anchor === "wif" ? !h.pairs.has("if") : !text.includes(anchor)) continue;
    out.push(...fromAnchors(text, anchor, WIF_KEY, (m) => span(m, tokenLike), "private-key"));
  }
  if (h.pairs.has('alue"')) out.push(...cookie(harCookies(text)));
  out.push(...escapedBytes(text, namesOf(text, h).operators));
  // (`Cookie:`, `cookie:`, `Set-Cookie:`, from their rare `k`: a search for `ookie:` cost 1%;
  // the first `kie` is the code cookies' rule's gate too, searched once)
  const kie = cookieAt(text, h);
  if (kie >= 0 && text.includes("kie:", kie)) out.push(...cookie(headerCookies(text)));
  return out;
}

/**
 * The session values of each `Cookie:` header's pairs and of each `Set-Cookie:` header's first
 * pair (the rest are its attributes: `Path=/`, `Expires=…`), see {@linkcode HEADER_COOKIE}.
 */
function headerCookies(text: string): Span[] {
  const out: Span[] = [];
  HEADER_COOKIE.lastIndex = 0;
  for (const m of text.matchAll(HEADER_COOKIE)) {
    const { set, v } = m.groups!;
    const pairs = set === undefined ? v : v.slice(0, (v + ";").indexOf(";"));
    out.push(...cookieValues(pairs, m.indices!.groups!.v![0]));
  }
  return out;
}

/** conda's `/t/TOKEN/` in a channel URL of its hosts. */
function condaTokens(text: string): Span[] {
  return fromAnchors(
    text,
    "/t/",
    CONDA_TOKEN,
    (m, at) =>
      CONDA_HOST.test(text.slice(Math.max(0, at - 64), at)) ? span(m, tokenLike) : undefined,
    "token",
  );
}

/** FreeRDP's `/p:`, from each `xfreerdp` the name search found: its line's `/p:`. */
function rdpPasswords(text: string, hints: TextHints): Span[] {
  const out: Span[] = [];
  const spots = namesOf(text, hints).positions.filter((p) => p.kind === "rdp").map((p) => p.at);
  spots.sort((a, b) => a - b);
  for (let i = 0; i < spots.length; i++) {
    const at = spots[i];
    // Its line, read no further than the next `xfreerdp`: a `/p:` after that is the next one's
    // too (so many on one line are each read once, not each to the line's end).
    const stop = i + 1 < spots.length ? spots[i + 1] : text.length;
    const end = indexNear(text, "\n", at, stop - at);
    const line = text.slice(at, end < 0 || end > stop ? stop : end);
    const p = line.search(/[ \t]\/p:/);
    if (p < 0) continue;
    SLASH_PASSWORD.lastIndex = at + p + 1;
    const m = SLASH_PASSWORD.exec(text);
    const s = m && span(m);
    if (s) out.push(s);
  }
  return out;
}

/** Bytes with escapes under a secret's name, from the `operators` the name search found. */
function escapedBytes(text: string, operators: number[]): Span[] {
  const out: Span[] = [];
  for (const at of operators) {
    if (text.charCodeAt(at + 1) !== 32 && text.charCodeAt(at + 1) !== 98) continue; // ` ` or `b`
    BYTES_LITERAL.lastIndex = at + 1;
    const m = BYTES_LITERAL.exec(text);
    const body = m?.groups?.v;
    // escapes among 12+ bytes: written as bytes because they are random (`\xec`), not text
    if (!body || !/\\x[0-9A-Fa-f]{2}/.test(body) || body.replace(/\\x..|\\./g, "#").length < 12) {
      continue;
    }
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}

/** `spans` named as cookies. */
function cookie(spans: Span[]): Span[] {
  return spans.map((s) => ({ ...s, rule: "cookie" }));
}

/**
 * A HAR's cookies: the session values of a `Cookie` header (`{"name": "Cookie", "value": "…"}`),
 * of a `Set-Cookie` header's first pair (`"value": "sessionid=…; Path=/"`) and each value of a `"cookies"` list (`{"name": "session", "value": "…"}`), read as a cookie
 * header's pairs (16+ characters, letters and digits mixed).
 */
function harCookies(text: string): Span[] {
  const out: Span[] = [];
  // The last `"cookies"` and `]` before each pair, found moving forward with the pairs (a search
  // back from each pair read the text's start again for each)
  let list = -1, nextList = text.indexOf('"cookies"');
  let close = -1, nextClose = text.indexOf("]");
  HAR_PAIR.lastIndex = 0;
  for (const m of text.matchAll(HAR_PAIR)) {
    const { n, v } = m.groups!;
    const at = m.indices!.groups!.v![0];
    if (/^cookie$/i.test(n)) {
      out.push(...cookieValues(v, at));
      continue;
    }
    // a response's `Set-Cookie`: its first pair is the cookie, the rest its attributes (`Path=/`)
    if (/^set-cookie$/i.test(n)) {
      out.push(...cookieValues(v.slice(0, (v + ";").indexOf(";")), at));
      continue;
    }
    // an item of a `"cookies": [` list: no `]` between the list's name and the pair
    for (; nextList >= 0 && nextList <= m.index!; nextList = text.indexOf('"cookies"', list + 1)) {
      list = nextList;
    }
    for (; nextClose >= 0 && nextClose < m.index!; nextClose = text.indexOf("]", close + 1)) {
      close = nextClose;
    }
    if (list < 0 || m.index! - list > 4096 || close > list) continue;
    out.push(...cookieValues(`${n}=${v}`, at - n.length - 1));
  }
  return out;
}
