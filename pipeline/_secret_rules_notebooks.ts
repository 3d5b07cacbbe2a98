/**
 * The values a notebook's outputs print apart from their names (`secret_rules.ts` is the public
 * face, through `apartLines`): a cell whose last line is a secret's expression (`token`,
 * `os.environ.get('DB_PASSWORD')`, `secrets.token_hex(32)`) shows its value alone in an
 * `execute_result`; a cell that prints one (`print(api_key)`, `print(f"using {key}")`) writes
 * it into its `stream`; a printed table (a pandas DataFrame, as text) holds it under a column
 * named for a secret. Each value is read as `const NAME = "…"` under the name its source gives,
 * so the whole table judges it (a word, a placeholder or a reference stays). The notebook is read
 * as JSON; a value is found again in the file's text as JSON writes it.
 *
 * @module
 */

import { secretColumn } from "./_secret_rules_tables.ts";

/** A value read as `const NAME = "…"`: that line, where the value starts in it and in the text. */
interface ValueLine {
  line: string;
  from: number;
  at: number;
}

/** A notebook's cell as nbformat writes it (4, and 3's `input`). */
interface Cell {
  cell_type?: string;
  source?: string | string[];
  input?: string | string[];
  outputs?: Array<{
    output_type?: string;
    text?: string | string[];
    data?: Record<string, string | string[]>;
  }>;
}

/** A secret's word in a name (`api_key`, `DB_PASSWORD`, `pw`, `creds`). */
const SECRET_NAME = /key|token|secret|passw|passphrase|pwd|^pw$|_pw$|auth|credential|cred/i;
/** A call that makes a secret (`secrets.token_hex(32)`, `Fernet.generate_key()`, `getpass()`). */
const SECRET_CALL =
  /^(?:secrets\.token_(?:hex|urlsafe)|token_(?:hex|urlsafe)|Fernet\.generate_key|(?:getpass\.)?getpass)\(/;
/** An environment read or a subscript by a literal name: the name in group `n`. */
const NAMED_READ =
  /^[A-Za-z_][\w.]{0,64}(?:\.get\(|\.getenv\(|getenv\(|\[)[ \t]{0,4}["'](?<n>[A-Za-z0-9_.-]{1,64})["']/;
/** A name of code, maybe a member (`token`, `config.api_key`). */
const CODE_NAME = /^[A-Za-z_][\w]{0,64}(?:\.[A-Za-z_]\w{0,64}){0,4}$/;
/** `print(…)` on a line of its own: its argument in group `a`. */
const PRINT = /^[ \t]{0,32}print\((?<a>[^\r\n]{1,256})\)[ \t]{0,16}$/gm;
/** Cells read and values found at most (a notebook of many outputs stays linear). */
const MAX_VALUES = 65_536;

/**
 * The values a notebook's outputs print apart from their names (see the module's notes), each as
 * a `const NAME = "…"` line; none when `path` is no notebook or its text is no JSON.
 *
 * @example
 * ```ts
 * import { notebookLines } from "./_secret_rules_notebooks.ts";
 * const nb = { cells: [{ cell_type: "code", source: ["print(api_key)"],
 *   outputs: [{ output_type: "stream", text: ["Xk29fjQ02aLpZ8wq7Rt5Ym3n\n"] }] }] };
 * notebookLines(JSON.stringify(nb), "a.ipynb")[0].line; // 'const api_key = "Xk29fjQ02aLpZ8wq7Rt5Ym3n"\n'
 * ```
 */
export function notebookLines(text: string, path: string): ValueLine[] {
  if (!/\.ipynb$/i.test(path) || !text.includes('"outputs"')) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const found: Array<[string, string]> = [];
  const cells = Array.isArray((doc as { cells?: unknown }).cells)
    ? (doc as { cells: Cell[] }).cells
    : [doc as Cell];
  for (const cell of cells) {
    if (found.length >= MAX_VALUES) break;
    if (!cell || typeof cell !== "object" || !Array.isArray(cell.outputs)) continue;
    cellValues(cell, found);
  }
  return linesOf(text, found);
}

/** The `[name, value]` pairs a cell's outputs print, into `found`. */
function cellValues(cell: Cell, found: Array<[string, string]>): void {
  const source = joined(cell.source ?? cell.input);
  const last = source.trimEnd().split("\n").pop()?.trim() ?? "";
  const resultName = expressionName(last);
  for (const output of cell.outputs!) {
    const kind = output?.output_type;
    const texts: string[] = [];
    if (kind === "stream") texts.push(joined(output.text));
    else if (kind === "execute_result" || kind === "display_data" || kind === "pyout") {
      texts.push(joined(output.data?.["text/plain"] ?? output.text));
      if (resultName && kind !== "display_data") {
        const value = reprString(texts[0].trim());
        if (value) found.push([resultName, value]);
      }
    }
    for (const t of texts) {
      if (kind === "stream") printedValues(source, t, found);
      tableValues(t, found);
    }
  }
}

/** A text of nbformat: one string, or a list of lines. */
function joined(t: unknown): string {
  if (typeof t === "string") return t;
  return Array.isArray(t) ? t.filter((s) => typeof s === "string").join("") : "";
}

/** The secret's name an expression reads (`token`, `os.getenv("API_KEY")`), or nothing. */
function expressionName(expr: string): string | undefined {
  if (SECRET_CALL.test(expr)) return "generated_secret";
  const read = NAMED_READ.exec(expr);
  const name = read ? read.groups!.n : CODE_NAME.test(expr) ? expr.split(".").pop()! : undefined;
  return name && SECRET_NAME.test(name) ? name.replace(/[^A-Za-z0-9_]/g, "_") : undefined;
}

/** A Python repr of a string (`'…'`, `"…"`, `b'…'`): its text, or nothing. */
function reprString(repr: string): string | undefined {
  const m = /^b?(["'])([^"'\\\r\n]{1,1024})\1$/.exec(repr);
  return m?.[2];
}

/**
 * The values a cell's `print(…)` lines write to its stream: a secret's expression printed alone
 * (each line of the stream a value), or an f-string's field named for a secret (each line that
 * starts and ends with the f-string's text around the field).
 */
function printedValues(source: string, stream: string, found: Array<[string, string]>): void {
  if (!source.includes("print(")) return;
  // (the stream's first 16 lines, split once for all the cell's prints)
  const lines = stream.split("\n", 64).map((l) => l.trim()).filter((l) => l).slice(0, 16);
  PRINT.lastIndex = 0;
  for (const m of source.matchAll(PRINT)) {
    if (found.length >= MAX_VALUES) return;
    const arg = m.groups!.a.trim();
    const name = expressionName(arg);
    if (name) {
      for (const line of lines) if (!/\s/.test(line)) found.push([name, line]);
      continue;
    }
    const f = /^f(["'])(?<pre>[^{}"']{0,64})\{(?<e>[^{}]{1,64})\}(?<post>[^{}"']{0,64})\1$/.exec(
      arg,
    );
    const field = f && expressionName(f.groups!.e.split(/[!:]/)[0].trim());
    if (!f || !field) continue;
    const { pre, post } = f.groups!;
    for (const line of lines) {
      if (line.length <= pre.trim().length + post.trim().length) continue;
      if (!line.startsWith(pre.trim()) || !line.endsWith(post.trim())) continue;
      const value = line.slice(pre.trim().length, line.length - post.trim().length).trim();
      if (value && !/\s/.test(value)) found.push([field, value]);
    }
  }
}

/**
 * The values under a secret's column of a table printed as text (pandas' DataFrame: a header of
 * names, then rows of an index and values, each column's values aligned to its name): the row's
 * first word that overlaps the name's columns.
 */
function tableValues(t: string, found: Array<[string, string]>): void {
  const lines = t.split("\n");
  for (let i = 0; i < lines.length - 1 && i < 4096; i++) {
    const header = lines[i];
    if (!/\S[ \t]{2}/.test(header)) continue;
    const columns: Array<[string, number, number]> = [];
    for (const w of header.matchAll(/\S+/g)) {
      const name = secretColumn(w[0]);
      if (name) columns.push([name, w.index!, w.index! + w[0].length]);
    }
    if (!columns.length) continue;
    for (let j = i + 1; j < lines.length && j < i + 4097; j++) {
      const row = lines[j];
      if (!/\S/.test(row) || row.trim() === "...") continue;
      const words = [...row.matchAll(/\S+/g)].map((w) => [w[0], w.index!, w.index! + w[0].length]);
      for (const [name, start, end] of columns) {
        const cell = words.find(([, s, e]) => (s as number) < end && (e as number) > start);
        if (cell && found.length < MAX_VALUES) found.push([name, cell[0] as string]);
      }
    }
    return;
  }
}

/**
 * Each value's place in the notebook's text (written as JSON writes it), as the line
 * `const NAME = "…"` (`"` and `\` of the written value read as `_`: the same length). The values
 * come in the text's order (cells, outputs, lines), so each is looked for from where the one
 * before it was found: the text is read about once. A value not found (written with escapes of
 * its own) costs a read to the text's end; after 8 of them the rest are not looked for.
 */
function linesOf(text: string, found: Array<[string, string]>): ValueLine[] {
  const out: ValueLine[] = [];
  let cursor = 0;
  let misses = 0;
  for (const [name, value] of found) {
    if (value.length < 6) continue;
    const written = JSON.stringify(value).slice(1, -1);
    const at = text.indexOf(written, cursor);
    if (at < 0) {
      if (++misses > 8) break;
      continue;
    }
    cursor = at;
    const head = `const ${name} = "`;
    out.push({ line: head + written.replace(/["\\]/g, "_") + '"\n', from: head.length, at });
  }
  return out;
}
