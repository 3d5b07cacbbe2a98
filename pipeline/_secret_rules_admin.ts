/**
 * Rules for passwords that administrators' commands and daemons' configs take with no secret
 * word around them (`secret_rules.ts` is the public face): Windows' switches (`cmdkey /pass:…`,
 * `schtasks … /RP …`, `net user NAME PASSWORD /add`), 7-Zip's glued `-pPASSWORD`, HAProxy's
 * `user NAME insecure-password PASSWORD`, an answer file's `<AdministratorPassword>` `<Value>`,
 * `cargo login TOKEN`, `mc alias set NAME URL ACCESS SECRET`, Vault's `Unseal Key 1: …`,
 * strongSwan's `: PSK "…"`, Consul's and Nomad's gossip key (`encrypt = "…"`), a conda channel's
 * `/t/TOKEN/`, Bundler's credentials for a host (`BUNDLE_GEMS__HOST__COM: "user:pass"`) and a
 * wallet's recovery words under `MNEMONIC`.
 *
 * @module
 */

import { commandBefore } from "./_secret_rules_cli.ts";
import { isPlaceholder } from "./_secret_rules_common.ts";
import { PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * A Windows switch that holds a password (`/pass:` of cmdkey, `/RP` of schtasks, in any case),
 * after a blank, and its value (group `v`): quoted up to its quote, else up to a blank.
 */
export const WINDOWS_SWITCH =
  /\/(?:[Pp][Aa][Ss][Ss]:|[Rr][Pp][ \t]{1,4})(?<=[ \t]\/(?:[Pp][Aa][Ss][Ss]:|[Rr][Pp][ \t]{1,4}))(?:"(?<q>[^"\r\n]{3,256})"|(?<v>[^\s"/]{3,256}))/dg;
/**
 * `net user NAME PASSWORD` (a command's start, any case), then the password: quoted (group `q`)
 * or not (group `v`).
 */
export const NET_USER =
  /(?<![\w.-])[Nn][Ee][Tt](?:\.exe)?[ \t]{1,4}[Uu][Ss][Ee][Rr][ \t]{1,4}(?:"[^"\r\n]{1,64}"|[^\s"/]{1,64})[ \t]{1,4}(?:(?<o>["'])(?<q>[^"'\r\n]{3,256})\k<o>|(?<v>[^\s"'`/*]{3,256}))(?=[ \t]|$)/dgm;
/** 7-Zip's password, glued to its `-p` (group `v`), after a blank. */
export const SEVEN_ZIP_OPTION = /-p(?<=[ \t]-p)(?<v>[^\s"'`-][^\s"'`]{2,255})/dg;
/** The 7-Zip command an option belongs to (`7z`, `7za`, `7zr`, `7z.exe`). */
const SEVEN_ZIP = /(?:^|[^\w.-])7z[ar]?(?:\.exe)?[ \t]/;
/** HAProxy's `user NAME insecure-password PASSWORD` in a `userlist` (group `v`). */
export const INSECURE_PASSWORD = /[ \t]insecure-password[ \t]{1,16}(?<v>[^\s]{3,256})/dg;

/** An answer file's password element (`<AdministratorPassword>`, `<Password>`) and its `<Value>`. */
export const ANSWER_FILE_VALUE =
  /<[A-Za-z]{0,32}Password>\s{0,64}<Value>(?<v>[^<\r\n]{1,256})<\/Value>/dg;
/** `cargo login TOKEN` (maybe `--registry NAME` first). */
export const CARGO_LOGIN =
  /(?<![\w.-])cargo[ \t]{1,4}login(?:[ \t]{1,4}--registry[ =][^\s]{1,64})?[ \t]{1,4}(?<v>[A-Za-z0-9_]{20,128})(?=[\s;&|]|$)/dg;
/** MinIO's `mc alias set NAME URL ACCESS SECRET` (and the older `mc config host add`). */
export const MC_ALIAS =
  /(?<![\w.-])mc(?:\.exe)?[ \t]{1,4}(?:alias[ \t]{1,4}set|config[ \t]{1,4}host[ \t]{1,4}add)[ \t]{1,4}[^\s]{1,64}[ \t]{1,4}[^\s]{1,512}[ \t]{1,4}["']?(?<a>[^\s"']{1,128})["']?[ \t]{1,4}["']?(?<v>[^\s"']{8,128})/dg;
/** A Vault unseal key share as `vault operator init` prints it. */
export const UNSEAL_KEY = /Unseal Key [0-9]{1,2}: (?<v>[A-Za-z0-9+/]{40,88}={0,2})/dg;
/** strongSwan's `ipsec.secrets`: `: PSK "…"`, `user : EAP "…"`, quoted or `0x`/`0s` encoded. */
export const IPSEC_SECRET =
  /(?<![^\s]):[ \t]{1,16}(?:PSK|EAP|XAUTH|NTLM)[ \t]{1,16}(?:"(?<q>[^"\r\n]{3,256})"|(?<v>0[xs][A-Za-z0-9+/=]{8,512}))/dg;
/** Consul's and Nomad's gossip key: `encrypt = "<base64>"`, `-encrypt=…`. */
export const GOSSIP_KEY =
  /(?<![\w.])encrypt["']?[ \t]{0,16}[=:][ \t]{0,16}["']?(?<v>[A-Za-z0-9+/]{22,43}={1,2})(?![A-Za-z0-9+/=])/dg;
/** A conda channel's token in its URL (`https://conda.anaconda.org/t/TOKEN/channel`). */
export const CONDA_TOKEN = /\.anaconda\.org\/t\/(?<v>[A-Za-z0-9_-]{16,128})\//dg;
/** Bundler's credentials for a host (`BUNDLE_GEMS__CONTRIBSYS__COM: "user:pass"`), group `n`: the host. */
export const BUNDLE_CREDENTIALS =
  /BUNDLE_(?<n>[A-Z0-9_]{1,192})["']?[ \t]{0,16}[:=][ \t]{0,16}["']?(?<v>[^\s"':]{1,128}:[^\s"']{3,256})/dg;
/** A wallet's recovery words (12 to 24) under a mnemonic's or seed phrase's name. */
export const MNEMONIC =
  /(?:[Mm]nemonic|MNEMONIC|[Ss]eed[_ -]?[Pp]hrase|SEED_PHRASE|[Rr]ecovery[_ -]?[Pp]hrase|RECOVERY_PHRASE)["']?[ \t]{0,16}[:=][ \t]{0,16}["'`]?(?<v>[a-z]{3,8}(?:[ \t][a-z]{3,8}){11,23})(?![a-z])/dg;

/** What each of the patterns above finds in a text that holds its hint, checked by `accept`. */
const SHAPES: Array<
  { hint: string[]; pattern: RegExp; accept?: (m: RegExpMatchArray) => boolean }
> = [
  { hint: ["/pass:", "/PASS:", "/RP ", "/rp "], pattern: WINDOWS_SWITCH },
  { hint: ["et user ", "ET USER "], pattern: NET_USER },
  { hint: ["insecure-password"], pattern: INSECURE_PASSWORD },
  // Windows' own mask of a password an answer file had
  {
    hint: ["Password>"],
    pattern: ANSWER_FILE_VALUE,
    accept: (m) => m.groups!.v !== "*SENSITIVE*DATA*DELETED*",
  },
  { hint: ["cargo"], pattern: CARGO_LOGIN },
  // a secret the same as its access key is MinIO's default (`minioadmin minioadmin`)
  { hint: ["mc "], pattern: MC_ALIAS, accept: (m) => m.groups!.v !== m.groups!.a },
  { hint: ["Unseal Key "], pattern: UNSEAL_KEY },
  { hint: [" PSK ", " EAP ", " XAUTH ", " NTLM "], pattern: IPSEC_SECRET },
  { hint: ["encrypt"], pattern: GOSSIP_KEY },
  { hint: ["anaconda.org/t/"], pattern: CONDA_TOKEN },
  { hint: ["BUNDLE_"], pattern: BUNDLE_CREDENTIALS, accept: (m) => m.groups!.n.includes("__") },
  // at least 8 words of their own: Hardhat's `test test … junk` is a well-known stand-in
  {
    hint: ["nemonic", "NEMONIC", "hrase", "HRASE"],
    pattern: MNEMONIC,
    accept: (m) => new Set(m.groups!.v.split(/[ \t]/)).size >= 8,
  },
];

/** A password written out, not a reference (`$PW`, `%PW%`) or a placeholder's word. */
function written(value: string): boolean {
  return !isPlaceholder(value) && !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value) &&
    !/^%\w+%$/.test(value) &&
    !/^(.)\1*$/.test(value);
}

/** The value group of a match of a pattern with `q` (quoted) and `v` groups (flag `d`), as a span. */
function span(m: RegExpMatchArray): Span | undefined {
  const name = m.groups!.q !== undefined ? "q" : "v";
  const value = m.groups![name];
  if (value === undefined || !written(value)) return undefined;
  const [start, end] = m.indices!.groups![name]!;
  return { start, end };
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
  for (const { hint, pattern, accept } of SHAPES) {
    if (!hint.some((h) => text.includes(h))) continue;
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const s = span(m);
      if (s && (!accept || accept(m))) out.push(s);
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
