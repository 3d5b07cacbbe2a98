/**
 * The rule for passwords of letters alone (`secret_rules.ts` is the public face): a word such as
 * `swordfish` under a name that can only mean a password (`passphrase`, `DB_PASSWORD`, `pwd`,
 * `pass`), on a line written as data files write one: a JSON member, a YAML key, an INI, `.env` or
 * properties line, an XML element. Elsewhere a word under a password name is a name of code
 * (`password: hashedPassword`, `password = get_password()`), which the other rules leave alone.
 *
 * @module
 */

import type { TextHints } from "./_secret_rules_common.ts";
import { namesOf, PLACEHOLDER_WORD } from "./_secret_rules_names.ts";

/**
 * At a name's operator (`nameSpots`): a name that ends in a password word, the operator, blanks,
 * a quote or none, and 6 to 64 letters. Groups: `n` the name's password word, `nq` its closing
 * quote, `op`, `q` the value's quote, `v`.
 */
export const LETTERS_PASSWORD: RegExp = new RegExp(
  "(?<=(?<n>[Pp]assw(?:or)?ds?|PASSW(?:OR)?DS?|[Pp]assphrase|PASSPHRASE|[Pp]wd|PWD|" +
    "(?<![A-Za-z])(?:pass|Pass|PASS)|(?<=[a-z0-9])Pass|" +
    // a lower case name glued to `pass` (`smtppass`, `dbpass`), not a word that ends so
    "(?<=(?<![A-Za-z0-9_.-])[a-z0-9_]{1,40})(?<!by|com|sur|tres|over|under|multi|mini|render|sub|low|high|band|all|first|second|two|one|single|double|no)pass" +
    ")(?<nq>[\"']?)[ \\t]{0,16})" +
    "(?<op>[:=>])[ \\t]{0,16}(?:(?<=:[ \\t]{1,16})(?:!!str|!unsafe)[ \\t]{1,16})?(?<q>[\"']?)(?<v>[A-Za-z]{6,64})(?![A-Za-z0-9_$.-])",
  "y",
);

/**
 * What may come before a name on its line: an indent, a YAML list's `- `, `export `, a
 * namespace's `NAME:` (Pulumi's `myapp:dbPassword: …`).
 */
const PLAIN_BEFORE = /^[ \t]{0,64}(?:-[ \t]{1,16}|export[ \t]{1,16}|[A-Za-z][\w-]{0,63}:)?$/;
/** After a connection string's or a query's member: its separator, a quote, or the line's end. */
const MEMBER_AFTER = /^(?:[;&"']|\r?\n|$)/;
/**
 * Before a quoted value's name: a declaration of code, its keywords and a type
 * (`public const string `, `private static final String `, `static readonly `, `let `, PHP's `$`).
 */
const DECL_BEFORE =
  /^[ \t]{0,64}(?:(?:(?:export|public|private|protected|internal|static|final|readonly|abstract|override|pub|const|let|var|val)[ \t]{1,16}){1,5}(?:(?:string|String|str)[ \t]{1,16}|char[ \t]{0,16}\*[ \t]{0,16})?|\$)$/;
/** After a declaration's quoted value: a `;`, then a comment or nothing. */
const DECL_AFTER = /^[ \t]{0,64};?[ \t]{0,64}(?:(?:#|\/\/)[^\r\n]{0,1024})?(?:\r?\n|$)/;
/** After a name's `:` in code: a string type, then `=` and a quoted value (`: string = '…'`). */
const TYPED_VALUE =
  /:[ \t]{0,16}(?:string|String|&(?:'static[ \t]{1,16})?str)[ \t]{0,16}=[ \t]{0,16}(["'])([A-Za-z]{6,64})\1/y;
/** Before a quoted JSON name: also the members before it on an inline object (`{"u": "a", `). */
const JSON_BEFORE = /(?:^|[{,])[ \t]{0,64}$/;
/**
 * After a quoted value: the next member of an inline object (`, "user": …`), or separators of a
 * JSON line and then a comment or nothing.
 */
const QUOTED_AFTER =
  /^[ \t]{0,64}(?:,[ \t]{0,64}["']|[,}\]]{0,4}[ \t]{0,64}(?:(?:#|\/\/)[^\r\n]{0,1024})?(?:\r?\n|$))/;
/**
 * Before a name of a literal's member, on one line: the `{` or `,` that opens or separates it
 * (`redis.Options{Addr: "x", Password: "…"}`); a `(` too, its `{` checked by `openedBy`.
 */
const LITERAL_BEFORE = /[{(,][ \t]{0,64}$/;
/** After a literal member's quoted value: the next member's `,` or the literal's close. */
const LITERAL_AFTER = /^[ \t]{0,64}[,})\]]/;
/**
 * A Dockerfile's `ENV` or `ARG` line up to a name: the instruction and the pairs before it
 * (`ENV MYSQL_DATABASE=app MYSQL_ROOT_PASSWORD=…`); or a continued line's indent.
 */
const DOCKER_BEFORE =
  /^[ \t]{0,64}(?:(?:ENV|ARG)[ \t]{1,16})?(?:[A-Za-z_][\w.-]{0,127}=(?:"[^"\r\n]{0,256}"|'[^'\r\n]{0,256}'|[^\s"']{0,256})[ \t]{1,16}){0,16}$/;
/** After a Dockerfile pair's value: the line's other pairs, maybe a `\` that continues it. */
const DOCKER_AFTER =
  /^(?:[ \t]{1,16}[A-Za-z_][\w.-]{0,127}=(?:"[^"\r\n]{0,256}"|'[^'\r\n]{0,256}'|[^\s"']{0,256})){0,16}[ \t]{0,16}\\?[ \t]{0,16}(?:\r?\n|$)/;
/** After an unquoted value: the line's end, or a comment after a blank. */
const PLAIN_AFTER = /^(?:[ \t]{1,64}#[^\r\n]{0,1024})?[ \t]{0,64}(?:\r?\n|$)/;
/**
 * Words of settings, forms and checks written under a password name that are not a password: a
 * rule's (`required`), a field's state (`hidden`), a type (`string`), a stand-in (`secret`).
 */
export const NOT_A_PASSWORD: RegExp = new RegExp(
  "^(?:required|optional|confirmed|confirm|invalid|hidden|visible|masked|encrypted|plaintext|" +
    "sensitive|disabled|enabled|default|unknown|prompt|random|generated|inherit|missing|" +
    "mismatch|expired|forgot|forgotten|string|boolean|number|object|secret|secrets|hashed|" +
    "unset|notset|blank|nopass|nopassword|empty|undefined|null|none|false|true|input|field|" +
    "value|values|label|text|login|signin|signup|private|public|readonly|writeonly)$",
  "i",
);

/**
 * Passwords of 6 to 64 letters under a password name on a data line ({@linkcode LETTERS_PASSWORD}):
 * a YAML key or an INI, `.env` or properties line (the name first on its line, the value last,
 * quoted or not), a JSON member (a quoted name after `{`, `,` or the line's start; a quoted value
 * before `,`, `}` or the line's end), an XML element (`<password>swordfish</password>`). Not a
 * stand-in (`changeme`, `password`, a value holding the name's word), a label (`Password`, a
 * translation's capital), an environment name (`SECRET`), a name of code in camel case unquoted, or
 * a word of forms and checks ({@linkcode NOT_A_PASSWORD}).
 *
 * @example
 * ```ts
 * import { findLetterPasswords } from "./_secret_rules_letters.ts";
 * findLetterPasswords('{"passphrase": "swordfish"}'); // [{ start: 16, end: 25 }]
 * ```
 */
export function findLetterPasswords(
  text: string,
  hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  const kind = fileKind(path);
  for (const at of namesOf(text, hints).operators) {
    if (text.charCodeAt(at) === 58) {
      // A typed declaration (`readonly ADMIN_PASSWORD: string = 'swordfish'`)
      TYPED_VALUE.lastIndex = at;
      const t = TYPED_VALUE.exec(text);
      if (t) {
        const end = at + t[0].length - 1;
        const g = { n: typedWord(text, at), nq: "", op: "=", q: t[1], v: t[2] };
        if (g.n && declaration(text, at, end + 1) && wordLike(g.v, g.n, true)) {
          out.push({ start: end - g.v.length, end });
        }
        continue;
      }
    }
    LETTERS_PASSWORD.lastIndex = at;
    const m = LETTERS_PASSWORD.exec(text);
    if (!m) continue;
    const g = m.groups!;
    const end = at + m[0].length;
    if (g.q && text[end] !== g.q) continue;
    // an element's text counts as quoted: markup holds no code
    const quoted = g.q !== "" || g.op === ">";
    const line = dataLine(text, at, end + g.q.length, g, kind);
    if (!line) continue;
    // (a connection string's member is data, as a quoted value is)
    const asQuoted = quoted || line === "member";
    if (!wordLike(g.v, g.n, asQuoted) && !(!g.q && wordsOfData(g.v, g.n, kind))) continue;
    out.push({ start: end - g.v.length, end });
  }
  return out;
}

/**
 * A file of settings by its name (`.env*`, YAML, INI, TOML, properties, Xcode's `.xcconfig`), where
 * a line's unquoted value is data, never a name of code; or a page of prose (Markdown, reST).
 */
const DATA_FILE =
  /(?:^|\/)\.env(?:\.[\w.-]{1,64})?$|(?:^|\/)\.?(?:gitconfig|hgrc|msmtprc|s3cfg)$|\.(?:ya?ml|ini|cfg|conf|toml|properties|xcconfig|env)$/i;
const PROSE_FILE = /\.(?:md|markdown|mdx|rst|txt)$/i;
/** A Dockerfile (`Dockerfile`, `Dockerfile.dev`, `app.dockerfile`, `Containerfile`). */
const DOCKER_FILE = /(?:^|[\/\\])(?:Dockerfile|Containerfile)(?:\.[\w.-]{1,64})?$|\.dockerfile$/i;

/**
 * The kind of file `path` names, for the letters rule: data, prose, TOML (also data), a
 * Dockerfile (data on its `ENV` and `ARG` lines), or other.
 */
function fileKind(path?: string): "data" | "toml" | "prose" | "docker" | "" {
  if (!path) return "";
  if (/\.toml$/i.test(path)) return "toml";
  if (DOCKER_FILE.test(path)) return "docker";
  return DATA_FILE.test(path) ? "data" : PROSE_FILE.test(path) ? "prose" : "";
}

/**
 * Letters with capitals unquoted under a password name ({@linkcode wordLike} takes them for a name
 * of code): in a settings file, a password whatever its case (`rootPassword: TigerRiverStone`); in
 * prose (a page's `Password: KoelIsCool`), two or more capitalised words joined. Not a stand-in
 * (one that names a secret's word: `jiraToken`), a label or a word of forms ({@linkcode wordLike}'s
 * tests of a quoted value).
 */
function wordsOfData(value: string, word: string, kind: string): boolean {
  // A stand-in that names what it stands for (`password: jiraToken`, `mySecretKey`)
  if (/token|secret|key|passw/i.test(value)) return false;
  if (kind === "data" || kind === "toml" || kind === "docker") return wordLike(value, word, true);
  return kind === "prose" && /^(?:[A-Z][a-z]{1,32}){2,8}$/.test(value) &&
    wordLike(value, word, true);
}

/** Whether the name before `at` and the value ending at `after` make a data file's line. */
function dataLine(
  text: string,
  at: number,
  after: number,
  g: Record<string, string>,
  kind = "",
): boolean | "member" {
  if (g.op === ">") {
    return !g.nq && text.startsWith("</", after) && text[nameStart(text, at) - 1] === "<";
  }
  let start = nameStart(text, at);
  const quoted = text[start - 1] === g.nq && g.nq !== "";
  if (g.nq && !quoted) return false;
  if (quoted) start--;
  let lineStart = start;
  while (lineStart > 0 && lineStart > start - 256 && !/[\r\n]/.test(text[lineStart - 1])) {
    lineStart--;
  }
  const before = text.slice(lineStart, start);
  const rest = text.slice(after, after + 1100);
  // A member of code (`smtp.password = 'x'`); unquoted, a properties key (`spring.db.password`)
  if (g.q && text.slice(start, at).includes(".")) return false;
  if (!g.q) {
    // A member of a connection string or a query (`;Password=…;`, `&password=…"`)
    if (g.op === "=" && /[;&?]/.test(text[start - 1] ?? "") && MEMBER_AFTER.test(rest)) {
      return "member";
    }
    // Unquoted: a YAML key (`: ` then the value) or an INI or `.env` line, the name first
    if (g.op === ":" && !/[ \t]/.test(text[at + 1] ?? "")) return false;
    if (kind === "docker" && g.op === "=" && DOCKER_BEFORE.test(before)) {
      return DOCKER_AFTER.test(rest);
    }
    return PLAIN_BEFORE.test(before) && PLAIN_AFTER.test(rest);
  }
  if (kind === "docker" && g.op === "=" && DOCKER_BEFORE.test(before) && DOCKER_AFTER.test(rest)) {
    return true;
  }
  if (!g.nq && g.op === "=" && DECL_BEFORE.test(before) && DECL_AFTER.test(rest)) return true;
  // (a TOML inline table's member, `db = { user = "app", password = "…" }`, as a JSON object's)
  const json = (g.nq === '"' && g.op === ":") || (kind === "toml" && g.op === "=");
  if (
    (PLAIN_BEFORE.test(before) || (json && JSON_BEFORE.test(before))) && QUOTED_AFTER.test(rest)
  ) return true;
  // A member of a literal written on one line with the others (`redis.Options{Addr: "x",
  // Password: "…"}`, `new Options { Password = "…" }`, `createClient({ password: "…" })`)
  return !g.nq && LITERAL_BEFORE.test(before) && LITERAL_AFTER.test(rest) &&
    openedBy(before) === "{";
}

/**
 * Whether letters `value` under a name whose password word is `word` read as a password written
 * out, quoted: not a placeholder, a label, a word of forms, or the name's own word.
 *
 * @example
 * ```ts
 * import { lettersPassword } from "./_secret_rules_letters.ts";
 * lettersPassword("TigerRiverStone", "password"); // true
 * lettersPassword("required", "password"); // false
 * ```
 */
export function lettersPassword(value: string, word: string): boolean {
  return /^[A-Za-z]{6,64}$/.test(value) && wordLike(value, word, true);
}

/**
 * The bracket that `before` (a line up to a name) leaves open last: `{` for a literal's member
 * (`Options{Addr: "x", `), `(` for a call's named argument (`connect(host="x", `, which stays: a
 * call's keyword is a parameter's name, its letters often a sample), or "" if none.
 */
function openedBy(before: string): string {
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before[i];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "(" || c === "[" || c === "{") {
      if (depth === 0) return c;
      depth--;
    }
  }
  return "";
}

/** Whether the typed name before the `:` at `at` is declared alone on its line, its value last. */
function declaration(text: string, at: number, after: number): boolean {
  const start = nameStart(text, at);
  let lineStart = start;
  while (lineStart > 0 && lineStart > start - 256 && !/[\r\n]/.test(text[lineStart - 1])) {
    lineStart--;
  }
  return DECL_BEFORE.test(text.slice(lineStart, start)) &&
    DECL_AFTER.test(text.slice(after, after + 1100));
}

/** The password word that ends the name before the `:` at `at`, or "" if the name has none. */
function typedWord(text: string, at: number): string {
  const name = text.slice(nameStart(text, at), at);
  return /(?:passw(?:or)?ds?|passphrase|pwd|pass)$/i.exec(name)?.[0] ?? "";
}

/** Where the name that ends before the operator at `at` starts (its quote not included). */
function nameStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && i > at - 16 && /[ \t]/.test(text[i - 1])) i--;
  if (/["']/.test(text[i - 1] ?? "")) i--;
  while (i > 0 && i > at - 128 && /[A-Za-z0-9_.-]/.test(text[i - 1])) i--;
  return i;
}

/** Whether letters `value` under a name whose password word is `word` read as a password. */
function wordLike(value: string, word: string, quoted: boolean): boolean {
  const lower = value.toLowerCase();
  if (PLACEHOLDER_WORD.test(value) || NOT_A_PASSWORD.test(value)) return false;
  // the name's own word inside (`mypassword`, `"pwd": "pwdvalue"`), or a `pass…` word
  if (lower.includes(word.toLowerCase()) || /^pass|passw/.test(lower)) return false;
  // A label or a translation (`Password`, `Kennwort`), an environment name (`SECRET`)
  if (/^[A-Z][a-z]+$/.test(value) || /^[A-Z]+$/.test(value)) return false;
  // Unquoted camel case is a name of code (`hashedPassword`)
  return quoted || !/[A-Z]/.test(value);
}
