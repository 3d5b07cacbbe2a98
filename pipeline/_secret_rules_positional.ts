/**
 * Rules for passwords that a command takes by position, with no option or name before them
 * (`secret_rules.ts` is the public face): `htpasswd -b file user PASSWORD`, `net use \\host\share
 * PASSWORD /user:name` (the password also after the switch), `rabbitmqctl add_user name PASSWORD`,
 * `composer config http-basic.host user PASSWORD`, `mc alias set NAME URL ACCESS SECRET` (and
 * `mc config host add`), `rclone config create NAME TYPE … pass PASSWORD`, a password piped to
 * `chpasswd` (`user:PASSWORD`) or `passwd --stdin`, and a token given to curl as a user with no
 * password (`curl -u TOKEN: …`, as Stripe's and other APIs' docs write it); and the secrets after
 * a word the name search finds (`::add-mask::`, `ngrok authtoken`, `wpa_passphrase`, `db2
 * connect`), an `expect`'s answer to a password prompt, a kickstart file's `rootpw`. Each command is
 * looked for only in the texts whose hints hold its part: `passw` (htpasswd, `change_password`,
 * `chpasswd`, `passwd --stdin`), `add_user `, a UNC path's `\\\\host`, `http-basic.` (family
 * `c`), `-u`, `rclone` (the name search's), the URL's `://` (MinIO's client, from the URL rule).
 *
 * @module
 */

import {
  fewCharacters,
  lastIndexNear,
  looksGenerated,
  looksRandom,
  type TextHints,
} from "./_secret_rules_common.ts";
import { namesOf, passwordLike, PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";
import { commandBefore } from "./_secret_rules_cli.ts";

type Span = { start: number; end: number };

/** A shell word of a command: quoted (group `q`, the inside in `v`) or bare; none past `;&|<>`. */
const WORD = /(?<q>["'])(?<v>[^"'\r\n]{0,256})\k<q>|(?<b>[^\s"';&|<>`]{1,256})/dy;
/** Blanks (a `\` line continuation too) between two words of a command. */
const BLANKS = /(?:[ \t]|\\\r?\n)+/y;

/** One word of a command: where its text starts and ends (inside its quotes), and the text. */
interface Word {
  start: number;
  end: number;
  text: string;
  quoted: boolean;
}

/** The words of the command that starts at `at`, up to its end (`;`, `&`, `|`, `>`, a line end). */
function wordsFrom(text: string, at: number, max = 16): Word[] {
  const out: Word[] = [];
  let i = at;
  while (out.length < max) {
    BLANKS.lastIndex = i;
    const blanks = BLANKS.exec(text);
    if (!blanks && out.length) break;
    if (blanks) i += blanks[0].length;
    WORD.lastIndex = i;
    const m = WORD.exec(text);
    if (!m) break;
    const group = m.groups!.q !== undefined ? "v" : "b";
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start, end, text: m.groups![group], quoted: group === "v" });
    i += m[0].length;
  }
  return out;
}

/** A password given by position: not a reference (`$PW`, `%PW%`), a placeholder or a mark. */
function positional(word: Word | undefined): word is Word {
  if (!word || word.text.length < 6 || word.text === "*") return false;
  if (REFERENCE.test(word.text) || /^%\w+%$/.test(word.text)) return false;
  if (PLACEHOLDER_WORD.test(word.text) || /^(.)\1*$/.test(word.text)) return false;
  // Letters alone are a password only quoted and random; `htpasswd -b f user password` is a doc.
  return passwordLike(word.text, word.quoted) ||
    /[0-9]/.test(word.text) && /[A-Za-z]/.test(word.text);
}

/**
 * `htpasswd` or `rabbitmqctl` at a command's start: one search for both, from their `w` and `q`
 * (from their first letters, `h` and `r`, it stopped at many more places in code).
 */
const TOOL =
  /(?:wd(?<=htpasswd)|qctl(?<=rabbitmqctl))(?<![\w.-](?:htpasswd|rabbitmqctl))(?:\.exe|\.bat)?(?=[ \t])/g;
/(?:htpasswd|rabbitmqctl)(?<![\w.-](?:htpasswd|rabbitmqctl))(?:\.exe|\.bat)?(?=[ \t])/g;

/**
 * The password of `htpasswd -b [-c] file user PASSWORD` (`-n`: no file, `htpasswd -nbB user
 * PASSWORD`), its words from `at`. Options: each word that starts with `-`; `-C` and `-r` take a
 * number.
 */
function htpasswd(text: string, at: number, out: Span[]): void {
  const words = wordsFrom(text, at);
  let batch = false;
  let noFile = false;
  const args: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i].text;
    if (!args.length && /^-[A-Za-z0-9]+$/.test(w) && !words[i].quoted) {
      if (/b/.test(w)) batch = true;
      if (/n/.test(w)) noFile = true;
      if (/[Cr]$/.test(w)) i++; // its number
      continue;
    }
    args.push(words[i]);
  }
  const password = args[noFile ? 1 : 2];
  if (batch && positional(password)) out.push({ start: password.start, end: password.end });
}

/** A UNC path (`\\\\host\\share`, also JSON-escaped) after a blank or a quote. */
const UNC_PATH = /\\(?<![\\\w]\\)\\{1,3}[A-Za-z0-9][\w.-]{0,63}\\{1,2}[\w$]/g;
/** `net use` (in any case, `NET USE`) at a command's start, and what follows up to a UNC path. */
const NET_USE_BEFORE =
  /(?:^|[^\w.-])[Nn][Ee][Tt](?:\.exe)?[ \t]{1,8}[Uu][Ss][Ee][ \t][^\r\n\\]{0,64}$/;

/**
 * Windows Script Host's `MapNetworkDrive "Z:", "\\host\share", False, "user", "PASSWORD"` (VBScript,
 * JScript, PowerShell's COM object): the call and its drive before the share, then its last
 * argument (group `v`) after the share, the profile flag and the user.
 */
const MAP_DRIVE_BEFORE =
  /MapNetworkDrive[ \t(]{1,8}["'][^"'\r\n]{0,16}["'][ \t]{0,8},[ \t]{0,8}["']$/;
const MAP_DRIVE_AFTER =
  /[^"'\r\n]{1,256}["'][ \t]{0,8},[ \t]{0,8}(?:[Tt]rue|[Ff]alse|TRUE|FALSE|\$(?:true|false)|[01])[ \t]{0,8},[ \t]{0,8}["'][^"'\r\n]{1,128}["'][ \t]{0,8},[ \t]{0,8}["'](?<v>[^"'\r\n]{3,256})["']/dy;

/**
 * The password of `net use [Z:] \\host\share PASSWORD [/user:name]` (also after the switches):
 * the first word after the share that is not a switch (`/user:…`, `/persistent:no`) nor `*`.
 * Looked for from each UNC path, `net use` behind it on its line.
 */
function netUse(text: string, out: Span[]): void {
  UNC_PATH.lastIndex = 0;
  for (const m of text.matchAll(UNC_PATH)) {
    const from = Math.max(0, m.index! - 96);
    if (MAP_DRIVE_BEFORE.test(text.slice(from, m.index!))) {
      MAP_DRIVE_AFTER.lastIndex = m.index!;
      const call = MAP_DRIVE_AFTER.exec(text);
      const value = call?.groups?.v;
      if (value && !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value)) {
        const [start, end] = call.indices!.groups!.v!;
        out.push({ start, end });
      }
      continue;
    }
    if (!NET_USE_BEFORE.test(text.slice(from, m.index!))) continue;
    const words = wordsFrom(text, m.index!);
    const password = words.slice(1).find((w) => !w.text.startsWith("/"));
    if (positional(password)) out.push({ start: password.start, end: password.end });
  }
}

/**
 * `rabbitmqctl`'s options, then `add_user NAME PASSWORD` or `change_password NAME PASSWORD`, from
 * after the command's name.
 */
const RABBITMQ_USER =
  /(?:[ \t]{1,8}-[-\w]{1,32}(?:[ \t]{1,8}[^\s-][^\s]{0,128})?){0,4}[ \t]{1,8}(?:add_user|change_password)(?=[ \t])/y;

function rabbitmqctl(text: string, at: number, out: Span[]): void {
  RABBITMQ_USER.lastIndex = at;
  const m = RABBITMQ_USER.exec(text);
  if (!m) return;
  const password = wordsFrom(text, at + m[0].length, 2)[1];
  if (positional(password)) out.push({ start: password.start, end: password.end });
}

/** `composer config [--global] http-basic.HOST USER PASSWORD` (the words after the key). */
const COMPOSER_BASIC = /http-basic\.[A-Za-z0-9.-]{1,253}(?=[ \t])/g;

function composerBasic(text: string, out: Span[]): void {
  COMPOSER_BASIC.lastIndex = 0;
  for (const m of text.matchAll(COMPOSER_BASIC)) {
    if (!/(?:^|[^\w.-])composer(?:\.phar)?[ \t]/.test(commandBefore(text, m.index!))) continue;
    const password = wordsFrom(text, m.index! + m[0].length, 2)[1];
    if (positional(password)) out.push({ start: password.start, end: password.end });
  }
}

/** The secret-holding keys of `rclone config create|update` (`pass`, `client_secret`, `key`, …). */
const RCLONE_SECRET_KEY =
  /^(?:pass|password|password2|secret_access_key|client_secret|key|account_key|sas_url|token|bearer_token|api_key|session_token)$/;
/** `rclone config create NAME TYPE` or `update NAME`, from after the command's name. */
const RCLONE_CONFIG =
  /(?:\.exe)?(?:[ \t]{1,8}--?[\w-]{1,32}(?:=[^\s]{0,128})?){0,4}[ \t]{1,8}config[ \t]{1,8}(?:create|update)(?=[ \t])/y;

/**
 * The secrets of `rclone config create NAME TYPE KEY VALUE …` (or `KEY=VALUE`), from where the
 * name search found `rclone` (`at`: its end): the values of its secret keys.
 */
function rcloneConfig(text: string, at: number, out: Span[]): void {
  RCLONE_CONFIG.lastIndex = at;
  const m = RCLONE_CONFIG.exec(text);
  if (!m) return;
  const words = wordsFrom(text, at + m[0].length, 48);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const eq = w.text.indexOf("=");
    if (eq > 0 && RCLONE_SECRET_KEY.test(w.text.slice(0, eq))) {
      const value = { ...w, start: w.start + eq + 1, text: w.text.slice(eq + 1) };
      if (positional(value)) out.push({ start: value.start, end: value.end });
    } else if (RCLONE_SECRET_KEY.test(w.text) && positional(words[i + 1])) {
      out.push({ start: words[i + 1].start, end: words[i + 1].end });
      i++;
    }
  }
}

/**
 * `mc alias set NAME` or `mc config host add NAME` (MinIO's client), then the URL's start, before
 * the `://` the URL rule stops at.
 */
const MC_ALIAS =
  /(?<![\w.-])mc(?:\.exe)?[ \t]{1,8}(?:alias[ \t]{1,8}set|config[ \t]{1,8}host[ \t]{1,8}add)[ \t]{1,8}[^\s]{1,64}[ \t]{1,8}["']?[A-Za-z][A-Za-z0-9+.-]{0,30}$/;

/**
 * The secret key of `mc alias set NAME URL ACCESS SECRET` (and `mc config host add`), from the
 * `://` of its URL (at `at`): the second word after the URL.
 *
 * @example
 * ```ts
 * import { mcAliasSecret } from "./_secret_rules_positional.ts";
 * mcAliasSecret("mc alias set s3 https://s3.io bob Xk29fjQ02aLpZ8wq", 21); // { start: 34, end: 50 }
 * ```
 */
export function mcAliasSecret(text: string, at: number): Span | undefined {
  const before = text.slice(Math.max(0, at - 160), at);
  const m = MC_ALIAS.exec(before);
  if (!m) return undefined;
  const url = at - before.length + m.index + m[0].search(/["']?[A-Za-z][A-Za-z0-9+.-]{0,30}$/);
  const secret = wordsFrom(text, url, 3)[2];
  return positional(secret) ? { start: secret.start, end: secret.end } : undefined;
}

/**
 * A value written into a pipe to `chpasswd` (`user:PASSWORD`, group `v`) or `passwd --stdin`
 * (group `w`): `echo` or `printf`, the value, `|`, maybe `sudo`, the command, before `at`.
 */
const PASSWD_PIPE =
  /(?:^|[^\w.-])(?:echo(?:[ \t]{1,4}-[neE]{1,3})?|printf(?:[ \t]{1,4}(?:"%s\\n"|'%s\\n'|"%s"|'%s'))?)[ \t]{1,4}(?<q>["']?)(?:[^\s"':|]{1,64}:(?<v>[^\s"'`|]{1,256})|(?<w>[^\s"'`|]{1,256}))\k<q>[ \t]{0,16}\|[ \t]{0,16}(?:sudo[ \t]{1,8}(?:-[A-Za-z][ \t]{1,8}){0,4})?(?:\/usr)?(?:\/s?bin\/)?(?:ch|vnc|smb)?$/d;

/** `passwd` in `chpasswd` or `passwd --stdin`: from each `passwd` of a text with a `passw` word. */
function passwdPipes(text: string, out: Span[]): void {
  for (let at = text.indexOf("passwd"); at >= 0; at = text.indexOf("passwd", at + 6)) {
    const ch = text.startsWith("ch", at - 2);
    // `vncpasswd -f` and `smbpasswd -s` read the new password from their input too
    const reads = ch || text.startsWith("vnc", at - 3) || text.startsWith("smb", at - 3);
    if (ch && text[at + 6] === ":") {
      cloudInitList(text, at + 7, out);
      continue;
    }
    if (!reads && !/^passwd[ \t]{1,8}--stdin(?![\w-])/.test(text.slice(at, at + 24))) continue;
    if (reads && /[\w.-]/.test(text[at + 6] ?? "")) continue;
    // The line's start within the 512 characters before: a search back over a whole long line
    // from each `passwd` on it would cost the square of its length.
    const from = Math.max(0, at - 512);
    const lineStart = from + text.slice(from, at).lastIndexOf("\n") + 1;
    const m = PASSWD_PIPE.exec(text.slice(lineStart, at));
    if (!m) continue;
    const group = ch ? "v" : "w";
    const value = m.groups![group];
    if (value === undefined) continue;
    const [start, end] = m.indices!.groups![group]!;
    const word = {
      start: lineStart + start,
      end: lineStart + end,
      text: value,
      quoted: !!m.groups!.q,
    };
    if (positional(word)) out.push({ start: word.start, end: word.end });
  }
}

/** What `cloudInitList` reads from `chpasswd:`'s line end: up to 3 lines, then `list: |`. */
const CHPASSWD_LIST =
  /[ \t]{0,64}(?:\r?\n[ \t]{1,64}[^\r\n]{0,256}){0,3}?\r?\n(?<indent>[ \t]{1,64})list:[ \t]{0,64}\|[ \t]{0,64}\r?\n/y;

/**
 * cloud-init's `chpasswd:` and, on one of its next lines, `list: |` (its older form): the block's
 * `user:PASSWORD` lines (more indented than `list:`), from after `chpasswd:` (`at`).
 */
function cloudInitList(text: string, at: number, out: Span[]): void {
  CHPASSWD_LIST.lastIndex = 0;
  const m = CHPASSWD_LIST.exec(text.slice(at, at + 1024));
  if (!m) return;
  const indent = m.groups!.indent.length;
  const line = /(?<lead>[ \t]{1,64})[^\s:]{1,64}:(?<v>[^\s]{1,256})[ \t]{0,64}(?:\r?\n|$)/dy;
  line.lastIndex = at + m[0].length;
  for (let l = line.exec(text); l && l.groups!.lead.length > indent; l = line.exec(text)) {
    const [start, end] = l.indices!.groups!.v!;
    const word = { start, end, text: l.groups!.v, quoted: false };
    if (positional(word) && word.text !== "RANDOM") out.push({ start, end });
  }
}

/**
 * `db2 connect to DB user NAME using PASSWORD` (DB2's command line; its words in any case, the
 * statement maybe quoted whole: `db2 "CONNECT TO …"`), from after `db2`: the password, group `v`.
 */
const DB2_USING =
  /[ \t]{1,8}["']?connect[ \t]{1,8}to[ \t]{1,8}[^\s"';]{1,128}(?:[ \t]{1,8}user[ \t]{1,8}[^\s"';]{1,128})?[ \t]{1,8}using[ \t]{1,8}(?<v>[^\s"';]{3,256})/diy;
/** An `expect` of a password prompt, up to its `passw` (or `*assw`) word: `expect "*assw`. */
const EXPECT_PROMPT =
  /^[ \t]{0,16}(?:exp_)?expect[ \t]{1,8}(?:-[a-z]{1,8}[ \t]{1,8}){0,2}["{][^"}\r\n]{0,32}$/;
/** Kickstart files: `ks.cfg`, `anaconda-ks.cfg`, `*.ks`, `kickstart…`. */
const KICKSTART_FILE = /(?:^|[\/._-])ks\.cfg$|\.ks$|kickstart[^\/]{0,64}$/i;
/**
 * A kickstart file's `rootpw [--plaintext] PASSWORD` (not `--iscrypted`: a hash, nor `--lock`
 * alone), from after `rootpw`: the password, group `v`.
 */
const ROOTPW =
  /(?:[ \t]{1,8}--(?:plaintext|allow-ssh)){0,2}[ \t]{1,8}(?<v>[^\s-][^\s]{2,255})(?=\s|$)/dy;
/**
 * `wpa_cli … set_network N psk '"PASSPHRASE"'` (the passphrase in double quotes inside the shell's
 * quotes, or escaped: `\"…\"`), or a raw PSK of 64 hex digits, from after `psk`: group `q` or `v`.
 */
const WPA_CLI_PSK =
  /[ \t]{1,8}(?:'"(?<q>[^"'\r\n]{8,63})"'|\\?"(?<b>[^"'\\\r\n]{8,63})\\?"|(?<v>[0-9a-fA-F]{64})(?![0-9a-zA-Z]))/dy;
/**
 * `iwconfig … key [N] s:TEXT` (a WEP key as text) or its hex digits (`1234-5678-90`, 10 or 26 of
 * them, maybe in groups), from after `key`: group `v`.
 */
const IWCONFIG_KEY =
  /[ \t]{1,8}(?:\[[0-9]\][ \t]{1,8})?(?:s:(?<v>[^\s"';&|]{5,29})|(?<h>[0-9A-Fa-f]{4}(?:-?[0-9A-Fa-f]{2}){3,12}))(?![^\s;&|])/dy;
/**
 * An `ftp` fed by a heredoc: after the command, the heredoc's lines up to its `user NAME PASSWORD`
 * line (at most 12 lines on, none of them the heredoc's end or `bye`): the password, group `v`.
 */
const FTP_USER =
  /[^\r\n]{0,256}(?:\r?\n(?![ \t]{0,16}(?:EOF|END|bye|quit)\b)[^\r\n]{0,256}){0,12}?\r?\n[ \t]{0,16}user[ \t]{1,8}[^\s]{1,128}[ \t]{1,8}(?<v>[^\s]{3,256})[ \t]{0,16}(?=\r?\n|$)/dy;
/** Postfix's SASL password map (`/etc/postfix/sasl_passwd`, by its name). */
const SASL_PASSWD_FILE = /(?:^|[\/])sasl_passw(?:or)?d$/;
/** A `sasl_passwd` line: a relay (`[smtp.example.com]:587`) or sender, then `user:PASSWORD`. */
const SASL_LINE =
  /^[ \t]{0,16}[^\s#]{1,256}[ \t]{1,64}[^\s:]{1,256}:(?<v>[^\s]{3,256})[ \t]{0,16}\r?$/dgm;

/**
 * After an `expect` of a password prompt: the rest of its line and the `send` of the answer, on
 * the same line after a `{` or on one of the next three lines (`send "…\r"`, `send -- "…"`,
 * `send {…}`, `exp_send`), its text in group `q` (without its `\r`) or `v` (a bare word).
 */
const EXPECT_SEND =
  /[^\r\n]{0,256}?(?:\{[ \t]{0,16}|(?:\r?\n[^\r\n]{0,256}?){0,2}\r?\n[ \t]{0,64})(?:exp_)?send[ \t]{1,8}(?:--[ \t]{1,8})?(?:"(?<q>[^"\\\r\n]{1,256})(?:\\[rn])?"|\{(?<b>[^}\\\r\n]{1,256})(?:\\r)?\}|(?<v>[^\s"{}\[\];]{3,256}))/dy;

/** A Weights & Biases API key: 40 hex digits, `local-` before them for a server's own. */
const WANDB_KEY = /^(?:local-)?[0-9a-f]{40}$/;
/** `algoliasearch(` (or `.Client(`) then the application id and the key, 32 hex digits, quoted. */
const ALGOLIA_CALL =
  /(?:\.Client)?\([ \t]{0,16}(?<a>["'])[A-Za-z0-9]{1,64}\k<a>[ \t]{0,16},[ \t]{0,16}(?<k>["'])(?<q>[0-9a-f]{32})\k<k>/dy;

/**
 * Algolia's other clients, from the `(` after their name (`SearchClient.create(`, `new
 * SearchClient(`, `SearchClient::create(`, Ruby's `Search::Client.create(`, Go's
 * `search.NewClient(`, Kotlin's `SearchClient(ApplicationID("…"), APIKey("…"))`): an application
 * id (10 upper case letters and digits) then the key, 32 hex digits, each quoted, maybe wrapped in a
 * type's call.
 */
const ALGOLIA_CLIENT_CALL =
  /\([ \t]{0,16}(?:[A-Za-z]{1,16}\([ \t]{0,16})?(?<a>["'])[A-Z0-9]{10}\k<a>[ \t]{0,16}\)?[ \t]{0,16},[ \t]{0,16}(?:[A-Za-z]{1,16}\([ \t]{0,16})?(?<k>["'])(?<q>[0-9a-f]{32})\k<k>/dy;
/** From an Algolia client's name to its `(`: `.create(`, `::create(` or the `(` itself. */
const ALGOLIA_CLIENT_OPEN = /(?:(?:\.|::)create)?\(/y;

/**
 * The secret written after a word the name search found (`NameSpots.positions`, ending at `at`):
 * `ngrok authtoken TOKEN` and `ngrok config add-authtoken TOKEN`, `wpa_passphrase SSID
 * PASSPHRASE`, GitHub Actions' `::add-mask::VALUE` (the value a workflow masks is a secret by
 * definition; a reference such as `$TOKEN` or `${{ … }}` stays), `db2 connect … using
 * PASSWORD`, `wandb login KEY` and `algoliasearch(APP_ID, KEY)` (hex keys: by their place alone,
 * as a commit's hash is also written, so only after these).
 */
function afterWord(text: string, at: number, kind: string, out: Span[]): void {
  if (kind === "wandb") {
    // `login`, its options (`--relogin`, `--host URL`), then the key: 40 hex digits (`local-` first
    // for a server's own)
    const words = wordsFrom(text, at, 8);
    let i = 1;
    while (i < words.length && words[i].text.startsWith("-")) {
      i += /^--(?:host|cloud|base-url)$/.test(words[i].text) ? 2 : 1;
    }
    const key = words[i];
    if (key && WANDB_KEY.test(key.text)) out.push({ start: key.start, end: key.end });
    return;
  }
  if (kind === "algolia") {
    sticky(text, at, ALGOLIA_CALL, out);
    return;
  }
  if (kind === "algoliaClient") {
    ALGOLIA_CLIENT_OPEN.lastIndex = at;
    if (ALGOLIA_CLIENT_OPEN.exec(text)) {
      sticky(text, ALGOLIA_CLIENT_OPEN.lastIndex - 1, ALGOLIA_CLIENT_CALL, out);
    }
    return;
  }
  if (kind === "ngrok" || kind === "wpa") {
    const words = wordsFrom(text, at, kind === "wpa" ? 2 : 1);
    const word = words[words.length - 1];
    if (words.length === (kind === "wpa" ? 2 : 1) && positional(word)) {
      out.push({ start: word.start, end: word.end });
    }
    return;
  }
  if (kind === "mask") {
    const m = /[^\s"'`]{4,4096}/y;
    m.lastIndex = at;
    const value = m.exec(text)?.[0];
    if (
      value && !REFERENCE.test(value) && !/^[$%]|^\$\{/.test(value) &&
      !PLACEHOLDER_WORD.test(value) && !/^(.)\1*$/.test(value)
    ) out.push({ start: at, end: at + value.length });
    return;
  }
  if (kind === "db2") sticky(text, at, DB2_USING, out);
  if (kind === "wpacli") sticky(text, at, WPA_CLI_PSK, out);
  if (kind === "ftp") sticky(text, at, FTP_USER, out);
  if (kind === "iwkey") iwconfigKey(text, at, out);
}

/** The WEP key of `iwconfig … key` at `at`: hex of 10, 26 or 32 digits, or `s:` text. */
function iwconfigKey(text: string, at: number, out: Span[]): void {
  IWCONFIG_KEY.lastIndex = at;
  const m = IWCONFIG_KEY.exec(text);
  const hex = m?.groups?.h;
  if (hex && [10, 26, 32].includes(hex.replace(/-/g, "").length)) {
    const [start, end] = m!.indices!.groups!.h!;
    out.push({ start, end });
  } else if (m?.groups?.v !== undefined) {
    const value = m.groups.v;
    // a WEP text key is 5 or 13 characters: letters alone count, not a stand-in
    if (!PLACEHOLDER_WORD.test(value) && !REFERENCE.test(value) && !/^(.)\1*$/.test(value)) {
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
}

/** The password group (`q` quoted, `b` braced, else `v`) of a sticky `pattern` at `at`, if one. */
function sticky(text: string, at: number, pattern: RegExp, out: Span[]): void {
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  if (!m) return;
  const group = m.groups!.q !== undefined ? "q" : m.groups!.b !== undefined ? "b" : "v";
  const value = m.groups![group];
  if (!positional({ start: 0, end: 0, text: value, quoted: group !== "v" })) return;
  const [start, end] = m.indices!.groups![group]!;
  out.push({ start, end });
}

/**
 * The passwords that commands take by position in `text` (see the module's header), each command
 * looked for only where the text's hints hold a part of it.
 *
 * @example
 * ```ts
 * import { findPositionalPasswords } from "./_secret_rules_positional.ts";
 * findPositionalPasswords("htpasswd -b .htpasswd admin S3cr3t9x"); // [{ start: 28, end: 36 }]
 * findPositionalPasswords("htpasswd -c .htpasswd admin"); // []
 * ```
 */
export function findPositionalPasswords(
  text: string,
  hints?: TextHints,
  path?: string,
): Span[] {
  const out: Span[] = [];
  const all = !hints;
  // `htpasswd` and `change_password` hold `passw`; `add_user ` is a hint of its own (`_`)
  if (all || hints.pairs.has("w") || hints.families.includes("_")) {
    TOOL.lastIndex = 0;
    for (const m of text.matchAll(TOOL)) {
      const at = m.index! + m[0].length;
      if (m[0].startsWith("w")) htpasswd(text, at, out);
      else rabbitmqctl(text, at, out);
    }
  }
  if (all || hints.pairs.has("w")) passwdPipes(text, out);
  const spots = namesOf(text, hints);
  for (const { at, kind } of spots.commands) {
    if (kind === "rclone") rcloneConfig(text, at, out);
  }
  for (const { at, kind } of spots.positions) afterWord(text, at, kind, out);
  // an `expect` of a password prompt (`expect "*assword*"`, `expect -re "Password:"`): its `send`
  for (const at of spots.passwords) {
    const from = Math.max(lastIndexNear(text, "\n", at, 64) + 1, at - 64, 0);
    if (EXPECT_PROMPT.test(text.slice(from, at))) sticky(text, at, EXPECT_SEND, out);
  }
  // a kickstart file's `rootpw`
  if (path && KICKSTART_FILE.test(path)) {
    for (let at = text.indexOf("rootpw"); at >= 0; at = text.indexOf("rootpw", at + 6)) {
      if (at === 0 || text[at - 1] === "\n") sticky(text, at + 6, ROOTPW, out);
    }
  }
  // Postfix's `sasl_passwd` map: each line's `user:PASSWORD`
  if (path && SASL_PASSWD_FILE.test(path)) {
    for (const m of text.matchAll(SASL_LINE)) {
      const [start, end] = m.indices!.groups!.v!;
      const value = m.groups!.v;
      if (!REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value)) out.push({ start, end });
    }
  }
  if (all || hints.families.includes("U")) netUse(text, out);
  if (all || hints.families.includes("c")) composerBasic(text, out);
  return out;
}

/**
 * curl's `-u` (or `--user`) with a token as the user and no password (`-u sk_live_…:`, as API docs
 * write it): the token (group `v`), then `:` and the option's end.
 */
export const USER_TOKEN: RegExp =
  /(?:-u|--user)(?<=(?:^|\s)(?:-u|--user))(?:[ \t]{1,4}|=)(?<q>["']?)(?<v>[A-Za-z0-9_.~+/-]{16,512}):\k<q>(?=[\s;&|)]|$)/g;

/**
 * The tokens given to `-u` as a user with no password: a generated value (letters and digits
 * mixed, or 32+ hex digits), not a name (`-u deploy-bot-user:`) or a stand-in.
 *
 * @example
 * ```ts
 * import { findUserTokens } from "./_secret_rules_positional.ts";
 * findUserTokens("curl -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: https://api.stripe.com");
 * // [{ start: 8, end: 40 }]
 * ```
 */
export function findUserTokens(text: string): Span[] {
  const out: Span[] = [];
  USER_TOKEN.lastIndex = 0;
  for (const m of text.matchAll(USER_TOKEN)) {
    const value = m.groups!.v;
    if (fewCharacters(value) || PLACEHOLDER_WORD.test(value)) continue;
    if (!looksRandom(value) && !looksGenerated(value) && !/^[0-9a-fA-F]{32,}$/.test(value)) {
      continue;
    }
    const start = m.index! + m[0].length - value.length - 1 - m.groups!.q.length;
    out.push({ start, end: start + value.length });
  }
  return out;
}

/**
 * Known providers' client calls whose argument at `arg` (0: the first) is the API key, quoted,
 * with the key's shape `key`: `cohere.Client("…")` (40 letters and digits), `new
 * Ably.Realtime("…")` and `Ably.Rest` (`app.key:secret`), Segment's `analytics.load("…")` (32),
 * `dropbox.Dropbox("sl.…")` (a short-lived token, or 64 of base64url). `call` ends at the `(`.
 */
const CLIENT_CALLS: Array<{ call: RegExp; arg: number; key: RegExp }> = [
  { call: /cohere\.(?:Async)?Client(?:V2)?\(/g, arg: 0, key: /^[A-Za-z0-9]{40}$/ },
  {
    call: /Ably\.(?:Realtime|Rest)(?:\.Promise)?\(/g,
    arg: 0,
    key: /^[\w-]{4,16}\.[\w-]{4,16}:[\w+\/=-]{20,128}$/,
  },
  { call: /analytics\.load\(/g, arg: 0, key: /^[A-Za-z0-9]{32}$/ },
  { call: /dropbox\.Dropbox\(/g, arg: 0, key: /^(?:sl\.[\w-]{100,2048}|[\w-]{64})$/ },
];
/** A quoted argument (its text in `v`), then `,` or `)`, from where `y` is set. */
const QUOTED_ARG = /[ \t]{0,16}(?<q>["'`])(?<v>[^"'`\\\r\n$]{1,2048})\k<q>[ \t]{0,16}(?=[,)])/dy;
/** Honeycomb's API key header (`x-honeycomb-team=KEY`, `X-Honeycomb-Team: KEY`): group `v`. */
const HONEYCOMB_HEADER =
  /[Xx]-(?:[Hh]oneycomb-[Tt]eam|HONEYCOMB-TEAM)["']?[ \t]{0,16}[:=][ \t]{0,16}["']?(?<v>[A-Za-z0-9_]{20,128})(?![\w-])/dg;
/** A Honeycomb key: 22 letters and digits, 32 hex digits, or an ingest key (`hcaik_…`). */
const HONEYCOMB_KEY = /^(?:[A-Za-z0-9]{22}|[0-9a-f]{32}|hc[a-z]{2,3}_[A-Za-z0-9]{20,120})$/;

/** A key's value: letters and digits mixed, not a stand-in (`YOUR_API_KEY`) nor a few letters. */
function keyLike(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !PLACEHOLDER_WORD.test(value) &&
    !REFERENCE.test(value) && !fewCharacters(value);
}

/**
 * The API keys given by position to known providers' clients ({@linkcode CLIENT_CALLS}) and
 * Honeycomb's header values: only a quoted value of the key's shape (a name such as `api_key`,
 * `process.env.X` or `${…}` is no literal; `"YOUR_API_KEY"` is a stand-in).
 *
 * @example
 * ```ts
 * import { findClientKeys } from "./_secret_rules_positional.ts";
 * findClientKeys('cohere.Client("OnxGDkLoAEtS83B8dMTUqtueCXAQlGqhBXtpEMR2")'); // [{ start: 15, end: 55 }]
 * findClientKeys("cohere.Client(api_key)"); // []
 * ```
 */
export function findClientKeys(text: string): Span[] {
  const out: Span[] = [];
  for (const { call, arg, key } of CLIENT_CALLS) {
    call.lastIndex = 0;
    for (const m of text.matchAll(call)) {
      let at = m.index! + m[0].length;
      for (let i = 0; i <= arg; i++) {
        QUOTED_ARG.lastIndex = at;
        const a = QUOTED_ARG.exec(text);
        if (!a) break;
        const value = a.groups!.v;
        if (i === arg && key.test(value) && keyLike(value)) {
          const [start, end] = a.indices!.groups!.v!;
          out.push({ start, end });
        }
        at = QUOTED_ARG.lastIndex + 1; // past the `,`
      }
    }
  }
  HONEYCOMB_HEADER.lastIndex = 0;
  for (const m of text.matchAll(HONEYCOMB_HEADER)) {
    const value = m.groups!.v;
    if (!HONEYCOMB_KEY.test(value) || !keyLike(value)) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}
