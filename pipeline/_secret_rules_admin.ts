/**
 * Rules for passwords that administrators' commands and daemons' configs take with no secret
 * word around them (`secret_rules.ts` is the public face): `net user NAME PASSWORD`, 7-Zip's glued
 * `-pPASSWORD`, HAProxy's `user NAME insecure-password PASSWORD`, an answer file's
 * `<AdministratorPassword>` `<Value>`, Vault's `Unseal Key 1: …`, a Wi-Fi `psk=…`, Bundler's
 * credentials for a host (`BUNDLE_GEMS__HOST__COM: "user:pass"`) and a wallet's recovery words
 * under `MNEMONIC`.
 *
 * @module
 */

import { isMnemonic } from "./_bip39.ts";
import { commandBefore } from "./_secret_rules_cli.ts";
import { isPlaceholder, type TextHints } from "./_secret_rules_common.ts";
import { namesOf, PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * `net user NAME PASSWORD` at a command's start (`net` in any case), from its `user `: the
 * password quoted (group `q`) or not (group `v`), a blank or the line's end after it.
 */
export const NET_USER =
  /(?:user|USER|User)[ \t]{1,4}(?<=(?<![\w.-])[Nn][Ee][Tt](?:\.[Ee][Xx][Ee])?[ \t]{1,4}(?:user|USER|User)[ \t]{1,4})(?:"[^"\r\n]{1,64}"|[^\s"/]{1,64})[ \t]{1,4}(?:(?<o>["'])(?<q>[^"'\r\n]{3,256})\k<o>|(?<v>[^\s"'`/*]{3,256}))(?=[ \t]|$)/dmy;
/** 7-Zip's password, glued to its `-p` (group `v`), after a blank. */
export const SEVEN_ZIP_OPTION = /-p(?<=[ \t]-p)(?<v>[^\s"'`-][^\s"'`]{2,255})/dg;
/** The 7-Zip command an option belongs to (`7z`, `7za`, `7zr`, `7z.exe`). */
const SEVEN_ZIP = /(?:^|[^\w.-])7z[ar]?(?:\.exe)?[ \t]/;
/** HAProxy's `user NAME insecure-password PASSWORD` in a `userlist` (group `v`), from its `user`. */
export const INSECURE_PASSWORD =
  /user[ \t]{1,16}[^\s]{1,64}[ \t]{1,16}insecure-password[ \t]{1,16}(?<v>[^\s]{3,256})/dy;
/** `net` and blanks, ending where a `user` starts (`net user`, `NET.exe  user`). */
const NET_BEFORE = /[Nn][Ee][Tt](?:\.[Ee][Xx][Ee])?[ \t]{1,4}$/;
/** An answer file's password element (`<AdministratorPassword>`, `<Password>`) and its `<Value>`. */
export const ANSWER_FILE_VALUE =
  /<[A-Za-z]{0,32}Password>\s{0,64}<Value>(?<v>[^<\r\n]{1,256})<\/Value>/dg;
/** A Vault unseal key share as `vault operator init` prints it. */
export const UNSEAL_KEY = /Unseal Key [0-9]{1,2}: (?<v>[A-Za-z0-9+/]{40,88}={0,2})/dy;
/**
 * A Wi-Fi pre-shared key (`psk=…` of `wpa_supplicant.conf` and NetworkManager, a JSON `"psk":`
 * of WLED's and other devices' settings): 8 to 63 characters quoted (group `q`), or 64 hex
 * digits (group `v`).
 */
export const WIFI_PSK =
  /(?<![A-Za-z_-]|[A-Za-z_-]\.)psk(?:[ \t]{0,16}=|"[ \t]{0,16}:)[ \t]{0,16}(?:"(?<q>[^"\r\n]{8,63})"|(?<v>[^\s"#;]{8,64}))/dy;
/**
 * Bundler's credentials for a host (`BUNDLE_GEMS__CONTRIBSYS__COM: "user:pass"`), group `n`: the
 * host; the value ends before a shell's `;` and a literal's closing quote or `,`.
 */
export const BUNDLE_CREDENTIALS =
  /BUNDLE_(?<n>[A-Z0-9_]{1,192})["']?[ \t]{0,16}[:=][ \t]{0,16}["']?(?<v>[^\s"'`:;]{1,128}:[^\s"'`;,]{3,256})/dy;
/** A wallet's recovery words (12 to 24) under `MNEMONIC` (`mnemonic`, `Mnemonic`), quoted or not. */
export const MNEMONIC =
  /(?:MNEMONIC|[Mm]nemonic)["']?[ \t]{0,16}[:=][ \t]{0,16}["'`]?(?<v>[a-z]{3,8}(?:[ \t][a-z]{3,8}){11,23})(?![a-z])/dy;

/** After a name's operator: 12 to 24 recovery words, quoted or not (group `v`). */
export const RECOVERY_WORDS =
  /[ \t]{0,16}["'`]?(?<v>[a-z]{3,8}(?:[ \t][a-z]{3,8}){11,23})(?![a-z])/dy;
/** The end of a wallet's recovery phrase's name (`seed_phrase`, `RECOVERY_PHRASE`, `seedPhrase`). */
const PHRASE_NAME = /(?:seed|recovery)[_ -]?phrase["']?[ \t]{0,16}$/i;

/**
 * Each shape, tried (sticky) at each of its anchors in a text that holds its gate: a short hint
 * from a character rare in code where it can (`Uns`, `BU`, `MNEM`). A text's
 * search for a hint costs as much as 1% of its scan, 2 to 7% for a long hint or a common first
 * character, and a pattern run over a whole text more (bench/README.md, thirteenth session).
 */
const SHAPES: Array<
  {
    gate: (text: string, hints: TextHints | undefined) => boolean;
    anchors: string[];
    pattern: RegExp;
    accept?: (m: RegExpExecArray) => boolean;
  }
> = [
  // (`Unseal Key 1` is a branch of the hint search's `Key`)
  { gate: family("K"), anchors: ["Unseal Key "], pattern: UNSEAL_KEY },
  // (and a `psk =` the name search found: Nix writes `networking.wireless.networks."x".psk = "…";`)
  {
    gate: (text, hints) =>
      text.includes("k=") || namesOf(text, hints).positions.some((p) => p.kind === "psk"),
    anchors: ["psk"],
    pattern: WIFI_PSK,
  },
  {
    gate: has("BU"),
    anchors: ["BUNDLE_"],
    pattern: BUNDLE_CREDENTIALS,
    accept: (m) => m.groups!.n.includes("__"),
  },
  // at least 8 words of their own: Hardhat's `test test … junk` is a well-known stand-in
  {
    // (four letters: a search for a longer word costs more per character scanned; bench/README.md)
    gate: (text) => text.includes("MNEM") || text.includes("Mnem") || text.includes("mnem"),
    anchors: ["MNEMONIC", "mnemonic", "Mnemonic"],
    pattern: MNEMONIC,
    accept: (m) => new Set(m.groups!.v.split(/[ \t]/)).size >= 8,
  },
];

/**
 * A wallet's seed words under a name of a seed (`WALLET_SEED`, `seed_words`, `SeedPhrase`): the
 * name's word, its operator, then 12 to 24 recovery words (group `v`), as {@linkcode MNEMONIC}.
 */
const SEED_WORDS =
  /(?:SEED|[Ss]eed)(?:[_-]?(?:WORDS|PHRASE|[Ww]ords|[Pp]hrase))?["']?[ \t]{0,16}[:=][ \t]{0,16}["'`]?(?<v>[a-z]{3,8}(?:[ \t][a-z]{3,8}){11,23})(?![a-z])/dy;
/** A settings file (`.env*`, YAML, TOML, JSON, INI, properties), where a wallet's seed is data. */
const SETTINGS_FILE =
  /(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$|\.(?:ya?ml|toml|json|ini|cfg|conf|properties|env)$/i;

/**
 * A string literal that is 12 to 24 recovery words alone (`"abandon amateur … agent"`), group
 * `v`; the quote first, so most of a text is passed over quickly.
 */
const SEED_LITERAL = /(["'`])(?<v>[a-z]{3,8}(?: [a-z]{3,8}){11,23})\1/dg;
/** A line that is 12 to 24 recovery words alone (a page's code block, a wallet's backup file). */
const SEED_LINE = /^[ \t]{0,16}(?<v>[a-z]{3,8}(?: [a-z]{3,8}){11,23})[ \t]{0,16}\r?$/dgm;
/** Pages and text files, and files named for a wallet's words, whose lines may be seed words. */
const SEED_LINE_FILE =
  /\.(?:md|markdown|mdx|rst|txt|adoc|org)$|(?:^|[\/\\])[^\/\\]{0,64}(?:seed|mnemonic|wallet|recovery|backup)[^\/\\]{0,64}$/i;
/** A translation catalogue, whose sentences in other languages are words alone. */
const TRANSLATION_FILE =
  /\.(?:po|pot|xliff|xlf|strings|resx|arb|ftl)$|(?:^|[\/\\])(?:locales?|i18n|l10n|translations?|lang)[\/\\]/i;

/**
 * Recovery words with no name: a literal of 12, 15, 18, 21 or 24 words alone (a wallet
 * provider's first argument, a test's constant), and such a line alone in a page, a text file or a
 * file named for a wallet's words. With no name to say what they are, only a BIP-39 mnemonic
 * counts: every word on BIP-39's English list and its checksum right ({@linkcode isMnemonic});
 * any other run of words is text (a line of generated words lost ~1 in 10 lines). Still at least
 * 8 words of their own: Hardhat's `test test … junk` and `abandon … about` are well-known
 * stand-ins. Until the check is loaded, a run of words is redacted (see pipeline/_bip39.ts).
 */
function seedPhrases(text: string, path: string | undefined, out: Span[]): void {
  if (path && TRANSLATION_FILE.test(path)) return;
  const patterns = path && SEED_LINE_FILE.test(path) ? [SEED_LITERAL, SEED_LINE] : [SEED_LITERAL];
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const words = m.groups!.v.split(" ");
      if (words.length % 3 || new Set(words).size < 8) continue;
      if (isMnemonic(m.groups!.v) === false) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
}

/** A gate open in a text that holds `hint`. */
function has(hint: string) {
  return (text: string) => text.includes(hint);
}

/** A gate open in a text whose hint search found `f` (every text without hints). */
function family(f: string) {
  return (_text: string, hints: TextHints | undefined) => !hints || hints.families.includes(f);
}

/**
 * `net user NAME …` and HAProxy's `user NAME insecure-password …`, from each `anchor` (`user `,
 * `USER `, `User `) of `text`, into `out`.
 */
function userShapes(text: string, anchor: string, out: Span[]): void {
  for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 5)) {
    // `net user` (a blank before `user`) or HAProxy's line that starts with it
    const before = text.charCodeAt(at - 1);
    const pattern = before !== 32 && before !== 9
      ? (before === 10 ? INSECURE_PASSWORD : undefined)
      : NET_BEFORE.test(text.slice(Math.max(0, at - 12), at))
      ? NET_USER
      : lineIndent(text, at)
      ? INSECURE_PASSWORD
      : undefined;
    if (!pattern) continue;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    const s = m && span(m);
    if (s) out.push(s);
  }
}

/** Whether only blanks stand before `at` on its line (at most 64 of them). */
function lineIndent(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0 && i >= at - 65; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return at <= 65;
}

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
 * A wallet's seed words under a seed's name (eight different words or more), pushed to `out`:
 * read in settings files only, since `seed` is a word of much code.
 */
function seedWords(text: string, out: Span[]): void {
  if (!text.includes("EED") && !text.includes("eed")) return;
  for (const anchor of ["SEED", "seed", "Seed"]) {
    for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 4)) {
      SEED_WORDS.lastIndex = at;
      const m = SEED_WORDS.exec(text);
      if (m && new Set(m.groups!.v.split(/[ \t]/)).size >= 8) {
        const [start, end] = m.indices!.groups!.v!;
        out.push({ start, end });
      }
    }
  }
}

/**
 * The passwords of `net user`, 7-Zip's `-p…`, HAProxy's `insecure-password`, an answer file, the
 * unseal keys Vault printed, a Wi-Fi `psk=`, Bundler's host credentials and `MNEMONIC` in `text`.
 *
 * @example
 * ```ts
 * import { findAdminPasswords } from "./_secret_rules_admin.ts";
 * findAdminPasswords("net user bob S3cr3t9x /add"); // [{ start: 13, end: 21 }]
 * findAdminPasswords("net user bob /delete"); // []
 * ```
 */
export function findAdminPasswords(text: string, hints?: TextHints, path?: string): Span[] {
  const out: Span[] = [];
  if (path && SETTINGS_FILE.test(path)) seedWords(text, out);
  seedPhrases(text, path, out);
  // From each `user `, in one search: `net user NAME …` and HAProxy's `user NAME insecure-password …`;
  // `NET USER` where the hint search found it (`N`), `Net User` where the text holds `User `.
  userShapes(text, "user ", out);
  if (!hints || hints.families.includes("N")) userShapes(text, "USER ", out);
  if (text.includes("User ")) userShapes(text, "User ", out);
  const gates = new Map<(text: string, hints: TextHints | undefined) => boolean, boolean>();
  for (const { gate, anchors, pattern, accept } of SHAPES) {
    let open = gates.get(gate);
    if (open === undefined) gates.set(gate, open = gate(text, hints));
    if (!open) continue;
    for (const anchor of anchors) {
      for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 1)) {
        pattern.lastIndex = at;
        const m = pattern.exec(text);
        const s = m && span(m);
        if (s && (!accept || accept(m))) out.push(s);
      }
    }
  }
  // recovery words under a seed phrase's name, from the operators the name search found
  for (const at of namesOf(text, hints).valueOperators) {
    // (a name that ends in `phrase`, maybe quoted: an `e` or `E` a few characters before)
    const near = text.slice(Math.max(0, at - 4), at);
    if (!near.includes("e") && !near.includes("E")) continue;
    if (!PHRASE_NAME.test(text.slice(Math.max(0, at - 40), at))) continue;
    RECOVERY_WORDS.lastIndex = at + 1;
    const m = RECOVERY_WORDS.exec(text);
    if (m && new Set(m.groups!.v.split(/[ \t]/)).size >= 8) {
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
  // an answer file's `<…Password>`, from the `passw` words the name search found
  if (namesOf(text, hints).passwords.some((at) => text.startsWith("ord>", at))) {
    ANSWER_FILE_VALUE.lastIndex = 0;
    for (const m of text.matchAll(ANSWER_FILE_VALUE)) {
      const s = span(m);
      // Windows' own mask of a password an answer file had
      if (s && m.groups!.v !== "*SENSITIVE*DATA*DELETED*") out.push(s);
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
