/**
 * slop's secret rules: one table of credential shapes that both the build's
 * scanner (`pipeline/_scan.ts`) and the knowledge scrubber
 * (`knowledge/_secrets.ts`) run. Each rule finds exactly the value of a
 * credential (never its key name, never part of it); the scanner replaces it
 * with `[REDACTED:<label>]`.
 *
 * Every pattern runs in time linear in its input: each starts at a literal
 * (`AKIA`, `ghp_`, `://`, an assignment operator, …) and every quantifier
 * after it is bounded, so one start costs a bounded amount of work; a rule
 * that reads far (PEM blocks) is code that never reads a character twice.
 * A rule runs only on texts that hold one of its hints.
 *
 * @module
 */

/**
 * The version of the rule table, part of the secret scan's cache key (with each rule's pattern
 * and code): raise it when a helper the rules call changes what they find, so that files found
 * clean by an older table are scanned again (3: the line of a finding in a file with CR line ends).
 */
export const SECRET_RULES_VERSION = 3;

/** A span of a text that holds a secret, and the rule that found it. */
export interface SecretMatch {
  /** First character of the value. */
  start: number;
  /** One past its last character. */
  end: number;
  /** The label of the rule (`[REDACTED:<label>]`). */
  rule: string;
}

/** One credential shape. */
export interface SecretShape {
  /** Unique id (the knowledge scrubber names its findings by it). */
  id: string;
  /** Shown as `[REDACTED:<label>]` in documents; several shapes may share one (`aws`). */
  label: string;
  /** What it matches, for the docs. */
  kind: string;
  /** Literal substrings one of which every match holds: a text with none skips the rule. */
  hints: string[];
  /** Global pattern; the value is group `v` when the pattern has it, else the whole match. */
  pattern?: RegExp;
  /** Whether a match stands (`value`: the matched value). @default {always} */
  accept?: (value: string, text: string, start: number, end: number) => boolean;
  /**
   * A rule written as code: every value span of `text`; `hints` are those of `text` (one search
   * for every rule of a text), found again when not given.
   */
  find?: (text: string, hints?: TextHints) => Array<{ start: number; end: number; rule?: string }>;
  /** Only for prose (chat messages, knowledge lines), never for source files. */
  prose?: boolean;
  /**
   * Runs only on texts where {@linkcode TOKEN_GATE} finds a prefix that starts with one of these
   * characters (`A` for `AKIA…` and `AIza…`, `-` for `sk-…`, …), or where {@linkcode textHints}
   * finds an option (`u` for `-u` and `--user`, `o` for `--password` and the like).
   */
  gate?: string;
}

/**
 * One search for the prefixes of every gated rule (`AKIA`, `ghp_`, `sk-`,
 * `-----BEGIN`, …): a text without any skips them all (most source files).
 * Each prefix is looked for from a character that is rare in code (`K` of
 * `AccountKey=`, `J` of `eyJ`, `~` of `Q~`, the `-` of `sk-`) and checked
 * behind it with a lookbehind, so the search skips most characters; one
 * `includes` per hint instead cost 8 times as much (60 MB of code: 2.5 s
 * against 0.2-0.25 s). A test checks that it finds every rule's samples.
 *
 * @example
 * ```ts
 * import { TOKEN_GATE } from "./secret_rules.ts";
 * "key = 'AKIAQWERTYUIOPASDFGH'".match(TOKEN_GATE); // ["AKIA"]
 * "def add(a, b):\n    return a + b\n".match(TOKEN_GATE); // null
 * ```
 */
export const TOKEN_GATE: RegExp = new RegExp(
  [
    "A(?:KIA|SIA|BIA|CCA|3T|Iza|C[0-9a-f]{32})",
    "g(?:h[pousr]_|ithub_pat_|l(?:pat|ptt|dt)-)",
    "x(?:ox[abposre]-|app-)",
    "\\.slack\\.com/",
    "_(?:live_|test_|authToken=|(?<=npm_|whsec_))",
    "S(?:G\\.|K[0-9a-f]{32})",
    "-(?:(?<=sk-)|AgE(?<=pypi-AgE)|----BEGIN)",
    "J(?<=eyJ)",
    "~(?<=Q~)",
    "Key=(?<=(?:Account|Access)Key=)",
  ].join("|"),
  "g",
);

/** How many first characters {@linkcode TOKEN_GATE}'s prefixes have, and the two options' hints. */
const GATE_FAMILIES = 12;

/** Characters of a token in base64url / base62 shapes, for the ends of a match. */
const NOT_AFTER = "(?![A-Za-z0-9_-])";
const NOT_BEFORE = "(?<![A-Za-z0-9_-])";

/** A placeholder, not a value: `your-api-key-here`, `${VAR}`, `<secret>`, `changeme`, `xxxx`, `****`. */
const PLACEHOLDER =
  /[${}<>%[\]()]|^(?:x+|\*+|\.+|-+|#+)$|your|example|placeholder|changeme|change_me|dummy|sample|redacted|here$|^(?:pass(?:word|wd)?|pwd|secret|token|user(?:name)?|foo|bar|foobar|test|admin|root|guest|none|null|empty|string)$/i;

/**
 * Whether `value` is a placeholder rather than a credential.
 *
 * @example
 * ```ts
 * import { isPlaceholder } from "./secret_rules.ts";
 * isPlaceholder("your-api-key-here"); // true
 * isPlaceholder("${DB_PASSWORD}"); // true
 * isPlaceholder("Xk29fjQ02aLp"); // false
 * ```
 */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** Upper case, lower case and digits, 20+ characters: a random token, not a word or a name. */
function looksRandom(value: string): boolean {
  return value.length >= 20 && /[A-Z]/.test(value) && /[a-z]/.test(value) &&
    /[0-9]/.test(value) && !isPlaceholder(value) &&
    // a member access (`config.secrets.apiKey2024`) or a path of words (`src/utils/db2`) is
    // code, not a value; base64 with `/` in it (`SwuQByNRHe/PF2Ua/…`) is
    !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) &&
    !/^[A-Za-z_$][a-z0-9_$-]*(?:\/[A-Za-z_$][a-z0-9_$-]*)+$/.test(value);
}

/**
 * A secret-like name (`…SECRET…`, `…KEY…`, `…TOKEN…`, passwords, credentials)
 * assigned a hex value of 32+ digits (group 1) or a map (the match ends at its `{`): the name,
 * `[A-Za-z0-9_]*["']?\s*`, the operator, then the value. It is looked for from the operator, not
 * from the name: a lookahead checks that a value follows, then a lookbehind that a name precedes.
 * Words that start like a name (`t`, `s`, `c`, `p`, `k`) are everywhere, a `:` or `=` followed by
 * such a value is rare: a pass over the stdlib takes half the time, over the typescript lib a third.
 * A match starts at its operator, not at the name; its end and group 1 are those of
 * {@linkcode NAMED_VALUE_SPEC}, the plain spelling (a test compares the two): the name cannot
 * reach back into the match before, which ends at a `{` or after hex digits (no name is made of
 * hex digits).
 *
 * @example
 * ```ts
 * import { NAMED_VALUE } from "./secret_rules.ts";
 * const [m] = `API_SECRET=${"4d".repeat(16)}`.matchAll(NAMED_VALUE);
 * m[1]; // "4d4d…" (32 digits), m.index: 10 (the "=")
 * ```
 */
export const NAMED_VALUE: RegExp = new RegExp(
  `(?=(?::|=>|=)\\s*(?:\\\\?["']?[0-9a-fA-F]{32}|\\\\?['"]?\\{))` +
    `(?<=(?:secret|key|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*\\\\?["']?\\s*)` +
    `(?::|=>|=)\\s*(?:\\\\?["']?([0-9a-fA-F]{32,})(?![A-Za-z0-9_])|\\\\?['"]?\\{)`,
  "gi",
);

/**
 * {@linkcode NAMED_VALUE} spelled plainly, from the name on: the rule as it reads, for the test
 * and the benchmark that check the faster spelling against it.
 *
 * @example
 * ```ts
 * import { NAMED_VALUE_SPEC } from "./secret_rules.ts";
 * const [m] = `API_SECRET=${"4d".repeat(16)}`.matchAll(NAMED_VALUE_SPEC);
 * m.index; // 4 (the name: "SECRET")
 * ```
 */
export const NAMED_VALUE_SPEC: RegExp =
  /(?:secret|key|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*\\?["']?\s*(?::|=>|=)\s*(?:\\?["']?([0-9a-fA-F]{32,})(?![A-Za-z0-9_])|\\?['"]?\{)/gi;

const MAP_VALUE = /"[^"\\\n]{1,200}"\s*:\s*"([^"\\\n]{8,})"/g;
/** Longest JSON map (in characters) the key-map rule looks into. */
const MAX_MAP = 64 * 1024;

/**
 * Hex values of 32+ digits assigned to a secret-like name (`API_SECRET=4dac…`,
 * rule `hex-secret`), and the string values of a JSON map assigned to one
 * (`LLM_API_KEY_MAP={"together":"…"}`, rule `key-map`) that look like keys:
 * 8+ characters without blanks, with letters and digits (a map of words,
 * such as `KEYWORDS = {"if": "keyword if"}`, keeps its values). One pass.
 */
function findNamedValues(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  const matches = [...matchesAt(NAMED_VALUE_AT, text, namesOf(text, hints).valueOperators)];
  // The `{` of each map under a name of its own, all matched in one pass.
  const opens = matches.flatMap((m) =>
    !m[1] && ownName(text, m.index) ? [m.index + m[0].length - 1] : []
  );
  const closes = opens.length ? braceMatches(text, opens) : undefined;
  for (const m of matches) {
    const end = m.index + m[0].length;
    if (m[1]) {
      out.push({ start: end - m[1].length, end, rule: "hex-secret" });
      continue;
    }
    const open = end - 1;
    const close = closes?.get(open) ?? -1;
    if (close < 0) continue;
    const body = text.slice(open, close + 1);
    for (const v of body.matchAll(MAP_VALUE)) {
      if (!KEY_LIKE.test(v[1]) || isPlaceholder(v[1])) continue;
      const at = open + v.index! + v[0].lastIndexOf(`"${v[1]}"`) + 1;
      out.push({ start: at, end: at + v[1].length, rule: "key-map" });
    }
  }
  return out;
}

/**
 * Whether the name before an operator at `at` is a name of its own, not the end of a path or a
 * package name (`"node_modules/eslint-visitor-keys": {` in a lockfile).
 */
function ownName(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && i > at - 20 && /[\s"']/.test(text[i - 1])) i--;
  while (i > 0 && /[A-Za-z0-9_]/.test(text[i - 1]) && i > at - 300) i--;
  return i === 0 || !/[-/.@]/.test(text[i - 1]);
}

/** A map value that looks like a key: no blanks, a letter and a digit. */
const KEY_LIKE = /^(?=[^0-9]*[0-9])(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9_\-.~+/=:]+$/;

/**
 * The matching `}` of each `{` at `opens` (ascending; by depth, as counted in one pass), when it
 * is at most {@linkcode MAX_MAP} characters on: one pass for every map of a text, where a count
 * from each `{` read up to 64K characters for each (`k={k={…`: quadratic). The pass starts at the
 * first of them (the braces before it cannot pair with one after it that is not paired before)
 * and stops when every one is matched or 64K characters past the last: a file of code holds
 * thousands of braces and a name's map or two.
 */
function braceMatches(text: string, opens: number[]): Map<number, number> {
  const wanted = new Set(opens);
  const closes = new Map<number, number>();
  const last = opens[opens.length - 1];
  const open: number[] = [];
  for (let i = opens[0]; i < text.length && i - last < MAX_MAP && closes.size < wanted.size; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) open.push(i);
    else if (c === 125 && open.length) {
      const from = open.pop()!;
      if (i - from < MAX_MAP && wanted.has(from)) closes.set(from, i);
    }
  }
  return closes;
}

/** Longest block between `-----BEGIN … PRIVATE KEY-----` and its END line that is redacted whole. */
const MAX_PEM = 64 * 1024;
const PEM_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * A body without an END line: lines of 16-80 base64 characters, each after a newline (or its
 * escape), blanks, the quotes and `+` of a literal; prose after it stays.
 */
const PEM_BODY = /(?:(?:\\[nr]|[\s"',+]){1,16}[A-Za-z0-9+/=]{16,80}){0,1024}/y;

/**
 * PEM private key blocks, BEGIN line to END line, whatever lies between
 * (newlines, the `\n` escapes of a JSON string, a YAML block's indent, the
 * quotes of a concatenated literal). Each character is read at most twice:
 * the END found for one BEGIN serves every BEGIN before it.
 */
function findPem(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let end = -2; // -2: not searched yet; -1: no END after the last search point
  let endAt = 0;
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const start = m.index;
    if (start < from) continue;
    const after = start + m[0].length;
    if (end === -2 || (end >= 0 && end < after)) {
      PEM_END.lastIndex = after;
      const e = PEM_END.exec(text);
      end = e ? e.index : -1;
      endAt = e ? e.index + e[0].length : 0;
    }
    if (end >= 0 && end - after <= MAX_PEM) {
      out.push({ start, end: endAt });
      from = endAt;
      PEM_BEGIN.lastIndex = endAt;
      continue;
    }
    // No END line (a cut block): the BEGIN line and the body that follows it.
    PEM_BODY.lastIndex = after;
    const body = PEM_BODY.exec(text)![0];
    const stop = after + body.trimEnd().length;
    out.push({ start, end: stop });
    from = stop;
    PEM_BEGIN.lastIndex = Math.max(stop, after);
  }
  return out;
}

/** Names that hold secrets (matched case-insensitively, anywhere in the name). */
const SECRET_NAME = anyCase(
  "(?:secret|token|passw(?:or)?d|pwd|passphrase|credential|auth|bearer|" +
    "(?:api|access|private|client|master|signing|encryption|account|storage|app)[_.-]?key|apikey)",
);

/** `source` in either case, letter by letter (`[Kk][Ee][Yy]` for `key`), so no `i` flag is needed. */
function anyCase(source: string): string {
  return source.replace(/(?<!\\|\[[^\]]*)[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
}
const OP = "(?::=|=>|=|:)";
/** Between an operator and its value: blanks, or a YAML block scalar's header and indent. */
const GAP = "[ \\t]{0,16}(?:[|>][-+1-9]{0,2}[ \\t]{0,16}\\r?\\n[ \\t]{0,64})?";
const TOKEN = "[A-Za-z0-9_\\-.~+/]";
/**
 * The quotes that open a value: none, one, a triple (`"""`, `'''`), each maybe escaped (`\\"`
 * in a JSON string that holds code: a notebook's cell source).
 */
const QUOTE = "(?:\\\\?[\"'`]|&quot;|&#3[49];){0,3}";
/** A quote (maybe escaped) that closes a name: `"api_key": …`, `\\"api_key\\": …`. */
const NAME_QUOTE = "(?:\\\\?[\"'])?";

/**
 * A value assigned to a secret-looking name, in any common syntax: `.env`
 * and shell (`export API_TOKEN=…`), YAML (`auth_token: …`, quoted or in a
 * block scalar), JSON (`"apiKey": "…"`), TOML and INI (`key = "…"`), and
 * literals in Python, JS/TS, Go (`:=`), Ruby (`=>`), Java, also as a subscript
 * (`SETTINGS["api_token"] = …`, `CONFIG[:api_token] = …`). It is looked for
 * from the operator (a lookahead checks that a token follows, then a
 * lookbehind that a name precedes): operators followed by a token are rare
 * in code, names that start like these are everywhere. Groups: `q` the
 * opening quote, `b` a `Bearer ` prefix, `v` the value.
 */
/** An HTTP authorization scheme before a token: `Bearer`, `Basic`, `Token`. */
const SCHEME = "(?:[Bb]earer|[Bb]asic|[Tt]oken)";
const NAMED_TOKEN = new RegExp(
  `(?=(?:${OP}|>)${GAP}${QUOTE}(?:${SCHEME}[ \\t]{1,4})?${TOKEN}{16})` +
    `(?<=${SECRET_NAME}[A-Za-z0-9_.-]{0,40}${NAME_QUOTE}\\]?[ \\t]{0,16})` +
    `(?:${OP}|>)${GAP}(?<q>${QUOTE})(?<b>(?:${SCHEME}[ \\t]{1,4})?)(?<v>${TOKEN}{16,1024}={0,2})`,
  "g",
);

/**
 * Whether the value of an assignment, from `text[at]` on, ends as it must: at its closing quote
 * `q` (the same quotes, escaped alike: `\\"` in a JSON string of code), or, unquoted, at a blank,
 * the line's end, a separator (`,;)}]#`, `&` of a query string, `<` of an XML element) or the
 * quote or escape of a string it sits in (`"API_TOKEN=…"` in a compose list, `…\\n"` in a notebook).
 */
function endsValue(text: string, at: number, q: string): boolean {
  if (q) return text.startsWith(q, at);
  return at >= text.length || UNQUOTED_END.test(text[at]);
}
const UNQUOTED_END = /[\s,;)}\]#&<"'`\\]/;

/** Whether `value` is HTTP Basic credentials: base64 of `user:password`. */
function isBasicCredentials(value: string): boolean {
  try {
    return /^[^:\s]{0,128}:\S{4,}$/.test(atob(value));
  } catch {
    return false;
  }
}

/** The rest of a token that a pattern's bound cut (64 KB at most: a key, not a file). */
const LONG_TOKEN = /[A-Za-z0-9_\-.~+/]{0,65536}={0,2}/y;
/** The rest of a quoted password that a pattern's bound cut, up to its line's end. */
const LONG_QUOTED = /[^\r\n"'`\\]{0,4096}/y;
/** The rest of an unquoted password that a pattern's bound cut, up to a blank. */
const LONG_UNQUOTED = /[^\s"'`\\]{0,4096}/y;
/** The rest of a pair's value past the part read at once, with its closing quote. */
const LONG_PAIR_VALUE = /[^\s"'`<]{0,65536}["'`]?/y;

/** Where a run of `pattern` (sticky) that starts at `at` ends. */
function runEnd(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return at + pattern.exec(text)![0].length;
}

/** The name before an operator at `at` (up to 64 characters back, on its line). */
function nameBefore(text: string, at: number): string {
  // Read back 64 characters at most: `lastIndexOf` would read to the text's start on a text
  // without newlines, for every match.
  let start = at;
  while (start > 0 && start > at - 64 && text.charCodeAt(start - 1) !== 10) start--;
  return text.slice(start, at);
}

const AWS_SECRET_NAME = /secret[_.-]?access[_.-]?key|aws[_.-]?secret/i;
const AZURE_SECRET = /^[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}$/;
const JWT = /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;

/**
 * Values assigned to secret-looking names ({@linkcode NAMED_TOKEN}), each
 * named by its shape: an AWS secret access key (40 base64 characters under
 * an AWS secret name), a JWT, a `Bearer` token, an Azure client secret, a
 * Twilio auth token, or any random-looking token of 20+ characters (upper
 * case, lower case and digits). Hex values are left to `hex-secret`.
 */
function findNamedTokens(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  for (const m of matchesAt(NAMED_TOKEN_AT, text, namesOf(text, hints).operators)) {
    const { q, b, v } = m.groups!;
    const start = m.index! + m[0].length - v.length;
    // A value as long as the pattern reads (an AWS session token) goes on to its end.
    const end0 = v.length < 1024 ? start + v.length : runEnd(LONG_TOKEN, text, start + v.length);
    let value = text.slice(start, end0);
    // The value ends at its closing quote, or (unquoted) at a blank, a separator or the line's end.
    if (!endsValue(text, end0, q)) continue;
    // `=` pads base64 only at its end
    if (/=[^=]/.test(value)) continue;
    const name = nameBefore(text, m.index!);
    let rule: string | undefined;
    if (AWS_SECRET_NAME.test(name) && /^[A-Za-z0-9/+]{40}$/.test(value)) rule = "aws";
    else if (JWT.test(value)) rule = "jwt";
    else if (AZURE_SECRET.test(value)) rule = "azure";
    else if (/twilio/i.test(name) && /^[0-9a-f]{32}$/.test(value)) rule = "twilio";
    else if (/^[0-9a-fA-F]+$/.test(value)) {
      // Hex: `hex-secret`, as NAMED_VALUE names it (which misses Go's `:=` and a YAML block)
      if (value.length < 32) continue;
      rule = "hex-secret";
    } else if (/^[Bb]asic/.test(b) && isBasicCredentials(value)) rule = "basicauth";
    else if (b && value.length >= 20 && /[0-9]/.test(value) && !isPlaceholder(value)) {
      rule = "bearer";
    } else if (looksRandom(value)) rule = "named-secret";
    if (!rule) continue;
    value = value.replace(/\.+$/, ""); // a sentence's full stop is not part of it
    out.push({ start, end: start + value.length, rule });
  }
  return out;
}

/**
 * Names whose value is a password whatever it looks like: the name ends in a password, API key
 * or token word (`DB_PASSWORD`, `passwd`, `admin_pwd`, `passphrase`, `client_secret`,
 * `SECRET_KEY`, `X-Api-Key`, `access_token`), not in another word after it (`password_file`,
 * `secretName`, `password_hash` name something else).
 */
const PASSWORD_NAME = anyCase(
  "(?:passw(?:or)?d|passwort|pwd|passphrase|secret|api[_.-]?key|apikey|" +
    "(?:access|auth|api|bearer|refresh|secret)[_.-]?token)(?:[_.-]?key|[_.-]?value)?",
);

/**
 * A value of 6+ characters without blanks assigned to a {@linkcode PASSWORD_NAME}, looked for
 * from the operator as {@linkcode NAMED_TOKEN} is (`>` too: `<password>…</password>`). Groups:
 * `op` the operator, `q` the opening quote, `v` the value up to a quote, escape, tab or line end
 * (up to a blank too when unquoted).
 */
const NAMED_PASSWORD = new RegExp(
  `(?=(?:${OP}|>)${GAP}${QUOTE}[^\\s"'\`\\\\=>]{6})` +
    `(?<=${PASSWORD_NAME}${NAME_QUOTE}\\]?[ \\t]{0,16})` +
    `(?<op>${OP}|>)(?<gap>${GAP})(?<q>${QUOTE})(?<v>[^\\r\\n\\t"'\`\\\\]{6,256})`,
  "g",
);

/**
 * The words that every name {@linkcode NAMED_VALUE}, {@linkcode NAMED_TOKEN} and
 * {@linkcode NAMED_PASSWORD} look behind for holds, in any case: `key`, `token`, `passw`, `pwd`,
 * `auth`, `passphrase`, `secret`, `credential`, `bearer`. Each is looked for from a letter rarer in
 * code than its first (`k`, `w`, `h`, `c`, `b`) and checked behind it; a match ends where its word
 * does, and holds at most 10 characters (`credential`).
 */
const NAME_WORD = new RegExp(
  [
    `${anyCase("ke")}(?:${anyCase("y")}|${anyCase("n")}(?<=${anyCase("token")}))`,
    `${anyCase("w")}(?:(?<=${anyCase("passw")})|${anyCase("d")}(?<=${anyCase("pwd")}))`,
    `${anyCase("h")}(?:(?<=${anyCase("auth")})|${anyCase("rase")}(?<=${anyCase("passphrase")}))`,
    `${anyCase("cre")}(?:${anyCase("t")}(?<=${anyCase("secret")})|${anyCase("dential")})`,
    anyCase("bearer"),
  ].join("|"),
  "g",
);
/**
 * What {@linkcode NAMED_TOKEN} and {@linkcode NAMED_PASSWORD} read between a name's word and the
 * operator: the rest of the name, a quote (maybe escaped), `]`, blanks. Each class differs from
 * the next, so a match of theirs ends its run exactly at its operator.
 */
const TOKEN_NAME_REST = /[A-Za-z0-9_.-]*(?:\\?["'])?\]?[ \t]*/y;
/** What {@linkcode NAMED_VALUE} reads between its name's word and the operator. */
const VALUE_NAME_REST = /[A-Za-z0-9_]*\\?["']?\s*/iy;

/** Where the operators of names' values may be in a text. */
export interface NameSpots {
  /** Each `:`, `=` and `>` where a name's rest ({@linkcode TOKEN_NAME_REST}) ends. */
  operators: number[];
  /** Each `:` and `=` where the rest of a name ({@linkcode VALUE_NAME_REST}) ends. */
  valueOperators: number[];
}

/** The {@linkcode NameSpots} of `text`, found once per {@linkcode TextHints}. */
function namesOf(text: string, hints?: TextHints): NameSpots {
  if (!hints) return nameSpots(text);
  return hints.names ??= nameSpots(text);
}

/**
 * Where the operators of {@linkcode NAMED_VALUE}, {@linkcode NAMED_TOKEN} and
 * {@linkcode NAMED_PASSWORD} matches may be, in one search for the words of their names
 * ({@linkcode NAME_WORD}) and one read of each name's rest: every match of theirs starts at one
 * of these positions (a match's name holds a word and its rest ends at the operator; a word the
 * search went past is in the same name as the word it found, whose rest is the same).
 *
 * @example
 * ```ts
 * import { nameSpots } from "./secret_rules.ts";
 * nameSpots("x = 1\nAPI_KEY = 'abc'\n").operators; // [14]
 * nameSpots("x = 1\nAPI_KEY = 'abc'\n").valueOperators; // [14]
 * ```
 */
export function nameSpots(text: string): NameSpots {
  const spots: NameSpots = { operators: [], valueOperators: [] };
  let tokenRest = -1; // where the last name's rests ended
  let valueRest = -1;
  NAME_WORD.lastIndex = 0;
  for (let m = NAME_WORD.exec(text); m; m = NAME_WORD.exec(text)) {
    const end = m.index + m[0].length;
    // A word that ends inside the last rest is in the same name: its rest ends there too.
    if (end > tokenRest) {
      tokenRest = runEnd(TOKEN_NAME_REST, text, end);
      const c = text.charCodeAt(tokenRest);
      if (c === 58 || c === 61 || c === 62) spots.operators.push(tokenRest); // : = >
    }
    if (end > valueRest) {
      valueRest = runEnd(VALUE_NAME_REST, text, end);
      const c = text.charCodeAt(valueRest);
      if (c === 58 || c === 61) spots.valueOperators.push(valueRest);
    }
  }
  return spots;
}

/**
 * Where an unquoted value stops though no blank follows: a separator before a blank or an escape
 * (`,` `;` `)` `}` `]`), the `&` of a query string's next parameter, the `<` of an element's end
 * tag.
 */
const UNQUOTED_STOP = /[,;)}\]](?=[\s,;)}\]\\]|$)|&(?=[A-Za-z0-9_.-]{1,64}=)|<(?=\/)/;
/** A placeholder's words (`your-password`, `changeme`, `example`), as {@linkcode PLACEHOLDER} has them. */
const PLACEHOLDER_WORD = new RegExp(PLACEHOLDER.source.replace("[${}<>%[\\]()]|", ""), "i");
/** A reference to a value kept elsewhere: `$VAR`, `${VAR}`, `{{ .Values.pw }}`, `%(pw)s`, `<pw>`. */
const REFERENCE = /^[$%<{[]|\$\{|\{\{|%\(|%[sd]|\$\(/;
/** Words of code (types, literals) that follow a password name unquoted: not values. */
const CODE_WORD =
  /^(?:boolean|number|bigint|object|unknown|undefined|symbol|buffer|bytes|string|true|false|null|none|nil|required|optional|readonly|private|public)$/i;
/** An identifier as code writes one: camelCase, PascalCase with a lower case letter first, snake_case. */
const CODE_NAME = /^[A-Za-z_$][\w$]*$/;

/** Whether `value` under a password name is a password, not a placeholder, a reference or code. */
function passwordLike(value: string, quoted: boolean): boolean {
  if (value.length < 6 || PLACEHOLDER_WORD.test(value) || REFERENCE.test(value)) return false;
  // Letters alone are a word or a name (`'passphrase'`, `"randomPassword"`), as is one character
  // repeated.
  if (/^[A-Za-z]+$/.test(value) || /^(.)\1*$/.test(value)) return false;
  // Words joined, no digit, one of them a secret's name: a test's stand-in (`new-password`).
  if (/^[A-Za-z]+(?:[-_][A-Za-z]+)+$/.test(value) && /pass|secret|key|token/i.test(value)) {
    return false;
  }
  // With blanks: a passphrase has a digit and does not end as a sentence does (`Try again.`).
  if (/ /.test(value) && (!/[0-9]/.test(value) || /[.!?:]$|^ | $/.test(value))) return false;
  // An environment variable's name (`"DB_PASSWORD"`), a path or a URL names where it is.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false;
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/)/.test(value)) return false;
  if (quoted) return true;
  // Unquoted, it may be code: a member (`self.password`), a name (`hashedPassword`), a type.
  if (/[()[\]{}|]/.test(value) || CODE_WORD.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  // A name of code has no digit (`hashedPassword`, `password_hash`); a password mostly has one.
  return !(CODE_NAME.test(value) && !/[0-9]/.test(value));
}

/**
 * Values assigned to a {@linkcode PASSWORD_NAME} whatever their shape (`DB_PASSWORD=hunter2x`,
 * `password: "correct-horse"`, `<password>…</password>`, `\"secret\": \"…\"`): quoted, the
 * value up to its closing quote; unquoted, up to the line's end or a separator, and only when it
 * does not read as code ({@linkcode passwordLike}). A `:` needs a blank after it when unquoted (a
 * CSS selector `.password:focus-visible` is not an assignment).
 */
function findNamedPasswords(
  text: string,
  hints?: TextHints,
): Array<{ start: number; end: number; rule?: string }> {
  const out: Array<{ start: number; end: number; rule?: string }> = [];
  const operators = namesOf(text, hints).operators;
  let from = 0;
  for (const at of operators) {
    if (at < from) continue;
    NAMED_PASSWORD_AT.lastIndex = at;
    const m = NAMED_PASSWORD_AT.exec(text);
    if (!m) continue;
    const start = m.index + m[0].length - m.groups!.v.length;
    const end = passwordEnd(text, m, start);
    if (end !== undefined) out.push({ start, end });
    // The match may run past an unquoted value's end (to a blank): go on from where it ends.
    from = end ?? start;
  }
  return out;
}

/** The named-value patterns tried at one position each (see {@linkcode nameSpots}). */
const NAMED_VALUE_AT = new RegExp(NAMED_VALUE.source, "iy");
const NAMED_TOKEN_AT = new RegExp(NAMED_TOKEN.source, "y");
const NAMED_PASSWORD_AT = new RegExp(NAMED_PASSWORD.source, "y");

/**
 * The matches of a sticky `pattern` at the positions `at` (ascending), each tried from where the
 * last match ended: what a search over the whole text finds when every match starts at one of them.
 */
function* matchesAt(pattern: RegExp, text: string, at: number[]): Generator<RegExpExecArray> {
  let from = 0;
  for (const i of at) {
    if (i < from) continue;
    pattern.lastIndex = i;
    const m = pattern.exec(text);
    if (!m) continue;
    from = i + m[0].length;
    yield m;
  }
}

/** Where the password of a {@linkcode NAMED_PASSWORD} match at `start` ends; undefined: none. */
function passwordEnd(text: string, m: RegExpExecArray, start: number): number | undefined {
  const { op, gap, q } = m.groups!;
  let value = m.groups!.v;
  // A quoted value as long as the pattern reads goes on to its closing quote.
  if (value.length === 256) {
    value = text.slice(start, runEnd(q ? LONG_QUOTED : LONG_UNQUOTED, text, start + 256));
  }
  if (!q) {
    // A blank ends it, and a sentence's full stop is not part of it.
    value = value.replace(/ .*/, "").replace(/\.+$/, "");
    const stop = text.slice(start, start + value.length + 1).search(UNQUOTED_STOP);
    if (stop >= 0) value = value.slice(0, stop);
    if (op === ":" && !gap) return undefined;
  } else if (op === ">") return undefined;
  else if (q.length > 1 && value.includes(q)) value = value.slice(0, value.indexOf(q));
  const end = start + value.length;
  if (!endsValue(text, end, q) || (op === ">" && text[end] !== "<")) return undefined;
  // Unquoted after `: ` or ` = ` and followed by more words on its line: prose (`pwd: expected
  // bytes, got …`). Written `NAME=value`, it is a value whatever follows.
  const spaced = op === ":" || /[ \t]/.test(text[m.index + op.length] ?? "");
  if (!q && spaced && /^[ \t]+[^\s#/]/.test(text.slice(end, end + 3))) return undefined;
  return passwordLike(value, q !== "") ? end : undefined;
}

/**
 * A name and its value written apart, each form with the substring a text needs for it: Dockerfile's
 * `ENV NAME value`, a YAML list entry (`- name: DB_PASSWORD` then `value: …`, Kubernetes and CI),
 * a JSON one (`{"name": "…", "value": "…"}`, ECS task definitions), XML settings
 * (`<add key="…" value="…"/>`), a call's name and value (`define('DB_PASSWORD', '…')`,
 * `os.getenv("API_KEY", "…")`, `env(…)`, `setdefault(…)`, `Setenv(…)`, `putenv(…)`) and `.netrc` (`machine … login … password …`). Group `n` is the
 * name; the value starts where the match ends. Each form starts at a literal (a call's at its `(`,
 * its name checked behind it: from the names' letters the search cost twice as much).
 */
const PAIR_FORMS: Array<{ hints: string[]; pattern: RegExp }> = [
  {
    hints: ["v"],
    pattern:
      /(?:ENV|env|Env)(?<=^[ \t]{0,16}...)[ \t]{1,16}(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})[ \t]{1,16}(?=[^\s=])/gm,
  },
  {
    hints: ["alue:"],
    pattern:
      /\bname:[ \t]{0,16}(?<q>["']?)(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})\k<q>[ \t]{0,16}\r?\n[ \t]{0,64}value:[ \t]{0,16}/g,
  },
  {
    hints: ['alue"'],
    pattern:
      /"name"[ \t]{0,16}:[ \t]{0,16}"(?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})"[ \t]{0,16},\s{0,64}"value"[ \t]{0,16}:[ \t]{0,16}/g,
  },
  {
    hints: ["alue="],
    pattern:
      /="(?<n>[A-Za-z_][A-Za-z0-9_.:-]{0,127})"[ \t]{1,16}value=(?<=(?:^|[^A-Za-z0-9_])(?:key|name)="[^"]{1,128}"[ \t]{1,16}value=)/g,
  },
  {
    hints: ["v", "("],
    pattern:
      /\((?<=(?:define|getenv|[Ee]nv|setdefault|[Ss]etenv|putenv)\()[ \t]{0,16}["'](?<n>[A-Za-z_][A-Za-z0-9_.-]{0,127})["'][ \t]{0,16},[ \t]{0,16}/g,
  },
  {
    hints: ["w"],
    pattern:
      /(?<n>passw(?:or)?d)(?<=(?:^[ \t]{0,64}|\blogin[ \t]{1,16}\S{1,128}[ \t]{1,16})passw(?:or)?d)[ \t]{1,16}(?=\S)/gm,
  },
];

/**
 * The hints of {@linkcode PAIR_FORMS} in one search, each looked for from a character rarer in
 * code than its first (the `v` of `ENV `, `env(` and `value:`; the `(` of `define(`; the `w` of
 * `passw`) and checked behind it: `v` (ENV and `env(`), `alue:`, `alue"`, `alue=` (`value`), `(`
 * (`define(`, `setdefault(`), `w` (`passw`). Twelve `includes` per text cost as much as the forms
 * themselves; `value` looked for from its `a` (every `a` of a text) cost twice its `v`.
 */
const PAIR_GATE =
  /[Vv](?:(?=[ \t(])(?<=(?:ENV|[Ee]nv))|(?<=v)alue[:"=])|\((?<=define\(|setdefault\()|w(?<=passw)/g;
/** How many hints {@linkcode PAIR_GATE} tells apart. */
const PAIR_HINTS = 6;

/** The hints of a text: the first characters of its {@linkcode TOKEN_GATE} prefixes, its {@linkcode PAIR_GATE} hints. */
export interface TextHints {
  /** The first character of each prefix found (each once): `A` for `AKIA`, `-` for `sk-`, … */
  families: string;
  /** The pair hints found (`v`, `alue:`, `alue"`, `alue=`, `(`, `w`). */
  pairs: Set<string>;
  /** Where names' operators may be ({@linkcode nameSpots}), once a rule has asked. */
  names?: NameSpots;
}

/**
 * {@linkcode TOKEN_GATE} and {@linkcode PAIR_GATE} in one search (group `pair`: the latter's): a
 * pass over a text where each took one. No match of the one holds the first character of a match
 * of the other (their first characters differ: `A g x . _ S - J ~ K` against `V v a ( w`, and
 * neither's matches hold the other's at a later character where it would match), so the
 * search finds what the two found apart. Group `option`: the `-` of the options that
 * `user-option` and `password-option` read (`-u `, `--user=`, `--password`, …), which each
 * searched a text for on its own; a match of theirs starts after a blank, where no other hint's
 * match is (none holds a blank, and `sk-`, `pypi-AgE`, `-----BEGIN` cannot start one).
 */
const HINT_GATE = new RegExp(
  `${TOKEN_GATE.source}|(?<pair>${PAIR_GATE.source})|` +
    `(?<option>-(?=u[ \\t=]|-user[ \\t=]|-(?:passw(?:or)?d|token|api-key|secret)))`,
  "g",
);

/**
 * The hints of `text` (see {@linkcode TextHints}), in one search that stops when it has found
 * every one.
 *
 * @example
 * ```ts
 * import { textHints } from "./secret_rules.ts";
 * textHints("ENV API_KEY AKIAQWERTYUIOPASDFGH").families; // "A"
 * ```
 */
export function textHints(text: string): TextHints {
  const hints: TextHints = { families: "", pairs: new Set() };
  HINT_GATE.lastIndex = 0;
  for (let m = HINT_GATE.exec(text); m; m = HINT_GATE.exec(text)) {
    // `V` and `v` are one hint (ENV), as `value:` and `alue:` are.
    if (m.groups!.pair !== undefined) hints.pairs.add(m[0][1] ? m[0].slice(1) : m[0].toLowerCase());
    else if (m.groups!.option !== undefined) {
      // `-u` and `--user` (`u`), or `--password` and the like (`o`)
      const family = text[m.index + 1] === "u" || text[m.index + 2] === "u" ? "u" : "o";
      if (!hints.families.includes(family)) hints.families += family;
    } else if (!hints.families.includes(m[0][0])) hints.families += m[0][0];
    if (hints.families.length === GATE_FAMILIES && hints.pairs.size === PAIR_HINTS) break;
  }
  return hints;
}

/** A name that may hold a secret: the names {@linkcode findNamedTokens} and passwords need. */
const PAIR_NAME = /secret|token|passw|pwd|passphrase|credential|auth|bearer|key/i;

/** How far past a pair's name its value is read: the longest value, its quotes and scheme. */
const PAIR_VALUE_CHARS = 300;

/**
 * The named tokens and passwords of name/value pairs ({@linkcode PAIR_FORMS}): each pair is read
 * as `NAME=value` (the rest of its line), by {@linkcode findNamedTokens} and
 * {@linkcode findNamedPasswords}, and the spans found are put back where the value is.
 */
function findPairs(
  text: string,
  hints: TextHints = textHints(text),
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  const found = hints.pairs;
  for (const form of PAIR_FORMS) {
    if (!form.hints.some((h) => found.has(h))) continue;
    form.pattern.lastIndex = 0;
    for (const m of text.matchAll(form.pattern)) {
      const name = m.groups!.n;
      if (PAIR_NAME.test(name)) out.push(...pairSecrets(text, name, m.index! + m[0].length));
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
  return [...findNamedTokens(line), ...passwords]
    .filter((f) => f.start > name.length)
    .map((f) => ({ ...f, start: f.start + shift, end: f.end + shift }));
}

/**
 * A PEM private key in base64 (`LS0tLS1CRUdJTi…`: a Kubernetes Secret's `tls.key`, a CI variable):
 * the whole run when its start decodes to a `-----BEGIN … PRIVATE KEY-----` line.
 */
const BASE64_PEM = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{50,100000}={0,2}/g;

function isBase64PrivateKey(value: string): boolean {
  try {
    return /^-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY/.test(atob(value.slice(0, 80)));
  } catch {
    return false;
  }
}

/** A YAML document that is a Kubernetes Secret: its `kind: Secret` line. */
const K8S_SECRET_KIND = /^kind:[ \t]{0,16}["']?Secret["']?[ \t]{0,16}\r?$/m;
/** Where a document ends: a `---` line. */
const YAML_DOCUMENT_END = /^---[ \t]{0,16}\r?$/gm;
/** A `data:` or `stringData:` key of a Secret (group 1: its indent). */
const K8S_DATA = /^([ \t]{0,64})(?:data|stringData):[ \t]{0,16}\r?$/gm;
/** An entry of a Secret's data: indent, key, then its value (group `v`). */
const K8S_ENTRY = /^([ \t]{0,64})[^\s:#][^:\r\n]{0,252}:[ \t]{1,16}(?<v>[^\r\n]{1,65536})/my;
/** A JSON Secret's `data` object (kubectl -o json): its entries' string values. */
const K8S_JSON_DATA = /"(?:data|stringData)"[ \t]{0,16}:[ \t]{0,16}\{(?<body>[^{}]{0,65536})\}/g;

/**
 * Every value of a Kubernetes Secret's `data` and `stringData` (YAML, each document on its own,
 * or JSON): base64 or plain, each is a secret whatever its name (`DATABASE_URL: cG9zdGdyZXM6…`).
 * A block scalar's lines (`key: |`) are redacted whole.
 */
function findK8sSecretData(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  // Document by document, each read once.
  for (let from = 0;;) {
    YAML_DOCUMENT_END.lastIndex = from;
    const end = YAML_DOCUMENT_END.exec(text);
    const doc = text.slice(from, end ? end.index : text.length);
    if (K8S_SECRET_KIND.test(doc)) {
      for (const span of k8sYamlData(doc)) {
        out.push({ start: span.start + from, end: span.end + from });
      }
    }
    if (!end) break;
    from = end.index + end[0].length;
  }
  if (!/"kind"[ \t]{0,16}:[ \t]{0,16}"Secret"/.test(text)) return out;
  K8S_JSON_DATA.lastIndex = 0;
  for (const m of text.matchAll(K8S_JSON_DATA)) {
    const at = m.index! + m[0].length - 1 - m.groups!.body.length;
    for (
      const v of m.groups!.body.matchAll(
        /"[^"\\\r\n]{1,253}"[ \t]{0,16}:[ \t]{0,16}"(?<v>[^"\\\r\n]{1,65536})"/g,
      )
    ) {
      const start = at + v.index! + v[0].length - 1 - v.groups!.v.length;
      out.push({ start, end: start + v.groups!.v.length });
    }
  }
  return out;
}

/** The values under each `data:` / `stringData:` of one YAML Secret document. */
function k8sYamlData(doc: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  K8S_DATA.lastIndex = 0;
  for (const m of doc.matchAll(K8S_DATA)) {
    const indent = m[1].length;
    let at = m.index! + m[0].length + 1;
    // Each entry is one line deeper than `data:`; a block scalar's lines deeper still.
    while (at < doc.length) {
      K8S_ENTRY.lastIndex = at;
      const e = K8S_ENTRY.exec(doc);
      if (!e || e[1].length <= indent) break;
      const valueAt = at + e[0].length - e.groups!.v.length;
      let end = at + e[0].length;
      const nextLine = () => doc.indexOf("\n", end) < 0 ? doc.length : doc.indexOf("\n", end);
      if (/^[|>]/.test(e.groups!.v)) {
        // The block's lines: those indented deeper than its key.
        for (let line = end + 1; line < doc.length;) {
          const lineEnd = doc.indexOf("\n", line) < 0 ? doc.length : doc.indexOf("\n", line);
          const text = doc.slice(line, lineEnd);
          if (text.trim() && text.search(/\S/) <= e[1].length) break;
          end = lineEnd;
          line = lineEnd + 1;
        }
        const first = doc.indexOf("\n", valueAt) + 1;
        out.push({ start: first + doc.slice(first, end).search(/\S|$/), end });
      } else out.push({ start: valueAt, end });
      at = nextLine() + 1;
    }
  }
  return out;
}

/** A password in a URL (`scheme://user:PASSWORD@host`), from its `://`. */
const URL_PASSWORD =
  /:\/\/(?<=[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/)[^\s:/@'"`<>\\]{0,256}:(?<v>[^\s/@'"`<>\\]{1,256})@(?=[A-Za-z0-9[])/g;
const DATABASE_SCHEME =
  /(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]+|cockroachdb|clickhouse)$/i;

/** The word itself, not a password: `user:password@host`, `user:my_passwd@host`. */
const URL_PASSWORD_WORD = /^(?:my|your|the|some|db)?[-_]?passw(?:or)?d[-_]?[0-9]{0,3}$/i;

/** URL passwords, named `database-connection-string` for database schemes, else `basicauth`. */
function findUrlPasswords(text: string): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  URL_PASSWORD.lastIndex = 0;
  for (const m of text.matchAll(URL_PASSWORD)) {
    const v = m.groups!.v;
    // A port is not a password; one of 1-5 characters is a test's `u:p@host`.
    // `%40` is a password's `@`, percent-encoded; `%s` is a format's placeholder.
    const decoded = v.replace(/%[0-9A-Fa-f]{2}/g, "x");
    if (v.length < 6 || isPlaceholder(decoded) || URL_PASSWORD_WORD.test(v)) continue;
    const end = m.index! + m[0].length - 1;
    const scheme = text.slice(Math.max(0, m.index! - 31), m.index!);
    const rule = DATABASE_SCHEME.test(scheme) ? "database-connection-string" : "basicauth";
    out.push({ start: end - v.length, end, rule });
  }
  return out;
}

/** A known prefix, then a bounded run of token characters, whole. */
function token(prefix: string, body: string, min: number, max = 255): RegExp {
  return new RegExp(`${NOT_BEFORE}${prefix}${body}{${min},${max}}${NOT_AFTER}`, "g");
}

const B62 = "[A-Za-z0-9]";
const B64URL = "[A-Za-z0-9_-]";

/**
 * The rule table, in the order that names merged findings: a rule earlier
 * in the list names a value two rules find at the same place.
 */
export const SECRET_SHAPES: SecretShape[] = [
  {
    id: "private-key",
    gate: "-",
    label: "private-key",
    kind: "PEM private key blocks (also JSON with `\\n` escapes and YAML block scalars)",
    hints: ["PRIVATE KEY"],
    find: findPem,
  },
  {
    id: "base64-private-key",
    label: "private-key",
    kind: "PEM private key blocks in base64 (`LS0tLS1CRUdJTi…`, a Kubernetes Secret's `tls.key`)",
    hints: ["LS0tLS1CRUdJTi"],
    pattern: BASE64_PEM,
    accept: isBase64PrivateKey,
  },
  {
    id: "aws-access-key-id",
    gate: "A",
    label: "aws",
    kind: "AWS access key id (`AKIA…`, `ASIA…`)",
    hints: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    id: "google-api-key",
    gate: "A",
    label: "google-api-key",
    kind: "Google / GCP API key (`AIza…`)",
    hints: ["AIza"],
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
  },
  {
    id: "azure-storage-key",
    gate: "K",
    label: "azure",
    kind: "Azure storage account key / SAS key in a connection string (`AccountKey=…`)",
    hints: ["AccountKey=", "AccessKey="],
    pattern:
      /(?<=(?:AccountKey|SharedAccessKey|AccessKey)=)(?<v>[A-Za-z0-9+/]{40,100}={0,2})(?![A-Za-z0-9+/=])/g,
  },
  {
    id: "azure-client-secret",
    gate: "~",
    label: "azure",
    kind: "Azure AD client secret (`…8Q~…`)",
    hints: ["Q~"],
    pattern:
      /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  {
    id: "github-token",
    gate: "g",
    label: "github",
    kind: "GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, fine-grained `github_pat_`)",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    pattern:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g,
  },
  {
    id: "gitlab-token",
    gate: "g",
    label: "gitlab",
    kind: "GitLab token (`glpat-`, `glptt-`, `gldt-`)",
    hints: ["glpat-", "glptt-", "gldt-"],
    pattern: token("gl(?:pat|ptt|dt)-", B64URL, 20),
  },
  {
    id: "slack-token",
    gate: "x",
    label: "slack",
    kind: "Slack token (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxe-`, `xapp-`)",
    hints: ["xox", "xapp-"],
    pattern: token("(?:xox[abposre]|xapp)-", "[A-Za-z0-9-]", 10),
  },
  {
    id: "slack-webhook",
    gate: ".",
    label: "slack",
    kind: "Slack webhook URL (`https://hooks.slack.com/services/…`)",
    hints: ["hooks.slack.com"],
    pattern:
      /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,255}/g,
  },
  {
    id: "stripe-key",
    gate: "_",
    label: "stripe",
    kind: "Stripe key (`sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`, `whsec_`)",
    hints: ["k_live_", "k_test_", "whsec_"],
    pattern: token("(?:[sr]k_(?:live|test)_|whsec_)", B62, 20),
  },
  {
    id: "sendgrid-key",
    gate: "S",
    label: "sendgrid",
    kind: "SendGrid API key (`SG.…`)",
    hints: ["SG."],
    pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  },
  {
    id: "twilio-key",
    gate: "AS",
    label: "twilio",
    kind: "Twilio account SID and API key SID (`AC…`, `SK…`; auth tokens under a Twilio name)",
    hints: ["AC", "SK"],
    pattern: /(?<![A-Za-z0-9])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9])/g,
  },
  {
    id: "openrouter-key",
    gate: "-",
    label: "openrouter-key",
    kind: "OpenRouter key (`sk-or-v1-…`)",
    hints: ["sk-or-"],
    pattern: /\bsk-or-v1-[A-Za-z0-9]{32,255}/g,
  },
  {
    id: "anthropic-key",
    gate: "-",
    label: "anthropic-key",
    kind: "Anthropic key (`sk-ant-…`)",
    hints: ["sk-ant-"],
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,512}/g,
  },
  {
    id: "openai-key",
    gate: "-",
    label: "openai-key",
    kind: "OpenAI key (`sk-proj-`, `sk-svcacct-`, `sk-admin-`, legacy `sk-…`)",
    hints: ["sk-"],
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,512}|[A-Za-z0-9]{32,255}(?![A-Za-z0-9_-]))/g,
  },
  {
    id: "npm-token",
    gate: "_",
    label: "npm",
    kind: "npm token (`npm_…`, `_authToken=` in `.npmrc`)",
    hints: ["npm_"],
    pattern: token("npm_", B62, 36),
  },
  {
    id: "npm-auth-token",
    gate: "_",
    label: "npm",
    kind: "npm token (`npm_…`, `_authToken=` in `.npmrc`)",
    hints: ["_authToken="],
    pattern: /_authToken=(?<v>[A-Za-z0-9_\-.+/=]{8,512})(?![^\s"'])/g,
    accept: (value) => !isPlaceholder(value),
  },
  {
    id: "pypi-token",
    gate: "-",
    label: "pypi",
    kind: "PyPI token (`pypi-AgE…`)",
    hints: ["pypi-AgE"],
    pattern: token("pypi-AgE", B64URL, 50, 1024),
  },
  {
    id: "jwt",
    gate: "J",
    label: "jwt",
    kind: "JSON Web Token (`eyJ….eyJ….…`)",
    hints: ["eyJ"],
    pattern:
      /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,1024}(?![A-Za-z0-9_-])/g,
  },
  {
    id: "hex-secret",
    label: "hex-secret",
    kind: "A hex value of 32+ digits assigned to a secret-looking name (`API_SECRET=4dac…`)",
    hints: [":", "="],
    find: findNamedValues,
  },
  {
    id: "url-password",
    label: "basicauth",
    kind:
      "Password in a URL (`scheme://user:PASSWORD@host`; `database-connection-string` for databases)",
    hints: ["://"],
    find: findUrlPasswords,
  },
  {
    id: "named-token",
    label: "named-secret",
    kind:
      "A token assigned to a secret-looking name: AWS secret access key, JWT, `Bearer` token, " +
      "Azure client secret, Twilio auth token, or any random token of 20+ characters",
    hints: [":", "=", ">"],
    find: findNamedTokens,
  },
  {
    id: "k8s-secret-data",
    label: "kubernetes-secret",
    kind: "Every value of a Kubernetes Secret's `data` and `stringData` (YAML or JSON)",
    hints: ["Secret"],
    find: findK8sSecretData,
  },
  {
    id: "user-option",
    gate: "u",
    label: "basicauth",
    kind: "The password of a `-u user:password` / `--user` option (curl, wget, httpie)",
    hints: ["-u", "--user"],
    pattern:
      /(?:-u|--user)(?<=(?:^|\s)(?:-u|--user))(?:[ \t]{1,4}|=)["']?[^\s:"'$]{1,128}:(?<v>[^\s"']{6,65536})/g,
    accept: (value) => !REFERENCE.test(value) && !isPlaceholder(value),
  },
  {
    id: "password-option",
    gate: "o",
    label: "password",
    kind: "The value of a `--password`, `--token`, `--api-key` or `--secret` option written apart",
    hints: ["--"],
    pattern:
      /--(?:password|passwd|token|api-key|secret)(?<=(?:^|\s)--[a-z-]{5,8})[ \t]{1,4}["']?(?<v>[^\s"'`]{6,65536})/g,
    accept: (value) => passwordLike(value, true),
  },
  {
    id: "named-password",
    label: "password",
    kind:
      "Any value of 6+ characters without blanks assigned to a name ending in a password word " +
      "(`DB_PASSWORD`, `passwd`, `pwd`, `passphrase`, `client_secret`, `SECRET_KEY`)",
    hints: [":", "=", ">"],
    find: findNamedPasswords,
  },
  {
    id: "name-value-pair",
    label: "named-secret",
    kind:
      "A secret whose name is written apart from it: `ENV NAME value`, `- name: …` / `value: …`, " +
      '`{"name": …, "value": …}`, `<add key="…" value="…"/>`, `.netrc`',
    hints: [],
    find: findPairs,
  },
  {
    id: "secret",
    label: "secret",
    kind: "Any value of 8+ characters assigned to a password, token or API key name (prose only)",
    hints: [],
    prose: true,
    pattern:
      /\b[A-Za-z0-9_]{0,40}?(?:api[_-]?key|secret|token|password|passwd)[A-Za-z0-9_]{0,40}["']?\s{0,8}[:=]\s{0,8}["']?(?<v>(?=[^\s"'`]{0,256}[A-Za-z])[^\s"'`]{8,256})/gi,
  },
];

/**
 * Every regular expression the rules run over a whole text, by name: each shape's pattern (by
 * its id) and those the rules written as code use. For the test that bounds what one attempt of
 * each can read (`tests/secrets/no_backtracking_test.ts`).
 *
 * @example
 * ```ts
 * import { SCAN_PATTERNS } from "./secret_rules.ts";
 * Object.keys(SCAN_PATTERNS).includes("NAMED_PASSWORD"); // true
 * ```
 */
export const SCAN_PATTERNS: Record<string, RegExp> = {
  TOKEN_GATE,
  NAMED_VALUE,
  MAP_VALUE,
  PEM_BEGIN,
  PEM_END,
  PEM_BODY,
  LONG_TOKEN,
  LONG_QUOTED,
  LONG_UNQUOTED,
  LONG_PAIR_VALUE,
  PAIR_GATE,
  NAMED_TOKEN,
  NAMED_PASSWORD,
  NAME_WORD,
  ...Object.fromEntries(PAIR_FORMS.map((f, i) => [`PAIR_FORMS[${i}]`, f.pattern])),
  URL_PASSWORD,
  K8S_SECRET_KIND,
  YAML_DOCUMENT_END,
  K8S_DATA,
  K8S_ENTRY,
  K8S_JSON_DATA,
  ...Object.fromEntries(SECRET_SHAPES.flatMap((s) => s.pattern ? [[s.id, s.pattern]] : [])),
};

/**
 * Every secret of `text` that the table finds (prose-only rules too with
 * `prose`), unsorted and possibly overlapping.
 *
 * @example
 * ```ts
 * import { findSecrets } from "./secret_rules.ts";
 * findSecrets('aws_access_key_id = "AKIAQWERTYUIOPASDFGH"');
 * // [{ start: 21, end: 41, rule: "aws" }]
 * ```
 */
export function findSecrets(
  text: string,
  options: { prose?: boolean; label?: (shape: SecretShape) => string } = {},
): SecretMatch[] {
  const out: SecretMatch[] = [];
  let hints: TextHints | undefined;
  for (const shape of SECRET_SHAPES) {
    if (shape.prose && !options.prose) continue;
    if (shape.gate) {
      hints ??= textHints(text);
      if (![...shape.gate].some((c) => hints!.families.includes(c))) continue;
    } // A gated rule runs on its family's texts: its own hints would cost a search each.
    else if (shape.hints.length && !shape.hints.some((h) => text.includes(h))) continue;
    const label = options.label?.(shape) ?? shape.label;
    if (shape.find) {
      for (const f of shape.find(text, hints ??= textHints(text))) {
        // A rule written as code may name its matches (`aws`, `jwt`, `key-map`, …).
        const rule = f.rule ?? label;
        if (f.end > f.start) out.push({ start: f.start, end: f.end, rule });
      }
      continue;
    }
    const pattern = shape.pattern!;
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const value = m.groups?.v ?? m[0];
      if (!value) continue;
      const start = m.index! + (m.groups?.v === undefined ? 0 : m[0].length - value.length);
      const end = start + value.length;
      if (shape.accept && !shape.accept(value, text, start, end)) continue;
      out.push({ start, end, rule: label });
    }
  }
  return out;
}

/**
 * Replace matches in `text` by `[REDACTED:<rule>]` (overlapping matches
 * merged: the earliest, then the longest, then the first found names the
 * merge); the findings give the 1-based line of each and its rule, never
 * the value.
 *
 * @example
 * ```ts
 * import { applyRedactions } from "./secret_rules.ts";
 * applyRedactions("a\nkey=XYZ", [{ start: 6, end: 9, rule: "k" }]);
 * // { text: "a\nkey=[REDACTED:k]", findings: [{ line: 2, rule: "k" }] }
 * ```
 */
export function applyRedactions(
  text: string,
  matches: SecretMatch[],
): { text: string; findings: Array<{ line: number; rule: string }> } {
  if (!matches.length) return { text, findings: [] };
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretMatch[] = [];
  for (const m of matches) {
    const last = merged[merged.length - 1];
    if (last && m.start < last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  let out = "";
  let at = 0;
  let line = 1;
  const findings: Array<{ line: number; rule: string }> = [];
  for (const m of merged) {
    line += countLineEnds(text, at, m.start);
    findings.push({ line, rule: m.rule });
    out += text.slice(at, m.start) + `[REDACTED:${m.rule}]`;
    line += countLineEnds(text, m.start, m.end);
    at = m.end;
  }
  return { text: out + text.slice(at), findings };
}

/**
 * Line ends in `text` from `from` to `to`, as a finding's line counts them: `\n`, and a `\r`
 * not followed by `\n` (old Mac and CR-only files), so `\r\n` counts once. Reads that span
 * only, and the character after a `\r`.
 *
 * @example
 * ```ts
 * import { countLineEnds } from "./secret_rules.ts";
 * countLineEnds("a\r\nb\rc\nd", 0, 8); // 3
 * ```
 */
export function countLineEnds(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}
