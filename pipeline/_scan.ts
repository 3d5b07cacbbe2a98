/**
 * The secret scan of one text: slop's rule table (`secret_rules.ts`), the
 * user's rules and secretlint's recommended preset, each match redacted in
 * place. Imports only the rule table at load time (secretlint is loaded on
 * the first text that needs it), so the scan workers (`_scan_worker.ts`)
 * start quickly. The stage around it is `secrets.ts`.
 *
 * @module
 */

import { loadMnemonicCheck, mnemonicQuestions } from "./_bip39.ts";
import {
  applyRedactions,
  findSecrets,
  NAMED_VALUE,
  NAMED_VALUE_SPEC,
  SECRET_SHAPES,
} from "./secret_rules.ts";

export { NAMED_VALUE, NAMED_VALUE_SPEC };

/** A compiled redaction rule. */
export interface SecretRule {
  /** Rule name, shown as `[REDACTED:<name>]`. */
  name: string;
  /** Global regular expression; with a capture group, only group 1 is redacted. */
  pattern: RegExp;
}

/** Options of {@linkcode redactText}. */
export interface RedactOptions {
  /** The user's rules (`secrets.rules`: name -> regular expression source). */
  rules?: Record<string, string>;
  /** Run secretlint's recommended preset too. @default {true} */
  secretlint?: boolean;
  /** Skip secretlint on texts without any {@linkcode SECRETLINT_HINTS} substring. @default {true} */
  prefilter?: boolean;
}

/** A text after redaction. */
export interface Redaction {
  /** The text with every match replaced by `[REDACTED:<rule>]`. */
  text: string;
  /** What was found: line (1-based) and rule, never the value. */
  findings: Array<{ line: number; rule: string }>;
}

/**
 * slop's own `sk-` rules (OpenRouter, Anthropic, OpenAI keys): the rules of
 * the table ({@linkcode SECRET_SHAPES}) whose keys start with `sk-`, as a
 * {@linkcode SecretRule} each.
 */
export const SLOP_SECRET_RULES: SecretRule[] = SECRET_SHAPES
  .filter((s) => s.pattern && s.hints.every((h) => h.startsWith("sk-")) && s.hints.length)
  .map((s) => ({ name: s.label, pattern: s.pattern! }));

/** `word` in either case, letter by letter (`[Kk][Ee][Yy]` for `key`), as the hints spell it. */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
}

// Hints spelled once, for RULE_HINTS and the faster HINT_SEARCH.
const SECRET_ACCESS_KEY = `${anyCase("secret")}_?${anyCase("access")}_?${anyCase("key")}`;
const ACCOUNT = `${anyCase("account")}_?(?:${anyCase("id")})?["']?\\s*`;
const ACCOUNT_VALUE = `(?::|=>|=)\\s*["']?[0-9]{4}`;
const HOOKS_SLACK = `${anyCase("hooks")}\\.${anyCase("slack")}`;
const MONGODB = anyCase("mongodb");
const POSTGRES = anyCase("postgres");
const MYSQL = anyCase("mysql");
const BASIC_AUTH = "://[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@";

/**
 * Each rule of secretlint's recommended preset (13.0.7) with substrings one
 * of which it needs to report anything (checked rule by rule against the
 * pinned preset's source: every pattern of the rule starts with, or holds,
 * one of them; the case-insensitive ones are matched so). A hinted text runs
 * only the rules whose hints it holds, plus `gcp` (it looks at `.json` and
 * `.p12` files by name, whatever they hold) and `filter-comments` (it drops
 * findings under `secretlint-disable` comments): the rules left out cannot
 * report on it, so the messages are those of the whole preset. Large
 * bundled JavaScript holds `npm_` and `sk-` and was scanned by all 28 rules;
 * a test file that mentions `mongodb` ran 28 rules for one.
 */
const RULE_HINTS: Array<{ rule: string; source: string }> = [
  { rule: "aws", source: "A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA" }, // access key id
  // secret access key, account id (case-insensitive supersets of the rule's names)
  { rule: "aws", source: SECRET_ACCESS_KEY },
  { rule: "aws", source: ACCOUNT + ACCOUNT_VALUE },
  { rule: "privatekey", source: "private_key|PRIVATE KEY" }, // (gcp's JSON key too: gcp always runs)
  { rule: "slack", source: `xox[bpaor]|xapp|${HOOKS_SLACK}` },
  { rule: "basicauth", source: BASIC_AUTH },
  { rule: "database-connection-string", source: `${MONGODB}|${MYSQL}|${POSTGRES}` },
  { rule: "groq", source: "gsk_" },
  { rule: "huggingface", source: "hf_" },
  { rule: "linear", source: "lin_api_" },
  { rule: "notion", source: "ntn_" },
  { rule: "sendgrid", source: "SG\\." },
  { rule: "shopify", source: "shp(?:pa|ca|at|ss)_" },
  { rule: "stripe", source: "[sr]k_(?:live|test)_" },
  { rule: "github", source: "gh[pousr]_|github_pat_" },
  { rule: "gitlab", source: "glpat-" },
  { rule: "grafana", source: "glc_|glsa_" },
  { rule: "hashicorp-vault", source: "hv[sbr]\\." },
  { rule: "vercel", source: "vc[piark]_" },
  { rule: "docker", source: "dckr_pat_" },
  { rule: "figma", source: "figd_" },
  { rule: "cloudflare", source: "cf(?:k|ut|at)_" },
  { rule: "tailscale", source: "tskey-" },
  { rule: "npm", source: "_authToken=|npm_|x-oauth-basic" },
  { rule: "openai", source: "sk-" },
  { rule: "anthropic", source: "sk-" },
  { rule: "1password", source: "ops_" },
  { rule: "databricks", source: "dapi" },
];
/** The rules every hinted text runs (see {@linkcode RULE_HINTS}). */
const ALWAYS_RULES = ["gcp", "filter-comments"];
/** One test per rule: its hints joined. */
const RULE_GATES = [...new Set(RULE_HINTS.map((h) => h.rule))].map((rule) => ({
  rule,
  hints: new RegExp(RULE_HINTS.filter((h) => h.rule === rule).map((h) => h.source).join("|")),
}));

/**
 * Substrings at least one of which every rule of secretlint's recommended
 * preset (13.0.7) needs to match; a text with none of them cannot produce a
 * finding, so secretlint is skipped for it. Tied to the pinned version: the
 * rule list is checked by a test.
 */
export const SECRETLINT_HINTS: RegExp = new RegExp(
  [...new Set(RULE_HINTS.map((h) => h.source))].join("|"),
);

/**
 * {@linkcode SECRETLINT_HINTS} spelled to be cheap to search: a text holds a match of one exactly
 * when it holds a hint, but each hint is looked for from one of its rarer characters (`k`, `g`,
 * `x`, `A`, `q`, `h`, `p`, `_`, `@`, the `:` or `=` of `account_id = …`) instead of from its first
 * one. Each alternative reads the hint forward from that character and then checks the whole hint
 * behind it with a lookbehind (`k(?:ey(?<=private_key)|…)`), so a match is always a whole hint,
 * and every hint has such a character. V8 skips quickly over the characters no alternative starts
 * with; from the first character it would try every alternative at most positions of a text. A
 * test compares the two on generated texts.
 *
 * @example
 * ```ts
 * import { HINT_SEARCH } from "./_scan.ts";
 * HINT_SEARCH.test("key = 'AKIAABCDEFGHIJKLMNOP'"); // true
 * HINT_SEARCH.test("def add(a, b):\n    return a + b\n"); // false
 * ```
 */
export const HINT_SEARCH: RegExp = new RegExp(
  [
    // k or K, then the rest of: key, s.slack, -, r_pat_, _…_, en= (one group over three lines)
    `[Kk](?:${anyCase("ey")}(?:(?<=${SECRET_ACCESS_KEY}|private_key|PRIVATE KEY)|-(?<=tskey-))`,
    `${anyCase("s")}\\.${anyCase("slack")}(?<=${HOOKS_SLACK})|-(?<=sk-)|r_pat_(?<=dckr_pat_)`,
    `_(?:(?:live|test)_(?<=[sr]k_(?:live|test)_)|(?<=cfk_))|en=(?<=_authToken=))`,
    `[Gg](?:${anyCase("odb")}(?<=${MONGODB})|${anyCase("res")}(?<=${POSTGRES}))`,
    `g(?:sk_|h[pousr]_|ithub_pat_|l(?:pat-|c_|sa_)|d_(?<=figd_))|G\\.(?<=SG\\.)`,
    `x(?:ox[bpaor]|app|-oauth-basic)|A(?:3T[A-Z0-9]|KIA|GPA|IDA|ROA|IPA|NPA|NVA|SIA)`,
    `${ACCOUNT_VALUE}(?<=${ACCOUNT}${ACCOUNT_VALUE})|@(?<=${BASIC_AUTH})`,
    `[Qq][Ll](?<=${MYSQL})|h(?:f_|v[sbr]\\.)|pi(?<=dapi)`,
    `_(?:(?<=(?:ntn|npm|ops|vc[piark]|cf(?:ut|at)|shp(?:pa|ca|at|ss))_)|api_(?<=lin_api_))`,
  ].join("|"),
);

/**
 * secretlint's rules for kinds that slop's rule table covers in every syntax (its findings for
 * them are dropped: see {@linkcode redactText}).
 */
const TABLE_COVERS = new Set([
  "aws",
  "privatekey",
  "basicauth",
  "database-connection-string",
  "github",
  "gitlab",
  "slack",
  "stripe",
  "sendgrid",
  "npm",
  "openai",
  "anthropic",
]);

/** The rule ids of secretlint's preset that {@linkcode SECRETLINT_HINTS} covers. */
export const SECRETLINT_RULE_IDS: string[] = [
  "aws",
  "gcp",
  "npm",
  "slack",
  "basicauth",
  "openai",
  "anthropic",
  "groq",
  "huggingface",
  "linear",
  "notion",
  "privatekey",
  "sendgrid",
  "shopify",
  "stripe",
  "github",
  "gitlab",
  "grafana",
  "1password",
  "database-connection-string",
  "hashicorp-vault",
  "vercel",
  "databricks",
  "docker",
  "figma",
  "cloudflare",
  "tailscale",
  "filter-comments",
];

/**
 * Compile the user's rules; throws naming the key path of a bad pattern.
 *
 * @example
 * ```ts
 * import { userSecretRules } from "./_scan.ts";
 * userSecretRules({ internal: "ACME-[0-9]{8}" })[0].name; // "internal"
 * ```
 */
export function userSecretRules(rules: Record<string, string>): SecretRule[] {
  return Object.entries(rules).map(([name, source]) => {
    try {
      return { name, pattern: new RegExp(source, "g") };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`Invalid regular expression at "secrets.rules.${name}": ${detail}`);
    }
  });
}

/**
 * Problems of `secrets.rules` (bad patterns, patterns that match the empty
 * string), each naming its key path.
 *
 * @example
 * ```ts
 * import { checkSecretRules } from "./_scan.ts";
 * checkSecretRules({ bad: "(" }).length; // 1
 * ```
 */
export function checkSecretRules(rules: Record<string, string> | undefined): string[] {
  const problems: string[] = [];
  for (const [name, source] of Object.entries(rules ?? {})) {
    if (typeof source !== "string") continue;
    try {
      if (new RegExp(source).test("")) {
        problems.push(`"secrets.rules.${name}" matches the empty string: "${source}"`);
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      problems.push(`Invalid regular expression at "secrets.rules.${name}": ${detail}`);
    }
  }
  return problems;
}

interface Match {
  start: number;
  end: number;
  rule: string;
}

/**
 * Find and redact secrets in one text.
 *
 * @param text The text to scan.
 * @param path Its path (secretlint picks rules by extension).
 * @param options User rules and whether to run secretlint.
 * @returns The redacted text and the findings (line and rule).
 *
 * @example
 * ```ts
 * import { redactText } from "./_scan.ts";
 * const { text } = await redactText("KEY=sk-or-v1-" + "ab".repeat(32) + "\n", ".env");
 * text; // "KEY=[REDACTED:openrouter-key]\n"
 * ```
 */
export async function redactText(
  text: string,
  path: string,
  options: RedactOptions = {},
): Promise<Redaction> {
  const hinted = options.prefilter === false || HINT_SEARCH.test(text);
  const asked = mnemonicQuestions();
  let matches = ownMatches(text, options.rules ?? {}, path);
  // Words alone that might be a wallet's recovery words: scanned again with the checksum loaded.
  if (mnemonicQuestions() !== asked) {
    await loadMnemonicCheck();
    matches = ownMatches(text, options.rules ?? {}, path);
  }
  if (options.secretlint !== false && hinted) {
    const found: Match[] = [];
    await collectSecretlint(asLines(text, path), path, found, options.prefilter !== false);
    // The table finds exactly the value; secretlint's range can start before it or end inside
    // it (its AWS secret rule: the key name and part of the value). Its rules for kinds the table
    // covers are left to the table (which declines test URLs such as `http://u:p@host`); where
    // another of its rules overlaps a match of the table, the table's span stands.
    for (const f of found) {
      if (TABLE_COVERS.has(f.rule)) continue;
      if (!matches.some((m) => m.start < f.end && f.start < m.end)) matches.push(f);
    }
  }
  return apply(text, matches);
}

/**
 * {@linkcode redactText} of a text that secretlint would not scan (none of
 * {@linkcode SECRETLINT_HINTS}), synchronously and without loading
 * secretlint: the same result. `undefined` for a text that secretlint must
 * scan (a thread that has not loaded it can hand such a text to one that has),
 * and for words alone that need the recovery words' check before it is loaded.
 *
 * @example
 * ```ts
 * import { redactUnlessHinted } from "./_scan.ts";
 * redactUnlessHinted("x = 1\n")?.findings; // []
 * redactUnlessHinted("key = 'AKIA…'"); // undefined: secretlint scans it
 * ```
 */
export function redactUnlessHinted(
  text: string,
  options: Omit<RedactOptions, "prefilter"> & { path?: string } = {},
): Redaction | undefined {
  const secretlint = options.secretlint !== false;
  if (secretlint && HINT_SEARCH.test(text)) return undefined;
  const asked = mnemonicQuestions();
  const matches = ownMatches(text, options.rules ?? {}, options.path);
  // (words alone that need the mnemonic check this thread has not loaded: as a hinted text)
  return mnemonicQuestions() === asked ? apply(text, matches) : undefined;
}

/**
 * Redact a message synchronously with slop's own rules and the user's rules
 * (not secretlint's): for warnings and errors that quote input, such as a
 * parser's excerpt of a broken history or config file.
 *
 * @example
 * ```ts
 * import { redactMessage } from "./_scan.ts";
 * redactMessage(`bad line: KEY=sk-or-v1-${"ab".repeat(32)}`);
 * // "bad line: KEY=[REDACTED:openrouter-key]"
 * ```
 */
export function redactMessage(message: string, rules: Record<string, string> = {}): string {
  return redactSync(message, rules).text;
}

/**
 * Where to cut `text` at or before `at` so that no secret is cut in two (slop's own rules and
 * the user's): `at` itself, or the start of a secret the cut would break. A key cut in two keeps
 * a first part that no rule knows once the rest is gone; a URL's password cut from its `@host`,
 * or a value with `mark` (what the cut text ends with, such as `...`) glued to it, is no longer
 * found either. So the cut text and its mark are scanned again, and where a secret the whole
 * text holds before the cut is not found whole in them, the cut moves to its start (the key is
 * left out whole).
 *
 * @example
 * ```ts
 * import { cutOutsideSecrets } from "./_scan.ts";
 * cutOutsideSecrets(`key ghp_${"a1B2".repeat(9)} here`, 20); // 4 (before the token)
 * ```
 */
export function cutOutsideSecrets(
  text: string,
  at: number,
  options: { rules?: Record<string, string>; mark?: string } = {},
): number {
  const rules = options.rules ?? {};
  const whole = ownMatches(text, rules);
  let cut = Math.min(at, text.length);
  for (;;) {
    const shown = ownMatches(text.slice(0, cut) + (options.mark ?? ""), rules);
    const lost = whole.find((m) =>
      m.start < cut && !shown.some((f) => f.start <= m.start && f.end >= Math.min(m.end, cut))
    );
    if (!lost) return cut;
    cut = lost.start;
  }
}

/**
 * {@linkcode redactText} without secretlint, synchronously: slop's own rules
 * and the user's. For hot or synchronous paths (knowledge lines, messages).
 *
 * @example
 * ```ts
 * import { redactSync } from "./_scan.ts";
 * redactSync(`API_SECRET=${"4d".repeat(32)}`).findings; // [{ line: 1, rule: "hex-secret" }]
 * ```
 */
export function redactSync(text: string, rules: Record<string, string> = {}): Redaction {
  return apply(text, ownMatches(text, rules));
}

/** slop's own matches (the rule table) and the user's; `path` is the file's the text is. */
function ownMatches(text: string, rules: Record<string, string>, path?: string): Match[] {
  const lines = asLines(text, path);
  const matches: Match[] = findSecrets(lines, { path });
  for (const rule of userSecretRules(rules)) collect(lines, rule, matches);
  return matches;
}

/** A line end other than LF and CRLF: a lone CR, NEL, U+2028, U+2029, a form feed, a vertical tab. */
const OTHER_LINE_END = /\r(?!\n)|[\v\f\u0085\u2028\u2029]/;
const OTHER_LINE_ENDS = new RegExp(OTHER_LINE_END.source, "g");

/** A make file, by its name (`Makefile`, `GNUmakefile`, `rules.mk`). */
const MAKE_FILE = /(?:^|\/)(?:GNUmakefile|[Mm]akefile)$|\.(?:mk|make)$/;
/** GNU make's `::=` and `:::=` after a name (`PASSWORD ::= …`): the colons before a `:=`. */
const MAKE_ASSIGNMENT = /(?<=[\w.-][ \t]*):{1,2}(?=:=)/g;

/**
 * The text as the rules read it: each other line end (a lone CR, NEL, the line and paragraph
 * separators, a form feed, a vertical tab) an LF, one character for one, so that a match's
 * offsets are the text's own. The rules read lines by LF: a file of other line ends was one line
 * to them, and a setting after a separator (`password: …`) was kept, as a reader sees it a line.
 * In a make file (`path`), the extra colons of `::=` and `:::=` are blanks: the rules know `:=`.
 */
function asLines(text: string, path?: string): string {
  const lines = OTHER_LINE_END.test(text) ? text.replace(OTHER_LINE_ENDS, "\n") : text;
  if (!path || !lines.includes("::=") || !MAKE_FILE.test(path)) return lines;
  return lines.replace(MAKE_ASSIGNMENT, (colons) => " ".repeat(colons.length));
}

function collect(text: string, rule: SecretRule, out: Match[]): void {
  rule.pattern.lastIndex = 0;
  for (const m of text.matchAll(rule.pattern)) {
    if (!m[0]) continue;
    if (m[1] !== undefined) {
      const at = m.index! + m[0].indexOf(m[1]);
      if (m[1]) out.push({ start: at, end: at + m[1].length, rule: rule.name });
    } else {
      out.push({ start: m.index!, end: m.index! + m[0].length, rule: rule.name });
    }
  }
}

async function collectSecretlint(
  text: string,
  path: string,
  out: Match[],
  gate: boolean,
): Promise<void> {
  // Loaded only when a text needs it: a scan worker that never does starts without the deps.
  const { loadSecretlint } = await import("../deps.ts");
  const { lintSource, preset } = await loadSecretlint();
  const result = await lintSource({
    // Only the name is passed: rules that would re-read the file (GCP .p12) find nothing.
    source: { filePath: `/${path}`, content: text, contentType: "text" },
    options: {
      config: {
        rules: [{
          id: "@secretlint/secretlint-rule-preset-recommend",
          rule: gate ? presetFor(text, preset) : preset,
        }],
      },
      maskSecrets: true,
    },
  });
  for (const message of result.messages) {
    if (message.type !== "message" || !message.range) continue;
    const [start, end] = message.range;
    if (end <= start) continue;
    out.push({ start, end, rule: message.ruleId.replace(/^@secretlint\/secretlint-rule-/, "") });
  }
}

/**
 * The secretlint rules a hinted text needs (see {@linkcode RULE_HINTS}), in
 * the preset's order.
 *
 * @example
 * ```ts
 * import { secretlintRulesFor } from "./_scan.ts";
 * secretlintRulesFor("const t = process.env.npm_token;"); // ["gcp", "npm", "filter-comments"]
 * secretlintRulesFor("AKIA…"); // ["aws", "gcp", "filter-comments"]
 * ```
 */
export function secretlintRulesFor(text: string): string[] {
  const ids = new Set(ALWAYS_RULES);
  for (const gate of RULE_GATES) if (gate.hints.test(text)) ids.add(gate.rule);
  return SECRETLINT_RULE_IDS.filter((id) => ids.has(id));
}

/** A secretlint preset creator (the pinned preset, or the same with fewer rules). */
interface Preset {
  rules: Array<{ meta: { id: string } }>;
  create(context: { registerRule(rule: unknown): void }, options: unknown): void;
}

/**
 * The preset for a text: a copy (same id) that registers just the rules of
 * its hints ({@linkcode secretlintRulesFor}), in the preset's order. The
 * messages are those of the whole preset: the rules left out cannot match the text.
 */
function presetFor<T>(text: string, preset: T): T {
  const whole = preset as unknown as Preset;
  const ids = secretlintRulesFor(text);
  if (ids.length === whole.rules.length) return preset;
  const rules = whole.rules.filter((r) => ids.includes(r.meta.id.replace(RULE_PREFIX, "")));
  const subset: Preset = {
    ...whole,
    rules,
    create(context) {
      rules.forEach((rule) => context.registerRule(rule));
    },
  };
  return subset as unknown as T;
}

const RULE_PREFIX = /^@secretlint\/secretlint-rule-/;

/** Replace matches (overlaps merged, the earliest rule names the merge) from the end. */
function apply(text: string, matches: Match[]): Redaction {
  return applyRedactions(text, withRepeats(text, matches));
}

/** How many distinct values {@linkcode withRepeats} looks for again in one text. */
const MAX_REPEATED_VALUES = 64;

/**
 * `matches` and every other place in `text` that repeats one of their values whole: a secret
 * found where a rule reads it (`with password "mysupersecretpassword"` in a comment) is hidden
 * too where no rule would (`dbpassword: mysupersecretpassword` below it). Only values of one line
 * that are unlikely as other text are looked for: 12+ letters, or 8+ characters with a digit or
 * a mark other than `-`, `_` and `.`. Shorter words (`postgres`, `nextcloud`: also an image's
 * name) and words joined (`redis-ca`: a secret's name taken for one) are not. A place counts
 * when no letter, digit or `_` touches it on either side (`somewordpress` holds no `wordpress`,
 * and `password@host` no `password@`).
 * At most {@linkcode MAX_REPEATED_VALUES} values are looked for, so the work stays linear.
 */
function withRepeats(text: string, matches: Match[]): Match[] {
  if (!matches.length) return matches;
  const values = new Map<string, string>();
  for (const m of matches) {
    if (values.size >= MAX_REPEATED_VALUES) break;
    const value = text.slice(m.start, m.end);
    if (value.length > 1024 || /[\r\n]/.test(value)) continue;
    if (/^[A-Za-z]{12,}$/.test(value) || (value.length >= 8 && /[^A-Za-z_.-]/.test(value))) {
      if (!values.has(value)) values.set(value, m.rule);
    }
  }
  const out = [...matches];
  const starts = new Set(matches.map((m) => m.start));
  for (const [value, rule] of values) {
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
      const end = at + value.length;
      if (WORD.test(text[at - 1] ?? "") || WORD.test(text[end] ?? "")) continue;
      if (!starts.has(at)) out.push({ start: at, end, rule });
    }
  }
  return out;
}

/** A character that continues a word. */
const WORD = /^[A-Za-z0-9_]$/;
