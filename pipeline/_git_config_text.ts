/**
 * The settings of a git config file, read as git reads them (`config.c`): `[section]`,
 * `[section "subsection"]` (escapes kept literally) and the old `[section.subsection]` headers, a
 * setting after a header on its line, names of letters, digits and `-`, a value's quotes,
 * escapes (`\t`, `\n`, `\b`, `\"`, `\\`), comments (`#`, `;`) outside quotes, a `\` at a line's end
 * joining the next, blanks inside a value kept as one space each and trailing ones dropped. A line
 * git refuses ends the reading there (git fails on the whole file, and says so itself).
 *
 * @module
 */

/** One setting: its section and key lower-cased, the subsection as written (undefined: none). */
export interface GitSetting {
  section: string;
  subsection?: string;
  key: string;
  /** Undefined for a bare name (`[core] bare`: true). */
  value?: string;
}

/**
 * The settings of config text `text`, in order.
 *
 * @example
 * ```ts
 * import { gitSettings } from "./_git_config_text.ts";
 * gitSettings('[remote "origin"]\n\turl = "https://a.example/x" # mine\n');
 * // [{ section: "remote", subsection: "origin", key: "url", value: "https://a.example/x" }]
 * ```
 */
export function gitSettings(text: string): GitSetting[] {
  const reader = { text: text.replace(/\r\n/g, "\n"), at: text.startsWith("\ufeff") ? 1 : 0 };
  const settings: GitSetting[] = [];
  let section: { section: string; subsection?: string } | undefined;
  while (reader.at < reader.text.length) {
    const c = reader.text[reader.at];
    if (BLANK.test(c) || c === "\n") reader.at++;
    else if (c === "#" || c === ";") skipLine(reader);
    else if (c === "[") {
      section = header(reader);
      if (!section) break;
    } else if (/[A-Za-z]/.test(c) && section) {
      const setting = keyAndValue(reader);
      if (!setting) break;
      settings.push({ ...section, ...setting });
    } else break;
  }
  return settings;
}

/** git's `isspace` (ASCII only), besides the line end. */
const BLANK = /[ \t\r\v\f]/;

/** A header's name, a setting's name (`y`: read where the reader is). */
const HEADER_NAME = /\[([A-Za-z0-9.-]*)/y;
const KEY_NAME = /[A-Za-z][A-Za-z0-9-]*/y;

interface Reader {
  text: string;
  at: number;
}

function skipLine(reader: Reader): void {
  const end = reader.text.indexOf("\n", reader.at);
  reader.at = end < 0 ? reader.text.length : end + 1;
}

/** A `[...]` header, the reader past its `]`; undefined when git refuses it. */
function header(reader: Reader): { section: string; subsection?: string } | undefined {
  HEADER_NAME.lastIndex = reader.at;
  const name = HEADER_NAME.exec(reader.text);
  if (!name) return undefined;
  reader.at += name[0].length;
  const lower = name[1].toLowerCase();
  if (reader.text[reader.at] === "]") {
    reader.at++;
    const dot = lower.indexOf(".");
    // `[remote.Origin]`: the old form, all of it lower-cased.
    return dot < 0 ? { section: lower } : {
      section: lower.slice(0, dot),
      subsection: lower.slice(dot + 1),
    };
  }
  while (BLANK.test(reader.text[reader.at] ?? "")) reader.at++;
  if (reader.text[reader.at] !== '"') return undefined;
  let subsection = "";
  for (reader.at++; reader.at < reader.text.length; reader.at++) {
    let c = reader.text[reader.at];
    if (c === "\n") return undefined;
    if (c === '"') break;
    if (c === "\\") c = reader.text[++reader.at] ?? "";
    if (c === "\n" || c === "") return undefined;
    subsection += c;
  }
  if (reader.text[reader.at + 1] !== "]") return undefined;
  reader.at += 2;
  return { section: lower, subsection };
}

/** A `name = value` (or a bare `name`), the reader past its line; undefined when git refuses it. */
function keyAndValue(reader: Reader): { key: string; value?: string } | undefined {
  KEY_NAME.lastIndex = reader.at;
  const name = KEY_NAME.exec(reader.text)!;
  reader.at += name[0].length;
  const key = name[0].toLowerCase();
  while (/[ \t]/.test(reader.text[reader.at] ?? "")) reader.at++;
  const next = reader.text[reader.at];
  if (next === undefined || next === "\n") return { key };
  if (next !== "=") return undefined;
  reader.at++;
  const value = settingValue(reader);
  return value === undefined ? undefined : { key, value };
}

/** git's `parse_value`: the value up to its line's end (joined lines too), the reader past it. */
function settingValue(reader: Reader): string | undefined {
  let value = "";
  let quoted = false;
  let comment = false;
  let blanks = 0;
  const escapes: Record<string, string> = { "\n": "", t: "\t", b: "\b", n: "\n", "\\": "\\" };
  escapes['"'] = '"';
  while (true) {
    const c = reader.text[reader.at++] ?? "\n";
    if (c === "\n") return quoted ? undefined : value;
    if (comment) continue;
    if (BLANK.test(c) && !quoted) {
      if (value) blanks++;
      continue;
    }
    if (!quoted && (c === ";" || c === "#")) {
      comment = true;
      continue;
    }
    value += " ".repeat(blanks);
    blanks = 0;
    if (c === "\\") {
      const escaped = escapes[reader.text[reader.at++] ?? "\n"];
      if (escaped === undefined) return undefined;
      value += escaped;
    } else if (c === '"') quoted = !quoted;
    else value += c;
  }
}
