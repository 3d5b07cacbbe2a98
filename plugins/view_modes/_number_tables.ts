/**
 * What a file of number tables holds, for its summary: each table's name, the type of its
 * elements when its declaration says it, and its rows and elements (FatFs's `ffunicode.c`: 23
 * code page tables of `WCHAR`), so a reader of the summary sees what was left out.
 *
 * @module
 */

import { isNumberRow } from "../../pipeline/helpers.ts";

/** One table: its name (`undefined` when no declaration opens it), element type, rows, elements. */
export interface NumberTable {
  name?: string;
  type?: string;
  rows: number;
  elements: number;
}

/** A number literal, as a row holds them. */
const NUMBER = /[-+]?(?:0[xX][\dA-Fa-f]+|0[bB][01]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[uUlLfF]*/g;

/** Words of a C-family declaration that are no part of its element type. */
const QUALIFIERS =
  /\b(?:static|const|constexpr|consteval|extern|inline|public|private|protected|internal|final|readonly|volatile|register|unsafe|pub|let|var|val|mut|export|default|ROM|PROGMEM|__attribute__\s*\([^)]*\)|alignas\s*\([^)]*\)|ALIGN\w*\s*\([^)]*\))\b/g;

/**
 * The name and element type a declaration that opens a table gives, in the usual spellings:
 * C's `static const WCHAR uc437[] = {`, Java's and C#'s `int[] T = {`, Rust's
 * `static T: [u16; 256] = [`, Go's `var t = [...]uint16{`, Zig's `const t = [_]u8{`, Swift's
 * `let t: [UInt8] = [`, Pascal's `T: array[0..9] of Cardinal = (`, a typed array
 * (`new Uint16Array([`), or a name alone (`TABLE = (`).
 */
function declared(line: string): { name?: string; type?: string } {
  const code = line.trim();
  let m =
    /^(?:pub\s+)?(?:static|const)\s+(?:mut\s+)?(\w+)\s*:\s*&?\s*\[\s*([\w:]+)\s*(?:;[^\]]*)?\]/
      .exec(code);
  if (m) return { name: m[1], type: m[2] };
  m = /(\w+)\s*:\s*array\s*\[[^\]]*\]\s*of\s+(\w+)/i.exec(code);
  if (m) return { name: m[1], type: m[2] };
  m = /(\w+)\s*(?::=|=)\s*\[(?:\.\.\.|_|\d*)\]\s*([\w.]+)\s*\{/.exec(code);
  if (m) return { name: m[1], type: m[2] };
  m = /(\w+)\s*:\s*\[\s*(\w+)\s*\]\s*=/.exec(code);
  if (m) return { name: m[1], type: m[2] };
  m = /(\w+)\s*=\s*new\s+(\w+)(?:\[\s*\d*\s*\]|\s*\()/.exec(code);
  if (m) return { name: m[1], type: m[2].replace(/Array$/, "") || m[2] };
  m = /^([A-Za-z_][\w\s:<>*]*?)\s*\[\s*\]\s*(\w+)\s*=/.exec(code);
  if (m) return { name: m[2], type: typeOf(m[1]) };
  m = /^([A-Za-z_][\w\s:<>*]*?)\b(\w+)\s*(?:\[[^\]]*\]\s*)+(?:=|\{|$)/.exec(code);
  if (m) return { name: m[2], type: typeOf(m[1]) };
  m = /(\w+)\s*(?::\s*[\w[\]<>]+\s*)?=\s*[[({]/.exec(code);
  if (m) return { name: m[1] };
  return {};
}

/** A declaration's words before its name, less qualifiers: its element type, or none. */
function typeOf(words: string): string | undefined {
  const type = words.replace(QUALIFIERS, " ").replace(/\s+/g, " ").trim();
  return type || undefined;
}

/** A line's code: its `//`, `/*` or `#` comment cut off (as the table rule reads lines). */
function codeOf(line: string): string {
  const end = line.search(/\/\/|\/\*|#/);
  return end < 0 ? line : line.slice(0, end);
}

/**
 * The tables of a text of number tables, in order: each run of number rows, named by the
 * declaration on the line above it (or opening it: `int t[] = { 1, 2,`).
 *
 * @example
 * ```ts
 * import { numberTables } from "./_number_tables.ts";
 * numberTables("static const short t[] = {\n  1, 2,\n  3, 4,\n};\n");
 * // [{ name: "t", type: "short", rows: 2, elements: 4 }]
 * ```
 */
export function numberTables(text: string): NumberTable[] {
  const tables: NumberTable[] = [];
  let current: NumberTable | undefined;
  let opener = "";
  for (let start = 0; start <= text.length;) {
    const stop = text.indexOf("\n", start);
    const line = text.slice(start, stop < 0 ? text.length : stop);
    start = stop < 0 ? text.length + 1 : stop + 1;
    const code = codeOf(line);
    if (!code.trim()) continue;
    if (isNumberRow(code)) {
      if (!current) {
        current = { ...declared(opener), rows: 0, elements: 0 };
        // Numbers on the declaration's own line, after its `=` and its last opening bracket.
        const value = opener.slice(opener.lastIndexOf("=") + 1);
        const open = Math.max(
          value.lastIndexOf("{"),
          value.lastIndexOf("["),
          value.lastIndexOf("("),
        );
        if (opener.includes("=") && open >= 0) current.elements += numbersIn(value.slice(open + 1));
        tables.push(current);
      }
      current.rows++;
      current.elements += numbersIn(code);
      continue;
    }
    current = undefined;
    // A bracket alone on its line opens the table declared on the line above (`int t[4] =`, `{`).
    if (!/^[\s=[({]+$/.test(code)) opener = code;
  }
  return tables.map((t) => {
    const { name, type, rows, elements } = t;
    return { ...(name ? { name } : {}), ...(type ? { type } : {}), rows, elements };
  });
}

function numbersIn(code: string): number {
  return code.match(NUMBER)?.length ?? 0;
}
