/**
 * Rules for passwords that a command line gives away by its tool and option, with no secret word
 * around them (`secret_rules.ts` is the public face): `docker login -p …` (and podman, buildah,
 * skopeo, helm, oras, …), `mongosh -p …`, `sqlcmd -P …`, `ldapsearch -w …`, `smbclient -U
 * user%…`, openssl's `pass:…` and `enc -k …`, a password piped to `--password-stdin` by `echo`,
 * and `aws configure set aws_secret_access_key …`. The hint search finds their options (family
 * `t`: `-p `, `-P `, `-w `, `-U `, `-k `, `-passin pass:`; `o` for `--password-stdin`; `_` for
 * `aws_secret_access_key `), and each option is then checked against the command it belongs to.
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
import { passwordLike, PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * A one-dash option that holds a password in some tools, and its value: `-p`, `-P`, `-w`, `-k`,
 * `-N`, `-t`, `-pw` and a blank, then the value (group `v`, quoted or not); `-U user%password` (group `uv`);
 * openssl's `-passin`, `-passout`, `-pass` or `-password` and `pass:…` (group `v`). Group `o`:
 * the option's letter. A value that opens a subexpression (`-N (Get-Random …)`) is code.
 */
export const TOOL_OPTION: RegExp = new RegExp(
  "-(?<=[ \\t]-)(?:(?<pass>pass(?:in|out|word)?)[ \\t]{1,4}pass:|(?<o>pwd|passwd|pass|pw|[pPwkNcAXat])(?:[ \\t]{1,4}|=)|" +
    "U[ \\t]{1,4}(?<uq>[\"']?)[^\\s%\"'`\\\\]{1,64}%(?<uv>[^\\s\"'`]{3,256})\\k<uq>(?=[\\s;&|)`\"']|$))" +
    "(?:(?<q>[\"']?)(?<v>(?![-(])[^\\s\"'`]{3,256})\\k<q>(?=[\\s;&|)`\"']|$))?",
  "dg",
);

/**
 * A long password option (`--password`, `--db-password`, `--client-secret`, `--auth-token`,
 * `--api-key`, `--oauth2-bearer`, `--passphrase`, `--ks-pass`, `--account-key`; not `--no-…`)
 * after a blank or a quote, and its value (group `v`, after apksigner's `pass:`): after blanks (quoted up to its quote, else up to a blank), or as the next item of a list
 * (`"--password", "…"` in JSON, Python or a Dockerfile's exec form; a YAML list's next `- …`).
 */
export const LONG_OPTION: RegExp = new RegExp(
  "--(?!no-)(?:[a-z0-9]{1,16}-){0,3}(?:password|passwd|passphrase|pass|requirepass|masterauth|token|api-?key|(?:account|storage)-key|secret|oauth2-bearer|creds)" +
    "(?<=(?:^|[\\s\"'])--[a-z0-9-]{5,64})(?![\\w-])" +
    "(?:[ \\t]{1,4}[\"']?|[\"'][ \\t]{0,4},[ \\t]{0,4}[\"']|[\"']?[ \\t]{0,4}\\r?\\n[ \\t]{0,32}-[ \\t]{1,4}[\"']?)" +
    "(?:pass:)?(?<v>(?<=[\"':])[^\"'`\\r\\n]{6,256}(?=[\"'])|(?![-\"'])[^\\s\"'`]{6,65536})",
  "g",
);

/**
 * The values of long password options in `text` ({@linkcode LONG_OPTION}) that read as passwords:
 * after a quoted value that does not (`--password "./app --db-password …"`, a command kept as a
 * setting), the search goes on inside it.
 *
 * @example
 * ```ts
 * import { findLongOptions } from "./_secret_rules_cli.ts";
 * findLongOptions("./app --db-password S3cr3t9x"); // [{ start: 20, end: 28 }]
 * ```
 */
export function findLongOptions(text: string): Span[] {
  const out: Span[] = [];
  LONG_OPTION.lastIndex = 0;
  for (let m = LONG_OPTION.exec(text); m; m = LONG_OPTION.exec(text)) {
    let value = m.groups!.v;
    let start = m.index + m[0].length - value.length;
    // `--creds user:…` (skopeo's, podman's, buildah's `--src-creds`, `--dest-creds`): the password
    const colon = value.indexOf(":");
    if (colon > 0 && /creds(?![\w-])/.test(m[0].slice(0, m[0].length - value.length))) {
      start += colon + 1;
      value = value.slice(colon + 1);
    }
    // An elided example (`'AAEWVaWM...Rva2VuaSDZ'`) shows a token's shape, not a token.
    // (a base64 key may start with `/`, which a path does: `--account-key /g03…==`)
    const key = /^[A-Za-z0-9+/]{40,}={0,2}$/.test(value) && looksRandom(value.replace(/\//g, ""));
    if ((passwordLike(value, true) || key) && !/\.\.\.|…/.test(value)) {
      out.push({ start, end: start + value.length });
    } else LONG_OPTION.lastIndex = m.index + 2;
  }
  return out;
}

/** Net-SNMP's commands (`snmpwalk`, `snmpget`, `snmpbulkwalk`, `snmpset`, `snmptrap`, …). */
const SNMP_TOOL = /(?:^|[^\w.-])snmp[a-z]{0,12}(?:\.exe)?(?=[ \t])/;
/** SNMP's well-known communities: the defaults, no secret. */
const SNMP_DEFAULT = /^(?:public|private)$/i;

/** The tools each option letter holds a password in, written before it in the same command. */
const TOOLS: Record<string, RegExp> = {
  // `-p`: a registry login (not `docker run -p 80:80`), `az login`'s service principal secret,
  // or MongoDB's shell and tools
  // (`mongosh`, …), RabbitMQ's and Cassandra's admin shells, macOS's keychains (`security
  // unlock-keychain -p`) and App Store uploads (`xcrun altool … -p`)
  p: /(?:^|[^\w.-])(?:(?:docker|podman|buildah|skopeo|nerdctl|oras|helm|crane|regctl|cf|az|conan)(?:\.exe|\.cmd)?[ \t](?:[^\r\n;&|]{0,512}[ \t])?login|twine[ \t]{1,8}upload|mongo(?:sh|dump|restore|export|import|stat|top|files)?(?:\.exe)?|rabbitmqadmin|cqlsh|security[ \t]{1,8}(?:unlock|create)-keychain|altool|racadm|rdesktop)(?=[ \t])/,
  // `-P`: SQL Server's and Sybase's command-line tools, zip's (Info-ZIP) encryption password,
  // IPMI's and MQTT's clients, a keychain's import of a `.p12`
  P: /(?:^|[^\w.-])(?:sqlcmd|bcp|osql|isql|zip|unzip|zipcloak|ipmitool|mosquitto_(?:pub|sub|rr)|security[ \t]{1,8}import)(?:\.exe)?(?=[ \t])/,
  // `-pw`: PuTTY's command-line tools
  pw: /(?:^|[^\w.-])(?:plink|pscp|psftp)(?:\.exe)?(?=[ \t])/,
  // `-N`: a new key's passphrase
  N: /(?:^|[^\w.-])ssh-keygen(?:\.exe)?(?=[ \t])/,
  // `-w`: OpenLDAP's tools (the bind password)
  w: /(?:^|[^\w.-])ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop|url)(?=[ \t])/,
  // `-k`: `openssl enc` (and a cipher's own command, `openssl aes-256-cbc`)
  k: /(?:^|[^\w.-])openssl(?:\.exe)?[ \t]/,
  // `-U user%password`: Samba's clients
  U: /(?:^|[^\w.-])(?:smb(?:client|map|get|cacls|tree)|rpcclient|winexe|nxc|netexec|crackmapexec|net[ \t]{1,4}(?:rpc|ads|sam|rap|dom))(?:\.exe)?(?=[ \t])/,
  // `-c`, `-A`, `-X`: Net-SNMP's tools (the community; v3's auth and privacy passphrases)
  c: SNMP_TOOL,
  A: SNMP_TOOL,
  X: SNMP_TOOL,
  // `-t`: the token of InfluxDB's CLI, Codecov's uploaders (also `bash <(curl -s
  // https://codecov.io/bash) -t …`), Vercel's, DigitalOcean's and Fly's CLIs
  t: /(?:^|[^\w.-])(?:influx|codecov|vercel|doctl|flyctl|fly)(?:\.exe)?(?=[ \t])|codecov\.io\/bash\)/,
  // `-a user:password`: HTTPie (its password after the `:`; `-a user` alone prompts)
  a: /(?:^|[^\w.-])(?:https?|httpie)(?=[ \t])/,
  // `-pwd`: Active Directory's `dsadd` and `dsmod`; `-pass`: `ktpass`; `-passwd`: x11vnc
  pwd: /(?:^|[^\w.-])ds(?:add|mod)(?:\.exe)?(?=[ \t])/,
  pass: /(?:^|[^\w.-])ktpass(?:\.exe)?(?=[ \t])/,
  passwd: /(?:^|[^\w.-])x11vnc(?=[ \t])/,
  // `pass:…`: any openssl command (`pkcs12 -passout pass:…`, `req -passin pass:…`)
  openssl: /(?:^|[^\w.-])openssl(?:\.exe)?[ \t]/,
};

/**
 * The command before `at` on its line: from after the last `;`, `&`, `|` or `(` outside quotes
 * (at most 512 characters back), for a rule that asks which tool an option belongs to. (A quoted
 * argument's own `(` or `|`, a Flux query's `'from(bucket:"m") |> range(…)'`, is not a command's
 * end.)
 *
 * @example
 * ```ts
 * import { commandBefore } from "./_secret_rules_cli.ts";
 * commandBefore("cd x && git push -u o a:b", 17); // " git push "
 * commandBefore("influx query 'from(b)' -t", 23); // "influx query 'from(b)' "
 * ```
 */
export function commandBefore(text: string, at: number): string {
  const from = Math.max(0, at - 512);
  let cut = from - 1;
  let quote = ""; // the quote open at `i`, if any
  for (let i = from; i < at; i++) {
    const c = text[i];
    if (c === "\n") {
      cut = i;
      quote = "";
    } else if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ";" || c === "&" || c === "|" || c === "(") cut = i;
  }
  return text.slice(cut + 1, at);
}

/** A password a command holds, not a reference (`$PW`, `%PW%`) or a placeholder's word. */
function realPassword(value: string): boolean {
  return value.length >= 3 && !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value) &&
    !/^%\w+%$/.test(value) && !/^(.)\1*$/.test(value);
}

/**
 * The passwords of tools' one-dash options in `text` ({@linkcode TOOL_OPTION}): each option is a
 * password only after the command that reads it so (`-p` of `docker login`, not of `mkdir -p`).
 *
 * @example
 * ```ts
 * import { findToolPasswords } from "./_secret_rules_cli.ts";
 * findToolPasswords("docker login -u bob -p S3cr3t9x r.io"); // [{ start: 23, end: 31 }]
 * findToolPasswords("mkdir -p build/out"); // []
 * ```
 */
export function findToolPasswords(text: string): Span[] {
  const out: Span[] = [];
  TOOL_OPTION.lastIndex = 0;
  for (const m of text.matchAll(TOOL_OPTION)) {
    const g = m.groups!;
    const name = g.uv !== undefined ? "uv" : "v";
    let value: string | undefined = g[name];
    // HTTPie's `-a user:password`: the part after the `:` (`-a user` alone prompts)
    const colon = g.o === "a" ? (value?.indexOf(":") ?? -1) + 1 : 0;
    if (g.o === "a") value = colon ? value!.slice(colon) : undefined;
    if (value === undefined || !realPassword(value)) continue;
    if (g.o === "c" && SNMP_DEFAULT.test(value)) continue;
    const tool = TOOLS[g.uv !== undefined ? "U" : g.pass !== undefined ? "openssl" : g.o];
    if (!tool.test(commandBefore(text, m.index!))) continue;
    const [start, end] = m.indices!.groups![name]!;
    out.push({ start: start + colon, end });
  }
  return out;
}

/**
 * A value written into a pipe (group `v`): `echo` (PowerShell's `Write-Output`) or `printf` and a
 * value, or (PowerShell) a quoted string that starts its line, then `|` and the rest of the line.
 */
const ECHO_PIPE =
  /(?:(?:^|[^\w.-])(?:(?:echo|Write-Output)(?:[ \t]{1,4}-[neE]{1,3})?|printf(?:[ \t]{1,4}(?:"%s"|'%s'|%s))?)[ \t]{1,4}|^[ \t]{0,16}(?=["']))(?<q>["']?)(?<v>[^\s"'`|]{3,256})\k<q>[ \t]{0,16}(?:\|[ \t]{0,4}tee(?:[ \t]{1,4}[^\s|;&]{1,256}){0,4}[ \t]{0,4})?\|[^\r\n|]{0,256}$/d;
/**
 * Commands that read a secret from their input: an option that says so (`--password-stdin` of
 * `docker login` and its kin, gh's `--with-token`), `az devops login` (a PAT), secret stores, and
 * password hashers (`mkpasswd`, `openssl passwd`, `htpasswd -i`).
 */
const STDIN_READER =
  /--password-stdin|--with-token|devops[ \t]{1,4}login|\|[ \t]{0,4}(?:\\\r?\n[ \t]{0,32})?(?:(?<store>runas|wrangler[ \t]{1,4}(?:pages[ \t]{1,4})?secret[ \t]{1,4}put|vercel[ \t]{1,4}env[ \t]{1,4}add|docker[ \t]{1,4}secret[ \t]{1,4}create|gh[ \t]{1,4}secret[ \t]{1,4}set|fly(?:ctl)?[ \t]{1,4}secrets[ \t]{1,4}(?:set|import)|kubectl[ \t]{1,4}create[ \t]{1,4}secret|vault[ \t]{1,4}(?:kv[ \t]{1,4}put|write)|gcloud[ \t]{1,4}secrets[ \t]{1,4}(?:create|versions[ \t]{1,4}add)|sudo[ \t]{1,4}-[A-Za-z]{0,4}S|mkpasswd|openssl[ \t]{1,4}passwd|htpasswd(?=[ \t]{1,4}-[A-Za-z]{0,6}i))(?![\w-])|(?<encode>(?:openssl[ \t]{1,4}(?:enc[ \t]{1,4}-)?)?base64)(?![\w.(/-]))/g;
/** A pipe into a reader of {@linkcode STDIN_READER}, from its `|` (a `\` and a line end between). */
const PIPE_AT =
  /\|[ \t]{0,4}(?:\\\r?\n[ \t]{0,32})?(?:runas|base64|openssl|wrangler|vercel|docker|gh|fly|kubectl|vault|sudo|mkpasswd|htpasswd)(?![\w-])/y;

/**
 * Whether `text` pipes into a reader ({@linkcode PIPE_AT}, tried at each `|`: a pattern of its
 * own over every text cost the stdlib's scan 5%) or holds a here-string's `<<<`.
 */
function pipesIntoReader(text: string): boolean {
  for (let i = text.indexOf("|"); i >= 0; i = text.indexOf("|", i + 1)) {
    PIPE_AT.lastIndex = i;
    if (PIPE_AT.test(text)) return true;
  }
  return text.includes("<<<");
}
/**
 * A here-string given to a base64 encoder (`base64 <<< '…'`, `openssl base64 <<< "…"`), its value
 * (group `v`).
 */
const ENCODE_HERE_STRING =
  /<<<(?<=(?:^|[\s;(`$])(?:openssl[ \t]{1,4}(?:enc[ \t]{1,4}-)?)?base64(?:[ \t]{1,4}-{1,2}[\w=]{1,16}){0,3}[ \t]{1,4}<<<)[ \t]{0,4}(?<q>["']?)(?<v>[^\s"'`|]{3,256})\k<q>/dg;
/**
 * Whether a value given to a base64 encoder is a password (as a Secret's value is made for a
 * manifest: `echo -n '…' | base64`), not a user's name or a word of configuration (`admin`,
 * `my-app`): a password's shape, letters and digits mixed, or a generated key.
 */
function encodedPassword(value: string): boolean {
  return realPassword(value) && passwordLike(value, true) &&
    (looksGenerated(value) || /[0-9]/.test(value) && /[A-Za-z]/.test(value));
}

/**
 * The passwords and tokens written into a pipe to a command that reads them
 * ({@linkcode STDIN_READER}): `echo "…" | docker login -u bob --password-stdin`,
 * `echo … | az devops login`, PowerShell's `"…" | az devops login`; a reference
 * (`echo "$TOKEN" |`) stays.
 *
 * @example
 * ```ts
 * import { findStdinPasswords } from "./_secret_rules_cli.ts";
 * findStdinPasswords('echo "S3cr3t9x" | docker login --password-stdin'); // [{ start: 6, end: 14 }]
 * ```
 */
export function findStdinPasswords(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  const login = !hints || hints.families.includes("o") || hints.families.includes("g");
  if (!login && !pipesIntoReader(text)) return out;
  for (const reader of text.matchAll(STDIN_READER)) {
    // (a pipe's reader: the text up to its `|` and the `|` itself)
    const at = reader.index + (text[reader.index] === "|" ? 1 : 0);
    const from = commandStart(text, at);
    // (a `\` and its line end read as blanks, one for one: the offsets stay the text's)
    const m = ECHO_PIPE.exec(
      text.slice(from, at).replace(CONTINUATION, (c) => " ".repeat(c.length)),
    );
    const value = m?.groups?.v;
    if (!value || !(reader.groups!.encode ? encodedPassword(value) : realPassword(value))) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start: from + start, end: from + end });
  }
  if (text.includes("<<<")) {
    ENCODE_HERE_STRING.lastIndex = 0;
    for (const m of text.matchAll(ENCODE_HERE_STRING)) {
      if (!encodedPassword(m.groups!.v)) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
    // a here-string given to a command that reads a secret from its input
    for (let i = text.indexOf("<<<"); i >= 0; i = text.indexOf("<<<", i + 3)) {
      const from = Math.max(lastIndexNear(text, "\n", i, 768) + 1, i - 768, 0);
      if (!HERE_STRING_READER.test(text.slice(from, i))) continue;
      HERE_STRING.lastIndex = i;
      const m = HERE_STRING.exec(text);
      if (!m || !realPassword(m.groups!.v)) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
  return out;
}

/** A `\` that continues a command on the next line, with that line's end. */
const CONTINUATION = /\\\r?\n/g;

/**
 * Where the command that holds `at` starts: its line's start, or an earlier line's whose end a
 * `\` continues (768 characters back at most).
 */
function commandStart(text: string, at: number): number {
  let from = Math.max(lastIndexNear(text, "\n", at, 768) + 1, at - 768, 0);
  while (
    from > 1 && at - from < 768 && /\\\r?$/.test(text.slice(Math.max(0, from - 3), from - 1))
  ) {
    from = Math.max(lastIndexNear(text, "\n", from - 2, 768) + 1, at - 768, 0);
  }
  return from;
}

/** Commands before a here-string's `<<<` that read a secret from their input. */
const HERE_STRING_READER =
  /(?:^|[\s;(`$|&])(?:gh[ \t]{1,4}secret[ \t]{1,4}set|wrangler[ \t]{1,4}(?:pages[ \t]{1,4})?secret[ \t]{1,4}put|vercel[ \t]{1,4}env[ \t]{1,4}add|docker[ \t]{1,4}secret[ \t]{1,4}create|fly(?:ctl)?[ \t]{1,4}secrets[ \t]{1,4}(?:set|import)|vault[ \t]{1,4}(?:kv[ \t]{1,4}put|write)|kubectl[ \t]{1,4}create[ \t]{1,4}secret|chpasswd|passwd[ \t]{1,4}--stdin|sudo[ \t]{1,4}-[A-Za-z]{0,4}S|mkpasswd|openssl[ \t]{1,4}passwd|[^\r\n]{0,512}(?:--password-stdin|--with-token|devops[ \t]{1,4}login))/;
/** A here-string's value (group `v`), quoted or not, from its `<<<`. */
const HERE_STRING = /<<<[ \t]{0,4}(?<q>["']?)(?<v>[^\s"'`|]{3,256})\k<q>/dy;

/**
 * An AWS secret access key or session token written after its name with a blank, as `aws
 * configure set aws_secret_access_key …` takes it (group `v`).
 */
export const AWS_CONFIGURE: RegExp =
  /aws_(?:secret_access_key|session_token)[ \t]{1,8}(?<q>["']?)(?<v>[A-Za-z0-9/+=]{16,4096})\k<q>(?![^\s;&|)])/g;

/**
 * Whether a value written after an AWS key's name is a key: mixed as a generated one is.
 *
 * @example
 * ```ts
 * import { awsKeyLike } from "./_secret_rules_cli.ts";
 * awsKeyLike("wJalrXUtnFEMI/K7MDENG/bPxRfiCY2EXAMPLE"); // true
 * awsKeyLike("parameter_value_here"); // false
 * ```
 */
export function awsKeyLike(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value) &&
    !fewCharacters(value);
}

/**
 * curl's cookies: `-b '…'`, `--cookie '…'` (or `=`) or `-H 'Cookie: …'` (`--header`, `=`), quoted
 * (group `v`: the `name=value` pairs), as a browser's "copy as cURL" writes them, or one pair
 * unquoted (`v2`).
 */
export const CURL_COOKIE: RegExp =
  /-(?<=[ \t]-)(?:b[ \t]{1,4}|-cookie(?:[ \t]{1,4}|=)|(?:H[ \t]{1,4}|-header(?:[ \t]{1,4}|=))(?=["'][Cc]ookie:))(?:(?<q>["'])(?:[Cc]ookie:[ \t]{0,4})?(?<v>[^"'\r\n]{1,4096})\k<q>|(?<v2>[^\s"'`]{1,4096}))/dg;
/** One cookie's value in a `Cookie` header's pairs. */
const COOKIE_VALUE = /(?:^|;)[ \t]{0,4}[^=;\s]{1,128}=(?<v>[^;\s]{16,4096})/dg;

/**
 * The values of the cookies a curl command sends (see {@linkcode CURL_COOKIE}) that read as a
 * session's token: 16+ characters, letters and digits mixed, not a stand-in (`-b cookies.txt`, a
 * file, and `theme=dark` stay).
 *
 * @example
 * ```ts
 * import { findCurlCookies } from "./_secret_rules_cli.ts";
 * findCurlCookies("curl -b 'sid=Zx81kQp0aL5tR2mW9nB4' https://x.io");
 * // [{ start: 13, end: 33 }]
 * ```
 */
export function findCurlCookies(text: string): Span[] {
  const out: Span[] = [];
  CURL_COOKIE.lastIndex = 0;
  for (const m of text.matchAll(CURL_COOKIE)) {
    if (!/(?:^|[^\w.-])curl(?:\.exe)?[ \t]/.test(commandBefore(text, m.index!))) continue;
    const group = m.groups!.v !== undefined ? "v" : "v2";
    out.push(...cookieValues(m.groups![group], m.indices!.groups![group]![0]));
  }
  return out;
}

/**
 * The values among a `Cookie` header's `name=value` pairs (`pairs`, found at `at` of its text)
 * that read as a session's token: 16+ characters, letters and digits mixed, not a stand-in
 * (`theme=dark` stays). curl's cookies, a HAR's and an `.http` file's `Cookie` headers.
 *
 * @example
 * ```ts
 * import { cookieValues } from "./_secret_rules_cli.ts";
 * cookieValues("theme=dark; sid=Zx81kQp0aL5tR2mW9nB4", 10); // [{ start: 26, end: 46 }]
 * ```
 */
export function cookieValues(pairs: string, at: number): Span[] {
  const out: Span[] = [];
  COOKIE_VALUE.lastIndex = 0;
  for (const c of pairs.matchAll(COOKIE_VALUE)) {
    // (judged with its URL escapes as marks: `Hello%2C%20world%21` has no digit of its own)
    const value = c.groups!.v.replace(/%[0-9A-Fa-f]{2}/g, "%");
    if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value) || fewCharacters(value)) continue;
    // a URL (`lvl2=http://127.0.0.1:8081`: a sticky session's server) names a place, no session
    if (!realPassword(value) || /^[a-z][a-z0-9+.-]{0,15}:\/\//.test(value)) continue;
    const [start, end] = c.indices!.groups!.v!;
    out.push({ start: at + start, end: at + end });
  }
  return out;
}
