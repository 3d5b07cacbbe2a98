/**
 * Tables of columns whose header names a secret (`secret_rules.ts` is the public face, through
 * `apartLines`): a page's Markdown, Confluence, reST and AsciiDoc tables, HTML tables (a notebook's
 * output too), and CSV or TSV files under a `password` header. Each value of such a column is read
 * as the value of `const password = "…"`, so the whole table judges it (a placeholder, a
 * reference or a word stays); a table with the secret's name in one cell and its value in the next
 * is `apartLines`' own.
 *
 * @module
 */

import { indexNear } from "./_secret_rules_common.ts";

/** A value read as `const NAME = "…"`: that line, where the value starts in it and in the text. */
interface ValueLine {
  line: string;
  from: number;
  at: number;
}

/** Files whose tables are read, by name. */
const TABLE_FILE =
  /\.(?:md|markdown|mdx|rst|txt|adoc|asciidoc|org|wiki|textile|html?|xhtml|ipynb|csv|tsv|psv)$/i;
/** Files of rows, their first line the header. */
const ROWS_FILE = /\.(?:csv|tsv|psv)$/i;
/** A header cell that names a secret, in a few languages. */
const SECRET_HEADER =
  /passw|^pass$|^pwd$|passphrase|secret|token|api[ _-]?key|kennwort|contrase|senha|mot de passe|пароль|密码/i;
/** A header cell about a secret rather than holding one (`Secret name`, `Token type`, `Password policy`). */
const ABOUT_SECRET =
  /name|type|desc|\bid\b|length|expir|policy|rotat|scope|field|variab|env|path|ref|file|hint|format|usage|note|lifetime|required|hash|digest|changed|created|updated|last|count|reset|strength|manager|vault|store/i;
/** The words a text must hold for any of its tables to have such a header. */
const HEADER_WORDS =
  /passw|pass\b|pwd|passphrase|secret|token|api[ _-]?key|kennwort|contrase|senha|mot de passe|пароль|密码/i;
/** A separator line of a Markdown, reST or org table (`|---|:---:|`, `+===+===+`, `---- | ----`). */
const SEPARATOR =
  /^[ \t]{0,16}[|+]?[ \t]{0,4}:?[-=]{1,512}:?[ \t]{0,4}(?:[|+][ \t]{0,4}:?[-=]{1,512}:?[ \t]{0,4}){0,63}[|+]?[ \t]{0,16}\r?$/;

/**
 * The values under each secret's column of the tables in `text` (read only when `path` names a
 * page, an HTML file, a notebook or a file of rows), each as a `const password = "…"` line.
 *
 * @example
 * ```ts
 * import { tableLines } from "./_secret_rules_tables.ts";
 * tableLines("| user | password |\n|---|---|\n| bob | Tg7!kq2Lx9 |\n", "a.md")[0].line;
 * // 'const password = "Tg7!kq2Lx9"\n'
 * ```
 */
export function tableLines(text: string, path: string): ValueLine[] {
  if (!TABLE_FILE.test(path) || !HEADER_WORDS.test(text)) return [];
  const out: ValueLine[] = [];
  if (ROWS_FILE.test(path)) rowsFile(text, path, out);
  else {
    if (text.includes("|")) pipeTables(text, out);
    if (text.includes("list-table")) listTables(text, out);
    if (text.includes("|===")) asciidocTables(text, out);
    if (/<t[dh][\s>]/i.test(text)) htmlTables(text, out);
  }
  return out;
}

/**
 * The `const` name for a header cell's text, or nothing when it does not hold a secret.
 *
 * @example
 * ```ts
 * import { secretColumn } from "./_secret_rules_tables.ts";
 * secretColumn("api_token"); // "token"
 * secretColumn("token_type"); // undefined
 * ```
 */
export function secretColumn(header: string): string | undefined {
  const cell = header.replace(/<[^<>]{0,256}>|[*_`'"]/g, "").trim();
  if (!cell || cell.length > 64 || !SECRET_HEADER.test(cell) || ABOUT_SECRET.test(cell)) {
    return undefined;
  }
  if (/passphrase/i.test(cell)) return "passphrase";
  if (/passw|pass$|pwd|kennwort|contrase|senha|mot de passe|пароль|密码/i.test(cell)) {
    return "password";
  }
  if (/token/i.test(cell)) return "token";
  if (/api[ _-]?key/i.test(cell)) return "api_key";
  return "secret";
}

/** A cell of a row: its text and where that text starts in the whole text. */
type Cell = { value: string; at: number };

/** `value` at `at` trimmed, a code span's or emphasis' marks and the quotes around it taken off. */
function cellValue(value: string, at: number): Cell {
  let start = 0;
  let end = value.length;
  for (;;) {
    while (start < end && /\s/.test(value[start])) start++;
    while (end > start && /\s/.test(value[end - 1])) end--;
    const first = value[start];
    if (end - start >= 2 && /[`*_"']/.test(first) && value[end - 1] === first) {
      start++;
      end--;
      continue;
    }
    const tag = /^<(code|b|strong|em|i|kbd|tt|span)(?:\s[^<>]{0,128})?>/i.exec(value.slice(start));
    if (tag && value.slice(0, end).toLowerCase().endsWith(`</${tag[1].toLowerCase()}>`)) {
      start += tag[0].length;
      end -= tag[1].length + 3;
      continue;
    }
    return { value: value.slice(start, end), at: at + start };
  }
}

/** Add the line of a secret's value (a cell of its column), unless empty or a stand-in of dashes. */
function push(name: string, cell: Cell | undefined, out: ValueLine[]): void {
  if (!cell || !cell.value || /^[-–—.…*x]{0,512}$/i.test(cell.value) || cell.value.length > 512) {
    return;
  }
  const head = `const ${name} = "`;
  out.push({
    line: head + cell.value.replace(/["\\]/g, "_") + '"\n',
    from: head.length,
    at: cell.at,
  });
}

/** The cells of a pipe table's line (`| a | b |`, `||a||b||`, `a | b`), from `at` in the text. */
function pipeCells(line: string, at: number): Cell[] {
  const cells: Cell[] = [];
  let start = 0;
  let body = line.replace(/\r$/, "");
  // the outer pipes (and Confluence's `||` header) are no cells
  const lead = /^[ \t]{0,16}\|{1,2}/.exec(body);
  if (lead) start = lead[0].length;
  let end = body.length;
  const trail = /\|{1,2}[ \t]{0,16}$/.exec(body.slice(start));
  if (trail) end = start + trail.index;
  body = body.slice(0, end);
  let from = start;
  for (let i = start; i <= body.length; i++) {
    if (i < body.length && (body[i] !== "|" || body[i - 1] === "\\")) continue;
    cells.push(cellValue(body.slice(from, i), at + from));
    from = i + (body[i + 1] === "|" ? 2 : 1);
    if (body[i + 1] === "|") i++;
  }
  return cells;
}

/**
 * Markdown, org, Confluence and reST grid tables: a header line of pipes followed by a separator
 * line (Confluence's `||` header needs none), then the rows up to a line that is neither a row
 * nor a separator.
 */
function pipeTables(text: string, out: ValueLine[]): void {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    let next = end + 1;
    if (line.includes("|") && HEADER_WORDS.test(line)) {
      let nextEnd = text.indexOf("\n", next);
      if (nextEnd < 0) nextEnd = text.length;
      const separated = next < text.length && SEPARATOR.test(text.slice(next, nextEnd));
      if (separated || /^[ \t]{0,16}\|\|/.test(line)) {
        const headers = pipeCells(line, at);
        const columns = headers.map((h) => secretColumn(h.value));
        if (columns.some((c) => c)) {
          next = pipeRows(text, separated ? nextEnd + 1 : next, columns, out);
        }
      }
    }
    at = next;
  }
}

/** The rows of a pipe table from `at` on; returns where the table ends. */
function pipeRows(
  text: string,
  at: number,
  columns: Array<string | undefined>,
  out: ValueLine[],
): number {
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    if (!line.includes("|") && !SEPARATOR.test(line)) return at;
    if (!SEPARATOR.test(line)) {
      const cells = pipeCells(line, at);
      columns.forEach((name, k) => name && push(name, cells[k], out));
    }
    at = end + 1;
  }
  return at;
}

/** A reST `list-table`'s row start (`* - cell`) or next cell (`  - cell`): indent, mark, text. */
const LIST_CELL = /^([ \t]{0,32})(\*[ \t]{1,8})?-[ \t]{1,8}([^\r\n]{0,1024})\r?$/;

/**
 * reST's `.. list-table::` and AsciiDoc's `|===` tables: the first row a header; each later
 * row's cell under a secret's header.
 */
function listTables(text: string, out: ValueLine[]): void {
  for (let i = text.indexOf("list-table::"); i >= 0; i = text.indexOf("list-table::", i + 12)) {
    const rows: Cell[][] = [];
    let at = text.indexOf("\n", i) + 1;
    while (at > 0 && at < text.length) {
      let end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      const line = text.slice(at, end);
      const m = LIST_CELL.exec(line);
      if (m) {
        const cell = cellValue(
          m[3],
          at + line.length - m[3].length - (line.endsWith("\r") ? 1 : 0),
        );
        if (m[2]) rows.push([cell]);
        else if (rows.length) rows[rows.length - 1].push(cell);
      } else if (line.trim() && !/^[ \t]{1,32}:/.test(line)) break;
      at = end + 1;
    }
    columnsOf(rows, out);
  }
}

/** AsciiDoc's table block's delimiter line. */
const ASCIIDOC_DELIMITER = /^[ \t]{0,16}\|===[ \t]{0,16}\r?$/gm;

/**
 * AsciiDoc's `|===` tables: its first line's cells are the header and give the number of
 * columns; the later cells (one a line or many) fill the rows in order.
 */
function asciidocTables(text: string, out: ValueLine[]): void {
  const delimiters = [...text.matchAll(ASCIIDOC_DELIMITER)].map((m) => m.index! + m[0].length);
  for (let d = 0; d + 1 < delimiters.length; d += 2) {
    const cells: Cell[] = [];
    let width = 0;
    for (let at = delimiters[d] + 1; at < delimiters[d + 1];) {
      let end = text.indexOf("\n", at);
      if (end < 0 || end > delimiters[d + 1]) end = delimiters[d + 1];
      const line = text.slice(at, end).replace(/\r$/, "");
      if (line.trimStart().startsWith("|")) {
        const parts = pipeCells(line.replace(/[ \t]{0,64}\|?$/, "") + " |", at);
        if (!width) width = parts.length;
        cells.push(...parts);
      }
      at = end + 1;
    }
    if (!width) continue;
    const rows: Cell[][] = [];
    for (let k = 0; k < cells.length; k += width) rows.push(cells.slice(k, k + width));
    columnsOf(rows, out);
  }
}

/** The header row's secret columns and each later row's cells under them. */
function columnsOf(rows: Cell[][], out: ValueLine[]): void {
  if (rows.length < 2) return;
  const columns = rows[0].map((h) => secretColumn(h.value));
  if (!columns.some((c) => c)) return;
  for (const row of rows.slice(1)) columns.forEach((name, k) => name && push(name, row[k], out));
}

/** An HTML table's row or cell, from its opening tag. */
const ROW_OR_CELL = /<(?:(?<tr>tr)|t[dh])(?:\s[^<>]{0,256})?>/gi;

/**
 * HTML tables (a page's, a notebook's output): each `<tr>`'s `<td>`/`<th>` cells; the first row
 * with a secret's header gives the columns, and each later row of the same table its values.
 */
function htmlTables(text: string, out: ValueLine[]): void {
  let rows: Cell[][] = [];
  let tableEnd = -1;
  const lower = text.toLowerCase();
  let nextClose = 0;
  ROW_OR_CELL.lastIndex = 0;
  for (const m of text.matchAll(ROW_OR_CELL)) {
    const at = m.index! + m[0].length;
    if (at > tableEnd) {
      columnsOf(rows, out);
      rows = [];
      const close = lower.indexOf("</table", at);
      tableEnd = close < 0 ? text.length : close;
    }
    if (m.groups!.tr) {
      rows.push([]);
      continue;
    }
    if (!rows.length) rows.push([]);
    // the cell's closing tag, 4 KB on at most (the next one remembered: each character looked at
    // once, however many cells open before it)
    if (nextClose >= 0 && nextClose < at) nextClose = lower.indexOf("</t", at);
    if (
      nextClose < 0 || nextClose - at > 4096 ||
      !/^<\/t[dh]/.test(lower.slice(nextClose, nextClose + 4))
    ) continue;
    rows[rows.length - 1].push(cellValue(text.slice(at, nextClose), at));
  }
  columnsOf(rows, out);
}

/** A file of rows (CSV, TSV): its first line the header, split by its most frequent delimiter. */
function rowsFile(text: string, path: string, out: ValueLine[]): void {
  const firstEnd = indexNear(text, "\n", 0, 65_536);
  const header = text.slice(0, firstEnd < 0 ? text.length : firstEnd);
  const delimiter = /\.tsv$/i.test(path) ? "\t" : /\.psv$/i.test(path) ? "|" : [",", ";", "\t", "|"]
    .map((d) => ({ d, n: header.split(d).length }))
    .sort((a, b) => b.n - a.n)[0].d;
  const columns = fields(header, 0, delimiter).map((h) => secretColumn(h.value));
  if (!columns.some((c) => c) || firstEnd < 0) return;
  for (let at = firstEnd + 1; at < text.length;) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const cells = fields(text.slice(at, end), at, delimiter);
    columns.forEach((name, k) => name && push(name, cells[k], out));
    at = end + 1;
  }
}

/** The fields of one line of a file of rows (a quoted field may hold the delimiter). */
function fields(line: string, at: number, delimiter: string): Cell[] {
  const cells: Cell[] = [];
  const body = line.replace(/\r$/, "");
  let from = 0;
  let quoted = false;
  for (let i = 0; i <= body.length; i++) {
    if (i < body.length) {
      if (body[i] === '"') quoted = !quoted;
      if (quoted || body[i] !== delimiter) continue;
    }
    cells.push(cellValue(body.slice(from, i), at + from));
    from = i + 1;
  }
  return cells;
}
