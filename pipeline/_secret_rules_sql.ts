/**
 * The rule for secrets in SQL's rows (`secret_rules.ts` is the public face): a dump's or a
 * migration's `INSERT INTO t (…, secret, …) VALUES (…, '…', …)` and PostgreSQL's `COPY t (…) FROM
 * stdin;` rows, each value read under its column's name by position, as `NAME="…"` is read (a
 * token's or a password's shape, not a hash, a word or a placeholder); a table named for secrets
 * (`api_keys`) read so under its `key` or `value` column too.
 *
 * @module
 */

import type { TextHints } from "./_secret_rules_common.ts";
import { findNamedPasswords, findNamedTokens, namesOf } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/** `INSERT INTO table (columns) VALUES` (any case), the columns in group `c`. */
const INSERT_COLUMNS =
  /insert[ \t]{1,16}(?:ignore[ \t]{1,16})?into[ \t]{1,16}[\w`"'.\[\]]{1,128}[ \t]{0,16}\((?<c>[^()\r\n]{1,2048})\)\s{0,64}values\s{0,64}/giy;
/** `COPY table (columns) FROM stdin;` and its line's end: the rows follow. */
const COPY_COLUMNS =
  /COPY[ \t]{1,16}[\w".]{1,128}[ \t]{0,16}\((?<c>[^()\r\n]{1,2048})\)[ \t]{1,16}FROM[ \t]{1,16}stdin;[ \t]{0,16}\r?\n/y;
/** A column named for a secret: its words' last (`client_secret`, `api_key`, `password`, `key`). */
const SECRET_COLUMN =
  /(?:^|[_-])(?:secret|passw(?:or)?d|pass|pwd|token|key|apikey|credentials?)$|(?<=[a-z])(?:Secret|Password|Token|Key)$/i;
/** A password hash's format: Werkzeug's, Django's, crypt(3)'s, LDAP's, Argon2's, bcrypt's. */
const HASHED =
  /^(?:pbkdf2[:_$]|scrypt[:$]|argon2|bcrypt[$_]|sha(?:1|256|512)[$:]|md5[$:]|\$[0-9a-z]{1,8}\$|\{[A-Z0-9-]{2,16}\})/;
/** How many rows of a statement are read, and how far (characters) a statement reaches. */
const MAX_ROWS = 4096;
const MAX_STATEMENT = 1 << 20;
const MAX_ROW = 65536;

/**
 * The secrets that SQL rows hold under columns named for them.
 *
 * @example
 * ```ts
 * import { findSqlRowSecrets } from "./_secret_rules_sql.ts";
 * findSqlRowSecrets("INSERT INTO clients (id, secret) VALUES (1, 'Xk29fjQ02aLpZ8wq7Rt5Ym3n');");
 * // [{ start: 45, end: 69 }]
 * ```
 */
export function findSqlRowSecrets(text: string, hints?: TextHints, path?: string): Span[] {
  const out: Span[] = [];
  // From each secret's name whose rest ends at a list's `,` or `)` (the name search's): the
  // statement that opens the list, if an `INSERT INTO t (` or a `COPY t (` (each read once).
  let read = -1;
  for (const at of namesOf(text, hints).rests) {
    const c = text.charCodeAt(at);
    if (at < read || (c !== 44 && c !== 41)) continue; // , )
    // the list's `(`, 2 KB back at most (not past a `;` or another list's `)`)
    let open = at - 1;
    for (; open >= 0 && open > at - 2048; open--) {
      const k = text.charCodeAt(open);
      if (k === 40 || k === 59 || k === 41) break; // ( ; )
    }
    if (open < 0 || text.charCodeAt(open) !== 40) continue;
    const from = Math.max(0, open - 160);
    const head = STATEMENT_HEAD.exec(text.slice(from, open));
    if (!head) continue;
    const start = from + head.index;
    if (/^copy/i.test(head[0])) {
      COPY_COLUMNS.lastIndex = start;
      const m = COPY_COLUMNS.exec(text);
      if (m) read = copyRows(text, start + m[0].length, columnNames(m.groups!.c), out);
    } else {
      INSERT_COLUMNS.lastIndex = start;
      const m = INSERT_COLUMNS.exec(text);
      if (m) read = insertRows(text, start + m[0].length, columnNames(m.groups!.c), out);
    }
  }
  if (!path || !SQL_FILE.test(path)) return out;
  // A table of secrets (`api_keys`, `access_tokens`, `secrets`) in an SQL file (a dump, a
  // migration, a seed): its `key`, `value`, `token` or `secret` column holds one under a name the
  // name search does not take for a secret's
  SECRET_TABLE.lastIndex = 0;
  // (a statement the names' search read already is read again with these columns: once more)
  for (const t of text.matchAll(SECRET_TABLE)) {
    INSERT_COLUMNS.lastIndex = t.index!;
    const m = INSERT_COLUMNS.exec(text);
    if (!m) continue;
    const columns = columnNames(m.groups!.c).map((c) => TABLE_VALUE.test(c) ? "api_key" : c);
    insertRows(text, t.index! + m[0].length, columns, out);
  }
  return out;
}

/** SQL's files: dumps, migrations, seeds (`.sql`, `.psql`, `.pgsql`, `.mysql`). */
const SQL_FILE = /\.(?:sql|psql|mysql|pgsql)$/i;
/** `INSERT INTO` a table named for secrets (`api_keys`, `oauth_tokens`, `secrets`, `credentials`). */
const SECRET_TABLE =
  /insert[ \t]{1,16}(?:ignore[ \t]{1,16})?into[ \t]{1,16}[\w`"'.\[\]]{0,64}(?:keys|tokens|secrets|credentials)[`"'\]]?[ \t]{0,16}\(/gi;
/** The column of such a table that holds its secret, by a name of its own. */
const TABLE_VALUE = /^(?:key|value|token|secret)$/i;

/** Before a list's `(`: `INSERT [IGNORE] INTO table` or `COPY table`, at the text's end. */
const STATEMENT_HEAD =
  /(?:insert[ \t]{1,16}(?:ignore[ \t]{1,16})?into|COPY)[ \t]{1,16}[\w`"'.\[\]]{1,128}[ \t]{0,16}$/i;

/** A column list's names, their quotes taken off. */
function columnNames(list: string): string[] {
  return list.split(",").map((c) => c.trim().replace(/^[`"'\[]|[`"'\]]$/g, ""));
}

/** The secret of `value` (at `start`) read as `NAME="…"` under the column `name`. */
function judge(name: string, value: string, start: number, out: Span[]): void {
  if (!SECRET_COLUMN.test(name) || value.length < 6 || /[\s"\\]/.test(value)) return;
  if (HASHED.test(value)) return; // a password's hash (a seed's `pbkdf2:sha256:…`), not it
  const id = name.replace(/[^A-Za-z0-9_]/g, "_");
  const line = `${id}="${value}"`;
  const found = [...findNamedTokens(line), ...findNamedPasswords(line)];
  if (found.some((f) => f.start > id.length)) out.push({ start, end: start + value.length });
}

/**
 * The rows of an `INSERT … VALUES` from `at`: `(…), (…);`, each value a quoted string (`''` inside
 * is a quote), a number, `NULL` or a call, read once from left to right, each row within 64 KB;
 * where the reading stopped.
 */
function insertRows(text: string, at: number, columns: string[], out: Span[]): number {
  const end = Math.min(text.length, at + MAX_STATEMENT);
  let i = at;
  for (let rows = 0; rows < MAX_ROWS && i < end && text[i] === "("; rows++) {
    const limit = Math.min(end, i + MAX_ROW);
    i++;
    let column = 0;
    let depth = 0;
    while (i < limit) {
      const c = text[i];
      if (c === "'" || (c === '"' && depth === 0)) {
        // a string: to its closing quote (a doubled one or a `\` escape stays inside)
        const start = i + 1;
        let j = start;
        while (j < limit && text[j] !== "\n") {
          if (text[j] === "\\") j += 2;
          else if (text[j] === c && text[j + 1] === c) j += 2;
          else if (text[j] === c) break;
          else j++;
        }
        if (j >= limit || text[j] !== c) return j;
        if (depth === 0 && column < columns.length) {
          judge(columns[column], text.slice(start, j), start, out);
        }
        i = j + 1;
      } else if (c === "(") depth++, i++;
      else if (c === ")") {
        i++;
        if (depth-- === 0) break;
      } else if (c === "," && depth === 0) column++, i++;
      else if (c === ";") return i;
      else i++;
    }
    while (i < end && /[\s,]/.test(text[i])) i++;
  }
  return i;
}

/**
 * The rows of a `COPY … FROM stdin;` from `at`: tab-separated, up to the `\.` line; where the
 * reading stopped.
 */
function copyRows(text: string, at: number, columns: string[], out: Span[]): number {
  let start = at;
  for (let rows = 0; rows < MAX_ROWS && start < text.length; rows++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, "");
    if (line === "\\." || end - start > MAX_ROW) return end;
    let from = 0;
    line.split("\t").forEach((value, column) => {
      if (column < columns.length && value !== "\\N") {
        judge(columns[column], value, start + from, out);
      }
      from += value.length + 1;
    });
    start = end + 1;
  }
  return start;
}
