/**
 * `summary` rows of formats that were shown as their first lines (most often a license header):
 * Certora's CVL specifications (`.spec`), systemd units (`.service`, `.timer`, `.socket`, ...),
 * Go module files (`go.mod`), web servers' configurations (nginx, Apache, HAProxy, lighttpd,
 * Caddy), gettext catalogs (`.po`, `.pot`: their language, how many messages
 * and the first ones) and SVG images (their size and the texts they show).
 *
 * As in `_summary_languages.ts`, every pattern reads one line at most from where it starts
 * (blanks are `[ \t]`, no part matches a line break), so each pass over a file is linear.
 *
 * @module
 */

import type { Patterns, SummaryLanguage } from "./_summary_languages.ts";
import { formatCount } from "../../pipeline/helpers.ts";

/**
 * Certora's CVL: the rules and invariants a specification proves, its ghosts, definitions, hooks
 * and functions (those of its `methods` block too), and the specifications it imports.
 */
const CVL: Patterns = [
  ["rules", /^[ \t]*rule[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["invariants", /^[ \t]*(?:(?:weak|strong)[ \t]+)?invariant[ \t]+([A-Za-z_$][\w$]*)/gm],
  [
    "ghosts",
    /^[ \t]*(?:persistent[ \t]+)?ghost[ \t]+(?:mapping[ \t]*\([^\n]*?\)[ \t]+|(?:[\w[\]]+[ \t]+)?)([A-Za-z_$][\w$]*)/gm,
  ],
  ["definitions", /^[ \t]*definition[ \t]+([A-Za-z_$][\w$]*)/gm],
  ["hooks", /^[ \t]*hook[ \t]+([^{\n]{1,200}?)[ \t]*\{?[ \t]*$/gm],
  ["functions", /^[ \t]*function[ \t]+([A-Za-z_$][\w$.]*)/gm],
  ["imports", /^[ \t]*import[ \t]+"([^"\n]{1,500})"/gm],
];

/** Whether a `.spec` text is CVL (an RPM spec file has none of its blocks). */
function isCvl(text: string): boolean {
  return /^[ \t]*(?:rule|invariant|methods|ghost|definition|hook)\b/m.test(text);
}

/**
 * A systemd unit: its description, sections, the commands it runs, what starts it (a timer's
 * `OnCalendar=`, a socket's `ListenStream=`), what it needs and what installs it. Each row is the
 * keys' assignments as written (`ExecStart=/usr/bin/app --serve`).
 */
const UNIT: Patterns = [
  ["description", /^[ \t]*Description[ \t]*=[ \t]*(\S[^\n]*)/gm],
  ["sections", /^[ \t]*(\[[A-Za-z][\w-]*\])/gm],
  ["commands", /^[ \t]*(Exec[A-Za-z]*[ \t]*=[^\n]*\S)/gm],
  [
    "triggers",
    /^[ \t]*((?:On[A-Z][A-Za-z]*|Listen[A-Za-z]+|Path[A-Z][A-Za-z]*|Unit|Accept|Persistent)[ \t]*=[^\n]*\S)/gm,
  ],
  [
    "runs as",
    /^[ \t]*((?:Type|User|Group|WorkingDirectory|Restart|EnvironmentFile)[ \t]*=[^\n]*\S)/gm,
  ],
  [
    "dependencies",
    /^[ \t]*((?:After|Before|Requires|Wants|BindsTo|PartOf|Conflicts)[ \t]*=[^\n]*\S)/gm,
  ],
  ["install", /^[ \t]*((?:WantedBy|RequiredBy|Alias|Also)[ \t]*=[^\n]*\S)/gm],
];

/** systemd's unit endings and their labels. */
const UNIT_KINDS: Record<string, string> = {
  ".service": "systemd service",
  ".timer": "systemd timer",
  ".socket": "systemd socket",
  ".mount": "systemd mount",
  ".automount": "systemd automount",
  ".path": "systemd path unit",
  ".target": "systemd target",
  ".slice": "systemd slice",
  ".swap": "systemd swap unit",
};

/** Whether a text is a systemd unit: a `[Unit]`, `[Service]`, ... section of its own kind. */
function isUnit(text: string): boolean {
  return /^[ \t]*\[(?:Unit|Service|Timer|Socket|Mount|Automount|Path|Install|Slice|Swap)\][ \t]*$/m
    .test(text);
}

/** A Go module file: its module path, Go version and the modules it requires or replaces. */
const GO_MOD: Patterns = [
  ["module", /^module[ \t]+(\S+)/gm],
  ["go", /^(?:go|toolchain)[ \t]+(\S+)/gm],
  // `require x v1` on one line, or the lines of a `require (` block (tab-indented paths).
  ["requires", /^(?:require[ \t]+|\t)([\w.~-]+(?:\/[\w.~-]+)+)[ \t]+v\S*/gm],
  ["replaces", /^(?:replace[ \t]+|\t)([\w.~/-]+(?:[ \t]+v\S+)?[ \t]+=>[ \t]+\S+)/gm],
];

/**
 * An nginx configuration: its blocks (`http`, `server`, `events`), the addresses it listens on,
 * its server names, locations, upstreams, where it proxies to, its roots and includes.
 */
const NGINX: Patterns = [
  ["blocks", /^[ \t]*(http|server|events|stream|mail|types)[ \t]*\{/gm],
  ["listen", /^[ \t]*listen[ \t]+([^;\n]*[^;\s])[ \t]*;/gm],
  ["server names", /^[ \t]*server_name[ \t]+([^;\n]*[^;\s])[ \t]*;/gm],
  ["locations", /^[ \t]*location[ \t]+([^{\n]*[^{\s])[ \t]*\{/gm],
  ["upstreams", /^[ \t]*upstream[ \t]+([\w.$-]+)/gm],
  [
    "proxies to",
    /^[ \t]*(?:proxy_pass|fastcgi_pass|uwsgi_pass|scgi_pass|grpc_pass)[ \t]+([^;\n]*[^;\s])[ \t]*;/gm,
  ],
  ["upstream servers", /^[ \t]*server[ \t]+([^;{\n]*[^;{\s])[ \t]*;/gm],
  ["roots", /^[ \t]*(?:root|alias)[ \t]+([^;\n]*[^;\s])[ \t]*;/gm],
  ["includes", /^[ \t]*include[ \t]+([^;\n]*[^;\s])[ \t]*;/gm],
];

/**
 * Whether a text is an nginx configuration: a directive only it has, or a block of its own with a
 * directive (a name, a value and `;`) in the text. HOCON (Akka's and Play's `application.conf`,
 * Gatling's `gatling.conf`) has `http {` and `server {` blocks too, but settings with `=` or `:`
 * and no `;`.
 */
function isNginx(text: string): boolean {
  if (
    /^[ \t]*(?:server_name|proxy_pass|fastcgi_pass|worker_processes|listen)[ \t][^\n]*;/m.test(text)
  ) {
    return true;
  }
  return /^[ \t]*(?:http|server|events|stream|upstream[ \t]+[\w.$-]+|location[ \t][^{\n]*)[ \t]*\{/m
    .test(text) && /^[ \t]*[a-z_]+[ \t]+[^\n=]*;/m.test(text);
}

/**
 * An Apache httpd configuration (or `.htaccess`): its virtual hosts, the ports it listens on, its
 * server names and aliases, document roots, the directories and locations it configures, proxies,
 * rewrites, modules and includes.
 */
const APACHE: Patterns = [
  ["virtual hosts", /^[ \t]*<VirtualHost[ \t]+([^>\n]*[^>\s])[ \t]*>/gim],
  ["listen", /^[ \t]*Listen[ \t]+(\S[^\n]*\S|\S)/gim],
  ["server names", /^[ \t]*Server(?:Name|Alias)[ \t]+(\S[^\n]*\S|\S)/gim],
  ["document roots", /^[ \t]*DocumentRoot[ \t]+(\S[^\n]*\S|\S)/gim],
  [
    "sections",
    /^[ \t]*<((?:Directory|DirectoryMatch|Location|LocationMatch|Files|FilesMatch|Proxy)[ \t]+[^>\n]*[^>\s])[ \t]*>/gim,
  ],
  ["proxies", /^[ \t]*(ProxyPass(?:Match)?[ \t]+\S[^\n]*\S)/gim],
  ["rewrites", /^[ \t]*RewriteRule[ \t]+(\S[^\n]*\S)/gim],
  ["modules", /^[ \t]*LoadModule[ \t]+(\S+)/gim],
  ["includes", /^[ \t]*Include(?:Optional)?[ \t]+(\S[^\n]*\S|\S)/gim],
];

/**
 * Whether a text is written in Apache httpd's syntax: a section tag (`<Location />`) or a
 * directive Apache writes so (`Listen 80`, `ErrorLog`, `Require`). Other servers write theirs so
 * too (CUPS, ProFTPD): {@linkcode SERVER_CONFS} tells them apart by their own words.
 */
function isApacheStyle(text: string): boolean {
  return /^[ \t]*(?:<\/?(?:VirtualHost|Directory|IfModule|Location|Files|FilesMatch)\b|(?:ServerName|ServerRoot|DocumentRoot|LoadModule|RewriteEngine|RewriteRule|Listen|ErrorLog|AllowOverride|Require)[ \t])/m
    .test(text);
}

/** Whether a text in Apache's syntax is Apache httpd's: a section or directive of its own. */
function isApache(text: string): boolean {
  return /^[ \t]*(?:<\/?(?:VirtualHost|FilesMatch|DirectoryMatch|LocationMatch)\b|(?:ServerRoot|DocumentRoot|LoadModule|RewriteEngine|RewriteRule|RewriteCond|AllowOverride|ProxyPass|ProxyPassReverse|DirectoryIndex|AddHandler|SetHandler|AddType|Header|Alias|ScriptAlias|SSLEngine|SSLCertificateFile|CustomLog|ErrorDocument|Options)[ \t])/m
    .test(text);
}

/** CUPS's scheduler configuration (`cupsd.conf`): Apache's syntax, with its policies. */
const CUPS: Patterns = [
  ["listen", /^[ \t]*(?:Listen|Port)[ \t]+(\S[^\n]*\S|\S)/gim],
  ["sections", /^[ \t]*<(Location[ \t]+[^>\n]*[^>\s])[ \t]*>/gim],
  ["policies", /^[ \t]*<Policy[ \t]+([^>\n]*[^>\s])[ \t]*>/gim],
];

/** Whether a text is CUPS's: a section or a directive of its own. */
function isCups(text: string): boolean {
  return /^[ \t]*(?:<Policy\b|(?:DefaultAuthType|Browsing|BrowseLocalProtocols|WebInterface|DefaultEncryption|MaxJobs|JobPrivateAccess|DefaultPolicy|PreserveJobHistory)[ \t])/m
    .test(text);
}

/** A ProFTPD configuration: Apache's syntax, with anonymous logins and its own directives. */
const PROFTPD: Patterns = [
  ["server names", /^[ \t]*ServerName[ \t]+(\S[^\n]*\S|\S)/gim],
  ["ports", /^[ \t]*Port[ \t]+(\d+)/gim],
  ["default roots", /^[ \t]*DefaultRoot[ \t]+(\S[^\n]*\S|\S)/gim],
  [
    "sections",
    /^[ \t]*<((?:Directory|Anonymous|VirtualHost|Global|Limit)\b[^>\n]*[^>\s])[ \t]*>/gim,
  ],
  ["includes", /^[ \t]*Include[ \t]+(\S[^\n]*\S|\S)/gim],
];

/**
 * Whether a text is ProFTPD's: a section or a directive of its own (not `TransferLog`, which
 * Apache has too: Red Hat's stock `ssl.conf` writes it).
 */
function isProftpd(text: string): boolean {
  return /^[ \t]*(?:<(?:Anonymous|Global)\b|(?:ServerType|DefaultServer|DefaultRoot|AllowOverwrite|RequireValidShell|UseFtpUsers|PassivePorts|MasqueradeAddress|IdentLookups|DeferWelcome|TimeoutNoTransfer|TimeoutStalled|DisplayLogin|DisplayChdir|ShowSymlinks)[ \t])/m
    .test(text);
}

/**
 * An HAProxy configuration: its frontends, backends and listeners, the addresses they bind, the
 * servers they send to, which backends are used and their modes.
 */
const HAPROXY: Patterns = [
  ["sections", /^((?:frontend|backend|listen|resolvers|peers|userlist|cache)[ \t]+\S+)/gm],
  ["binds", /^[ \t]+bind[ \t]+(\S+)/gm],
  ["servers", /^[ \t]+server[ \t]+(\S+[ \t]+\S+)/gm],
  ["backends used", /^[ \t]+(?:default_backend|use_backend)[ \t]+(\S[^\n]*\S|\S)/gm],
  ["modes", /^[ \t]+mode[ \t]+(\S+)/gm],
];

/** Whether a text is an HAProxy configuration: a proxy section with a bind, server or backend. */
function isHaproxy(text: string): boolean {
  return /^(?:frontend|backend|listen|defaults|global)\b/m.test(text) &&
    /^[ \t]+(?:bind|server|default_backend|use_backend|balance)[ \t]/m.test(text);
}

/** A lighttpd configuration: its `server.*` settings, conditional blocks and includes. */
const LIGHTTPD: Patterns = [
  ["settings", /^[ \t]*(server\.[\w-]+[ \t]*[+:]?=[^\n]*\S)/gm],
  [
    "conditions",
    /^[ \t]*(\$(?:HTTP|SERVER|REQUEST_HEADER|PHYSICAL)\[[^\]\n]*\][^{\n]*[^{\s])[ \t]*\{/gm,
  ],
  ["proxies", /^[ \t]*((?:proxy|fastcgi|scgi)\.server[ \t]*[+:]?=[^\n]*\S)/gm],
  ["includes", /^[ \t]*include(?:_shell)?[ \t]+"([^"\n]+)"/gm],
];

/** Whether a text is a lighttpd configuration: a `server.` setting or an `$HTTP[...]` block. */
function isLighttpd(text: string): boolean {
  return /^[ \t]*(?:server\.(?:port|document-root|modules|bind|username)[ \t]*[+:]?=|\$HTTP\[)/m
    .test(text);
}

/**
 * A Caddyfile: its sites (addresses at the top level), snippets, where it proxies to, its roots,
 * the paths it handles and what it imports.
 */
const CADDY: Patterns = [
  ["sites", /^([^\s#{(][^{\n]*[^{\s])[ \t]*\{[ \t]*$/gm],
  ["snippets", /^\(([\w.-]+)\)/gm],
  ["proxies to", /^[ \t]+reverse_proxy[ \t]+([^{\n]*[^{\s])/gm],
  ["roots", /^[ \t]+root[ \t]+(\S[^\n]*\S|\S)/gm],
  ["handles", /^[ \t]+(?:handle_path|handle|route)[ \t]+([^{\s][^{\n]*[^{\s]|[^{\s])[ \t]*\{/gm],
  ["imports", /^[ \t]*import[ \t]+(\S+)/gm],
];

/**
 * The servers' configurations a `.conf` file may be, in the order they are tried: in Apache's
 * syntax, CUPS's and ProFTPD's by their own words, then Apache's, then, with no word of any, a
 * server configuration in Apache's style (a fragment: `Listen`, `<Location>`, `Require`).
 */
const SERVER_CONFS: SummaryLanguage = {
  label: "nginx configuration",
  patterns: NGINX,
  only: isNginx,
  otherwise: {
    label: "CUPS configuration",
    patterns: CUPS,
    only: (text) => isApacheStyle(text) && isCups(text),
    otherwise: {
      label: "ProFTPD configuration",
      patterns: PROFTPD,
      only: (text) => isApacheStyle(text) && isProftpd(text),
      otherwise: {
        label: "Apache configuration",
        patterns: APACHE,
        only: (text) => isApacheStyle(text) && isApache(text),
        otherwise: {
          label: "server configuration (Apache-style)",
          patterns: APACHE,
          only: isApacheStyle,
          otherwise: {
            label: "HAProxy configuration",
            patterns: HAPROXY,
            only: isHaproxy,
            otherwise: { label: "lighttpd configuration", patterns: LIGHTTPD, only: isLighttpd },
          },
        },
      },
    },
  },
};

/**
 * The summary languages of this module, by extension.
 *
 * @example
 * ```ts
 * import { formatSummaryLanguages } from "./_summary_formats.ts";
 * formatSummaryLanguages()[".spec"].label; // "Certora specification"
 * ```
 */
export function formatSummaryLanguages(): Record<string, SummaryLanguage> {
  const units = Object.entries(UNIT_KINDS).map(([ext, label]) => [ext, {
    label,
    patterns: UNIT,
    only: isUnit,
  }]);
  return {
    ".spec": { label: "Certora specification", patterns: CVL, only: isCvl },
    ".mod": { label: "Go module", patterns: GO_MOD, only: (text) => /^module[ \t]/m.test(text) },
    // Web servers' configurations; a `.conf` or `.cfg` of none of them is read as before (JSON,
    // INI or text).
    ".conf": SERVER_CONFS,
    ".cfg": { label: "HAProxy configuration", patterns: HAPROXY, only: isHaproxy },
    ".htaccess": { label: "Apache configuration", patterns: APACHE },
    ".caddyfile": { label: "Caddyfile", patterns: CADDY },
    ".vhost": SERVER_CONFS,
    ...Object.fromEntries(units),
  };
}

/** What {@linkcode gettextRows} and {@linkcode svgRows} are given to write names with. */
export interface FormatRowOptions {
  /** A long line cut, with a note of what was left out. */
  cut: (line: string) => string;
  /** Names as inline code, joined, at most `max` of them. */
  list: (names: string[], max?: number) => string;
  /** One text as inline code that stays on its line. */
  code: (text: string) => string;
}

/** Messages of a catalog listed, at most. */
const FIRST_MESSAGES = 12;

/** One gettext entry as read: its `msgid` and whether it has a translation. */
interface Entry {
  id: string;
  translated: boolean;
}

/**
 * A gettext catalog (`.po`) or template (`.pot`): its language (the header's `Language:`), how
 * many messages it holds and how many are translated, and the first messages' ids. Obsolete
 * entries (`#~`) are left out. `undefined` when the text holds no `msgid`.
 *
 * @example
 * ```ts
 * import { gettextRows } from "./_summary_formats.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[]) => names.map(code).join(", ");
 * const po = 'msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "Hello"\nmsgstr "Hallo"\n';
 * gettextRows(".po", po, { cut: (l) => l, list, code })?.[0];
 * // "**gettext catalog** (`de`), 5 lines, 1 message (1 translated)"
 * ```
 */
export function gettextRows(
  ext: string,
  text: string,
  { cut, list, code }: FormatRowOptions,
): string[] | undefined {
  const entries = gettextEntries(text);
  if (!entries.length) return undefined;
  const header = entries[0].id === "" ? entries.shift() : undefined;
  const language = header && /(?:^|\\n)Language:[ \t]*([^\\\n]+)/.exec(header.headerText ?? "");
  const kind = ext === ".pot" ? "gettext template" : "gettext catalog";
  const lang = language?.[1].trim() ? ` (${code(cut(language[1].trim()))})` : "";
  const n = entries.length;
  const done = entries.filter((e) => e.translated).length;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const counts = `${formatCount(n)} ${n === 1 ? "message" : "messages"}` +
    (ext === ".pot" ? "" : ` (${formatCount(done)} translated)`);
  const rows = [`**${kind}**${lang}, ${formatCount(lines)} lines, ${counts}`];
  const ids = entries.slice(0, FIRST_MESSAGES).map((e) => cut(e.id));
  if (ids.length) {
    const more = n > ids.length ? `, ... ${formatCount(n - ids.length)} more` : "";
    rows.push(`- messages: ${list(ids, FIRST_MESSAGES)}${more}`);
  }
  return rows;
}

/**
 * The entries of a gettext text, in order: each `msgid` (its strings joined, escapes kept as
 * written) and whether a `msgstr` of it is not empty; the header's `msgstr` kept as its text.
 */
function gettextEntries(text: string): Array<Entry & { headerText?: string }> {
  const entries: Array<Entry & { headerText?: string }> = [];
  let field: "id" | "str" | "" = "";
  let current: (Entry & { headerText?: string }) | undefined;
  for (const line of text.split("\n")) {
    const quoted = /^[ \t]*"((?:[^"\\]|\\.)*)"/.exec(line);
    const start = /^(msgid|msgstr(?:\[\d+\])?|msgctxt|msgid_plural)[ \t]+"((?:[^"\\]|\\.)*)"/
      .exec(line);
    if (start) {
      if (start[1] === "msgid") {
        current = { id: start[2], translated: false };
        entries.push(current);
        field = "id";
      } else if (start[1].startsWith("msgstr") && current) {
        field = "str";
        if (start[2]) current.translated = true;
        if (current.id === "" && entries.length === 1) current.headerText = start[2];
      } else field = "";
    } else if (quoted && current) {
      if (field === "id") current.id += quoted[1];
      if (field === "str" && quoted[1]) {
        current.translated = true;
        if (current.headerText !== undefined) current.headerText += quoted[1];
      }
    } else if (!line.startsWith("#") || line.startsWith("#~")) field = "";
  }
  // The header is the first entry when its id is empty; an empty id later is no message.
  return entries.filter((e, i) => i === 0 || e.id !== "");
}

/**
 * An SVG image's summary rows after its XML label: its size (`width`, `height`, `viewBox` of
 * the root) and the texts it shows (its `<title>` and `<text>` elements), at most the list's.
 *
 * @example
 * ```ts
 * import { svgRows } from "./_summary_formats.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[]) => names.map(code).join(", ");
 * svgRows('<svg viewBox="0 0 10 10"><text>Hi</text></svg>', { cut: (l) => l, list, code });
 * // ["- size: viewBox `0 0 10 10`", "- texts: `Hi`"]
 * ```
 */
export function svgRows(text: string, { cut, list, code }: FormatRowOptions): string[] {
  const rows: string[] = [];
  const root = /<svg\b([^>]*)>/.exec(text)?.[1] ?? "";
  const size = ["width", "height", "viewBox"].flatMap((name) => {
    const value = new RegExp(`(?:^|\\s)${name}[ \\t]*=[ \\t]*["']([^"'\\n]*)["']`).exec(root);
    return value ? [`${name} ${code(cut(value[1]))}`] : [];
  });
  if (size.length) rows.push(`- size: ${size.join(", ")}`);
  const texts = [...text.matchAll(/<(title|text|tspan)\b[^>]*>([^<]*)</g)]
    .map((m) => m[2].replace(/\s+/g, " ").trim()).filter(Boolean);
  const unique = [...new Set(texts)].map(cut);
  if (unique.length) rows.push(`- texts: ${list(unique)}`);
  return rows;
}

/** Key-value records' keys listed, at most. */
const MAX_RECORD_KEYS = 20;

/**
 * Test vectors as NIST writes them (`.rsp`, `.req`): the comment lines that open the file (what
 * they test), the `[section]` lines, and the keys of the `key = value` lines with how many times
 * each occurs. `undefined` when no line is `key = value`.
 *
 * @example
 * ```ts
 * import { vectorRows } from "./_summary_formats.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[]) => names.map(code).join(", ");
 * vectorRows("# SigVer\n[mod = 1024]\nn = 0a\nMsg = ff\nMsg = 00\n", { cut: (l) => l, list, code });
 * // ["**Test vectors**, 5 lines", "- about: `SigVer`", "- sections: `[mod = 1024]`", "- keys: `n × 1`, `Msg × 2`"]
 * ```
 */
export function vectorRows(
  text: string,
  { cut, list, code }: FormatRowOptions,
): string[] | undefined {
  const keys = new Map<string, number>();
  const sections: string[] = [];
  const about: string[] = [];
  let lines = 0;
  for (const line of text.split("\n")) {
    lines++;
    const comment = /^[ \t]*#[ \t]*(\S.*?)[ \t\r]*$/.exec(line);
    if (comment && !keys.size && !sections.length && about.length < 5) about.push(comment[1]);
    const section = /^[ \t]*(\[[^\]\n]{1,200}\])/.exec(line);
    if (section && !sections.includes(section[1])) sections.push(section[1]);
    const key = /^[ \t]*([A-Za-z][\w.-]{0,63})[ \t]*=/.exec(line);
    if (key) keys.set(key[1], (keys.get(key[1]) ?? 0) + 1);
  }
  if (!keys.size) return undefined;
  if (text.endsWith("\n")) lines--;
  const rows = [`**Test vectors**, ${formatCount(lines)} lines`];
  if (about.length) rows.push(`- about: ${about.map((a) => code(cut(a))).join(", ")}`);
  if (sections.length) rows.push(`- sections: ${list(sections.map(cut))}`);
  const counted = [...keys].map(([k, n]) => `${cut(k)} × ${formatCount(n)}`);
  rows.push(`- keys: ${list(counted, MAX_RECORD_KEYS)}`);
  return rows;
}
