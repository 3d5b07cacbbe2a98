/**
 * Values declared in code with a type or a declarator between the name and the value
 * (`secret_rules.ts` is the public face, and reads each value found here as the value of a plain
 * `const NAME = "…"`): Go's `const AdminPassword string = "…"`, C's `kSecret[] = "…"` and
 * `#define API_KEY "…"`, Rust's `SECRET: &[u8] = b"…"` and `&'static str`, and the calls that only
 * wrap a secret (the AWS CDK's `SecretValue.unsafePlainText("…")`, Python's `unsafe_plain_text`, Pulumi's `Output.secret("…")`);
 * and values that a format writes apart from their names, each read in its own files (a property
 * list's `<key>`/`<string>`, Android's `<meta-data>`, Gradle's `buildConfigField`, an ARM
 * parameter's `"value"`, a NoEcho parameter's `Default:`, an INI section of secrets).
 *
 * @module
 */

import { indexNear, lastIndexNear, type TextHints } from "./_secret_rules_common.ts";
import { namesOf } from "./_secret_rules_names.ts";
import { tableLines } from "./_secret_rules_tables.ts";
import { notebookLines } from "./_secret_rules_notebooks.ts";

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
/**
 * At a name's `:`: a Rust type of text or bytes (`&str`, `&'static str`, `&[u8]`, `[u8; 32]`,
 * `&[u8; 24]`, `String`) or a lazy cell of one (`Lazy<String>`, `once_cell::sync::Lazy<&str>`,
 * `LazyLock<…>`, `OnceLock<…>`), `=` (its value may start the next line), then a string or byte
 * string (`b"…"`, `*b"…"`, a raw one: `r#"…"#`), or a lazy cell's closure that returns one
 * (`Lazy::new(|| "…".to_string())`, `LazyLock::new(|| String::from("…"))`).
 */
const RUST_TYPE =
  /:[ \t]{0,16}(?:&(?:'static[ \t]{1,16})?(?:str|\[u8(?:;[ \t]{0,4}[0-9]{1,4})?\])|\[u8;[ \t]{0,4}[0-9]{1,4}\]|String|(?:[a-z_]{1,16}::){0,3}(?:Lazy|LazyLock|OnceLock|OnceCell)<[^<>=\r\n]{1,64}>)[ \t]{0,16}=\s{0,64}(?:\*?b?r#{0,3}|\*?b|(?:[a-z_]{1,16}::){0,3}(?:Lazy|LazyLock)::new\(\|\|[ \t]{0,16}(?:String::from\()?)?(?=")/y;
/**
 * At a name's `:`: a type annotation that is not Rust's (Python's `str`, `Optional[str]`,
 * `str | None`, TypeScript's `string`, KCL's `str`; Ada's and VHDL's `constant String`), `=` or
 * `:=` (Ada's, VHDL's, Pascal's; not `==`, `=>`), then a quote; or CUE's default after a
 * disjunction (`string | *"…"`).
 */
const ANNOTATED =
  /:[ \t]{0,16}(?:(?:constant|CONSTANT|Constant|aliased)[ \t]{1,16})?[A-Za-z_][A-Za-z0-9_.]{0,63}(?:\[[A-Za-z0-9_.[\] |]{1,64}\])?(?:[ \t]{0,4}\|[ \t]{0,4}[A-Za-z_][A-Za-z0-9_.]{0,63}(?:\[[A-Za-z0-9_.[\] |]{1,64}\])?){0,4}[ \t]{0,16}(?::?=(?![=>~])|\|[ \t]{0,4}\*)[ \t]{0,16}(?=["'`])/y;
/** At a name's `|`: Nickel's contract (`password | String = "…"`), `=`, then a quote. */
const CONTRACT = /\|[ \t]{0,16}[A-Z][A-Za-z0-9_.]{0,63}[ \t]{0,16}=(?![=>])[ \t]{0,16}(?=["'])/y;
/** Before a name: `#define` at its line's start (the text before the name, its last 64 characters). */
const DEFINE_BEFORE = /(?:^|\n)[ \t]{0,16}#[ \t]{0,16}define[ \t]{1,16}$/;
/**
 * Calls whose one argument is a secret written in the clear (the CDK's, Pulumi's; fastlane's
 * `git_basic_authorization`, base64 of `user:password`, read under an `auth` name), and setters
 * of a key, a token or a secret (`setApiKey("…")`, `withAccessToken("…")`, `setClientSecret`).
 */
const SECRET_CALL =
  /(?:SecretValue\.(?:unsafePlainText|plainText|unsafe_plain_text|plain_text)|(?:Output|pulumi)\.secret|(?<auth>basic_authorization)|(?<setter>(?:^|[^A-Za-z0-9_])(?:set|with)(?:Api|API|Access|Auth|Client|Secret|Private|Account|Master|License)?(?:Key|Token|Secret)))$/;
/** A quoted literal (1 to 1024 characters, on one line). */
const LITERAL = /(["'`])[^"'`\r\n\\]{1,1024}\1/y;
/** A call's `(` and blanks before its argument's quote. */
const CALL_OPEN = /\([ \t]{0,16}(?=["'`])/y;

/**
 * The name of code (an identifier of up to 128 characters) that ends before `p` and the blanks
 * after it, and where it starts; read backwards a bounded way (a pattern with `$` would be tried
 * from every character before it).
 */
function nameBefore(text: string, p: number): { name: string; start: number } | undefined {
  let i = p;
  while (i > 0 && p - i < 16 && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
  const end = i;
  while (i > 0 && end - i < 128 && /[A-Za-z0-9_]/.test(text[i - 1])) i--;
  if (i === end || /[0-9]/.test(text[i])) return undefined;
  return { name: text.slice(i, end), start: i };
}

/**
 * The declarations in `text` whose name the name search found ({@linkcode namesOf}) with a type
 * or declarator before the value, each as a `const NAME = …` line.
 *
 * @example
 * ```ts
 * import { declaredLines } from "./_secret_rules_decls.ts";
 * declaredLines('var apiSecret string = "x"\n')[0].line; // 'const apiSecret = "x"\n'
 * ```
 */
export function declaredLines(text: string, hints?: TextHints): DeclaredLine[] {
  const spots = namesOf(text, hints);
  const out: DeclaredLine[] = [];
  for (const p of [...new Set(spots.declared)].sort((a, b) => a - b)) {
    const c = text[p];
    // Most spots are code (`key in d`, `get_token(`): a type starts with `s` or `[`, the calls end
    // in `t` or `n` (`plainText`, `secret`, `basic_authorization`), a character test before any
    // pattern (about 2% of the stdlib's scan)
    // (Objective-C's string literal `@"…"` after `#define NAME`)
    const objc = c === "@" && text[p + 1] === '"';
    if (c === "(" ? !/[tny]/.test(text[p - 1]) : c !== '"' && c !== "[" && c !== "s" && !objc) {
      continue;
    }
    let at = -1;
    let name: string | undefined = "secret";
    if (c === "(") {
      CALL_OPEN.lastIndex = p;
      const call = SECRET_CALL.exec(text.slice(Math.max(0, p - 40), p));
      if (call && CALL_OPEN.exec(text)) at = CALL_OPEN.lastIndex;
      if (call?.groups?.auth) name = "basic_auth";
      // a setter's one argument (`$mollie->setApiKey("…")`, `.withAccessToken("…")`): its name's,
      // the literal alone read (a long line of setters is read once)
      if (call?.groups?.setter && at >= 0) {
        LITERAL.lastIndex = at;
        const literal = LITERAL.exec(text)?.[0];
        if (literal) {
          const head = `const ${call.groups.setter.replace(/^[^A-Za-z]?(?:set|with)/, "")} = `;
          out.push({ line: head + literal + "\n", from: head.length, at });
        }
        continue;
      }
    } else if (objc) {
      const n = nameBefore(text, p);
      if (n && DEFINE_BEFORE.test(text.slice(Math.max(0, n.start - 64), n.start))) {
        [at, name] = [p + 1, n.name];
      }
    } else if (c === '"') {
      const n = nameBefore(text, p) ?? quotedName(text, p);
      const define = n && DEFINE_BEFORE.test(text.slice(Math.max(0, n.start - 64), n.start));
      // (Yarn 1's `.yarnrc` writes `"NAME" "VALUE"`, each line a name and its value)
      const rc = n && text[p - 1] !== '"' && text[n.start - 1] === '"' &&
        lineStartsAt(text, n.start - 1);
      if (define || rc) [at, name] = [p, n!.name];
    } else {
      TYPE_THEN_VALUE.lastIndex = p;
      if (TYPE_THEN_VALUE.exec(text)) {
        [at, name] = [TYPE_THEN_VALUE.lastIndex, nameBefore(text, p)?.name];
      }
    }
    if (at >= 0 && name) out.push(lineOf(text, name, at));
  }
  return [...out, ...operatorLines(text, spots.operators), ...contractLines(text, spots.rests)];
}

/**
 * The values after a name at the name search's `=` and `:` spots: SQLCipher's key (`PRAGMA key
 * = '…'`, a `file:` URI's `?key=…`) and typed declarations (`password: str = "…"`).
 */
function operatorLines(text: string, operators: number[]): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (const p of operators) {
    if (text.charCodeAt(p) === 61) {
      // (`=` after a `key` name: SQLCipher's `PRAGMA key = '…'`, a `file:` URI's `?key=…`)
      // (the name a `key` first, then a pragma or a URI before it: the long look last)
      if (!KEY_BEFORE_EQUALS.test(text.slice(Math.max(0, p - 16), p))) continue;
      const before = SQLCIPHER_BEFORE.exec(text.slice(Math.max(0, p - 600), p));
      if (!before) continue;
      SQLCIPHER_VALUE.lastIndex = p;
      const m = SQLCIPHER_VALUE.exec(text);
      // (a URI's key unquoted; a pragma's quoted: `PRAGMA key = :passphrase` is a parameter)
      const group = m?.groups?.v !== undefined ? "v" : before.groups!.uri ? "u" : "";
      if (m && group) {
        out.push(valueLine("db_password", m.groups![group]!, m.indices!.groups![group]![0]));
      }
      continue;
    }
    if (text.charCodeAt(p) !== 58) continue; // :
    RUST_TYPE.lastIndex = ANNOTATED.lastIndex = p;
    const at = RUST_TYPE.exec(text)
      ? RUST_TYPE.lastIndex
      : ANNOTATED.exec(text)
      ? ANNOTATED.lastIndex
      : -1;
    if (at < 0) continue;
    const name = nameBefore(text, p)?.name;
    if (name) out.push(lineOf(text, name, at));
  }
  return out;
}

/** The values of Nickel's contracts (`password | String = "…"`) at the name search's `|` spots. */
function contractLines(text: string, rests: number[]): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (const p of rests) {
    if (text.charCodeAt(p) !== 124) continue; // |
    CONTRACT.lastIndex = p;
    if (!CONTRACT.exec(text)) continue;
    const name = nameBefore(text, p)?.name;
    if (name) out.push(lineOf(text, name, CONTRACT.lastIndex));
  }
  return out;
}

/**
 * Names and values that a format writes apart, each value's group `v` and its name's `n`: a
 * property list's `<key>…</key>` and `<string>…</string>`, an Android manifest's `<meta-data
 * android:name=… android:value=…>`, Gradle's `buildConfigField(type, NAME, "\"…\"")` and
 * `resValue("string", name, "…")`. Each looked for only in a text that holds its own word.
 */
const APART: Array<{
  file: RegExp;
  word: string;
  pattern: RegExp;
  name?: string;
  accept?: (v: string) => boolean;
  /** Only a name with a secret's word is read (a build file's other settings are many). */
  secretName?: boolean;
}> = [
  {
    file: /\.plist$/i,
    word: "</key>",
    pattern: /<key>(?<n>[^<\r\n]{1,128})<\/key>\s{0,64}<string>(?<v>[^<"\r\n]{1,512})<\/string>/g,
  },
  {
    file: /\.xml$/i,
    word: "android:value",
    pattern:
      /android:name="(?<n>[^"\r\n]{1,128})"[ \t\r\n]{1,64}android:value="(?<v>[^"\r\n]{1,512})"/g,
  },
  {
    file: /\.(?:gradle|kts)$/i,
    word: "buildConfigField",
    pattern:
      /buildConfigField\(?[ \t]{0,16}"[^"\r\n]{1,64}"[ \t]{0,16},[ \t]{0,16}"(?<n>[A-Za-z0-9_]{1,64})"[ \t]{0,16},[ \t]{0,16}(?:'"(?<v>[^"'\r\n]{1,512})"'|"\\"(?<w>[^"\\\r\n]{1,512})\\"")/g,
  },
  {
    // Jenkins' job parameters (`<name>API_TOKEN</name>` then `<defaultValue>…`), XML settings'
    // `<name>`/`<value>` pairs (Hadoop's, Maven's properties)
    file: /\.xml$/i,
    word: "</name>",
    pattern:
      /<name>(?<n>[A-Za-z0-9_.-]{1,128})<\/name>\s{0,64}(?:<description>[^<\r\n]{0,256}<\/description>\s{0,64})?<(?<t>defaultValue|value)>(?<v>[^<"\r\n]{1,512})<\/\k<t>>/g,
  },
  {
    // Salesforce's custom metadata records: `<field>Api_Key__c</field>` then
    // `<value xsi:type="xsd:string">…</value>` (a custom field's `__c` is no word of its name)
    file: /\.xml$/i,
    word: "</field>",
    pattern:
      /<field>(?<n>[A-Za-z0-9_.-]{1,128}?)(?:__c)?<\/field>\s{0,64}<value(?:[ \t][^<>\r\n]{0,128})?>(?<v>[^<"\r\n]{1,512})<\/value>/g,
  },
  {
    // an HTML table's row: a cell that names a secret, then the cell of its value (a page, a
    // notebook's HTML output, where each cell may be a JSON string of its own)
    file: /\.(?:html?|ipynb|md|markdown|xml|xhtml)$/i,
    word: "</td>",
    pattern:
      /<t[dh](?:[ \t][^<>\r\n]{0,128})?>(?<n>[A-Za-z0-9_.-]{1,128})<\/t[dh]>(?:[\s",]|\\[nrt]){0,64}<td(?:[ \t][^<>\r\n]{0,128})?>(?:<code>)?(?<v>[^<"\\\r\n]{1,512}?)(?:<\/code>)?<\/td>/g,
    accept: notATypeCell,
  },
  {
    // a Markdown table's row: a cell that names a secret, then the cell of its value (in a code
    // span or not)
    file: /\.(?:md|markdown|mdx)$/i,
    word: "|",
    pattern:
      /^[ \t]{0,16}\|?[ \t]{0,16}`?(?<n>[A-Za-z0-9_.-]{1,128})`?[ \t]{0,16}\|[ \t]{0,16}(?<q>`?)(?<v>[^|`\s\\](?:[^|`\r\n\\]{0,510}[^|`\s\\])?)\k<q>[ \t]{0,16}\|/gm,
    accept: notATypeCell,
  },
  {
    // Postman's API key auth: `"apikey": [{"key": "value", "value": "…"}, {"key": "key", …}]`
    file: /\.json$/i,
    word: '"apikey"',
    pattern:
      /"(?<n>apikey)"\s{0,16}:\s{0,16}\[\s{0,16}(?:\{[^{}[\]]{0,512}\}\s{0,16},\s{0,16}){0,4}\{\s{0,16}"key"\s{0,16}:\s{0,16}"value"\s{0,16},\s{0,16}"value"\s{0,16}:\s{0,16}"(?<v>[^"\\\r\n]{1,512})"/g,
  },
  {
    // Hurl's `[BasicAuth]` section: its line `user: password`
    file: /\.hurl$/i,
    word: "[BasicAuth]",
    pattern:
      /^\[BasicAuth\][ \t]{0,16}\r?\n[ \t]{0,16}[^\s:#]{1,128}[ \t]{0,16}:[ \t]{0,16}(?<v>[^\s#][^\r\n]{0,511}?)[ \t]{0,16}\r?$/gm,
    name: "password",
  },
  {
    // a cookie jar (curl's and wget's `cookies.txt`, Netscape's format): each cookie's value
    file: /cookie[^\/\\]{0,64}$/i,
    word: "\t",
    pattern:
      /^(?:#HttpOnly_)?[^\s#][^\t\r\n]{0,253}\t(?:TRUE|FALSE)\t[^\t\r\n]{1,1024}\t(?:TRUE|FALSE)\t[0-9]{1,20}\t[^\t\r\n]{1,256}\t(?<v>[^\t\r\n]{1,4096}?)\r?$/gm,
    name: "session_token",
  },
  {
    // a server's directive that sets an `Authorization` header (nginx's `proxy_set_header`,
    // Apache's `RequestHeader set`, Caddy's `header_up`, HAProxy's `set-header`)
    file: /\.(?:conf|cfg|htaccess|vcl|caddy)$|(?:^|[\/\\])Caddyfile$/i,
    word: "uthorization",
    pattern:
      /[Aa]uthorization["']?[ \t]{1,16}["']?(?<v>(?:[Bb]earer|[Bb]asic|[Tt]oken)[ \t]{1,4}[^\s"';]{8,4096})/g,
    name: "authorization_token",
  },
  {
    // a server's directive that sets a header under a secret's name to a literal (Apache's
    // `RequestHeader set X-Api-Key "…"`, `Header set`, nginx's `proxy_set_header` and
    // `add_header`, Caddy's `header_up`, HAProxy's `set-header`)
    file: /\.(?:conf|cfg|htaccess|vcl|caddy)$|(?:^|[\/\\])Caddyfile$/i,
    word: "eader",
    secretName: true,
    pattern:
      /(?:(?:Request)?Header[ \t]{1,16}(?:always[ \t]{1,16})?(?:set|append|add|merge)|proxy_set_header|add_header|header_up|set-header)[ \t]{1,16}(?<n>[A-Za-z0-9_-]{1,128})[ \t]{1,16}(?<q>["']?)(?<v>[^"'\s;]{1,4096})\k<q>/g,
  },
  {
    // a name and its value as sibling attributes of a block (Terraform's Helm `set` and
    // `set_sensitive`, `name = "adminPassword"` then `value = "…"`)
    file: /\.(?:tf|hcl|tfvars)$/i,
    word: "value",
    secretName: true,
    pattern:
      /(?<![A-Za-z0-9_])name[ \t]{0,16}=[ \t]{0,16}"(?<n>[^"\r\n]{1,128})"[ \t]{0,16}\r?\n[ \t]{0,64}value[ \t]{0,16}=[ \t]{0,16}"(?<v>[^"\\\r\n]{1,512})"/g,
  },
  {
    // a YAML list's item of a key or name and its value (an ExternalSecret's fake provider's
    // `- key: /db/password` then `value: "…"`, a chart's `- name: adminPassword` then `value:`)
    file: /\.ya?ml$/i,
    word: "value:",
    secretName: true,
    pattern:
      /^[ \t]{0,64}(?:-[ \t]{1,8})?(?:key|name)[ \t]{0,16}:[ \t]{0,16}["']?(?<n>[^"'\s#]{1,128})["']?[ \t]{0,16}\r?\n[ \t]{0,64}value[ \t]{0,16}:[ \t]{0,16}(?<q>["']?)(?<v>[^"'\s#][^"'\r\n#]{0,511}?)\k<q>[ \t]{0,16}\r?$/gm,
  },
  {
    // Caddy's DNS provider and its API token (`dns cloudflare …`)
    file: /\.caddy$|(?:^|[\/\\])Caddyfile$/i,
    word: "dns",
    pattern:
      /^[ \t]{0,32}dns[ \t]{1,16}[a-z0-9_]{2,32}[ \t]{1,16}(?<v>[^\s{}]{16,512})[ \t]{0,16}\r?$/gm,
    name: "dns_api_token",
  },
  {
    // Envoy's secret given inline (`generic_secret:` / `secret:` then `inline_string: "…"`)
    file: /\.ya?ml$/i,
    word: "inline_",
    pattern:
      /^(?<i>[ \t]{0,32})(?:generic_)?secret:[ \t]{0,16}\r?\n(?:\k<i>[ \t]{1,16}[^\r\n]{0,256}\r?\n){0,3}?\k<i>[ \t]{1,32}inline_(?:string|bytes):[ \t]{0,16}(?<q>["']?)(?<v>[^"'\s]{1,4096})\k<q>/gm,
    name: "secret",
  },
  {
    // an Xcode scheme's environment variable (`key = "API_SECRET"` then `value = "…"`, each
    // attribute on a line of its own)
    file: /\.xcscheme$/i,
    secretName: true,
    word: "EnvironmentVariable",
    pattern:
      /\bkey[ \t]{0,4}=[ \t]{0,4}"(?<n>[^"\r\n]{1,128})"\s{0,64}value[ \t]{0,4}=[ \t]{0,4}"(?<v>[^"\r\n]{1,512})"/g,
  },
  {
    // PHP's `var_dump` of an array or an object (a log, a page): `["pass"]=>` (or
    // `["pass":protected]=>`), then `string(14) "…"` on the next line
    file: /\.(?:log|txt|out|html?|md|markdown|rst)$/i,
    word: "]=>",
    secretName: true,
    pattern:
      /\["(?<n>[A-Za-z0-9_.-]{1,128})"(?::[A-Za-z0-9_"\\]{1,128})?\]=>\s{0,64}string\([0-9]{1,6}\)[ \t]{0,4}"(?<v>[^"\r\n]{1,512})"/g,
  },
  {
    // CMake's `set(NAME "…")` (or unquoted: `set(NAME value CACHE STRING "")`)
    file: /(?:^|[\/\\])CMakeLists\.txt$|\.cmake$/i,
    word: "set(",
    secretName: true,
    pattern:
      /\bset\([ \t]{0,16}(?<n>[A-Za-z0-9_]{1,128})[ \t]{1,16}(?:"(?<v>[^"\r\n]{1,512})"|(?<w>[^\s"()$]{1,512}))/gi,
  },
  {
    // Meson's build options: `option('api_token', type : 'string', value : '…')`
    file: /(?:^|[\/\\])meson(?:_options\.txt|\.options)$/i,
    word: "option(",
    secretName: true,
    pattern:
      /\boption\([ \t]{0,16}'(?<n>[^'\r\n]{1,128})'[^)\r\n]{0,256}?\bvalue[ \t]{0,8}:[ \t]{0,8}'(?<v>[^'\r\n]{1,512})'/g,
  },
  {
    file: /\.(?:gradle|kts)$/i,
    word: "resValue",
    pattern:
      /resValue\(?[ \t]{0,16}"string"[ \t]{0,16},[ \t]{0,16}"(?<n>[A-Za-z0-9_.]{1,64})"[ \t]{0,16},[ \t]{0,16}"(?<v>[^"\\\r\n]{1,512})"/g,
  },
];
/**
 * An SQL `CREATE [OR REPLACE] [PERSISTENT | TEMPORARY] SECRET [name] (` (DuckDB's stored
 * credentials), to its option list's `(`.
 */
const CREATE_SECRET =
  /CREATE[ \t]{1,8}(?:OR[ \t]{1,8}REPLACE[ \t]{1,8})?(?:(?:PERSISTENT|TEMPORARY)[ \t]{1,8})?SECRET(?:[ \t]{1,8}(?:IF[ \t]{1,8}NOT[ \t]{1,8}EXISTS[ \t]{1,8})?[\w.]{1,128})?\s{0,16}\(/y;
/** Files that may hold DuckDB's SQL: scripts, Python, R, JavaScript, notebooks, Markdown and reST. */
const DUCKDB_FILE = /\.(?:sql|py|ipynb|r|js|mjs|ts|md|markdown|rst)$|history$/i;
/** One option of its list: a name and a quoted value (`SECRET '…'`, `PASSWORD '…'`). */
const SECRET_OPTION = /(?<![\w'])(?<n>[A-Za-z_]{2,32})[ \t]{1,16}'(?<v>[^'\r\n]{1,1024})'/dg;

/**
 * Each option of a `CREATE SECRET` list that starts at `from` (after its `(`), as
 * `const NAME = "…"` (the names judge them).
 */
function sqlSecretOptions(text: string, from: number): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  let to = indexNear(text, ")", from, 2048);
  if (to < 0) to = Math.min(text.length, from + 2048);
  for (const o of text.slice(from, to).matchAll(SECRET_OPTION)) {
    const [v] = o.indices!.groups!.v;
    out.push(valueLine(o.groups!.n, o.groups!.v, from + v));
  }
  return out;
}

/** SQL scripts, shells' and clients' histories, Markdown and reST pages. */
const SQL_TEXT_FILE = /\.(?:sql|md|markdown|rst)$|history$/i;
/**
 * A settings table's row set by its name: `UPDATE t SET value = '…' WHERE name = '…'` (groups
 * `v`, the value, and `n`, the setting's name; WordPress' `option_value` and `option_name`).
 */
const UPDATE_SETTING =
  /UPDATE[ \t]{1,8}[\w.`"]{1,128}[ \t]{1,8}SET[ \t]{1,8}[`"]?(?:option_)?(?:value|val)[`"]?[ \t]{0,8}=[ \t]{0,8}'(?<v>[^'\r\n]{1,512})'[ \t]{1,8}WHERE[ \t]{1,8}[`"]?(?:option_)?(?:name|key)[`"]?[ \t]{0,8}=[ \t]{0,8}'(?<n>[\w.:-]{1,128})'/dgi;
/** SQLCipher's `ATTACH DATABASE 'x.db' AS x KEY '…'` from its `ATTACH`: the key, group `v`. */
const SQLCIPHER_ATTACH =
  /ATTACH[ \t]{1,8}(?:DATABASE[ \t]{1,8})?(?<f>['"])[^'"\r\n]{1,512}\k<f>[ \t]{1,8}AS[ \t]{1,8}\w{1,64}[ \t]{1,8}KEY[ \t]{1,8}(?<q>['"])(?<v>[^'"\r\n]{1,512})\k<q>/diy;
/**
 * Before a `key` name's `=`: SQLCipher's `PRAGMA [schema.]key` or `rekey` (any case), or a
 * `file:` URI's query up to its `key` (`hexkey`): the last 600 characters before the `=`.
 */
const SQLCIPHER_BEFORE =
  /(?:PRAGMA[ \t]{1,8}(?:\w{1,64}\.)?(?:re)?key[ \t]{0,8}|(?<uri>file:)[^\s'"?#]{1,512}\?(?:[^\s'"#&]{1,64}&){0,8}(?:hex)?key)$/i;
/** A `key` name (`rekey`, `hexkey`) and blanks before an `=` (the last 16 characters). */
const KEY_BEFORE_EQUALS = /(?:^|[^A-Za-z])(?:re|hex)?key[ \t]{0,8}$/i;
/** After that `=`: the key, quoted (`'…'`) or in a URI (group `v`). */
const SQLCIPHER_VALUE =
  /=[ \t]{0,8}(?:(?<q>['"])(?<v>[^'"\r\n]{1,512})\k<q>|(?<u>[^\s&'"#]{1,512}))/dy;

/**
 * A command that sets a named value by position (`dotnet user-secrets set "Smtp:Password" "…"`,
 * `npm config set //host/:_authToken …`, `doppler secrets set NAME …`, `railway variables set`):
 * the name (group `n`) and the value (group `v`), each maybe quoted; read as `const NAME = "…"`.
 */
const SET_COMMAND =
  /(?:set|put)[ \t]{1,4}(?:--secret[ \t]{1,4})?(?<nq>["']?)(?<n>[A-Za-z0-9_.:\/@-]{1,128})\k<nq>[ \t]{1,4}(?<q>["']?)(?<v>[^\s"'`]{1,512})\k<q>(?=[\s;&|)]|$)/dy;
/** The command's word and a blank before its `set ` (the last 14 characters before it). */
const SET_BEFORE = /(?:^|[^\w-])(?:user-secrets|config|secrets|variables)[ \t]{1,4}$/;
/** The command's word and a blank before its `put ` (`etcdctl put`, `consul kv put`). */
const PUT_BEFORE = /(?:^|[^\w-])(?:etcdctl|consul[ \t]{1,4}kv)[ \t]{1,4}$/;
/**
 * A command's `--value` option (group `v`, maybe quoted) whose value a `--name` option on its
 * line names (`aws ssm put-parameter --name /prod/db/password … --value '…'`,
 * `az keyvault secret set --name DbPassword --value "…"`).
 */
const VALUE_OPTION = /--value[ \t=]{1,4}(?<q>["']?)(?<v>[^\s"'`]{1,512})\k<q>(?=[\s;&|)]|$)/dy;
/** A `--name` option on the line before a `--value` (group `n`, the name). */
const NAME_OPTION =
  /--name[ \t=]{1,4}["']?(?<n>[A-Za-z0-9_.:\/@-]{1,128})["']?[ \t][^\r\n]{0,512}$/;
/**
 * Files that hold commands as they are typed: scripts, Markdown and reST pages, CI and task files, notebooks,
 * histories (`.bash_history`), Dockerfiles and make files.
 */
const COMMAND_FILE =
  /\.(?:sh|bash|zsh|fish|ps1|psm1|bat|cmd|md|markdown|mdx|rst|adoc|ya?ml|ipynb|mk)$|(?:^|[\/\\])(?:\.[\w-]{0,16}history|[\w.-]{0,32}_history|Dockerfile[\w.-]{0,32}|Containerfile|[Mm]akefile|[Jj]ustfile|Taskfile[\w.-]{0,16})$/;

/**
 * Whether a table's cell after a secret's name may be its value: not letters alone, which in a
 * table of parameters is the name's type (`securestring`, `string`, `boolean`).
 */
function notATypeCell(value: string): boolean {
  return !/^[A-Za-z]+$/.test(value);
}

/**
 * The name of an ARM template parameter whose `{` stands before the `"value"` at `i`
 * (`"adminPassword": {`), read backwards a bounded way.
 */
function parameterBefore(text: string, i: number): string | undefined {
  const blank = (k: number, n: number) => {
    while (k > 0 && n-- > 0 && /\s/.test(text[k - 1])) k--;
    return k;
  };
  let k = blank(i, 64);
  if (text[k - 1] !== "{") return undefined;
  k = blank(k - 1, 16);
  if (text[k - 1] !== ":") return undefined;
  k = blank(k - 1, 16);
  if (text[k - 1] !== '"') return undefined;
  const end = k - 1;
  k = end;
  while (k > 0 && end - k < 64 && /[A-Za-z0-9_.-]/.test(text[k - 1])) k--;
  return k < end && text[k - 1] === '"' ? text.slice(k, end) : undefined;
}
/** After a `"value"`: its string (group `v`). */
const PARAMETER_VALUE = /"value"\s{0,16}:\s{0,16}"(?<v>[^"\\\r\n]{1,512})"/y;
/** An INI section of secrets (`[secrets]`, `[credentials]`) and its lines' `key = value`. */
const SECRET_SECTION = /^[ \t]{0,16}\[(?:secrets|credentials)\][ \t]{0,16}\r?$/gm;
/**
 * A line of such a section: a name with no secret's word (the name rules read those already) and
 * one token as its value, no blank nor a mark of code, a URL or a command in it.
 */
const SECTION_LINE =
  /^[ \t]{0,16}(?<n>[A-Za-z0-9_.-]{1,64})[ \t]{0,16}[=:][ \t]{0,16}(?<v>[^\s"'`#;:/\\(){}<>=,$[\]]{6,512})[ \t]{0,16}\r?$/my;
/** A name's secret words, in any case: its line is the name rules'. */
const SECRET_WORD = /key|token|secret|pass|pw|auth|credential|bearer/i;

/**
 * The values that formats write apart from their names ({@linkcode APART}, an ARM template's
 * parameters, INI sections of secrets), each as a `const NAME = "…"` line (a section's line as
 * `NAME_secret = …`, unquoted as written). Each format is read only in its files, by `path`'s
 * name: a search of its word in every text would cost the scan more than its finds are worth.
 *
 * @example
 * ```ts
 * import { apartLines } from "./_secret_rules_decls.ts";
 * apartLines("<key>APISecret</key><string>x</string>", "Info.plist")[0].line; // 'const APISecret = "x"\n'
 * ```
 */
export function apartLines(text: string, path: string): DeclaredLine[] {
  const out: DeclaredLine[] = [...tableLines(text, path), ...notebookLines(text, path)];
  for (const { file, word, pattern, name: fixed, accept, secretName } of APART) {
    if (!file.test(path) || !text.includes(word)) continue;
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      if (secretName && !SECRET_WORD.test(m.groups!.n)) continue;
      const name = fixed ?? m.groups!.n.replace(/[^A-Za-z0-9_]/g, "_");
      const group = m.groups!.v !== undefined ? "v" : "w";
      const value = m.groups![group];
      if (accept && !accept(value)) continue;
      const at = m.index! + m[0].lastIndexOf(value);
      out.push(valueLine(name, value, at));
    }
  }
  out.push(...commandLines(text, path));
  const json = /\.json$/i.test(path);
  for (let i = json ? text.indexOf('"value"') : -1; i >= 0; i = text.indexOf('"value"', i + 7)) {
    const n = parameterBefore(text, i);
    if (!n) continue;
    PARAMETER_VALUE.lastIndex = i;
    const v = PARAMETER_VALUE.exec(text)?.groups?.v;
    if (v) {
      out.push(
        valueLine(n.replace(/[^A-Za-z0-9_]/g, "_"), v, PARAMETER_VALUE.lastIndex - 1 - v.length),
      );
    }
  }
  if (/\.(?:ya?ml|template)$/i.test(path) && text.includes("NoEcho:")) {
    out.push(...noEchoDefaults(text));
  }
  if (/\.ya?ml$/i.test(path) && text.includes("default:")) out.push(...parameterDefaults(text));
  return [...out, ...iniSectionLines(text, path)];
}

/**
 * The values of commands that set a secret apart from any `=`: `… set NAME VALUE` in files of
 * typed commands, DuckDB's `CREATE SECRET` and SQLCipher's `ATTACH … KEY '…'` in SQL's files.
 */
function commandLines(text: string, path: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  if (COMMAND_FILE.test(path)) {
    // (from each `set ` and `put `, the command's word checked before it: one search each, not
    // one per word)
    for (const [word, before] of [["set ", SET_BEFORE], ["put ", PUT_BEFORE]] as const) {
      for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 4)) {
        if (!before.test(text.slice(Math.max(0, i - 14), i))) continue;
        SET_COMMAND.lastIndex = i;
        const m = SET_COMMAND.exec(text);
        if (!m) continue;
        const [at] = m.indices!.groups!.v;
        out.push(valueLine(m.groups!.n.replace(/[^A-Za-z0-9_]/g, "_"), m.groups!.v, at));
      }
    }
    out.push(...valueOptions(text));
  }
  // DuckDB's `CREATE SECRET`, in the files that may hold its SQL
  if (DUCKDB_FILE.test(path) && text.includes("CREATE")) {
    for (let i = text.indexOf("CREATE"); i >= 0; i = text.indexOf("CREATE", i + 6)) {
      CREATE_SECRET.lastIndex = i;
      if (CREATE_SECRET.exec(text)) out.push(...sqlSecretOptions(text, CREATE_SECRET.lastIndex));
    }
  }
  // SQLCipher's `ATTACH … KEY '…'` in SQL scripts, histories and pages, and a settings table's
  // row set by its name in SQL files (in pages, `update` is a word: the search cost a scan of
  // tldr's pages 5%)
  if (SQL_TEXT_FILE.test(path)) {
    if (/\.sql$/i.test(path) && (text.includes("UPDATE") || text.includes("update"))) {
      UPDATE_SETTING.lastIndex = 0;
      for (const m of text.matchAll(UPDATE_SETTING)) {
        out.push(
          valueLine(
            m.groups!.n.replace(/[^A-Za-z0-9_]/g, "_"),
            m.groups!.v,
            m.indices!.groups!.v[0],
          ),
        );
      }
    }
    for (let i = text.indexOf("ATTACH"); i >= 0; i = text.indexOf("ATTACH", i + 6)) {
      SQLCIPHER_ATTACH.lastIndex = i;
      const m = SQLCIPHER_ATTACH.exec(text);
      if (m) out.push(valueLine("db_password", m.groups!.v, m.indices!.groups!.v[0]));
    }
  }
  return out;
}

/** The `--value` of each command line whose `--name` names a secret ({@linkcode VALUE_OPTION}). */
function valueOptions(text: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (let i = text.indexOf("--value"); i >= 0; i = text.indexOf("--value", i + 7)) {
    VALUE_OPTION.lastIndex = i;
    const m = VALUE_OPTION.exec(text);
    if (!m) continue;
    const before = text.slice(Math.max(0, i - 512), i);
    const line = before.slice(before.lastIndexOf("\n") + 1);
    const name = NAME_OPTION.exec(line)?.groups?.n;
    if (!name) continue;
    const [at] = m.indices!.groups!.v;
    out.push(valueLine(name.replace(/[^A-Za-z0-9_]/g, "_"), m.groups!.v, at));
  }
  return out;
}

/** The values of an INI file's `[secrets]` or `[credentials]` section, each under its name. */
function iniSectionLines(text: string, path: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  const ini = INI_FILE.test(path);
  if (ini && (text.includes("[secrets]") || text.includes("[credentials]"))) {
    SECRET_SECTION.lastIndex = 0;
    for (const section of text.matchAll(SECRET_SECTION)) {
      let at = text.indexOf("\n", section.index!) + 1;
      while (at > 0 && at < text.length && text[at] !== "[") {
        SECTION_LINE.lastIndex = at;
        const m = SECTION_LINE.exec(text);
        if (m && !SECRET_WORD.test(m.groups!.n)) {
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

/**
 * The last identifier of a quoted name that ends (its closing quote, then blanks) before `p`
 * (`"//registry.yarnpkg.com/:_authToken" "…"`), and where the name's text starts.
 */
function quotedName(text: string, p: number): { name: string; start: number } | undefined {
  let i = p;
  while (i > 0 && p - i < 16 && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
  if (i === p || text[i - 1] !== '"') return undefined;
  const end = i - 1;
  let k = end;
  while (k > 0 && end - k < 256 && /[A-Za-z0-9_.:\/@-]/.test(text[k - 1])) k--;
  let j = end;
  while (j > k && end - j < 128 && /[A-Za-z0-9_]/.test(text[j - 1])) j--;
  while (j < end && /[0-9]/.test(text[j])) j++;
  const name = text.slice(j, end);
  return name ? { name, start: k } : undefined;
}

/** Whether `at` starts its line (an indent before it at most). */
function lineStartsAt(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && at - i < 64 && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
  return i === 0 || text[i - 1] === "\n";
}

/**
 * A CloudFormation parameter that `NoEcho: true` marks secret: its `Default:` at the same indent
 * within 1 KB before or after, quoted or not (group `v`).
 */
const NO_ECHO_DEFAULT =
  /^(?<indent>[ \t]{1,32})Default:[ \t]{1,16}(?<q>["']?)(?<v>[^\s"'#][^\r\n"']{0,255}?)\k<q>[ \t]{0,16}\r?$/gm;
function noEchoDefaults(text: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (let i = text.indexOf("NoEcho:"); i >= 0; i = text.indexOf("NoEcho:", i + 7)) {
    if (!/^[ \t]{0,16}(?:true|"true"|'true')/.test(text.slice(i + 7, i + 32))) continue;
    let lineStart = i;
    while (lineStart > 0 && i - lineStart < 64 && /[ \t]/.test(text[lineStart - 1])) lineStart--;
    if (lineStart > 0 && text[lineStart - 1] !== "\n") continue;
    const indent = text.slice(lineStart, i);
    // The lines around it, 1 KB each way (from a line's start: a `^` matches there)
    let from = Math.max(0, lineStart - 1024);
    if (from > 0) from += text.slice(from, lineStart).indexOf("\n") + 1;
    let window = text.slice(from, Math.min(text.length, i + 1024));
    if (i + 1024 < text.length) window = window.slice(0, window.lastIndexOf("\n") + 1);
    NO_ECHO_DEFAULT.lastIndex = 0;
    for (const m of window.matchAll(NO_ECHO_DEFAULT)) {
      if (m.groups!.indent !== indent) continue;
      const at = from + m.index! + m[0].indexOf(m.groups!.v, m.groups!.indent.length + 8);
      out.push(valueLine("password", m.groups!.v, at));
    }
  }
  return out;
}

/**
 * A parameter's or an input's `default:` in YAML, some lines under its name (CircleCI's
 * `parameters:`, GitHub Actions' `workflow_dispatch` inputs, OpenAPI's and Ansible's argument
 * specs), or a list's item named by its `name:` (Tekton's and Azure Pipelines' `params`): the
 * name's line with nothing after its `:` (or after the item's name), at most six deeper lines,
 * then `default:` and its value (group `v`), quoted or not.
 */
const PARAMETER_DEFAULT =
  /^(?<i>[ \t]{0,32})(?:-[ \t]{1,8})?(?:(?<n>[A-Za-z0-9_.-]{1,64}):|name:[ \t]{0,16}(?<nq>["']?)(?<m>[A-Za-z0-9_.-]{1,64})\k<nq>)[ \t]{0,16}\r?\n(?:\k<i>[ \t]{1,16}(?!default:)[^\r\n]{0,256}\r?\n){0,6}?\k<i>[ \t]{1,16}default:[ \t]{0,16}(?<q>["']?)(?<v>[^"'\s#]{1,512})\k<q>[ \t]{0,16}\r?$/my;

/**
 * The default of each YAML parameter named for a secret ({@linkcode PARAMETER_DEFAULT}): from each
 * `default:`, the nearest line above it (seven at most) that opens a block holding it.
 */
function parameterDefaults(text: string): DeclaredLine[] {
  const out: DeclaredLine[] = [];
  for (let i = text.indexOf("default:"); i >= 0; i = text.indexOf("default:", i + 8)) {
    // (each search bounded: a long line of `default:`s is read a bounded way from each)
    let lineEnd = indexNear(text, "\n", i, 600);
    if (lineEnd < 0) {
      if (text.length - i > 600) continue;
      lineEnd = text.length;
    }
    let from = i;
    for (let lines = 0; from >= 0 && lines < 8 && i - from < 2048; lines++) {
      if (from === 0) from = -1;
      else {
        from = lastIndexNear(text, "\n", from - 1, 300);
        if (from < 0 && i > 2048) break;
      }
      const window = text.slice(from + 1, lineEnd);
      PARAMETER_DEFAULT.lastIndex = 0;
      const m = PARAMETER_DEFAULT.exec(window);
      if (!m || m.index !== 0 || m[0].length !== window.length) continue;
      const name = m.groups!.n ?? m.groups!.m;
      if (SECRET_WORD.test(name)) {
        const at = from + 1 + m[0].lastIndexOf(m.groups!.v);
        out.push(valueLine(name.replace(/[^A-Za-z0-9_]/g, "_"), m.groups!.v, at));
      }
      break;
    }
  }
  return out;
}

/** A file of INI sections by its name (`.ini`, `.cfg`, `.conf`, `.toml`, a dotfile's rc). */
const INI_FILE =
  /\.(?:ini|cfg|conf|toml)$|(?:^|\/)\.[\w-]{1,64}rc$|(?:^|\/)\.?(?:config|credentials)$/i;

/** The line `const NAME = "VALUE"` for a value at `at` written without its own quotes. */
function valueLine(name: string, value: string, at: number): DeclaredLine {
  const head = `const ${name} = "`;
  return { line: head + value + '"\n', from: head.length, at };
}

/**
 * How much of a line after a value's closing quote its declared line keeps: what may follow a
 * value on its line (a joined literal, `# pragma: allowlist secret`).
 */
const AFTER_VALUE = 256;

/**
 * The line `const NAME = ` and the text from `at` (a value's quote) to its line's end, or to
 * {@linkcode AFTER_VALUE} characters past the value's closing quote: a long line of many
 * declarations (`password: string = 'x' ` over and over) is read a bounded span at each.
 */
function lineOf(text: string, name: string, at: number): DeclaredLine {
  const quote = text[at];
  const close = quote === '"' || quote === "'" || quote === "`"
    ? indexNear(text, quote, at + 1, 4096)
    : -1;
  const span = close < 0 ? 4096 : close + 1 + AFTER_VALUE - at;
  let end = indexNear(text, "\n", at, span);
  if (end < 0) end = Math.min(text.length, at + span);
  const head = `const ${name} = `;
  return { line: head + text.slice(at, end) + "\n", from: head.length, at };
}
