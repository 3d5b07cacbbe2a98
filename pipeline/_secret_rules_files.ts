/**
 * Rules for secrets that a file's own format holds (`secret_rules.ts` is the public face), each read
 * only in the files named for it: a `.netrc`'s `password` token whatever its shape (the file holds
 * nothing else), Subversion's cached credentials (`svn.simple`: `K 8`/`password`/`V n`/the value),
 * Redis's `AUTH` in `.rediscli_history` and at a `redis-cli` prompt in a page, an Ansible literal piped to `password_hash` in YAML and
 * templates, prose's credentials in code spans (`**Password:** \`…\``, `` `admin` / `…` ``), and
 * letters alone in a Dockerfile's `ENV NAME value`.
 *
 * @module
 */

import { indexNear, lastIndexNear, looksGenerated } from "./_secret_rules_common.ts";
import { passwordLike, PLACEHOLDER_WORD, REFERENCE } from "./_secret_rules_names.ts";
import { lettersPassword } from "./_secret_rules_letters.ts";
import { codeType } from "./_secret_rules_code.ts";

type Span = { start: number; end: number };

/** `.netrc` (and Windows' `_netrc`, Emacs' `.authinfo`), by name. */
const NETRC_FILE = /(?:^|[\/\\])(?:[._]netrc|\.authinfo)$/;
/** A `.netrc` token `password` (or `passwd`) and its value, which may be quoted. */
const NETRC_PASSWORD =
  /(?<![^\s])passw(?:or)?d[ \t]{1,16}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>\S{1,256}))/dg;
/** Subversion's cached credentials: `~/.subversion/auth/svn.simple/<md5>`, by the folder's name. */
const SVN_AUTH_FILE = /(?:^|[\/\\])svn\.(?:simple|ssl\.client-passphrase)[\/\\][^\/\\]{1,128}$/;
/** A hash's key `password` or `passphrase` in Subversion's format: the value's length, then it. */
const SVN_ENTRY = /^K [0-9]{1,4}\r?\npass(?:word|phrase)\r?\nV (?<n>[0-9]{1,5})\r?\n/gm;
/** Redis's command history, by name. */
const REDIS_HISTORY = /(?:^|[\/\\])\.rediscli_history$/;
/** `AUTH [user] PASSWORD` (also in `HELLO 3 AUTH user PASSWORD`) at a line's start, any case. */
const REDIS_AUTH =
  /^[ \t]{0,16}(?:hello[ \t]{1,16}[0-9][ \t]{1,16})?auth[ \t]{1,16}(?:(?:"[^"\r\n]{1,256}"|[^\s"]{1,256})[ \t]{1,16})?(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))[ \t]{0,16}\r?$/dgim;
/**
 * `AUTH [user] PASSWORD` typed at a `redis-cli` prompt that a page shows (`127.0.0.1:6379> AUTH
 * …`, `redis localhost:6380[2]> auth …`): the prompt's port (and database), `>`, then the command
 * to the line's end.
 */
const REDIS_PROMPT_AUTH =
  /[0-9]{1,5}(?:\[[0-9]{1,2}\])?>[ \t]{1,8}auth[ \t]{1,16}(?:(?:"[^"\r\n]{1,256}"|[^\s"]{1,256})[ \t]{1,16})?(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"`]{1,256}))[ \t]{0,16}\r?$/dgim;
/** Exim's client authenticators' passwords (`/etc/exim4/passwd.client`), by name. */
const EXIM_PASSWD_FILE = /(?:^|[\/\\])passwd\.client$/;
/** A `passwd.client` line: `host:user:PASSWORD` (the host may hold `*`). */
const EXIM_LINE = /^[ \t]{0,16}[^\s#:]{1,256}:[^\s:]{1,256}:(?<v>[^\s]{1,256})[ \t]{0,16}\r?$/dgm;
/**
 * Kubernetes' API server's static files (`--token-auth-file`, the old `--basic-auth-file`), by
 * name: `token.csv`, `tokens.csv`, `known_tokens.csv`, `basic_auth.csv`.
 */
const KUBE_AUTH_CSV = /(?:^|[\/\\])(?:(?:known_)?tokens?|basic[_-]auth)\.csv$/;
/**
 * A line of those files: the token (or the password) first, then the user's name and id (group
 * `v`), and maybe its groups; a token of letters, digits and `._-`, a password of no blank.
 */
const KUBE_AUTH_LINE =
  /^[ \t]{0,16}(?<v>[^\s,#"][^\s,"]{3,255}),[^,\r\n]{1,256},[^,\r\n]{1,256}(?:,|\r?$)/dgm;
/** Sendmail's `authinfo` map (`/etc/mail/authinfo`), by name. */
const AUTHINFO_FILE = /(?:^|[\/\\])authinfo(?:\.txt)?$/;
/** An `AuthInfo:` entry's password: `"P:…"` (plain; `"P=…"` is base64), group `v`. */
const AUTHINFO_PASSWORD = /"P[:=](?<v>[^"\r\n]{1,256})"/dg;
/** isync's (`mbsync`) configuration, by name. */
const MBSYNC_FILE = /(?:^|[\/\\])\.?(?:mbsyncrc|isyncrc)$/;
/** Its `Pass` (not `PassCmd`): the rest of the line, quoted or not. */
const MBSYNC_PASS =
  /^[ \t]{0,16}Pass[ \t]{1,16}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))[ \t]{0,16}\r?$/dgm;
/** A `.conf` file (fluentd's, SSSD's, daemons'), by name. */
const CONF_FILE = /\.conf$/i;
/**
 * A directive of a `.conf` file: a name, blanks (or SSSD's `authtok`'s `=`), then one value to the
 * line's end (`splunk_token 0f3e…`, `hec_token "…"`, `ldap_default_authtok = …`).
 */
const CONF_DIRECTIVE =
  /^[ \t]{0,32}(?<n>[A-Za-z][\w.-]{0,63}?(?<a>authtok)?)(?:[ \t]{1,16}|(?<=authtok)[ \t]{0,16}=[ \t]{0,16})(?<q>["']?)(?<v>[^\s"';#]{6,512})\k<q>[ \t]{0,16};?[ \t]{0,16}\r?$/dgm;
/** A directive's name that says it holds a secret. */
const CONF_SECRET_NAME = /token|secret|passw|passphrase|api[_-]?key|authtok/i;
/**
 * Network devices' and daemons' configs (`router.cfg`, `running-config`, Junos' and VyOS'
 * `config.boot`, MikroTik's `.rsc`, `keepalived.conf`, `squid.conf`), and Dovecot's passwd-file.
 */
const DEVICE_FILE =
  /\.(?:cfg|conf|rsc|boot|ios|junos|txt)$|(?:^|[\/\\])(?:[\w.-]{0,32}-config(?:\.txt)?|users|[\w.-]{0,32}\.?passwd)$/i;
/**
 * The secrets their lines hold by position (group `v`): IOS' `username … password 0 …`,
 * `enable password …`, `password 7 …` (reversible), FortiOS' `set password …`, a RADIUS or
 * TACACS+ server's `key …` and Junos' `secret "$9$…"`, `snmp-server community …`, a WLAN's
 * `set-key ascii 0 …`, OSPF's `message-digest-key 1 md5 …`, pre-shared keys and secrets
 * (VyOS, MikroTik's `wpa2-pre-shared-key=`), keepalived's `auth_pass`, Squid's `login=user:…`,
 * Dovecot's `{PLAIN}…`.
 */
export const DEVICE_SECRET: RegExp = new RegExp(
  "(?:^[ \\t]{0,32}(?:(?:enable|username[ \\t]{1,8}\\S{1,64}(?:[ \\t]{1,8}privilege[ \\t]{1,8}[0-9]{1,2})?|set)[ \\t]{1,8})?" +
    "(?:password|secret|key)(?:[ \\t]{1,8}[07])?[ \\t]{1,8}|" +
    "(?:radius|tacacs)(?:-server)?[ \\t]{1,8}(?:host[ \\t]{1,8})?\\S{1,64}[ \\t]{1,8}(?:secret|key)(?:[ \\t]{1,8}[07])?[ \\t]{1,8}|" +
    "snmp-server[ \\t]{1,8}community[ \\t]{1,8}|set-key[ \\t]{1,8}ascii[ \\t]{1,8}[0-9][ \\t]{1,8}|" +
    "(?:message-digest-key[ \\t]{1,8}[0-9]{1,3}[ \\t]{1,8}md5|authentication-key)(?:[ \\t]{1,8}[07])?[ \\t]{1,8}|" +
    "pre-shared-(?:key|secret)(?:[ \\t]{1,8}ascii[ \\t]{1,8}[07])?[ \\t=]{1,8}|^[ \\t]{0,32}auth_pass[ \\t]{1,8}|" +
    "[ \\t]login=[^:\\s]{1,64}:|\\{PLAIN\\})" +
    '(?<q>"?)(?<v>[^\\s":;]{4,256})\\k<q>(?=;?[ \\t]{0,16}(?:RO|RW|[0-9]{1,4})?[ \\t]{0,16}\\r?$|:|[ \\t]{1,8}\\S)',
  "dgm",
);

/** A file named for the secret it holds alone (ZeroTier's `authtoken.secret`, `identity.secret`). */
const SECRET_NAMED_FILE = /(?:^|[\/\\])[\w.-]{1,64}\.secret$/i;
/** A file's one line of text, blanks around it (group `v`). */
const ONE_LINE = /^\s{0,64}(?<v>[^\s]{8,4096})\s{0,64}$/d;

/** The text of a file named for its secret, when it is one token (not a path nor a reference). */
function wholeSecret(text: string, out: Span[]): void {
  const m = ONE_LINE.exec(text);
  if (!m || !passwordLike(m.groups!.v, true)) return;
  const [start, end] = m.indices!.groups!.v;
  out.push({ start, end });
}

/** Java's properties files. */
const PROPERTIES_FILE = /\.properties$/i;
/**
 * A property as Java reads one: a key (maybe with `\uXXXX` escapes: `pass\u0077ord`), then `=`,
 * `:` or only blanks, then the value to the line's end (groups `n`, `s` the separator, `v`).
 */
const PROPERTY_LINE =
  /^[ \t]{0,32}(?<n>(?:[A-Za-z0-9_.-]|\\u[0-9A-Fa-f]{4}){1,128})(?<s>[ \t]{0,16}[=:][ \t]{0,16}|[ \t]{1,16})(?<v>[^\s\\=:][^\r\n]{0,255}?)[ \t]{0,16}\r?$/dgm;
/** A property's key that names a secret. */
const PROPERTY_SECRET = /passw|passphrase|secret|token|api[_.-]?key|pwd/i;

/**
 * The secret properties the name rules cannot read: a key and its value with blanks alone between
 * (`signing.password …`, `db.password<TAB>…`), or a key spelled with `\uXXXX` escapes.
 */
function propertyLines(text: string, out: Span[]): void {
  PROPERTY_LINE.lastIndex = 0;
  for (const m of text.matchAll(PROPERTY_LINE)) {
    const { n, s, v } = m.groups!;
    const escaped = n.includes("\\u");
    if (!escaped && /[=:]/.test(s)) continue; // the name rules' own
    const key = n.replace(/\\u([0-9A-Fa-f]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    if (!PROPERTY_SECRET.test(key) || !passwordLike(v, true)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/** The secrets of a device's or a daemon's config ({@linkcode DEVICE_SECRET}) into `out`. */
function deviceLines(text: string, out: Span[]): void {
  DEVICE_SECRET.lastIndex = 0;
  for (const m of text.matchAll(DEVICE_SECRET)) {
    const value = m.groups!.v;
    // Junos' reversible `$9$…`; else a password's shape (not SNMP's `public`)
    const junos = /^\$9\$[A-Za-z0-9.\/]{8,}$/.test(value);
    if (!junos && (/^(?:public|private)$/i.test(value) || !passwordLike(value, true))) continue;
    // A word that ends as a sentence's do, in prose (a `.txt` manual's "Shift\nkey pressed, and
    // ..."): a line that starts with the word `key`, `password` or `secret`, not a directive.
    if (/^[A-Za-z]+[,.!?]$/.test(value)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/** YAML and Jinja templates: where Ansible writes `password_hash`, Helm its templates. */
const ANSIBLE_FILE = /\.(?:ya?ml|j2|tpl|tmpl|ctmpl|gotmpl)$/i;
/**
 * A template's default for a value (`{{ .Values.db.password | default "…" }}`, Consul's `{{
 * keyOrDefault "app/key" "…" }}`): the expression before it (group `e`), Consul's key (`k`), and
 * the literal (`v`).
 */
const TEMPLATE_DEFAULT =
  /\{\{-?(?<e>[^{}\r\n]{0,256}?)(?:\bdefault|keyOrDefault[ \t]{1,4}"(?<k>[^"\r\n]{1,128})")[ \t]{0,4}\(?[ \t]{0,4}(?<q>["'])(?<v>[^"'\r\n{}\\]{1,256})\k<q>/dy;
/**
 * A template's expression that holds a literal (`{{ "…" | b64enc | quote }}`, `{{ b64enc "…" }}`,
 * `{{ '…' | b64encode }}`): group `v`, the literal, before a filter's `|` or the `}}`.
 */
const TEMPLATE_LITERAL =
  /\{\{-?[ \t]{0,8}(?:(?:b64enc|quote|squote|toString|trim)[ \t]{1,8})?(?<q>["'])(?<v>[^"'\r\n{}\\]{1,256})\k<q>[ \t]{0,8}(?:\||-?\}\})/dy;
/** A YAML key at its line's end (before its value), and its name (group `n`). */
const KEY_BEFORE =
  /(?:^|\n)[ \t]{0,64}(?:-[ \t]{1,8})?["']?(?<n>[A-Za-z0-9_.-]{1,64})["']?:[ \t]{0,16}["']?$/;
/**
 * A template expression's or a Consul key's word that names a secret (a `key` only as the last
 * part of a path or name: `app/key`, `.Values.api_key`; not `mappingConfigMapKey`).
 */
const DEFAULT_SECRET_WORD =
  /passw|secret|token|api[_-]?key|private[_-]?key|credential|pwd|auth|(?:^|[\/._-])key$/i;
/** A key's word that names a secret. */
const SECRET_KEY_WORD = /key|token|secret|passw|pass$|pwd|auth|credential/i;
/** A quoted literal before `| password_hash` (the pipe at the match's end). */
const HASHED_LITERAL = /(?<q>["'])(?<v>[^"'\r\n\\{}]{1,256})\k<q>[ \t]{0,16}\|[ \t]{0,16}$/d;
/** A Dockerfile (`Dockerfile`, `Dockerfile.dev`, `app.dockerfile`, `Containerfile`). */
const DOCKER_FILE = /(?:^|[\/\\])(?:Dockerfile|Containerfile)(?:\.[\w.-]{1,64})?$|\.dockerfile$/i;
/** The old form of `ENV`, a name and the rest of its line: `ENV DB_PASSWORD value`. */
const DOCKER_ENV =
  /^[ \t]{0,16}ENV[ \t]{1,16}(?<n>[A-Za-z_][\w.-]{0,127})[ \t]{1,16}(?<q>["']?)(?<v>[A-Za-z]{6,64})\k<q>[ \t]{0,16}\r?$/dgm;
/**
 * A file named for a login's credentials (OpenVPN's `auth-user-pass` file `auth.txt`,
 * `vpn-creds.txt`, Mosquitto's `passwords.txt` before `mosquitto_passwd -U`, `logins`).
 */
const USER_PASS_FILE =
  /(?:^|[\/\\])(?:[\w-]{0,32}[._-])?(?:auth|pass|passwd|passwords?|creds?|credentials|logins?|userpass|secrets)(?:\.txt)?$/i;
/** Such a file's `user:password` line (one colon, no blank): the password, group `v`. */
const USER_PASS_LINE = /^[ \t]{0,16}[^\s:#;]{1,128}:(?<v>[^\s:]{4,256})[ \t]{0,16}\r?$/dgm;
/** Such a file of two lines, a user's name and its password (group `v`). */
const USER_THEN_PASS =
  /^\s{0,64}[^\s:#;=]{1,128}[ \t]{0,16}\r?\n[ \t]{0,16}(?<v>[^\s]{4,256})[ \t]{0,16}\s{0,64}$/d;
/**
 * Files of logins one a line, by name, each with its line (the password, group `q` quoted or `v`):
 * PgBouncer's `userlist.txt` (`"user" "password"`), pppd's `chap-secrets` and `pap-secrets`
 * (`client server secret [addresses]`), davfs2's `secrets` (`url-or-mount user password`).
 */
const LOGIN_FILES: Array<{ file: RegExp; line: RegExp }> = [
  {
    file: /(?:^|[\/\\])userlist\.txt$/i,
    line: /^[ \t]{0,16}"[^"\r\n]{1,256}"[ \t]{1,16}"(?<q>[^"\r\n]{1,512})"/dgm,
  },
  {
    file: /(?:^|[\/\\])(?:chap|pap)-secrets$/i,
    line:
      /^[ \t]{0,16}(?:"[^"\r\n]{1,256}"|[^\s#"][^\s"]{0,255})[ \t]{1,16}(?:"[^"\r\n]{0,256}"|[^\s"]{1,256})[ \t]{1,16}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))(?=[ \t\r\n]|$)/dgm,
  },
  {
    file: /(?:^|[\/\\])davfs2[\/\\]secrets$/i,
    line:
      /^[ \t]{0,16}[^\s#]\S{0,1023}[ \t]{1,16}(?:"[^"\r\n]{1,256}"|[^\s"]{1,256})[ \t]{1,16}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))[ \t]{0,16}\r?$/dgm,
  },
];
/** An OpenVPN configuration (`.ovpn`, `.conf`), by name. */
const OPENVPN_FILE = /\.(?:ovpn|conf)$/i;
/** OpenVPN's login given inline (`<auth-user-pass>`, a user's line, then the password's). */
const OPENVPN_INLINE =
  /<auth-user-pass>[ \t]{0,16}\r?\n[ \t]{0,16}[^\r\n<]{1,256}\r?\n[ \t]{0,16}(?<v>[^\s<]{1,256})[ \t]{0,16}\r?\n[ \t]{0,16}<\/auth-user-pass>/dg;
/** An SNMP daemon's configuration (`snmpd.conf`, `snmp.conf`, `snmptrapd.conf`), by name. */
const SNMP_FILE = /(?:^|[\/\\])snmp[\w-]{0,16}\.conf$/i;
/**
 * Its secrets: a v3 user's passphrases (`createUser NAME SHA "…" AES "…"`, groups `a` and `p`)
 * and a community (`rocommunity …`, `rwcommunity6 …`, `com2sec NAME SOURCE …`, group `c`).
 */
const SNMP_SECRET =
  /^[ \t]{0,16}(?:createUser[ \t]{1,16}(?:-e[ \t]{1,16}\S{1,64}[ \t]{1,16})?\S{1,64}[ \t]{1,16}(?:MD5|SHA[\w-]{0,8})[ \t]{1,16}(?:"(?<aq>[^"\r\n]{1,256})"|(?<a>[^\s"]{1,256}))(?:[ \t]{1,16}(?:DES|AES[\w-]{0,8})(?:[ \t]{1,16}(?:"(?<pq>[^"\r\n]{1,256})"|(?<p>[^\s"]{1,256})))?)?|(?:r[ow]community6?|com2sec6?[ \t]{1,16}\S{1,64}[ \t]{1,16}\S{1,128})[ \t]{1,16}(?<c>[^\s#]{1,256}))/dgm;
/** Nagios' and Icinga 1's `resource.cfg`, whose `$USERn$` macros hold plugins' passwords. */
const NAGIOS_RESOURCE_FILE = /(?:^|[\/\\])resource\.cfg$/i;
/** A `$USERn$=…` line's value (group `v`). */
const NAGIOS_USER =
  /^[ \t]{0,16}\$USER[0-9]{1,3}\$[ \t]{0,16}=[ \t]{0,16}(?<v>[^\s]{1,256})[ \t]{0,16}\r?$/dgm;
/**
 * A Redis ACL rule's password (`>…`): in an ACL file's `user NAME on >…` and a `redis.conf`'s
 * `user` directive, or `ACL SETUSER NAME … >…` anywhere. Group `v`.
 */
const REDIS_ACL_FILE = /\.acl$|(?:^|[\/\\])redis[\w.-]{0,32}\.conf$/i;
const REDIS_ACL_USER =
  /^[ \t]{0,16}user[ \t]{1,16}(?<u>[^\s>]{1,128})(?:[ \t]{1,16}[^\s>][^\s]{0,255}){0,16}?[ \t]{1,16}>(?<v>[^\s]{1,256})/dgm;
const REDIS_SETUSER =
  /\bACL[ \t]{1,16}SETUSER[ \t]{1,16}(?<u>[^\s>]{1,128})(?:[ \t]{1,16}[^\s>"'][^\s"']{0,255}){0,16}?[ \t]{1,16}>(?<v>[^\s"'`]{1,256})/dgi;
/** A shell or Tcl script, a Redis script, a page, a history: where `ACL SETUSER` is typed. */
const SCRIPT_OR_PAGE = /\.(?:sh|bash|zsh|tcl|redis|md|markdown|rst|adoc|log)$|history$/i;
/** A systemd unit or drop-in: where `SetCredential=` is written. */
const UNIT_FILE =
  /\.(?:service|socket|mount|timer|path|nspawn)$|(?:^|[\/\\])systemd[\/\\][^\r\n]{0,256}\.conf$/i;
/**
 * A log, a transcript or a trace (a `.txt` one by its name: `imap_debug.txt`): where a session's
 * commands are written.
 */
const SESSION_FILE =
  /\.(?:log|logs|out|trace|strace|session|transcript)$|(?:log|debug|trace|session|dump|transcript|capture)[^\/\\]{0,64}\.txt$/i;
/** A shell or Tcl script, a Redis script. */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|tcl|redis)$|history$/i;
/** systemd's credential given in the clear (`SetCredential=ID:VALUE`): the value, group `v`. */
const SET_CREDENTIAL =
  /^[ \t]{0,16}SetCredential=[^:\s]{1,128}:(?<v>[^\r\n]{1,4096}?)[ \t]{0,16}\r?$/dgm;
/**
 * A password sent in a mail or file protocol's session (a log, a transcript, an strace): FTP's
 * and POP3's `PASS …` after a `USER` command on one of the three lines above, or before an
 * escaped line end (`"PASS …\r\n"`); IMAP's `a001 LOGIN user …` (its tag holds a digit, or a
 * client's `C:` stands first).
 */
const SESSION_PASS = /PASS(?<![A-Za-z0-9_]PASS)[ \t]{1,4}(?<v>[^\s"\\]{1,256})(?<e>\\r\\n)?/dg;
const USER_COMMAND = /(?:^|[\s>"'])USER[ \t]{1,4}\S/;
const IMAP_LOGIN =
  /^[ \t]{0,16}(?:[CS]:[ \t]{0,4}[A-Za-z0-9.*]{1,16}|[A-Za-z]{0,8}[0-9]{1,8})[ \t]{1,4}LOGIN[ \t]{1,4}(?:"[^"\r\n]{1,256}"|[^\s"]{1,256})[ \t]{1,4}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))/dgm;
/** YAML, by name (and YAML templates). */
const YAML_FILE = /\.ya?ml(?:\.(?:tpl|tmpl|j2|gotmpl))?$/i;
/**
 * A block scalar (`|`, `>-`, …) under a key, its lines each one run of a token's characters (a
 * JWT or a key folded over lines): the key (group `n`) and the lines (`b`), two to 32 of them.
 */
const FOLDED_TOKEN =
  /^(?<i>[ \t]{0,32})(?:-[ \t]{1,8})?["']?(?<n>[A-Za-z0-9_.-]{1,64})["']?:[ \t]{0,16}[|>][-+1-9]{0,2}[ \t]{0,16}\r?\n(?<b>(?:\k<i>[ \t]{1,16}[A-Za-z0-9_\-.~+/=]{8,1024}[ \t]{0,16}(?:\r?\n|$)){2,32})/dgm;
/** A key that names a secret (not a public key nor a certificate). */
const FOLDED_SECRET_NAME = /key|token|secret|passw|credential|auth/i;
/** Pages of prose: Markdown, reST, text. */
const PROSE_FILE = /\.(?:md|markdown|mdx|rst|txt|adoc|asciidoc)$/i;
/**
 * A password's label in prose, maybe bold or italic, its `:` inside or after the emphasis, then a
 * code span (`**Password:** \`…\``, `*Passphrase*: \`…\``): group `v` is the span's text.
 */
const PROSE_LABEL =
  /(?:passw(?:or)?d|passphrase|pwd|pass)(?:[*_]{1,2}[ \t]{0,4}:|:[ \t]{0,4}[*_]{1,2}|[ \t]{0,4}:)[ \t]{0,4}`(?<v>[^`\r\n]{1,256})`/dgi;
/**
 * A user and a password as two code spans with a `/` (or `:`) between (`` `admin` / `…` ``): group
 * `v` is the second's text. The user is a login's name (lower case, digits, `_.@+-`: not
 * `` `Dropout`/`AlphaDropout` `` nor `` `.refine` / `.transform` ``), read only on a line that
 * says it is about a login.
 */
const SPAN_PAIR =
  /`(?<u>[a-z0-9][a-z0-9_.@+-]{0,63})`[ \t]{0,4}[\/:][ \t]{0,4}`(?<v>[^`\s]{1,256})`/dg;
/** Words of a line about a login (`Default credentials:`, `log in with`, `user / password`). */
const LOGIN_WORDS =
  /credential|\bcreds\b|log[ -]?in\b|sign[ -]?in\b|passw|\bpwd?\b|\buser(?:name)?\b|\baccount\b|anmeld|benutzer|usuario|identifiant|utilisateur|kennwort/i;
/**
 * Accounts that systems and images ship with: a pair of one of them and a password is read
 * without a word about a login on its line (`# admin:…`, `-- root/…`).
 */
const KNOWN_ACCOUNT =
  /^(?:admin|administrator|root|sa|postgres|guest|demo|test|tester|ubuntu|pi|oracle|sys|system|manager|operator|superuser|vagrant|jenkins|elastic|grafana|rabbitmq|mysql|redis|ec2-user)$/;
/** SQL scripts and dumps, whose comments are prose (`-- admin login: admin / …`). */
const SQL_FILE = /\.sql$/i;
/**
 * Prose's credentials written bare: a user and a password with a `/` and blanks between
 * (`admin / …`, group `v`; read only on a line about a login), and a password after its word with
 * no operator or with `is` (`password …`, `the password is …`; not a word that is a value itself,
 * `type=password size=10`, nor a path or an image after it).
 */
const BARE_PAIR =
  /(?<![\w.@+\/-])(?<u>[a-z0-9][a-z0-9_.@+-]{0,63})[ \t]{1,4}\/[ \t]{1,4}(?<v>[^\s`'"\/<>()[\]{}|]{6,128})/dg;
/**
 * A user and a password joined by `/` or `:` (`login admin/…`, `admin:…`): group `v`, ended by a
 * blank or the text's end (not a path's next `/`, a URL's `@host`, a port, a time).
 */
const JOINED_PAIR =
  /(?<![\w.@+\/:'"$%-])(?<u>[a-z0-9][a-z0-9_.@+-]{0,63})[\/:](?<v>[A-Za-z0-9][^\s`'"\/<>()[\]{}|:@;=,]{5,127})(?![^\s.,;)])/dg;
const BARE_PASSWORD =
  /(?<![\w=:\/.-])(?:pass(?:word|wd|phrase)|pwd?|passwort|kennwort|mot de passe|contraseña|senha|パスワード|api[ _-]?key)(?:[ \t]{1,4}(?:is|was|to|ist|lautet|est|es|é)|は)?[ \t]{0,4}[:=]?(?:[ \t]{1,4}(?<q>`?)|[ \t]{0,4}(?<dq>["']))(?<v>[^\s`'"<>()[\]{}|=\/]{6,128})\k<q>\k<dq>(?![=\/])/dgi;
/**
 * A secret's word, then (maybe `is`) a code span (`with the password \`…\``, `and secret \`…\``):
 * group `v`, the span's text.
 */
const WORD_SPAN =
  /(?<![\w-])(?<w>passw(?:or)?d|passphrase|secret|token|api[ _-]?key)(?:[ \t]{1,4}(?:is|was|of))?[ \t]{1,4}`(?<v>[^`\s]{6,256})`/dgi;

/**
 * The secrets of the formats above in `text`, read only when `path` names one of their files.
 *
 * @example
 * ```ts
 * import { findFileFormatSecrets } from "./_secret_rules_files.ts";
 * findFileFormatSecrets("default login bob password TigerFrost\n", undefined, ".netrc");
 * // [{ start: 27, end: 37 }]
 * ```
 */
export function findFileFormatSecrets(text: string, _hints?: unknown, path?: string): Span[] {
  if (!path) return [];
  const out: Span[] = [];
  // (one test of the name for the formats below: most files are none of them)
  if (NAMED_FORMAT_FILE.test(path)) formatsByName(text, path, out);
  if (NETRC_FILE.test(path)) netrc(text, out);
  else if (SVN_AUTH_FILE.test(path)) svnAuth(text, out);
  else if (REDIS_HISTORY.test(path)) redisHistory(text, out);
  else if (ANSIBLE_FILE.test(path)) {
    hashedLiterals(text, out);
    templateLiterals(text, out);
  } else if (PROSE_FILE.test(path)) {
    prose(text, out);
    bareCredentials(text, out);
  } else if (SQL_FILE.test(path)) bareCredentials(text, out);
  else if (DOCKER_FILE.test(path)) dockerEnv(text, out);
  else if (EXIM_PASSWD_FILE.test(path)) each(text, EXIM_LINE, out);
  else if (AUTHINFO_FILE.test(path)) each(text, AUTHINFO_PASSWORD, out);
  else if (MBSYNC_FILE.test(path)) each(text, MBSYNC_PASS, out);
  else if (KUBE_AUTH_CSV.test(path)) each(text, KUBE_AUTH_LINE, out, { standIn: /^[a-z]+$/i });
  else if (CONF_FILE.test(path)) confDirectives(text, out);
  if (USER_PASS_FILE.test(path)) userPassFile(text, out);
  if (DEVICE_FILE.test(path)) deviceLines(text, out);
  if (PROPERTIES_FILE.test(path)) propertyLines(text, out);
  if (SECRET_NAMED_FILE.test(path)) wholeSecret(text, out);
  // the comments of every other file (a page's and an SQL script's whole text is read above)
  if (!PROSE_FILE.test(path) && !SQL_FILE.test(path)) commentCredentials(text, out);
  return out;
}

/**
 * Whether `value` reads as a secret written out: not a placeholder, a reference or a stand-in. In
 * prose, letters alone only as capitalised words joined (`KoelIsCool`; `accounts` is a word), and a
 * name of code (`accounts_v2`) is none.
 */
function written(value: string, prose = false): boolean {
  if (value.length < 4 || PLACEHOLDER_WORD.test(value) || REFERENCE.test(value)) return false;
  if (/^(.)\1*$/.test(value) || /^[$%]/.test(value)) return false;
  if (/^[A-Za-z]+$/.test(value)) {
    return lettersPassword(value, "pass") && (!prose || /^(?:[A-Z][a-z]{1,32}){2,8}$/.test(value));
  }
  if (prose && /^[.#]?[A-Za-z_][\w.-]*$/.test(value) && !/[0-9]/.test(value)) return false;
  return passwordLike(value, true);
}

/** The value of each `password` token of a `.netrc` (its letters alone too: the file is data). */
function netrc(text: string, out: Span[]): void {
  NETRC_PASSWORD.lastIndex = 0;
  for (const m of text.matchAll(NETRC_PASSWORD)) {
    const group = m.groups!.q !== undefined ? "q" : "v";
    if (!written(m.groups![group]!)) continue;
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start, end });
  }
}

/** The value of a Subversion credentials file's `password` (or `passphrase`) key, by its length. */
function svnAuth(text: string, out: Span[]): void {
  SVN_ENTRY.lastIndex = 0;
  for (const m of text.matchAll(SVN_ENTRY)) {
    const start = m.index! + m[0].length;
    const end = start + Number(m.groups!.n);
    if (end > start && end <= text.length && !/[\r\n]/.test(text.slice(start, end))) {
      out.push({ start, end });
    }
  }
}

/**
 * The passwords of a file named for a login's credentials ({@linkcode USER_PASS_FILE}): its
 * `user:password` lines, or its second line when it is two lines (a user, then a password).
 */
function userPassFile(text: string, out: Span[]): void {
  const pair = USER_THEN_PASS.exec(text);
  if (pair && written(pair.groups!.v)) {
    const [start, end] = pair.indices!.groups!.v;
    out.push({ start, end });
    return;
  }
  USER_PASS_LINE.lastIndex = 0;
  for (const m of text.matchAll(USER_PASS_LINE)) {
    if (!written(m.groups!.v)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/**
 * The names of the files that {@linkcode formatsByName} reads: scripts, pages, logs, units,
 * YAML, OpenVPN's and daemons' configurations, files of logins.
 */
const NAMED_FORMAT_FILE =
  /\.(?:sh|bash|zsh|tcl|redis|md|markdown|rst|adoc|log|logs|out|trace|strace|session|transcript|service|socket|mount|timer|path|nspawn|conf|ovpn|acl|ya?ml|tpl|tmpl|j2|gotmpl|txt|cfg)$|(?:history|secrets)$/i;

/**
 * The formats read by their files' names: Redis's `ACL SETUSER` (scripts, pages), systemd's
 * `SetCredential=` (units), FTP's `PASS` and IMAP's `LOGIN` (logs), files of logins, tokens folded
 * over YAML blocks, OpenVPN's inline login, SNMP's, Nagios' and Redis's files.
 */
function formatsByName(text: string, path: string, out: Span[]): void {
  // (6 characters each: a search of 7 or more costs more; in lower case in a script, as Redis'
  // own tests write it, a page writes it in capitals)
  if (
    SCRIPT_OR_PAGE.test(path) &&
    (text.includes("SETUSE") || (SCRIPT_FILE.test(path) && text.includes("setuse")))
  ) {
    aclPasswords(text, REDIS_SETUSER, out);
  }
  if (UNIT_FILE.test(path) && text.includes("SetCredential=")) each(text, SET_CREDENTIAL, out);
  if (SESSION_FILE.test(path)) {
    if (text.includes("PASS")) sessionPasswords(text, out);
    if (text.includes("LOGIN ")) each(text, IMAP_LOGIN, out);
  }
  for (const { file, line } of LOGIN_FILES) if (file.test(path)) each(text, line, out);
  if (YAML_FILE.test(path) && /:[ \t]{0,16}[|>]/.test(text)) foldedTokens(text, out);
  if (OPENVPN_FILE.test(path) && text.includes("<auth-user-pass>")) {
    each(text, OPENVPN_INLINE, out);
  }
  if (SNMP_FILE.test(path)) snmp(text, out);
  if (NAGIOS_RESOURCE_FILE.test(path)) nagiosResources(text, out);
  if (REDIS_ACL_FILE.test(path)) aclPasswords(text, REDIS_ACL_USER, out);
}

/**
 * The lines of a token folded over a block scalar under a secret's key ({@linkcode FOLDED_TOKEN}):
 * each line, when the lines joined read as a generated key (a rule that reads the first line
 * alone leaves the rest).
 */
function foldedTokens(text: string, out: Span[]): void {
  FOLDED_TOKEN.lastIndex = 0;
  for (const m of text.matchAll(FOLDED_TOKEN)) {
    const name = m.groups!.n;
    if (!FOLDED_SECRET_NAME.test(name) || /public|pub_|cert|ca_?bundle/i.test(name)) continue;
    const joined = m.groups!.b.replace(/\s+/g, "");
    if (!looksGenerated(joined) || PLACEHOLDER_WORD.test(joined)) continue;
    const [from] = m.indices!.groups!.b;
    for (const line of m.groups!.b.matchAll(/[^\s]+/g)) {
      out.push({ start: from + line.index!, end: from + line.index! + line[0].length });
    }
  }
}

/**
 * The passwords of Redis ACL rules ({@linkcode REDIS_ACL_USER}, {@linkcode REDIS_SETUSER}) that
 * read as written: not the user's own name again (`user alice on >alice`, a test's echo), nor a
 * word that names a password.
 */
function aclPasswords(text: string, pattern: RegExp, out: Span[]): void {
  pattern.lastIndex = 0;
  for (const m of text.matchAll(pattern)) {
    const value = m.groups!.v;
    // (and not a stand-in that names a password: `defaultpwd`, `supass`)
    if (value.toLowerCase().includes(m.groups!.u.toLowerCase()) || /pass|pwd/i.test(value)) {
      continue;
    }
    if (!written(value)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/** An SNMP daemon's passphrases and communities ({@linkcode SNMP_SECRET}), not `public`/`private`. */
function snmp(text: string, out: Span[]): void {
  SNMP_SECRET.lastIndex = 0;
  for (const m of text.matchAll(SNMP_SECRET)) {
    for (const group of ["aq", "a", "pq", "p", "c"]) {
      const value = m.groups![group];
      if (value === undefined || /^(?:public|private)$/i.test(value)) continue;
      if (PLACEHOLDER_WORD.test(value) || REFERENCE.test(value) || value.length < 4) continue;
      const [start, end] = m.indices!.groups![group]!;
      out.push({ start, end });
    }
  }
}

/** The `$USERn$` macros of a Nagios resource file that hold a password (not a path, a number). */
function nagiosResources(text: string, out: Span[]): void {
  NAGIOS_USER.lastIndex = 0;
  for (const m of text.matchAll(NAGIOS_USER)) {
    const value = m.groups!.v;
    if (/[\/\\]/.test(value) || /^[0-9.]+$/.test(value) || !written(value)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/**
 * FTP's and POP3's `PASS …` in a session ({@linkcode SESSION_PASS}): after a `USER` command in the
 * three lines above, or before an escaped `\r\n` (an strace of the write). Not a test's `PASS`
 * (no `USER` above it).
 */
function sessionPasswords(text: string, out: Span[]): void {
  SESSION_PASS.lastIndex = 0;
  for (const m of text.matchAll(SESSION_PASS)) {
    const value = m.groups!.v;
    if (value.length < 4 || PLACEHOLDER_WORD.test(value) || REFERENCE.test(value)) continue;
    // a test's path or name after a runner's `PASS` (`tests/a_test.go`, `test_a.py::test_b`)
    if (/^[\w.-]{1,128}(?:\/[\w.-]{1,128}){1,32}$|::/.test(value)) continue;
    if (m.groups!.e === undefined) {
      let from = m.index!;
      for (let lines = 0; lines < 4 && from > 0; lines++) {
        from = lastIndexNear(text, "\n", from - 1, 512);
        if (from < 0) {
          from = m.index! > 2048 ? m.index! : 0;
          break;
        }
      }
      if (!USER_COMMAND.test(text.slice(Math.max(0, from), m.index!))) continue;
    }
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/** The password of each `AUTH` line of Redis's history, whatever its shape. */
function redisHistory(text: string, out: Span[]): void {
  REDIS_AUTH.lastIndex = 0;
  for (const m of text.matchAll(REDIS_AUTH)) {
    const group = m.groups!.q !== undefined ? "q" : "v";
    const value = m.groups![group]!;
    if (PLACEHOLDER_WORD.test(value) || REFERENCE.test(value) || /^(.)\1*$/.test(value)) continue;
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start, end });
  }
}

/** A literal hashed by Ansible's `password_hash` filter (`'…' | password_hash('sha512')`). */
function hashedLiterals(text: string, out: Span[]): void {
  for (
    let at = text.indexOf("password_hash");
    at >= 0;
    at = text.indexOf("password_hash", at + 13)
  ) {
    // the literal on the same line, at most 300 characters before
    const base = Math.max(0, at - 300, lastIndexNear(text, "\n", at, 300) + 1);
    const m = HASHED_LITERAL.exec(text.slice(base, at));
    if (!m || !written(m.groups!.v)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start: base + start, end: base + end });
  }
}

/**
 * Letters alone as the value of `ENV NAME value` under a password's name (the other shapes are
 * the pairs rule's): the instruction writes data, not code.
 */
function dockerEnv(text: string, out: Span[]): void {
  if (!text.includes("ENV")) return;
  DOCKER_ENV.lastIndex = 0;
  for (const m of text.matchAll(DOCKER_ENV)) {
    const word = /(?:passw(?:or)?ds?|passphrase|pwd|pass)$/i.exec(m.groups!.n)?.[0];
    if (!word || !lettersPassword(m.groups!.v, word)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/**
 * Credentials that a page of prose shows in code spans, after a label or as a user's pair, and
 * `AUTH` typed at a `redis-cli` prompt.
 */
function prose(text: string, out: Span[]): void {
  if (/auth/i.test(text)) redisPrompts(text, out);
  if (!text.includes("`")) return;
  PROSE_LABEL.lastIndex = 0;
  for (const m of text.matchAll(PROSE_LABEL)) {
    // the label a word of its own (not `bypass:`), checked here: a pattern that starts by looking
    // behind is tried at every character
    if (/[A-Za-z0-9_]/.test(text[m.index! - 1] ?? "") || !written(m.groups!.v, true)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
  SPAN_PAIR.lastIndex = 0;
  for (const m of text.matchAll(SPAN_PAIR)) {
    const value = m.groups!.v;
    if (value === m.groups!.u || !written(value, true)) continue;
    // the words of its line, 512 characters around it at most
    const from = Math.max(0, m.index! - 512, lastIndexNear(text, "\n", m.index!, 512) + 1);
    let to = indexNear(text, "\n", m.index!, 512);
    if (to < 0) to = Math.min(text.length, m.index! + 512);
    if (!LOGIN_WORDS.test(text.slice(from, to))) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/**
 * Whether a password written bare in prose is one: a generated key, or letters and digits with
 * both cases or a mark among them (`SpVR86VMfW!bCH`; not `sha256`, `RFC2898`, `v1.2`), its
 * sentence's last mark left out.
 */
function bareWritten(value: string): boolean {
  if (looksGenerated(value)) return !PLACEHOLDER_WORD.test(value) && !REFERENCE.test(value);
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !/^[A-Z0-9_-]+$/.test(value) &&
    (/[A-Z]/.test(value) && /[a-z]/.test(value) || /[^A-Za-z0-9]/.test(value)) &&
    passwordLike(value, true);
}

/**
 * Credentials written bare in prose (a page's, an SQL script's comments): a user and a password
 * with ` / ` between on a line about a login, and a password after its word
 * ({@linkcode BARE_PAIR}, {@linkcode BARE_PASSWORD}).
 */
function bareCredentials(text: string, out: Span[]): void {
  if (!CREDENTIAL_TEXT.test(text)) return;
  for (const pattern of [BARE_PAIR, JOINED_PAIR, BARE_PASSWORD, WORD_SPAN]) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const [start] = m.indices!.groups!.v;
      const value = m.groups!.v.replace(/[.,;:)]{1,128}$/, "");
      if (value === m.groups!.u || value.length < 6) continue;
      // a version or an image's tag after a name's `:` (`node:18-alpine3.19`), no password
      if (pattern === JOINED_PAIR && (VERSION.test(value) || NAME_PARTS.test(value))) continue;
      if (pattern === JOINED_PAIR && MEDIA_TYPE.test(m.groups!.u)) continue; // `application/…`
      // a repository's issue or pull request (`grafana/xk6-browser#1268`), not an account's pair
      if (pattern === JOINED_PAIR && ISSUE_REFERENCE.test(text.slice(start - 1, start) + value)) {
        continue;
      }
      // a parameter's pointer or reference type in a comment (`password *uint16`), no password
      if (pattern === BARE_PASSWORD && codeType(value)) continue;
      if (pattern === WORD_SPAN && !/^pass/i.test(m.groups!.w)) {
        if (!looksGenerated(value) || !written(value)) continue;
      } else if (!bareWritten(value)) continue;
      if (pattern === BARE_PAIR || pattern === JOINED_PAIR) {
        if (KNOWN_ACCOUNT.test(m.groups!.u)) {
          out.push({ start, end: start + value.length });
          continue;
        }
        const from = Math.max(0, m.index! - 512, lastIndexNear(text, "\n", m.index!, 512) + 1);
        let to = indexNear(text, "\n", m.index!, 512);
        if (to < 0) to = Math.min(text.length, m.index! + 512);
        if (!LOGIN_WORDS.test(text.slice(from, to))) continue;
      }
      out.push({ start, end: start + value.length });
    }
  }
}

/** A repository's name after its owner's `/`, then `#` and an issue's or pull request's number. */
const ISSUE_REFERENCE = /^\/[A-Za-z0-9][\w.-]{0,99}#[0-9]{1,7}$/;
/** A media type's top level (`application/vnd.x.v1+json` is no user and password). */
const MEDIA_TYPE = /^(?:application|text|image|audio|video|multipart|font|model|message)$/;
/** A version or an image's tag: digits first, then parts that `.` or `-` join. */
const VERSION = /^v?[0-9]{1,8}(?:[.-][A-Za-z0-9]{1,32}){0,16}$/;

/** A name of code or a file's of parts that `-`, `_` or `.` join (`babel-7-8-compat`, `a2_test.cc`). */
const NAME_PARTS = /^[A-Za-z0-9]{1,64}(?:[-_.][A-Za-z0-9]{1,64}){1,16}$/;

/** A text that may hold credentials written bare (its words, or a pair of an account's). */
const CREDENTIAL_TEXT =
  /passw|passphrase|mot de passe|contraseña|senha|パスワード|pwd|\bpw\b|login|log in|sign in|credential|creds|user|account|anmeld|benutzer|usuario|identifiant|kennwort|secret|token|api[ _-]?key|\b(?:admin|administrator|root|sa|postgres|guest|demo|test)[ \t]{0,4}[\/:]/i;

/**
 * Words one of which a comment that holds a credential has (a login's words, a password's, an
 * account's known name before its `:` or `/`): a text with none has its comments passed over
 * unread. One search of the text, before its lines are looked at (a quarter of django's and
 * curl's files have one).
 */
const COMMENT_CUES =
  /login|Login|LOGIN|creds|Creds|credential|Credential|passw|Passw|PASSW|assphrase|pwd|PWD| pw |account|Account|admin(?::|\/| \/)|root(?::|\/| \/)|user |User |[Aa][Pp][Ii] [Kk][Ee][Yy]/;
/**
 * A comment's marker after code, with a blank before `//`, `#` (a space or a tab) and `--` (a
 * space), not a URL's `//`: each marker and the blanks that must be before it.
 */
const INLINE_MARKERS: Array<[string, string]> = [
  ["//", " \t"],
  ["#", " \t"],
  ["--", " "],
  ["/*", ""],
  ["<!--", ""],
];

/**
 * The words (in any case) of which a comment's line holds one when the comment rule can find
 * something there: each word of {@linkcode CREDENTIAL_TEXT}, {@linkcode LOGIN_WORDS},
 * {@linkcode BARE_PASSWORD}, {@linkcode WORD_SPAN}, {@linkcode PROSE_LABEL}, a prompt's `> auth`
 * ({@linkcode REDIS_PROMPT_AUTH}), and each name of {@linkcode KNOWN_ACCOUNT} before a `/` or `:`
 * (`superuser` and `ec2-user` by `user`). What the rule reads lies on one line, so a comment on a
 * line with none of them is left unread: the same spans, from fewer lines.
 */
const COMMENT_LINE_WORDS =
  /pass|pw|kennwort|log[ -]?in|sign[ -]?in|credential|creds|user|account|anmeld|benutzer|usuario|identifiant|utilisateur|secret|token|api[ _-]?key|>[ \t]{1,8}auth|\b(?:admin|administrator|root|sa|postgres|guest|demo|test|tester|ubuntu|pi|oracle|sys|system|manager|operator|vagrant|jenkins|elastic|grafana|rabbitmq|mysql|redis)[ \t]{0,4}[\/:]/i;

/**
 * The comments of code that hold one of {@linkcode COMMENT_LINE_WORDS}, each from its marker to
 * its line's end (2 KB at most): a line that starts (after its indent) with `//`, `#`, `--`, `;`,
 * `'`, `*`, `/*`, `<!--` or `REM`, and a marker of {@linkcode INLINE_MARKERS} after code. Each line
 * is looked at once, and each marker's next place is remembered, so the text is read a few times
 * over at most.
 */
function commentsOf(text: string): Array<{ at: number; text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  // each marker's next place (-2: not looked for yet); the search goes on after one with no blank
  // before it, whose blank is needed, so that a frequent blank is never searched for
  const next = INLINE_MARKERS.map(() => -2);
  for (let start = 0; start < text.length;) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let i = start;
    let c = text.charCodeAt(i);
    while (i < end && i - start < 64 && (c === 32 || c === 9)) c = text.charCodeAt(++i);
    const d = text.charCodeAt(i + 1);
    // `//`, `/*`, `#`, `--`, `;`, `'`, `*`, `<!--`, `REM `, a batch file's `::`, Razor's `@*`
    let at = (c === 47 && (d === 47 || d === 42)) || c === 35 || (c === 45 && d === 45) ||
        c === 59 || c === 39 || c === 42 || (c === 60 && text.startsWith("<!--", i)) ||
        (c === 58 && d === 58) || (c === 64 && d === 42) ||
        (c === 82 && text.startsWith("REM ", i))
      ? i
      : -1;
    if (at < 0) {
      for (let k = 0; k < next.length; k++) {
        const [marker, blanks] = INLINE_MARKERS[k];
        let q = next[k];
        if (q === -2 || (q >= 0 && q < start)) q = text.indexOf(marker, start);
        while (blanks && q >= 0 && q < end && !blanks.includes(text[q - 1])) {
          q = text.indexOf(marker, q + 1);
        }
        next[k] = q;
        const place = blanks ? q - 1 : q;
        if (q >= 0 && q < end && (at < 0 || place < at)) at = place;
      }
    }
    if (at >= 0) {
      const comment = text.slice(at, Math.min(end, at + 2048));
      if (COMMENT_LINE_WORDS.test(comment)) out.push({ at, text: comment });
    }
    start = end + 1;
  }
  return out;
}

/**
 * Credentials written bare in the comments of code (`// login: admin / …`, `# default creds
 * admin:…`): the comments alone, joined by line ends, read as prose is, each span found mapped
 * back to its comment.
 */
function commentCredentials(text: string, out: Span[]): void {
  if (!COMMENT_CUES.test(text)) return;
  const starts: number[] = []; // where each comment starts in the joined text, and in `text`
  const origins: number[] = [];
  const parts: string[] = [];
  let length = 0;
  for (const comment of commentsOf(text)) {
    starts.push(length);
    origins.push(comment.at);
    parts.push(comment.text);
    length += comment.text.length + 1;
  }
  if (!parts.length) return;
  const comments = parts.join("\n");
  if (!CREDENTIAL_TEXT.test(comments)) return;
  const found: Span[] = [];
  bareCredentials(comments, found);
  if (comments.includes("`")) prose(comments, found);
  for (const { start, end } of found) {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= start) lo = mid;
      else hi = mid - 1;
    }
    const shift = origins[lo] - starts[lo];
    out.push({ start: start + shift, end: end + shift });
  }
}

/** The password of each `AUTH` typed at a `redis-cli` prompt, unless a stand-in (`<password>`). */
function redisPrompts(text: string, out: Span[]): void {
  each(text, REDIS_PROMPT_AUTH, out, { standIn: /^[$%<{]/ });
}

/**
 * The password group (`q` quoted, else `v`) of each match of `pattern`, unless a stand-in: a
 * placeholder, a reference, one character repeated, or what `options.standIn` matches.
 */
function each(
  text: string,
  pattern: RegExp,
  out: Span[],
  options: { standIn?: RegExp } = {},
): void {
  pattern.lastIndex = 0;
  for (const m of text.matchAll(pattern)) {
    const group = m.groups!.q !== undefined ? "q" : "v";
    const value = m.groups![group]!;
    if (value.length < 4 || PLACEHOLDER_WORD.test(value) || REFERENCE.test(value)) continue;
    if (/^(.)\1*$/.test(value) || options.standIn?.test(value)) continue;
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start, end });
  }
}

/** The values of a `.conf` file's directives named for a secret ({@linkcode CONF_DIRECTIVE}). */
function confDirectives(text: string, out: Span[]): void {
  CONF_DIRECTIVE.lastIndex = 0;
  for (const m of text.matchAll(CONF_DIRECTIVE)) {
    if (!CONF_SECRET_NAME.test(m.groups!.n)) continue;
    const value = m.groups!.v;
    const uuid = /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value);
    if (!uuid && !(passwordLike(value, true) && (looksGenerated(value) || /[0-9]/.test(value)))) {
      continue;
    }
    if (/[\/]/.test(value) && !uuid && !looksGenerated(value)) continue; // a path
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}

/** A literal in a template's expression under a key named for a secret (`api-key: {{ "…" | b64enc }}`). */
function templateLiterals(text: string, out: Span[]): void {
  for (let at = text.indexOf("{{"); at >= 0; at = text.indexOf("{{", at + 2)) {
    TEMPLATE_DEFAULT.lastIndex = at;
    const d = TEMPLATE_DEFAULT.exec(text);
    const named = d && [d.groups!.e.replace(/[\s|(]{1,64}$/, ""), d.groups!.k ?? ""]
      .some((part) => DEFAULT_SECRET_WORD.test(part));
    if (d && named && written(d.groups!.v)) {
      const [start, end] = d.indices!.groups!.v;
      out.push({ start, end });
      continue;
    }
    TEMPLATE_LITERAL.lastIndex = at;
    const m = TEMPLATE_LITERAL.exec(text);
    if (!m || !written(m.groups!.v)) continue;
    // the key before it on its line, 256 characters back at most
    const from = Math.max(0, at - 256, lastIndexNear(text, "\n", at, 256));
    const key = KEY_BEFORE.exec(text.slice(from, at))?.groups?.n;
    if (!key || !SECRET_KEY_WORD.test(key)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
}
