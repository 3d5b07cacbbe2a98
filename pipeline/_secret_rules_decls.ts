/**
 * Values declared in code with a type or a declarator between the name and the value
 * (`secret_rules.ts` is the public face, and reads each value found here as the value of a plain
 * `const NAME = "…"`): Go's `const AdminPassword string = "…"`, C's `kSecret[] = "…"` and
 * `#define API_KEY "…"`, Rust's `SECRET: &[u8] = b"…"` and `&'static str`, and the calls that only
 * wrap a secret (the AWS CDK's `SecretValue.unsafePlainText("…")`, Pulumi's `Output.secret("…")`).
 *
 * @module
 */

import type { TextHints } from "./_secret_rules_common.ts";
import { namesOf } from "./_secret_rules_names.ts";

/** A declaration's line read as `const NAME = …`, and where its value's quote stands in the text. */
export interface DeclaredLine {
  /** `const NAME = ` and the text from the value's quote to the line's end. */
  line: string;
  /** Where the value's quote is in `line`. */
  from: number;
  /** Where the value's quote is in the text. */
  at: number;
}

/** After a name: Go's type (`string`, `[]byte`) or C's array (`[]`, `[64]`), `=`, a quote next. */
const TYPE_THEN_VALUE = /(?:string|\[\]byte|\[[0-9]{0,4}\])[ \t]{0,16}=[ \t]{0,16}(?=["'`])/y;
/** At a name's `:`: Rust's `&str`, `&'static str` or `&[u8]`, `=`, a string or byte string next. */
const RUST_TYPE =
  /:[ \t]{0,16}&(?:'static[ \t]{1,16})?(?:str|\[u8\])[ \t]{0,16}=[ \t]{0,16}b?(?=")/y;
/** Before a name: `#define` at its line's start. */
const DEFINE_BEFORE = /^[ \t]{0,16}#[ \t]{0,16}define[ \t]{1,16}$/;
/** Calls whose one argument is a secret written in the clear (the CDK's, Pulumi's). */
const SECRET_CALL = /(?:SecretValue\.(?:unsafePlainText|plainText)|(?:Output|pulumi)\.secret)$/;
/** A name of code (its last identifier) at the end of a line's text. */
const NAME_AT_END = /([A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}$/;

/**
 * The declarations in `text` whose name the name search found ({@linkcode namesOf}) with a type
 * or declarator before the value, each as a `const NAME = …` line.
 *
 * @example
 * ```ts
 * import { declaredLines } from "./_secret_rules_decls.ts";
 * declaredLines('var apiSecret string = "x"\n')[0].line; // 'const apiSecret = "x"'
 * ```
 */
export function declaredLines(text: string, hints?: TextHints): DeclaredLine[] {
  const spots = namesOf(text, hints);
  const out: DeclaredLine[] = [];
  for (const p of [...new Set(spots.declared)].sort((a, b) => a - b)) {
    const lineStart = text.lastIndexOf("\n", p - 1) + 1;
    const before = text.slice(Math.max(lineStart, p - 256), p);
    let at = -1;
    const m = NAME_AT_END.exec(before);
    let name = m?.[1];
    const c = text[p];
    if (c === '"') {
      if (m && DEFINE_BEFORE.test(before.slice(0, m.index))) at = p;
    } else if (c === "(") {
      if (SECRET_CALL.test(before)) {
        const open = /\([ \t]{0,16}(?=["'`])/y;
        open.lastIndex = p;
        if (open.exec(text)) at = open.lastIndex;
        name = "secret";
      }
    } else {
      TYPE_THEN_VALUE.lastIndex = p;
      if (TYPE_THEN_VALUE.exec(text)) at = TYPE_THEN_VALUE.lastIndex;
    }
    if (at >= 0 && name) out.push(lineOf(text, name, at));
  }
  for (const p of spots.operators) {
    if (text.charCodeAt(p) !== 58) continue; // :
    RUST_TYPE.lastIndex = p;
    if (!RUST_TYPE.exec(text)) continue;
    const name = NAME_AT_END.exec(text.slice(Math.max(0, p - 128), p))?.[1];
    if (name) out.push(lineOf(text, name, RUST_TYPE.lastIndex));
  }
  return out;
}

/**
 * Names and values that a format writes apart, each value's group `v` and its name's `n`: a
 * property list's `<key>…</key>` and `<string>…</string>`, an Android manifest's `<meta-data
 * android:name=… android:value=…>`, Gradle's `buildConfigField(type, NAME, "\"…\"")` and
 * `resValue("string", name, "…")`. Each looked for only in a text that holds its own word.
 */
const APART: Array<{ word: string; pattern: RegExp }> = [
  {
    word: "</key>",
    pattern: /<key>(?<n>[^<\r\n]{1,128})<\/key>\s{0,64}<string>(?<v>[^<"\r\n]{1,512})<\/string>/g,
  },
  {
    word: "android:value",
    pattern:
      /android:name="(?<n>[^"\r\n]{1,128})"[ \t\r\n]{1,64}android:value="(?<v>[^"\r\n]{1,512})"/g,
  },
  {
    word: "buildConfigField",
    pattern:
      /buildConfigField\(?[ \t]{0,16}"[^"\r\n]{1,64}"[ \t]{0,16},[ \t]{0,16}"(?<n>[A-Za-z0-9_]{1,64})"[ \t]{0,16},[ \t]{0,16}(?:'"(?<v>[^"'\r\n]{1,512})"'|"\\"(?<w>[^"\\\r\n]{1,512})\\"")/g,
  },
  {
    word: "resValue",
    pattern:
      /resValue\(?[ \t]{0,16}"string"[ \t]{0,16},[ \t]{0,16}"(?<n>[A-Za-z0-9_.]{1,64})"[ \t]{0,16},[ \t]{0,16}"(?<v>[^"\\\r\n]{1,512})"/g,
  },
];
/** Before an ARM template parameter's `"value"`: its name and `{` (`"adminPassword": {`). */
const PARAMETER_BEFORE = /"(?<n>[A-Za-z0-9_.-]{1,64})"\s{0,16}:\s{0,16}\{\s{0,64}$/;
/** After a `"value"`: its string (group `v`). */
const PARAMETER_VALUE = /"value"\s{0,16}:\s{0,16}"(?<v>[^"\\\r\n]{1,512})"/y;
/** An INI section of secrets (`[secrets]`, `[credentials]`) and its lines' `key = value`. */
const SECRET_SECTION = /^[ \t]{0,16}\[(?:secrets|credentials)\][ \t]{0,16}\r?$/gm;
const SECTION_LINE =
  /^[ \t]{0,16}(?<n>[A-Za-z0-9_.-]{1,64})[ \t]{0,16}[=:][ \t]{0,16}(?<v>[^\s"'#;][^\r\n]{0,511}?)[ \t]{0,16}\r?$/my;

/**
 * The values that formats write apart from their names ({@linkcode APART}, an ARM template's
 * parameters, INI sections of secrets), each as a `const NAME = "…"` line (a section's line as
 * `NAME_secret = …`, unquoted as written).
 *
 * @example
 * ```ts
 * import { apartLines } from "./_secret_rules_decls.ts";
 * apartLines("<key>APISecret</key><string>x</string>")[0].line; // 'const APISecret = "x"\n'
 * ```
 */
export function apartLines(text: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (const { word, pattern } of APART) {
    if (!text.includes(word)) continue;
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const name = m.groups!.n.replace(/[^A-Za-z0-9_]/g, "_");
      const group = m.groups!.v !== undefined ? "v" : "w";
      const value = m.groups![group];
      const at = m.index! + m[0].lastIndexOf(value);
      out.push(valueLine(name, value, at));
    }
  }
  for (let i = text.indexOf('"value"'); i >= 0; i = text.indexOf('"value"', i + 7)) {
    const n = PARAMETER_BEFORE.exec(text.slice(Math.max(0, i - 160), i))?.groups!.n;
    if (!n) continue;
    PARAMETER_VALUE.lastIndex = i;
    const v = PARAMETER_VALUE.exec(text)?.groups!.v;
    if (v) {
      out.push(
        valueLine(n.replace(/[^A-Za-z0-9_]/g, "_"), v, PARAMETER_VALUE.lastIndex - 1 - v.length),
      );
    }
  }
  if (text.includes("[secrets]") || text.includes("[credentials]")) {
    SECRET_SECTION.lastIndex = 0;
    for (const section of text.matchAll(SECRET_SECTION)) {
      let at = text.indexOf("\n", section.index!) + 1;
      while (at > 0 && at < text.length && text[at] !== "[") {
        SECTION_LINE.lastIndex = at;
        const m = SECTION_LINE.exec(text);
        if (m) {
          const head = `${m.groups!.n.replace(/[^A-Za-z0-9_]/g, "_")}_secret = `;
          const v = m.groups!.v;
          out.push({
            line: head + v + "\n",
            from: head.length,
            at: at + m[0].indexOf(v, m[0].search(/[=:]/)),
          });
        }
        at = text.indexOf("\n", at) + 1;
      }
    }
  }
  return out;
}

/** The line `const NAME = "VALUE"` for a value at `at` written without its own quotes. */
function valueLine(name: string, value: string, at: number): DeclaredLine {
  const head = `const ${name} = "`;
  return { line: head + value + '"\n', from: head.length, at };
}

/** The line `const NAME = ` and the text from `at` (a value's quote) to its line's end. */
function lineOf(text: string, name: string, at: number): DeclaredLine {
  let end = text.indexOf("\n", at);
  if (end < 0 || end - at > 4096) end = Math.min(text.length, at + 4096);
  const head = `const ${name} = `;
  return { line: head + text.slice(at, end) + "\n", from: head.length, at };
}
