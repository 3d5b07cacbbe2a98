/**
 * The rule for a secret whose name is written apart from its value (`secret_rules.ts` is the
 * public face): `ENV NAME value`, `- name: …` then `value: …`, `{"name": …, "value": …}`, XML
 * settings, a call's name and value, `.netrc`.
 *
 * @module
 */

import { LONG_PAIR_VALUE, nameBefore, runEnd, type TextHints } from "./_secret_rules_common.ts";
import { textHints } from "./_secret_rules_hints.ts";
import {
  ENV_PASSWORD_NAME,
  findNamedPasswords,
  findNamedTokens,
  namesOf,
} from "./_secret_rules_names.ts";
import { randomKeyAt } from "./_secret_rules_keys.ts";

/**
 * A name and its value written apart, each form with the substring a text needs for it: Dockerfile's
 * `ENV NAME value`, a YAML list entry (`- name: DB_PASSWORD` then `value: …`, Kubernetes and CI),
 * a JSON one (`{"name": "…", "value": "…"}`, ECS task definitions; `{"key": "…", "value": "…"}`,
 * Postman's collections and environments), XML settings
 * (`<add key="…" value="…"/>`), a call's name and value (`define('DB_PASSWORD', '…')`,
 * `os.getenv("API_KEY", "…")`, `env(…)`, `setdefault(…)`, `Setenv(…)`, `putenv(…)`), `.netrc`
 * (`machine … login … password …`) and NetworkManager's `nmcli … wifi connect SSID password …`. Group `n` is the
 * name; the value starts where the match ends. Each form starts at a literal (a call's at its `(`,
 * its name checked behind it: from the names' letters the search cost twice as much).
 */
export const PAIR_FORMS: Array<{ hints: string[]; pattern: RegExp }> = [
  {
    hints: ["v"],
    pattern:
      /(?:ENV|env|Env)(?<=^[ \t]{0,16}...)[ \t]{1,16}(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})[ \t]{1,16}(?=[^\s=])/gm,
  },
  {
    hints: ["alue:"],
    pattern:
      /value:(?<=\b(?:name|key):[ \t]{0,16}["']?(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})["']?[ \t]{0,16}\r?\n[ \t]{0,64}value:)[ \t]{0,16}/g,
  },
  {
    hints: ['alue"'],
    pattern:
      /alue"(?<="(?:name|key)"[ \t]{0,16}:[ \t]{0,16}"(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})"[ \t]{0,16},\s{0,64}"value")[ \t]{0,16}:[ \t]{0,16}/g,
  },
  {
    hints: ["alue="],
    pattern:
      /="(?<n>[A-Za-z_][A-Za-z0-9_.:-]{0,127})"[ \t]{1,16}value=(?<=(?:^|[^A-Za-z0-9_])(?:key|name)="[^"]{1,128}"[ \t]{1,16}value=)/g,
  },
  {
    // XML's name and value elements: SoapUI's `<con:name>…</con:name><con:value>`, JMeter's
    // `<stringProp name="Argument.name">…</stringProp>` then its `.value`, a `.resx`'s
    // `<data name="…">` then `<value>` (each from its `value`, its name checked behind it: a
    // search from every `<` cost the texts with a `value"` a fifth of the rule's time)
    hints: ["alue>", 'alue"'],
    pattern:
      /value(?:>(?<=<(?:[A-Za-z]{1,16}:)?name>(?<n>[A-Za-z_][\w.-]{0,127})<\/(?:[A-Za-z]{1,16}:)?name>\s{0,64}<(?:[A-Za-z]{1,16}:)?value>|data name="(?<n3>[A-Za-z_][\w.-]{0,127})"[^>\r\n]{0,128}>\s{0,64}<value>)|">(?<=stringProp name="[\w.-]{0,64}\.name">(?<n2>[A-Za-z_][\w.-]{0,127})<\/stringProp>\s{0,64}<stringProp name="[\w.-]{0,64}\.value">))/g,
  },
  {
    // (a keyword argument after the name is none: django-environ's `env("SECRET_KEY",
    // default=None)` read `default=None` as the value; `default=` is read past to its value)
    hints: ["v", "("],
    pattern:
      /\((?<=(?:define|getenv|[Ee]nv|setdefault|[Ss]etenv|putenv|setProperty)\()[ \t]{0,16}["'](?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})["'][ \t]{0,16},[ \t]{0,16}(?:default[ \t]{0,8}=[ \t]{0,8}|(?![ \t]{0,16}[A-Za-z_]\w{0,63}[ \t]{0,8}=[^=]))/g,
  },
  {
    hints: ["w"],
    pattern:
      /(?<n>passw(?:or)?d)(?<=(?:^[ \t]{0,64}|\b(?:login|wifi[ \t]{1,16}connect)[ \t]{1,16}\S{1,128}[ \t]{1,16})passw(?:or)?d)[ \t]{1,16}(?=\S)/gm,
  },
];

/** A name that may hold a secret: the names {@linkcode findNamedTokens} and passwords need. */
const PAIR_NAME = /secret|token|passw|pwd|passphrase|credential|auth|bearer|key|salt/i;
/**
 * `pass` or `pw` as a word of a name (`DB_PASS`, `dbPass`, `LDAP_BIND_PW`), not inside another
 * (`bypass`, `compass`), or glued to the end of an environment variable's name (`SMBPASS`).
 */
const PASS_NAME =
  /(?<![A-Za-z])(?:pass|Pass|PASS|pw|Pw|PW)(?![a-z])|(?<=[a-z0-9])(?:Pass|Pw)(?![a-z])|^[A-Z0-9_]{1,40}(?<!BY|COM|SUR|TRES|OVER|UNDER)(?:PASS|PW)$/;

/** How far past a pair's name its value is read: the longest value, its quotes and scheme. */
const PAIR_VALUE_CHARS = 300;

/**
 * The named tokens and passwords of name/value pairs ({@linkcode PAIR_FORMS}): each pair is read
 * as `NAME=value` (the rest of its line), by {@linkcode findNamedTokens} and
 * {@linkcode findNamedPasswords}, and the spans found are put back where the value is.
 */
export function findPairs(
  text: string,
  hints: TextHints = textHints(text),
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  const found = hints.pairs;
  for (const form of PAIR_FORMS) {
    if (!form.hints.some((h) => found.has(h))) continue;
    form.pattern.lastIndex = 0;
    for (const m of text.matchAll(form.pattern)) {
      const name = m.groups!.n ?? m.groups!.n2 ?? m.groups!.n3;
      if (secretName(name)) out.push(...pairSecrets(text, name, m.index! + m[0].length));
    }
  }
  if (found.has('alue"')) objectPairs(text, out);
  return out;
}

/** Whether a pair's name may hold a secret (a token's, a password's, a tool's variable). */
function secretName(name: string): boolean {
  return PAIR_NAME.test(name) || PASS_NAME.test(name) || ENV_PASSWORD_NAME.test(name);
}

/**
 * A JSON object's `"value"` (or an ARM parameter's `"defaultValue"`) member, before its string;
 * looked for from its `alue"` (from its `"`, every string of a text was tried).
 */
const VALUE_MEMBER = /alue"(?<="(?:[Vv]|defaultV)alue")[ \t]{0,16}:[ \t]{0,16}(?=")/g;
/** A JSON object's member that names it: `"name"`, `"key"` (group `n`: the name). */
const NAME_MEMBER = /"(?:[Nn]ame|[Kk]ey)"[ \t]{0,16}:[ \t]{0,16}"(?<n>[^"\\\r\n]{1,128})"/;
/** A JSON string of 6 to 256 characters (group 1: its text), a value that may be a secret. */
const CANDIDATE = /"([^"\\\r\n]{6,256})"/y;
/** A member that says its object's value is a secret: Terraform's output, ARM's parameter. */
const SECRET_MARK =
  /"sensitive"[ \t]{0,16}:[ \t]{0,16}true|"type"[ \t]{0,16}:[ \t]{0,16}"secure(?:string|object)"/i;
/** The key of an object's member whose value opens at the end of the text before it. */
const OBJECT_KEY = /"(?<n>[A-Za-z_][\w.-]{0,127})"[ \t]{0,16}:\s{0,64}$/;

/**
 * The `"value"` of each JSON object named apart from it, in any order of its members
 * (`{"value": "…", "name": "DB_PASSWORD"}`, `{"Key": "SmtpPassword", "Value": "…"}`, SSM's
 * `{"Name": "/prod/db/password", …, "Value": "…"}`), or by the object's own key
 * (`"adminPassword": {"type": "securestring", "defaultValue": "…"}`), or marked a secret
 * (Terraform's `{"value": "…", "sensitive": true}`): read as `NAME=value`. Each object is looked at
 * within 512 characters of its value on either side, never across another object.
 */
function objectPairs(text: string, out: Array<{ start: number; end: number; rule: string }>): void {
  VALUE_MEMBER.lastIndex = 0;
  for (const m of text.matchAll(VALUE_MEMBER)) {
    const at = m.index!;
    // (a value too short or of letters alone is no secret here: `"Value":"delete"` 1,473 times
    // in one line of trufflehog's fixtures, each object read for nothing)
    CANDIDATE.lastIndex = at + m[0].length;
    const v = CANDIDATE.exec(text)?.[1];
    if (!v || (v.length < 16 && /^[A-Za-z]+$/.test(v))) continue;
    // (searched in a slice: a search of the whole text from each value is quadratic)
    const before = text.slice(Math.max(0, at - 512), at);
    const opened = before.lastIndexOf("{");
    if (opened < 0 || before.includes("}", opened)) continue;
    const open = at - before.length + opened;
    const after = text.slice(at, at + 512);
    const closed = after.indexOf("}");
    const object = text.slice(open, at) + (closed < 0 ? after : after.slice(0, closed));
    const named = NAME_MEMBER.exec(object)?.groups?.n;
    const own = OBJECT_KEY.exec(text.slice(Math.max(0, open - 160), open))?.groups?.n;
    const name = named && secretName(named)
      ? named
      : own && secretName(own)
      ? own
      : SECRET_MARK.test(object)
      ? "password"
      : undefined;
    if (name) out.push(...pairSecrets(text, name, at + m[0].length));
  }
}

/**
 * Pairs in the syntax of a file's language, by its path: an Erlang term's tuple (`{db_password,
 * "…"}`, `{default_pass, <<"…">>}` in `sys.config`, `rabbitmq.config`, `.erl` files) and a
 * Clojure map's keyword (`:password "…"`, `:jwt-secret "…"` in `.edn` and `.clj` files). Group
 * `n` is the name; the value's quote follows the match.
 */
/** The files of a Lisp: Clojure, Emacs Lisp, Common Lisp, Scheme, Racket, Fennel, Janet, Hy, LFE. */
const LISP_PATH =
  /\.(?:edn|clj[sc]?|bb|el|lisp|lsp|cl|asd|scm|ss|sls|sld|rkt|fnl|janet|hy|lfe)$|(?:^|[\/\\])\.emacs$/;

/** The files of languages whose functions' bodies are in braces (for a function named for a secret). */
const BRACE_CODE_PATH =
  /\.(?:go|rs|c|h|cc|cpp|cxx|hpp|hh|m|mm|java|kt|kts|scala|groovy|swift|dart|cs|php|js|jsx|mjs|cjs|ts|tsx)$/;

/**
 * Each language's pairs: the files (`path`), the pattern (group `n`, `k` or `d` the name, the
 * value's quote after the match), `as`, a name to read the value under when the form names
 * a secret by a word that is no secret's name elsewhere (Erlang's `cookie`), and `tokens`, when
 * only a token's or a random key's shape counts (not a password's).
 */
const SYNTAX_PAIRS: Array<{ path: RegExp; pattern: RegExp; as?: string; tokens?: boolean }> = [
  {
    path: /\.(?:config|erl|hrl|app\.src|escript)$/,
    pattern: /\{[ \t]{0,16}(?<n>[a-z][A-Za-z0-9_]{0,127})[ \t]{0,16},\s{0,64}(?:<<)?(?=")/g,
  },
  {
    // Capistrano's and Sinatra's settings: `set :password, "…"`
    path: /\.(?:rb|rake)$|(?:^|[\/\\])(?:Capfile|Rakefile)$/,
    pattern: /(?<![\w:.])set[ \t]{1,8}:(?<n>[a-z][A-Za-z0-9_]{0,127}),[ \t]{0,16}(?=["'])/g,
  },
  {
    // a keyword before a string in any Lisp's list or map: `:password "…"` (Clojure's maps, Common
    // Lisp's and Emacs Lisp's property lists)
    path: LISP_PATH,
    pattern: /(?<![\w:])[:](?<n>[a-z][A-Za-z0-9_.*+!?-]{0,127})[ \t,]{1,16}(?=")/g,
  },
  {
    // a Lisp's definition or assignment of a name (`(def password "…")`, `(defvar *db-password*
    // "…")`, `(setq my-api-key "…")`, `(define password "…")`, Clojure's `^:private` between)
    path: LISP_PATH,
    pattern:
      /\((?:def[a-z-]{0,16}|define[a-z-]{0,16}|setq[a-z-]{0,16}|setf|setv|set!?|local|var|global)[ \t]{1,16}(?:\^[^\s()]{1,64}[ \t]{1,16}){0,4}[*+]?(?<n>[A-Za-z][A-Za-z0-9_.!?-]{0,127})[*+]?\s{1,16}(?=")/g,
  },
  {
    // a Lisp's list headed by a name and a string: a `let`'s binding (`((password "…"))`), an
    // option's entry (`(password "…")`)
    path: LISP_PATH,
    pattern: /(?<=\()[*+]?(?<n>[A-Za-z][A-Za-z0-9_.!?-]{0,127})[*+]?[ \t]{1,16}(?=")/g,
  },
  {
    // a string key's value in a Lisp's table or list: `(setf (gethash "password" table) "…")`,
    // `(puthash "password" "…" table)`, `(hash-set! table "password" "…")`, `("password" . "…")`
    path: LISP_PATH,
    pattern:
      /\(gethash[ \t]{1,16}"(?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})"[ \t]{1,16}[^\s()"]{1,128}\)[ \t]{1,16}(?=")|\((?:puthash|hash-set!?|hash-table-set!)[ \t]{1,16}(?:[^\s()"]{1,128}[ \t]{1,16})?"(?<k>[A-Za-z][A-Za-z0-9_.-]{0,127})"[ \t]{1,16}(?=")|\([ \t]{0,16}"(?<d>[A-Za-z][A-Za-z0-9_.-]{0,127})"[ \t]{1,16}\.[ \t]{1,16}(?=")/g,
  },
  {
    // a Lisp's symbol as a key: a dotted pair (`(password . "…")`, an Emacs alist's `'((api-key .
    // "…"))`) or a quoted symbol before a string (Racket's `(hash 'api-key "…")`, `(cons 'token
    // "…")`, `(plist-put p 'password "…")`)
    path: LISP_PATH,
    pattern:
      /\([ \t]{0,16}(?<n>[A-Za-z][A-Za-z0-9_.!?*-]{0,127})[ \t]{1,16}\.[ \t]{1,16}(?=")|(?<![\w'])'(?<k>[A-Za-z][A-Za-z0-9_.!?*-]{0,127})[ \t]{1,16}(?=")/g,
  },
  {
    // dune's s-expressions (`dune`, `dune-project`, `dune-workspace`, `.sexp`): a list headed by a
    // name and its value, quoted or an atom: `(env-vars (API_TOKEN …))`, `(setenv PASSWORD "…")`
    path: /(?:^|[\/\\])dune(?:-project|-workspace)?$|\.sexp$/,
    pattern:
      /(?<=\()(?:setenv[ \t]{1,16})?(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})[ \t]{1,16}(?=[^\s();$%])/g,
  },
  {
    // Tcl's `set password "…"`, `set password {…}`, `set ::env(API_KEY) …` (a word unquoted too,
    // not a command's `[…]` or a variable's `$…`) and `dict set cfg password "…"`
    path: /\.(?:tcl|tm|tk|itcl|xotcl|exp)$/,
    pattern:
      /(?<![\w:$-])(?:dict[ \t]{1,16}set[ \t]{1,16}[^\s\[\]{}"]{1,64}|set)[ \t]{1,16}(?:::)?(?:env\()?(?<n>[A-Za-z][A-Za-z0-9_:]{0,127})\)?[ \t]{1,16}\{?(?=[^\s\[\]$\\{}])/g,
  },
  {
    // ABAP's declarations with a start value: `CONSTANTS c_password TYPE string VALUE '…'.`,
    // `DATA lv_key TYPE c LENGTH 32 VALUE '…'.`, and its inline ones: `DATA(lv_password) = '…'.`
    path: /\.abap$/i,
    pattern:
      /(?<n>[A-Za-z][\w\/]{0,127})[ \t]{1,16}TYPE[ \t]{1,16}[\w\/=>-]{1,128}(?:[ \t]{1,16}LENGTH[ \t]{1,16}\d{1,6})?[ \t]{1,16}VALUE[ \t]{1,16}(?=['`|])|\b(?:DATA|FINAL)\((?<k>[A-Za-z][\w\/]{0,127})\)[ \t]{0,16}=[ \t]{0,16}(?=['`|])/gi,
  },
  {
    // Elixir's module attribute: `@api_key "…"`, `@password "…"` (a name, a blank, the value)
    path: /\.(?:ex|exs)$/,
    pattern: /(?<![\w@])@(?<n>[a-z][A-Za-z0-9_]{0,127})[ \t]{1,16}(?=["'])/g,
  },
  {
    // R's assignment arrows: `api_key <- "…"`, `password <<- '…'`
    path: /\.(?:[Rr]|[Rr]md|[Rr]profile)$|(?:^|[\/\\])\.Rprofile$/,
    pattern: /(?<![\w.])(?<n>[A-Za-z.][A-Za-z0-9._]{0,127})[ \t]{0,16}<<?-[ \t]{0,16}(?=["'])/g,
  },
  {
    // R's arrow the other way: `"…" -> api_key` (matched at the value's quote, the name ahead)
    path: /\.(?:[Rr]|[Rr]md|[Rr]profile)$|(?:^|[\/\\])\.Rprofile$/,
    pattern:
      /(?<![\w"'])(?=(["'])[^"'\r\n\\]{1,256}\1[ \t]{0,16}->>?[ \t]{0,16}(?<n>[A-Za-z.][A-Za-z0-9._]{0,127}))/g,
  },
  {
    // Nim's exported name (`apiKey* = "…"`) or one with a pragma (`dbPass {.strdefine.} = "…"`),
    // maybe typed (`token*: string = "…"`), before a string (raw too: `r"…"`)
    path: /\.(?:nim|nims|nimble)$/,
    pattern:
      /(?<![\w.])(?<n>[A-Za-z][A-Za-z0-9_]{0,127})(?:\*|\*?[ \t]{0,16}\{\.[^\r\n{}]{0,128}\.\})(?:[ \t]{0,16}:[ \t]{0,16}[A-Za-z][\w\[\]]{0,64})?[ \t]{0,16}=[ \t]{0,16}(?=r?["'])/g,
  },
  {
    // OCaml's environment set by its arguments' places: `Unix.putenv "API_TOKEN" "…"`
    path: /\.(?:ml|mli|re)$/,
    pattern: /(?<![\w])putenv[ \t]{1,16}"(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})"[ \t]{1,16}(?=")/g,
  },
  {
    // Haskell's environment set by its arguments' places: `setEnv "API_TOKEN" "…"`
    path: /\.(?:hs|lhs)$/,
    pattern: /(?<![\w'])setEnv[ \t]{1,16}"(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})"[ \t]{1,16}(?=")/g,
  },
  {
    // Perl's hash element set or read with a fallback: `$ENV{API_TOKEN} = '…'`,
    // `$config{password} = "…"`, `$ENV{DB_PASS} // '…'`, `||= '…'`
    path: /\.(?:pl|pm|t|psgi|cgi)$/,
    pattern:
      /\$[A-Za-z_]\w{0,63}\{["']?(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})["']?\}[ \t]{0,16}(?:=|\/\/=?|\|\|=?)[ \t]{0,16}(?=["'])/g,
  },
  {
    // Julia's call that sets a secret (`Genie.Secrets.secret_token!("…")`, `api_key!("…")`): a
    // name's `!` and its one string
    path: /\.jl$/,
    pattern: /(?<![\w])(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})!\([ \t]{0,16}(?=")/g,
  },
  {
    // a function named for a secret whose body returns a literal, in the languages of braces:
    // Go's `func Password() string { return "…" }`, C's `const char *api_token(void) {`, PHP's
    // `function getPassword() {`, Java's, C#'s, JavaScript's, Kotlin's, Swift's, Dart's (the
    // `return` on the line or the next; matched from the `return` and its literal, the function's
    // head looked for behind it: a start at every name of a file cost the scan 7%)
    path: BRACE_CODE_PATH,
    pattern:
      /return[ \t]{1,16}(?=(?:@|L|u8|\[\]byte\()?["'`])(?<=(?<![\w.$])(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})\((?:[ \t]{0,16}|void)\)[^{};=()\r\n"']{0,64}\{\s{0,64}return[ \t]{1,16})/g,
  },
  {
    // the same whose body is the literal alone: Rust's `fn api_token() -> &'static str { "…" }`,
    // Kotlin's `fun apiKey(): String = "…"`, Swift's computed `var password: String { "…" }`,
    // Kotlin's `val apiKey: String get() = "…"`
    path: /\.(?:rs|kt|kts|swift)$/,
    pattern:
      /(?<![\w.])(?:fn[ \t]{1,16}(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})\(\)[ \t]{0,16}->[^{\r\n]{1,64}\{|fun[ \t]{1,16}(?<k>[A-Za-z_][A-Za-z0-9_]{0,127})\(\)(?:[ \t]{0,16}:[ \t]{0,16}String\??)?[ \t]{0,16}=|va[rl][ \t]{1,16}(?<d>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}:[ \t]{0,16}String\??[ \t]{0,16}(?:\{|\s{0,64}get\(\)[ \t]{0,16}=))\s{0,64}(?=b?")/g,
  },
  {
    // Ruby's method named for a secret whose body is a literal: `def password` then `"…"` (or
    // `return "…"`) on the next line, `def self.api_key() = "…"`
    path: /\.(?:rb|rake)$/,
    pattern:
      /(?<![\w.])def[ \t]{1,16}(?:self\.)?(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})(?:\(\))?(?:[ \t]{0,16}=[ \t]{0,16}|[ \t]{0,16}\r?\n[ \t]{0,64}(?:return[ \t]{1,16})?)(?=["'])/g,
  },
  {
    // Python's function named for a secret that returns a literal: `def get_password():` then
    // `return "…"`
    path: /\.pyi?$/,
    pattern:
      /(?<![\w.])def[ \t]{1,16}(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})\([ \t]{0,16}(?:self|cls)?[ \t]{0,16}\)[^:\r\n]{0,64}:\s{0,64}return[ \t]{1,16}(?=[rbuRBU]?["'])/g,
  },
  {
    // Elixir's function named for a secret whose body is a literal: `def api_key, do: "…"`,
    // `defp password(), do: "…"`, or `def password do` with `"…"` on the next line
    path: /\.exs?$/,
    pattern:
      /(?<![\w.])defp?[ \t]{1,16}(?<n>[a-z_][A-Za-z0-9_]{0,127})(?:\(\))?(?:[ \t]{0,16},[ \t]{0,16}do:[ \t]{0,16}|[ \t]{1,16}do[ \t]{0,16}\r?\n[ \t]{0,64})(?=")/g,
  },
  {
    // Erlang's function of no arguments named for a secret whose body is a literal
    // (`password() -> "…".`, `api_token() -> <<"…">>.`) and a macro's (`-define(SECRET, "…").`)
    path: /\.(?:erl|hrl|escript)$/,
    pattern:
      /->\s{0,64}(?:<<)?(?=")(?<=(?<![\w:])(?<n>[a-z][A-Za-z0-9_]{0,127})\(\)[ \t]{0,16}->\s{0,64}(?:<<)?)|-define\([ \t]{0,16}(?<k>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16},\s{0,64}(?:<<)?(?=")/g,
  },
  {
    // Clojure's function of no arguments named for a secret whose body is a literal
    // (`(defn api-key [] "…")`, a docstring before the arguments)
    path: /\.(?:clj[sc]?|bb)$/,
    pattern:
      /\(defn-?[ \t]{1,16}(?:\^[^\s()]{1,64}[ \t]{1,16}){0,4}(?<n>[A-Za-z][A-Za-z0-9_.!?-]{0,127})\s{1,16}(?:"[^"\r\n]{0,256}"\s{1,16})?\[\]\s{0,64}(?=")/g,
  },
  {
    // aero's reader tags under a keyword (`.edn`): `:api-key #or [#env API_KEY "…"]`, a profile's
    // value (`:password #profile {:dev "…" …}`), the name the keyword's
    path: /\.(?:edn|clj[sc]?)$/,
    pattern:
      /(?<![\w:])[:](?<n>[a-z][A-Za-z0-9_.*+!?-]{0,127})[ \t,]{1,16}(?:#(?:string|long|double|keyword|boolean)[ \t]{1,16})?#(?:or|profile|hostname|user)[ \t]{0,16}[\[{][ \t]{0,16}(?:#env[ \t]{1,16}[A-Za-z_][A-Za-z0-9_]{0,127}[ \t,]{1,16}|:[a-z][A-Za-z0-9_.-]{0,64}[ \t,]{1,16}|"[^"\r\n]{0,128}"[ \t,]{1,16})?(?=")/g,
  },
  {
    // CMake's environment set: `set(ENV{API_TOKEN} "…")`, unquoted too
    path: /(?:^|[\/\\])CMakeLists\.txt$|\.cmake$/i,
    pattern:
      /\bset\([ \t]{0,16}ENV\{(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})\}[ \t]{1,16}(?=[^\s"()$])|\bset\([ \t]{0,16}ENV\{(?<k>[A-Za-z_][A-Za-z0-9_]{0,127})\}[ \t]{1,16}(?=")/gi,
  },
  {
    // Salt's read of a pillar, a grain or a setting with a default (`.sls`, Jinja templates):
    // `salt['pillar.get']('mysql:server:root_password', '…')`, `pillar.get('db:password', '…')`;
    // the name the path's last part
    path: /\.(?:sls|jinja2?|j2|tmpl|tpl)$/,
    pattern:
      /(?:pillar|grains|config)\.get['"]?\]?\([ \t]{0,16}['"](?:[A-Za-z0-9_.-]{1,64}:){0,8}(?<n>[A-Za-z0-9_.-]{1,128})['"][ \t]{0,16},[ \t]{0,16}(?:default[ \t]{0,4}=[ \t]{0,4})?(?=["'])/g,
  },
  {
    // Rust's compile-time environment read with a fallback: `option_env!("TOKEN").unwrap_or("…")`,
    // `match option_env!("TOKEN") { Some(t) => t, None => "…" }`
    path: /\.rs$/,
    pattern:
      /option_env!\([ \t]{0,16}"(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})"[ \t]{0,16}\)(?:\s{0,64}\.unwrap_or\([ \t]{0,16}|[ \t]{0,16}\{[^{}]{0,128}?None[ \t]{0,16}=>[ \t]{0,16})(?=")/g,
  },
  {
    // an Erlang release's distribution cookie, the node's password: relx's and `vars.config`'s
    // `{cookie, "…"}`, `erlang:set_cookie(node(), '…')`
    path: /\.(?:config|config\.src|erl|hrl|escript)$/,
    pattern:
      /(?<n>cookie)(?<=\{[ \t]{0,16}cookie)[ \t]{0,16},[ \t]{0,16}(?:<<)?(?=["'])|set_cookie\([ \t]{0,16}(?:node\(\)|[a-z'][^,()\r\n]{0,128})[ \t]{0,16},[ \t]{0,16}(?=')/g,
    as: "password",
  },
  {
    // Kotlin's pair of a quoted name and its value: `mapOf("password" to "…")`
    path: /\.(?:kt|kts)$/,
    pattern:
      /(?<=")[ \t]{1,16}to[ \t]{1,16}(?=")(?<="(?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})"[ \t]{1,16}to[ \t]{1,16})/g,
  },
  {
    // a value stored before its key's name: Swift's `UserDefaults.standard.set("…", forKey:
    // "apiToken")`, Objective-C's `setObject:@"…" forKey:@"apiToken"` (matched at the value's
    // quote, the name ahead)
    path: /\.(?:swift|m|mm)$/,
    pattern:
      /(?<![\w"])(?=(")[^"\r\n\\]{1,256}"[ \t]{0,16},?[ \t]{0,16}forKey:[ \t]{0,16}@?"(?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})")/g,
  },
  {
    // Ruby's fallback after a lookup by a secret's symbol: `credentials.dig(:aws,
    // :secret_access_key) || "…"`, `fetch(:api_token) || '…'` (from the `||`, the symbol behind)
    path: /\.(?:rb|rake)$/,
    pattern:
      /\|\|[ \t]{0,16}(?=["'])(?<=:(?<n>[a-z_][A-Za-z0-9_]{0,127})[\])]{1,2}[ \t]{0,16}\|\|[ \t]{0,16})/g,
  },
  {
    // a Lisp's fallback after an environment read (`(or (System/getenv "API_TOKEN") "…")`) and
    // Java's properties set from Clojure (`(System/setProperty "api.key" "…")`)
    path: LISP_PATH,
    pattern:
      /\(or[ \t]{1,16}\([^()"\r\n]{1,64}[ \t]{1,16}"(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})"\)[ \t]{1,16}(?=")|\((?:System\/setProperty|setenv|putenv)[ \t]{1,16}"(?<k>[A-Za-z_][A-Za-z0-9_.-]{0,127})"[ \t]{1,16}(?=")/g,
  },
  {
    // Erlang's application setting read with a default: `application:get_env(app, db_password,
    // "…")`
    path: /\.(?:erl|hrl|escript)$/,
    pattern:
      /get_env\([ \t]{0,16}[a-z'][^,()\r\n]{0,64},[ \t]{0,16}(?<n>[a-z][A-Za-z0-9_]{0,127})[ \t]{0,16},[ \t]{0,16}(?:<<)?(?=")/g,
  },
  {
    // libcurl's options that take a secret, in C, PHP and Python: `curl_easy_setopt(h,
    // CURLOPT_PASSWORD, "…")`, `curl_setopt($ch, CURLOPT_KEYPASSWD, '…')`,
    // `c.setopt(pycurl.PROXYPASSWORD, "…")`
    path: /\.(?:c|h|cc|cpp|cxx|hpp|m|mm|php|py|rs|go)$/,
    pattern:
      /(?:CURLOPT_|pycurl\.)(?<n>PASSWORD|PROXYPASSWORD|KEYPASSWD|TLSAUTH_PASSWORD|XOAUTH2_BEARER)[ \t]{0,16},[ \t]{0,16}(?:L|u8)?(?=["'])/g,
  },
  {
    // Zig's typed declaration: `pub const password: []const u8 = "…";`
    path: /\.(?:zig|zon)$/,
    pattern:
      /(?<![\w.])(?:const|var)[ \t]{1,16}(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}:[ \t]{0,16}[^=\r\n;"]{1,64}=[ \t]{0,16}(?=")/g,
  },
  {
    // a web server's directive that sets a variable, a parameter or an environment variable by
    // name: nginx's `set $api_token "…";`, `fastcgi_param DB_PASSWORD "…";` (and `uwsgi_param`,
    // `scgi_param`), Apache's `SetEnv DB_PASSWORD …` (also in Test::Nginx's `.t` blocks)
    path:
      /\.(?:conf|t|htaccess|vhost|site)$|(?:^|[\/\\])(?:nginx|apache2?|httpd|sites-(?:available|enabled))[\/\\]/,
    pattern:
      /(?<![\w$])(?:set[ \t]{1,16}\$|(?:fastcgi|uwsgi|scgi)_param[ \t]{1,16}|SetEnv[ \t]{1,16})(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})[ \t]{1,16}(?=["']?[^\s"';])/g,
  },
  {
    // a name compared with a literal: `if token == "…"`, `apiKey !== '…'`, nginx's `if
    // ($http_x_hook_secret != "…")` (from the operator, the name behind it)
    path:
      /\.(?:py|rb|js|jsx|mjs|cjs|ts|tsx|go|java|kt|kts|scala|groovy|swift|dart|cs|php|pl|pm|lua|sh|bash|zsh|rs|c|h|cc|cpp|conf|t)$/,
    pattern:
      /[!=]==?(?<=(?<![\w$.])(?:\$|[A-Za-z_][\w$]{0,63}\.){0,4}(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}[!=]==?)[ \t]{0,16}(?=["'])/g,
    // (a token's shape only: a password's compared is a check's example, `if password ==
    // 'abcdef1'`, as the name rules read it)
    tokens: true,
  },
  {
    // an object of a name and its value apart, as Postman's and newman's variables and headers
    // are written in code: `{ key: 'apiKey', value: '…' }`, `{ name: "X-Api-Key", value: "…" }`,
    // also JSON-escaped in a script's string (`{ key: \"X-Secret\", value: \"…\" }`)
    path: /\.(?:js|jsx|mjs|cjs|ts|tsx|py|rb|php|json)$/,
    pattern:
      /value\\?["']?[ \t]{0,16}(?:=>|[:=])[ \t]{0,16}(?=\\?["'])(?<=(?<![\w$])(?:key|name)\\?["']?[ \t]{0,16}(?:=>|[:=])[ \t]{0,16}\\?["'](?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})\\?["'][ \t]{0,16},[ \t]{0,16}\\?["']?value\\?["']?[ \t]{0,16}(?:=>|[:=])[ \t]{0,16})/g,
  },
  {
    // Postman's scripts setting a variable: `pm.environment.set("token", "…")` (`globals`,
    // `collectionVariables`, `variables`), also JSON-escaped in a collection's `exec` lines
    path: /\.(?:js|json)$/,
    pattern:
      /(?<![\w$])pm\.(?:environment|globals|collectionVariables|variables)\.set\([ \t]{0,16}\\?["'](?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})\\?["'][ \t]{0,16},[ \t]{0,16}(?=\\?["'])/g,
  },
  {
    // a setting named by a secret set in SQL: PostgreSQL's `ALTER DATABASE app SET
    // "app.jwt_secret" TO '…'`, `SET pgrst.jwt_secret TO '…'`
    path: /\.(?:sql|psql|pgsql|mysql)$/i,
    pattern:
      /(?<![\w$])SET[ \t]{1,16}"?(?:[A-Za-z_][\w]{0,63}\.){0,2}(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})"?[ \t]{1,16}(?:TO|=)[ \t]{1,16}(?=')/gi,
  },
  {
    // a subscript named for a secret before more subscripts: Chef's attributes
    // (`default['postgresql']['password']['postgres'] = '…'`), a nested hash's or dict's (group
    // `c`, the chain: its last subscript named for a secret is the name)
    path: /\.(?:rb|py|php)$/,
    pattern:
      /(?<c>(?:\[[ \t]{0,16}["'][A-Za-z0-9_.-]{1,64}["'][ \t]{0,16}\][ \t]{0,16}){2,6})=[ \t]{0,16}(?=["'])/g,
  },
  {
    // a value wrapped to keep it from logs: Puppet's `$api_token = Sensitive('…')` and
    // `password => Sensitive('…')`, pydantic's `api_key = SecretStr("…")`
    path: /\.(?:pp|epp|py)$/,
    pattern:
      /(?<![\w])\$?(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}(?:=>|=|:)[ \t]{0,16}(?:Sensitive|SecretStr|SecretBytes)\([ \t]{0,16}(?=["'])/g,
  },
  {
    // a salt's name with no other secret's word, WordPress's `NONCE_SALT='…'` in `.env` files,
    // `wp-config.php` and shell (read as a random key's value)
    path: /(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$|\.(?:php|sh|env|ini|ya?ml)$/,
    pattern:
      /(?<![\w$])(?<n>[A-Za-z][A-Za-z0-9]{0,63}_(?:SALT|salt))["']?[ \t]{0,16}[=:,][ \t]{0,16}(?=\S)/g,
  },
  {
    // Smalltalk's keyword message that puts a value at a key: `at: 'password' put: '…'`,
    // `headerAt: 'X-Api-Key' put: '…'`, `at: #apiToken put: '…'`
    path: /\.st$/,
    pattern:
      /(?<![\w])(?:[a-z][A-Za-z0-9]{0,64}A|a)t:[ \t]{0,16}(?:'|#)(?<n>[A-Za-z][A-Za-z0-9_.-]{0,127})'?\s{1,64}put:[ \t]{0,16}(?=')/g,
  },
];

/**
 * The named tokens and passwords of pairs written in the syntax of the file's language
 * ({@linkcode SYNTAX_PAIRS}, chosen by `path`), each read as `NAME=value` as
 * {@linkcode findPairs} reads its pairs.
 *
 * @example
 * ```ts
 * import { findSyntaxPairs } from "./_secret_rules_pairs.ts";
 * findSyntaxPairs('{:password "Tr0ub4dor3x!K9"}', undefined, "config.edn");
 * // [{ start: 12, end: 26, rule: "password" }]
 * ```
 */
export function findSyntaxPairs(
  text: string,
  _hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  if (!path) return out;
  for (const syntax of SYNTAX_PAIRS) {
    if (!syntax.path.test(path)) continue;
    syntax.pattern.lastIndex = 0;
    for (const m of text.matchAll(syntax.pattern)) {
      const name = syntax.as ?? m.groups!.n ?? m.groups!.k ?? m.groups!.d ??
        secretSubscript(m.groups!.c);
      if (PAIR_NAME.test(name) || PASS_NAME.test(name) || ENV_PASSWORD_NAME.test(name)) {
        const found = pairSecrets(text, name, m.index! + m[0].length);
        out.push(...(syntax.tokens ? found.filter((f) => f.rule !== "password") : found));
      }
    }
  }
  return out;
}

/** The last subscript of a chain (`['db']['password']['root']`) named for a secret, or `""`. */
function secretSubscript(chain: string): string {
  const names = [...chain.matchAll(/["']([A-Za-z0-9_.-]{1,64})["']/g)].map((s) => s[1]).reverse();
  return names.find((n) => PAIR_NAME.test(n) || PASS_NAME.test(n) || ENV_PASSWORD_NAME.test(n)) ??
    "";
}

/**
 * A schema's field and its default, the field's name checked behind its `default`: Protocol
 * Buffers' `string password = 1 [default = "…"]`, an Avro record's `{"name": "password", "type":
 * "string", "default": "…"}`. Group `n` (or `n2`) is the name; the value's quote follows the match.
 */
const SCHEMA_DEFAULT =
  /(?:default(?<=(?<n>[A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,16}=[ \t]{0,16}\d{1,9}[ \t]{0,16}\[[^\]\r\n;]{0,256}default)[ \t]{0,16}=|"default"(?<="name"[ \t]{0,16}:[ \t]{0,16}"(?<n2>[A-Za-z_][A-Za-z0-9_.-]{0,127})"[^{}]{0,256}"default")[ \t]{0,16}:)[ \t]{0,16}(?=")/g;

/**
 * The named tokens and passwords given as a schema's field's default ({@linkcode SCHEMA_DEFAULT}),
 * each read as `NAME=value` as {@linkcode findPairs} reads its pairs.
 *
 * @example
 * ```ts
 * import { findSchemaDefaults } from "./_secret_rules_pairs.ts";
 * findSchemaDefaults('optional string password = 1 [default = "Tr0ub4dor3x!K9"];').length; // 1
 * ```
 */
export function findSchemaDefaults(
  text: string,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  SCHEMA_DEFAULT.lastIndex = 0;
  for (const m of text.matchAll(SCHEMA_DEFAULT)) {
    const name = m.groups!.n ?? m.groups!.n2;
    if (PAIR_NAME.test(name) || PASS_NAME.test(name) || ENV_PASSWORD_NAME.test(name)) {
      out.push(...pairSecrets(text, name, m.index! + m[0].length));
    }
  }
  return out;
}

/** The secrets of the value at `at` of a pair named `name`, read as `NAME=value`. */
function pairSecrets(
  text: string,
  name: string,
  at: number,
): Array<{ start: number; end: number; rule: string }> {
  let lineEnd = at;
  while (
    lineEnd < text.length && lineEnd < at + PAIR_VALUE_CHARS && !/[\r\n]/.test(text[lineEnd])
  ) lineEnd++;
  // A value longer than the part read at once goes on to its end.
  if (lineEnd === at + PAIR_VALUE_CHARS) lineEnd = runEnd(LONG_PAIR_VALUE, text, lineEnd);
  const line = `${name}=${text.slice(at, lineEnd)}`;
  const shift = at - name.length - 1;
  const passwords = findNamedPasswords(line).map((f) => ({ ...f, rule: "password" }));
  const key = randomKeyAt(line, name.length);
  const keys = key ? [{ ...key, rule: "named-secret" }] : [];
  return [...findNamedTokens(line), ...passwords, ...keys]
    .filter((f) => f.start > name.length)
    .map((f) => ({ ...f, start: f.start + shift, end: f.end + shift }));
}

/** After a name's operator: blanks and a list's `[`. */
const LIST_OPEN = /[ \t]{0,16}\[/y;
/** A list's next quoted item (group `v`), its `,` or the list's `]` after it. */
export const LIST_ITEM: RegExp =
  /\s{0,64}(?<q>["'])(?<v>[^"'\r\n\\]{1,1024})\k<q>\s{0,64}(?<next>[,\]])/dy;
/** A name at the end of the text before its operator (its quote and blanks after it). */
const NAME_AT_END = /[A-Za-z0-9_.-]{1,128}(?=(?:\\\\)?\\?["']?\]?[ \t]{0,64}$)/;

/**
 * The tokens of a list under a secret's name (`TOKEN_LIST = ['…', '…']`, `"api_keys": ["…"]`),
 * each item read as `NAME="item"` by {@linkcode findNamedTokens}: a random or provider-shaped
 * token is one, words (`["password", "token"]`) and code (`[key.id for key in keys]`) are not.
 * Looked for at the operators the name search found, 64 items at most.
 *
 * @example
 * ```ts
 * import { findListTokens } from "./_secret_rules_pairs.ts";
 * findListTokens('API_KEYS = ["Xk29fjQ02aLpZ8wq7Rt5Ym3n"]'); // [{ start: 12, end: 36, rule: "named-secret" }]
 * ```
 */
export function findListTokens(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  let read = -1; // where the last block sequence read ends (an operator inside it is its item's)
  for (const at of namesOf(text, hints).operators) {
    LIST_OPEN.lastIndex = at + 1;
    if (!LIST_OPEN.test(text)) {
      if (text[at] === ":" && at > read) read = blockItems(text, at, out);
      continue;
    }
    const name = NAME_AT_END.exec(nameBefore(text, at))?.[0];
    if (!name) continue;
    let from = LIST_OPEN.lastIndex;
    for (let i = 0; i < 64; i++) {
      LIST_ITEM.lastIndex = from;
      const m = LIST_ITEM.exec(text);
      if (!m) break;
      const [start] = m.indices!.groups!.v;
      const line = `${name}="${m.groups!.v}"`;
      const shift = start - name.length - 2;
      for (const f of findNamedTokens(line)) {
        if (f.start > name.length) out.push({ ...f, start: f.start + shift, end: f.end + shift });
      }
      if (m.groups!.next === "]") break;
      from = LIST_ITEM.lastIndex;
    }
  }
  return out;
}

/**
 * A YAML block sequence's item on a line of its own (`X-Api-Key:` then `- …`, a VCR cassette's
 * headers), the first line's break included; group `v` is the item, quoted or not.
 */
const BLOCK_ITEM =
  /[ \t]{0,16}\r?\n[ \t]{0,64}-[ \t]{1,8}(?<q>["']?)(?<v>[^\s"'#]{1,1024})\k<q>[ \t]{0,16}(?=\r?\n|$)/dy;

/** A name that is a secret's plural alone. */
const PLURAL_ONLY = /^(?:secrets|keys|tokens|credentials)$/i;
/** A UUID. */
const UUID_ITEM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tokens of a YAML block sequence under the name whose `:` is at `at` (64 items at most);
 * where the sequence ends.
 */
function blockItems(
  text: string,
  at: number,
  out: Array<{ start: number; end: number; rule: string }>,
): number {
  const name = NAME_AT_END.exec(nameBefore(text, at))?.[0];
  if (!name) return at;
  let from = at + 1;
  for (let i = 0; i < 64; i++) {
    BLOCK_ITEM.lastIndex = from;
    const m = BLOCK_ITEM.exec(text);
    if (!m) break;
    const [start] = m.indices!.groups!.v;
    from = BLOCK_ITEM.lastIndex;
    // a list named by a plural alone (`secrets:`, `keys:`) holds ids (sourcehut's `secrets:`
    // UUIDs name secrets stored elsewhere), not the secrets
    if (PLURAL_ONLY.test(name) && UUID_ITEM.test(m.groups!.v)) continue;
    const line = `${name}="${m.groups!.v}"`;
    const shift = start - name.length - 2;
    for (const f of findNamedTokens(line)) {
      if (f.start > name.length) out.push({ ...f, start: f.start + shift, end: f.end + shift });
    }
  }
  return from;
}
