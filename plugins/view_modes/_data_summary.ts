/**
 * The `summary` of a data file: its shape, not its first lines. A JSON value's top level (an
 * object's keys with what each holds, an array's count and its items' keys), a JSON Lines file's
 * records, a CSV or TSV file's columns and rows, an XML document's root and the elements under
 * it, a Jest snapshot file's snapshots; each with its first records, cut to the summary's line
 * length.
 *
 * @module
 */

import { counted } from "./_counts.ts";
import { formatCount } from "../../pipeline/helpers.ts";

/** What a data summary is given: the cut of a long line, how many names and records to show. */
export interface DataSummaryOptions {
  /** A long line cut, with a note of what was left out. */
  cut: (line: string) => string;
  /** Names as inline code, joined, at most `max` of them (else the summary's most). */
  list: (names: string[], max?: number) => string;
  /** One text as inline code that stays on its line. */
  code: (text: string) => string;
  /** Records shown (a CSV file's rows, a JSON array's items). */
  records: number;
}

/**
 * The rows of a data file's summary (its label line first), or `undefined` when the extension
 * is not a data format this reads.
 *
 * @example
 * ```ts
 * import { dataSummary } from "./_data_summary.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[], max = 40) => names.slice(0, max).map(code).join(", ");
 * const rows = dataSummary(".csv", "a,b\n1,2\n", { cut: (l) => l, list, code, records: 3 });
 * rows?.[1]; // "- columns (2): `a`, `b`"
 * ```
 */
export function dataSummary(
  ext: string,
  text: string,
  options: DataSummaryOptions,
): string[] | undefined {
  if (ext === ".csv" || ext === ".tsv") return tableRows(ext, text, options);
  if (ext === ".jsonl" || ext === ".ndjson") return jsonLinesRows(text, options);
  if (ext === ".snap") return snapshotRows(text, options);
  if (ext === ".xml") return xmlRows(text, options);
  return undefined;
}

/** Keys of a JSON object whose size is told, at most. */
const MAX_KEYS = 40;

/** Names listed in a row of a shape that nests (an object's inner keys, snapshot names), at most. */
const MAX_INNER = 12;

/**
 * The rows that tell a parsed JSON value's shape beyond its keys: for an object, each key that
 * holds an array or an object with its size; for an array, its count, its items' keys and its
 * first items.
 *
 * @example
 * ```ts
 * import { jsonShapeRows } from "./_data_summary.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[], max = 40) => names.slice(0, max).map(code).join(", ");
 * jsonShapeRows([{ a: 1 }, { a: 2 }], { cut: (l) => l, list, code, records: 1 });
 * // ["- array of 2 objects with keys `a`", "- first item: `{\"a\":1}`"]
 * ```
 */
export function jsonShapeRows(value: unknown, options: DataSummaryOptions): string[] {
  if (Array.isArray(value)) return arrayRows(value, options);
  const strings = value && typeof value === "object" ? textLeaves(value) : 0;
  const rows = objectRows(value, "", options);
  return strings > 0 ? [...rows, `- ${counted(strings, "string")}`] : rows;
}

/**
 * The strings of an object of objects whose every leaf is a string (a translation's messages,
 * `{"app": {"title": "..."}}`); 0 for any other value, or one whose leaves are not all strings.
 */
function textLeaves(value: unknown): number {
  // A stack, not recursion: a hostile file nests thousands of levels.
  const stack = [value];
  let n = 0;
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") n++;
    else if (item && typeof item === "object" && !Array.isArray(item)) {
      for (const inner of Object.values(item)) stack.push(inner);
    } else return 0;
  }
  return n;
}

/**
 * An object's keys that hold an array or an object, each with its size, the keys of the objects
 * it holds, and one level further in (`indent` two spaces a level).
 */
function objectRows(value: unknown, indent: string, options: DataSummaryOptions): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  const entries = Object.entries(value);
  const rows: string[] = [];
  for (const [key, inner] of entries.slice(0, indent ? MAX_INNER : MAX_KEYS)) {
    const size = sizeOf(inner);
    if (!size) continue;
    const keys = Array.isArray(inner)
      ? keysOf(inner, options, " with keys ")
      : keysOf([inner], options, ": ");
    rows.push(`${indent}- ${options.code(options.cut(key))}: ${size}${keys}`);
    // A wrapper's few keys (`{"data": {...}}`) are looked into, one level.
    if (!indent && entries.length <= 3) rows.push(...objectRows(inner, "  ", options));
  }
  return rows;
}

/** What an array or object holds, in a few words (`array of 12 objects`, `object of 3 keys`). */
function sizeOf(value: unknown): string {
  if (Array.isArray(value)) {
    const kinds = new Set(value.slice(0, 100).map(kindOf));
    const kind = kinds.size === 1 ? ` ${[...kinds][0]}s` : value.length === 1 ? " item" : " items";
    return `array of ${formatCount(value.length)}${kind}`;
  }
  if (value && typeof value === "object") {
    const n = Object.keys(value).length;
    return `object of ${counted(n, "key")}`;
  }
  return "";
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/** An array's count, its object items' keys (the first 100 items'), and its first items. */
function arrayRows(items: unknown[], options: DataSummaryOptions): string[] {
  const rows = [`- ${sizeOf(items)}${keysOf(items, options, " with keys ")}`];
  for (const [i, item] of items.slice(0, options.records).entries()) {
    rows.push(`- ${i ? "next" : "first"} item: ${options.code(options.cut(JSON.stringify(item)))}`);
  }
  return rows;
}

/** The keys of the objects among the first 100 items, in the order first seen, after `lead`. */
function keysOf(items: unknown[], { cut, list }: DataSummaryOptions, lead: string): string {
  const keys = new Set<string>();
  for (const item of items.slice(0, 100)) {
    if (item && typeof item === "object" && !Array.isArray(item)) {
      for (const key of Object.keys(item)) keys.add(key);
    }
  }
  return keys.size ? `${lead}${list([...keys].map(cut), MAX_INNER)}` : "";
}

/** A CSV or TSV file: its columns (the header), its records, its first records. */
function tableRows(ext: string, text: string, options: DataSummaryOptions): string[] {
  const separator = ext === ".tsv" ? "\t" : ",";
  const { count: records, first } = tableRecords(text, 1 + options.records);
  const label = ext === ".tsv" ? "TSV" : "CSV";
  if (!records) return [`**${label}**, no rows`];
  const columns = splitRow(first[0], separator);
  const rows = [
    `**${label}**, ${counted(records - 1, "row")} under a header`,
    `- columns (${formatCount(columns.length)}): ${options.list(columns.map(options.cut))}`,
  ];
  for (const record of first.slice(1)) rows.push(`- ${options.code(options.cut(record))}`);
  return rows;
}

/**
 * A table's records (a quoted field may hold line breaks: they do not end a record; blank lines,
 * of white space alone, are none), counted in one pass, and the first `keep` of them. The line
 * breaks and quotes are found by search, and only the records kept are made.
 */
function tableRecords(text: string, keep: number): { count: number; first: string[] } {
  const first: string[] = [];
  let count = 0;
  // The next quote at or after where the search is (-1: none), and whether one is open there.
  const at = { quote: text.indexOf('"'), quoted: false };
  for (let start = 0; start <= text.length;) {
    const end = recordEnd(text, start, at);
    if (!blankBetween(text, start, end)) {
      count++;
      if (first.length < keep) first.push(text.slice(start, end).replace(/\r$/, ""));
    }
    start = end + 1;
  }
  return { count, first };
}

/**
 * Where the record from `from` ends: the next line break outside quotes (a quote opens or closes
 * at each `"`: a doubled quote does both), or the text's end. `at` is moved past the quotes read.
 */
function recordEnd(text: string, from: number, at: { quote: number; quoted: boolean }): number {
  for (let pos = from;;) {
    if (at.quoted) {
      if (at.quote < 0) return text.length;
      at.quoted = false;
    } else {
      const line = text.indexOf("\n", pos);
      if (at.quote < 0 || (line >= 0 && line < at.quote)) return line < 0 ? text.length : line;
      at.quoted = true;
    }
    pos = at.quote + 1;
    at.quote = text.indexOf('"', pos);
  }
}

/** Whether `text` holds nothing but white space from `start` to `end` (as `trim()` takes it). */
function blankBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Whether a character is white space as `trim()` removes it (`\s`). */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(String.fromCharCode(code));
}

/** A CSV row's fields (a quoted field may hold the separator; its quotes are dropped). */
function splitRow(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' && quoted && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      fields.push(field.trim());
      field = "";
    } else field += c;
  }
  fields.push(field.trim());
  return fields;
}

/** A JSON Lines file: its records, their keys, its first records. */
function jsonLinesRows(text: string, options: DataSummaryOptions): string[] {
  const lines = text.split("\n").filter((l) => l.trim());
  const first: unknown[] = [];
  for (const line of lines.slice(0, 100)) {
    try {
      first.push(JSON.parse(line));
    } catch {
      // A line that is not JSON is counted, not read.
    }
  }
  const rows = [`**JSON Lines**, ${counted(lines.length, "record")}`];
  const keys = keysOf(first, options, "- keys: ");
  if (keys) rows.push(keys);
  for (const line of lines.slice(0, options.records)) {
    rows.push(`- ${options.code(options.cut(line.trim()))}`);
  }
  return rows;
}

/** A Jest or Vitest snapshot file: its snapshots by name (`exports[\`name 1\`] = `). */
function snapshotRows(text: string, { cut, list }: DataSummaryOptions): string[] {
  const found = [...text.matchAll(/^exports\[`((?:[^`\\]|\\.)*)`\]\s*=/gm)].map((m) => m[1]);
  const rows = [`**Test snapshots**, ${counted(found.length, "snapshot")}`];
  if (found.length) rows.push(`- snapshots: ${list(found.map(cut), MAX_INNER)}`);
  return rows;
}

/** An XML document: its root element and the elements one level under it, by count. */
function xmlRows(text: string, { cut, list, code }: DataSummaryOptions): string[] | undefined {
  // Tags with their depth, comments, declarations and CDATA left out.
  const body = text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>/g, "");
  let depth = 0;
  let root = "";
  const children = new Map<string, number>();
  for (const m of body.matchAll(/<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    if (closing) {
      depth--;
      continue;
    }
    if (depth === 0 && !root) root = name;
    if (depth === 1) children.set(name, (children.get(name) ?? 0) + 1);
    if (!selfClosing) depth++;
  }
  if (!root) return undefined;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const rows = [`**XML**, ${counted(lines, "line")}, root ${code(cut(root))}`];
  const elements = [...children].map(([name, n]) => `${cut(name)} × ${formatCount(n)}`);
  if (elements.length) rows.push(`- elements under the root: ${list(elements)}`);
  return rows;
}
