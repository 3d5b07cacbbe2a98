/**
 * The rules for passwords written in commands, SQL and `.pgpass` (`secret_rules.ts` is the public
 * face): `mysql -pS3cret`, `sshpass -p S3cret`, `redis-cli -a S3cret`, `mysqladmin … password
 * S3cret`, Redis's `requirepass S3cret` and `masterauth S3cret`, `IDENTIFIED BY 'S3cret'`,
 * `PASSWORD 'S3cret'`, `SET PASSWORD FOR … = 'S3cret'`, and a `.pgpass` line's last field
 * (`host:5432:db:user:S3cret`). The commands and SQL start from the words the name search finds
 * (`nameSpots`), so they cost no search of their own.
 *
 * @module
 */

import { type TextHints, withoutFullStops } from "./_secret_rules_common.ts";
import {
  namesOf,
  passwordLike,
  PLACEHOLDER_WORD,
  readsAsProse,
  REFERENCE,
} from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/** A quoted SQL string's body: escapes and doubled quotes. */
const SQL_STRING = `(?<q>['"])(?<v>(?:[^'"\\\\\\r\\n]|\\\\.){1,256})\\k<q>`;

/**
 * After `mysql` (and `mysqldump`, `mysqladmin`, …), on its command line: the first
 * `-p` option, its password attached (`-pS3cret`, `-p'S3 cret'`) or apart (`-p S3cret`: mysql
 * reads that as a prompt and a database, but a password written so is still one); also as an
 * exec list's items (`["CMD", "mysqladmin", "ping", "-uroot", "-pS3cret"]`).
 */
export const MYSQL_OPTION: RegExp = new RegExp(
  "[A-Za-z-]{0,8}(?=[ \\t]|[\"'][ \\t]{0,4},)[^\\r\\n;&|`]{0,256}?(?:[ \\t]|[\"'],[ \\t]{0,4}[\"'])-p(?:" +
    `(?<q>["'])(?<v>[^"'\\r\\n]{1,256})\\k<q>|` + // -p'S3 cr3t'
    "(?<v2>[^\\s\"'`-][^\\s\"'`]{0,255})|" + // -pS3cr3t
    `[ \\t]{1,16}(?<q3>["']?)(?<v3>[^\\s"'\`-][^\\s"'\`]{0,255})\\k<q3>` + // -p S3cr3t
    ")(?=[\\s;&|)`]|$|[\"'][ \\t]{0,4}[,\\]])",
  "dy",
);
/** After `mysqladmin`'s `mysql`, on its command line: the new password of its `password` command. */
export const MYSQLADMIN_PASSWORD: RegExp =
  /admin(?=[ \t])[^\r\n;&|`]{0,256}?[ \t]password[ \t]{1,16}(?<q>["']?)(?<v>[^\s"'`]{1,256})\k<q>(?=[\s;&|)`]|$)/dy;
/**
 * After a Redis configuration's `requirepass` or `masterauth` at a line's start: the password,
 * alone on the rest of its line.
 */
const REDIS_DIRECTIVE = /[ \t]{1,16}(?<q>["']?)(?<v>[^\s"'`]{1,256})\k<q>[ \t]*(?=\r?\n|$)/dy;
/** After `sshpass`: its `-p` password (`sshpass -p S3cret ssh …`). */
export const SSHPASS_OPTION: RegExp =
  /[ \t]{1,16}-p[ \t]{0,16}(?<q>["']?)(?<v>[^\s"'`]{1,256})\k<q>(?=[\s;&|)`]|$)/dy;
/** After `redis-cli`, on its command line: the `-a` or `--pass` password. */
export const REDIS_OPTION: RegExp =
  /[^\r\n;&|`]{0,256}?[ \t](?:-a|--pass)[ \t]{1,16}(?<q>["']?)(?<v>[^\s"'`]{1,256})\k<q>(?=[\s;&|)`]|$)/dy;
/** A blank between SQL's words: also `\\040`, as MySQL's client writes one in `.mysql_history`. */
const SQL_BLANK = "(?:[ \\t]|\\\\040)";
/**
 * After SQL's `IDENTIFIED`: `[WITH plugin] BY ['…' | PASSWORD '…' | name]` (MySQL, Oracle's
 * unquoted password). Group `u`: the unquoted one.
 */
export const IDENTIFIED_BY: RegExp = new RegExp(
  `(?:${SQL_BLANK}{1,16}[Ww][Ii][Tt][Hh]${SQL_BLANK}{1,16}["'\`]?[A-Za-z0-9_]{1,64}["'\`]?)?` +
    `(?:[\\r\\n]|${SQL_BLANK}){1,16}` +
    `[Bb][Yy](?:${SQL_BLANK}{1,16}[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd])?${SQL_BLANK}{1,16}` +
    `(?:${SQL_STRING}|(?<u>[A-Za-z][A-Za-z0-9_$#]{0,127})(?![A-Za-z0-9_$#]))`,
  "dy",
);
/**
 * After a `passw` word: `ORD '…'` or `ORD('…')` (PostgreSQL's `PASSWORD '…'`, MySQL's function), or
 * SQL Server's `ORD = N'…'` (a Unicode string).
 */
export const SQL_PASSWORD: RegExp = new RegExp(
  `[Oo][Rr][Dd](?<open>[ \\t]{1,16}|[ \\t]{0,16}\\([ \\t]{0,16}|[ \\t]{0,16}=[ \\t]{0,16}N(?='))${SQL_STRING}`,
  "dy",
);
/** A call's next argument after a string (its closing quote first): `", …`. */
const FURTHER_ARGUMENT = /^["'`]?[ \t]{0,16},/;
/** After a `passw` word: MySQL's `ORD FOR 'user'@'host' = '…'` (of `SET PASSWORD`). */
export const SET_PASSWORD: RegExp = new RegExp(
  `[Oo][Rr][Dd][ \\t]{1,16}[Ff][Oo][Rr][ \\t]{1,16}[^=;\\r\\n]{1,200}=[ \\t]{0,16}` +
    `(?:[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd][ \\t]{0,16}\\([ \\t]{0,16})?${SQL_STRING}`,
  "dy",
);
/** A statement that makes or changes a user or role, before its `PASSWORD`. */
const USER_STATEMENT = /\b(?:create|alter)[ \t\r\n]{1,16}(?:user|role)\b[^;]{0,200}$/i;
/** MySQL's `GRANT … TO user`, before its `IDENTIFIED BY`. */
const GRANT = /\bgrant\b[^;]{0,200}$/i;
/** SQL words that follow `IDENTIFIED BY` and are not a password. */
const SQL_WORD = /^(?:values|password|externally|globally|random)$/i;

/** A `.pgpass` line's host: a name, an address or `*`. */
const PGPASS_HOST = "[A-Za-z0-9._*[\\]-]{1,253}";
/**
 * A `.pgpass` line's fields after its host: port (a number or `*`), database and user (names, not
 * numbers: `00:00:00`, a MAC address and a timestamp's parts are not such a line). Looked for from
 * the `:` after the host, a port after it checked first: most colons of code fail there at once,
 * where a search from each line's start reads every line.
 */
const PGPASS_FIELDS = ":(?=(?:[1-9][0-9]{0,4}|\\*):)(?<=HOST:)(?:[1-9][0-9]{0,4}|\\*):" +
  "(?=[^:\\s]{0,127}[^:\\s0-9])[^:\\s\\\\\"']{1,128}:(?=[^:\\s]{0,127}[^:\\s0-9])[^:\\s\\\\\"']{1,128}:";
/**
 * A `.pgpass` line (`hostname:port:database:username:password`) up to its password: at a line's
 * start, or in quotes as `echo '…' >> ~/.pgpass` writes it (group `q`: that quote). One search
 * for both forms: one pass over the text, not two.
 */
export const PGPASS_LINE: RegExp = new RegExp(
  PGPASS_FIELDS.replace("HOST", `(?:^[ \\t]{0,16}|(?<q>["']))${PGPASS_HOST}`),
  "gm",
);
/** The password of a `.pgpass` line, to the line's end (escapes `\\:` and `\\\\` in it). */
export const PGPASS_PASSWORD: RegExp = /(?:[^:\r\n\\]|\\.){1,256}?(?=[ \t]{0,16}\r?$)/my;
/** The password of a quoted `.pgpass` line, to its closing quote. */
export const PGPASS_QUOTED_PASSWORD: RegExp = /(?:[^:"'\r\n\\]|\\.){1,256}/y;

/**
 * The passwords of `.pgpass` lines in `text` (see {@linkcode PGPASS_LINE}).
 *
 * @example
 * ```ts
 * import { findPgpassPasswords } from "./_secret_rules_commands.ts";
 * findPgpassPasswords("db:5432:shop:app:S3cr3t9\n"); // [{ start: 17, end: 24 }]
 * ```
 */
export function findPgpassPasswords(text: string): Span[] {
  const out: Span[] = [];
  PGPASS_LINE.lastIndex = 0;
  for (const m of text.matchAll(PGPASS_LINE)) {
    const at = m.index! + m[0].length;
    const q = m.groups!.q;
    const pattern = q ? PGPASS_QUOTED_PASSWORD : PGPASS_PASSWORD;
    pattern.lastIndex = at;
    const value = pattern.exec(text)?.[0];
    if (!value || (q && text[at + value.length] !== q) || !realPassword(value)) continue;
    out.push({ start: at, end: at + value.length });
  }
  return out;
}

/**
 * Whether a password read from a command, SQL or `.pgpass` is one: not a reference (`$VAR`,
 * `${VAR}`, `%s`) nor a placeholder's word (`changeme`, `password`, `your-password`).
 */
function realPassword(value: string): boolean {
  return value.length >= 3 && !REFERENCE.test(value) && !PLACEHOLDER_WORD.test(value);
}

/** The span of group `v` (or `name`) of a match (the patterns have the `d` flag). */
function spanOf(m: RegExpExecArray, name = "v"): Span {
  const [start, end] = m.indices!.groups![name]!;
  return { start, end };
}

/** The password of the command or SQL word that ends at `at`, if it has one. */
function commandPassword(text: string, at: number, kind: string): Span | undefined {
  if (kind === "sql") return identifiedBy(text, at);
  const pattern = kind === "sshpass"
    ? SSHPASS_OPTION
    : kind === "redis-cli"
    ? REDIS_OPTION
    : MYSQL_OPTION;
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  if (!m) return undefined;
  if (m.groups!.v3 !== undefined) {
    // `mysql -p name`: a password only when it does not read as a database's name
    return passwordLike(m.groups!.v3, m.groups!.q3 !== "") ? spanOf(m, "v3") : undefined;
  }
  const name = m.groups!.v2 !== undefined ? "v2" : "v";
  return realPassword(m.groups![name]) ? spanOf(m, name) : undefined;
}

function identifiedBy(text: string, at: number): Span | undefined {
  IDENTIFIED_BY.lastIndex = at;
  const m = IDENTIFIED_BY.exec(text);
  if (!m) return undefined;
  if (m.groups!.v !== undefined) {
    // In lower case, only in SQL's statement on a user (`grant … identified by '…'`): prose
    // says a commit is "identified by \"squash\"".
    const lower = text.slice(at - "identified".length, at) === "identified";
    const statement = text.slice(Math.max(0, at - 220), at - "identified".length);
    if (lower && !USER_STATEMENT.test(statement) && !GRANT.test(statement)) return undefined;
    return realPassword(m.groups!.v) ? spanOf(m) : undefined;
  }
  // Unquoted (Oracle): only in a statement that makes or changes a user.
  const u = m.groups!.u;
  const before = text.slice(Math.max(0, at - 220), at - "identified".length);
  if (SQL_WORD.test(u) || !realPassword(u) || !USER_STATEMENT.test(before)) return undefined;
  return spanOf(m, "u");
}

/** SQL's `PASSWORD '…'`, `PASSWORD('…')` and `SET PASSWORD FOR … = '…'` after a `passw` at `at`. */
function sqlPassword(text: string, at: number): Span | undefined {
  const word = text.slice(at - 5, at);
  // A word of its own, not the end of a name (`add_password(…)`, `zip.setpassword(…)`)
  if (/[\w.$]/.test(text[at - 6] ?? "")) return undefined;
  for (const pattern of [SQL_PASSWORD, SET_PASSWORD]) {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m || !realPassword(m.groups!.v)) continue;
    // A question or a label given to a prompt's call (Laravel Prompts'
    // `password('What is the decryption key?')`), not SQL's password
    if (readsAsProse(m.groups!.v)) continue;
    // SQL's `PASSWORD('…')` takes one argument: a call given more (TeamCity's
    // `password("env.DB_PASSWORD", "…")`) names its value first, the pair rule's
    if (
      m.groups!.open?.includes("(") &&
      FURTHER_ARGUMENT.test(text.slice(m.index + m[0].length, m.index + m[0].length + 20))
    ) continue;
    // `PASSWORD '…'` in upper case, the function, or in a statement on a user or role: not a
    // sentence that quotes a word after "password".
    const sql = pattern === SET_PASSWORD || word === "PASSW" || m.groups!.open?.includes("(") ||
      USER_STATEMENT.test(text.slice(Math.max(0, at - 225), at - 5));
    if (sql) return spanOf(m);
  }
  return undefined;
}

/**
 * The passwords of commands and SQL in `text`, found from the words the name search found.
 *
 * @example
 * ```ts
 * import { findSecrets } from "./secret_rules.ts";
 * findSecrets("mysql -u app -pS3cr3t9 shop").map((f) => f.rule); // ["password"]
 * ```
 */
export function findCommandPasswords(text: string, hints?: TextHints): Span[] {
  const spots = namesOf(text, hints);
  const out: Span[] = [];
  for (const { at, kind } of spots.commands) {
    const span = commandPassword(text, at, kind);
    if (span) out.push(span);
    if (kind === "mysql") {
      // `mysqladmin … password NEW` (after its `-p` password, if any)
      MYSQLADMIN_PASSWORD.lastIndex = at;
      const m = MYSQLADMIN_PASSWORD.exec(text);
      if (m && realPassword(m.groups!.v)) out.push(spanOf(m));
    }
  }
  // Redis's `requirepass` and `masterauth`, where the searches for `pass` and `auth` found them,
  // each at a line's start.
  const directives = spots.calls.filter((at) => text.startsWith("masterauth", at - 10))
    .map((at) => ({ word: at - 10, at }))
    .concat(spots.directives.map((at) => ({ word: at - 11, at })));
  for (const { word, at } of directives) {
    let lineStart = word;
    while (lineStart > 0 && (text[lineStart - 1] === " " || text[lineStart - 1] === "\t")) {
      lineStart--;
    }
    if (lineStart > 0 && text[lineStart - 1] !== "\n") continue;
    REDIS_DIRECTIVE.lastIndex = at;
    const m = REDIS_DIRECTIVE.exec(text);
    if (m && realPassword(m.groups!.v)) out.push(spanOf(m));
  }
  // Redis Sentinel's `sentinel auth-pass NAME …`, HAProxy's `stats auth USER:…`
  for (const at of spots.calls) {
    const shape = text.startsWith("-pass", at)
      ? SENTINEL_AUTH_PASS
      : text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9
      ? STATS_AUTH
      : undefined;
    if (!shape || !shape.before.test(text.slice(Math.max(0, at - 64), at - 4))) continue;
    shape.after.lastIndex = at;
    const m = shape.after.exec(text);
    if (m && realPassword(m.groups!.v)) out.push(spanOf(m));
  }
  for (const at of spots.passwords) {
    const span = sqlPassword(text, at) ?? dslPassword(text, at) ?? answerPassword(text, at);
    if (span) out.push(span);
  }
  return out;
}

/** `sentinel auth-pass NAME PASSWORD` (Redis Sentinel's config), from after its `auth`. */
const SENTINEL_AUTH_PASS = {
  before: /(?:^|\n)[ \t]{0,64}sentinel[ \t]{1,8}$/i,
  after: /-pass[ \t]{1,8}[^\s]{1,64}[ \t]{1,8}(?<v>[^\s"']{3,256})(?=\s|$)/dy,
};
/** HAProxy's `stats auth USER:PASSWORD`, from after its `auth`. */
const STATS_AUTH = {
  before: /(?:^|\n)[ \t]{0,64}stats[ \t]{1,8}$/,
  after: /[ \t]{1,8}[^\s:]{1,64}:(?<v>[^\s]{3,256})(?=\s|$)/dy,
};

/**
 * After a `passw` word, a password its format writes after a blank: a debconf answer (a preseed
 * file's `d-i passwd/root-password password …`: the question, its type `password`, the answer),
 * a `reg add … /v …Password … /d …` (Windows' `DefaultPassword` of automatic logon), and
 * fetchmail's `with password '…'`. Group `q` quoted, `v` not.
 */
const ANSWER_AFTER: Array<{ before: RegExp; after: RegExp }> = [
  {
    before: /(?:^|\n)[ \t]{0,16}[\w.-]{1,64}[ \t]{1,16}[\w.+-]{1,64}\/[\w.\/+-]{0,128}$/,
    after: /(?:or)?d(?:-again)?[ \t]{1,16}password[ \t]{1,16}(?<v>[^\s]{1,256})(?=\s|$)/dy,
  },
  {
    before: /(?:^|[^\w.-])reg(?:\.exe)?[ \t]{1,8}add[ \t][^\r\n]{0,512}\/v[ \t]{1,8}"?\w{0,64}$/i,
    after:
      /(?:or)?d"?(?:[ \t]{1,8}\/(?:t[ \t]{1,8}REG_(?:SZ|EXPAND_SZ)|f))*[ \t]{1,8}\/d[ \t]{1,8}(?:"(?<q>[^"\r\n]{1,256})"|(?<v>[^\s"]{1,256}))/diy,
  },
  {
    before: /(?:^|[ \t])with[ \t]{1,8}$/,
    // (not a Markdown code span: prose's "with password `12345`"; unquoted, it may end a string,
    // a docstring's `"""Connect with password …."""`)
    after:
      /(?:or)?d[ \t]{1,8}(?:(?<o>["'])(?<q>[^"'\r\n]{1,256})\k<o>|(?<v>[^\s"'`]{1,256}))(?=\s|$|["'])/dy,
  },
];

/** The answer after the `passw` word at `at` ({@linkcode ANSWER_AFTER}) that is a password. */
function answerPassword(text: string, at: number): Span | undefined {
  const word = at - 5;
  for (const { before, after } of ANSWER_AFTER) {
    // (what follows first: a sticky pattern that fails at once after most words)
    after.lastIndex = at;
    const m = after.exec(text);
    if (!m || !before.test(text.slice(Math.max(0, word - 640), word))) continue;
    const name = m.groups!.q !== undefined ? "q" : "v";
    // (unquoted, a sentence's full stop after it is not part of it)
    const value = name === "v" ? withoutFullStops(m.groups!.v) : m.groups!.q;
    if (!realPassword(value) || (name === "v" && !passwordLike(value, false))) continue;
    const [start] = m.indices!.groups![name]!;
    return { start, end: start + value.length };
  }
  return undefined;
}

/**
 * After a `passw` word: the rest of a password's name and a quoted string, alone on the rest of
 * the line (a `;` or `,` may end it): a DSL's call with no parentheses (Gradle's Groovy
 * `storePassword "…"`, `credentials { password '…' }`, Ruby's `password '…'`).
 */
export const DSL_PASSWORD: RegExp = new RegExp(
  `(?:[Oo][Rr])?[Dd][ \\t]{1,16}${SQL_STRING}[ \\t]{0,16}[;,]?[ \\t]{0,16}(?=\\r?\\n|\\r|$)`,
  "dy",
);

/**
 * A password given to a DSL's call ({@linkcode DSL_PASSWORD}) whose name (`password`,
 * `storePassword`, `keyPassword`) starts its line, after a `passw` at `at`.
 */
function dslPassword(text: string, at: number): Span | undefined {
  let start = at - 5;
  while (start > 0 && start > at - 64 && /[A-Za-z_]/.test(text[start - 1])) start--;
  while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
  if (start > 0 && text[start - 1] !== "\n" && text[start - 1] !== "\r") return undefined;
  DSL_PASSWORD.lastIndex = at;
  const m = DSL_PASSWORD.exec(text);
  return m && passwordLike(m.groups!.v, true) ? spanOf(m) : undefined;
}
