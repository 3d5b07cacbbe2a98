import assert from "node:assert/strict";
import { SCAN_PATTERNS } from "../../pipeline/secret_rules.ts";
import { redactSync } from "../../pipeline/_scan.ts";

/**
 * The most characters one attempt of a pattern can read from where it starts (lookarounds
 * included): a sum over a sequence, the largest alternative, `{n,m}` times its atom's bound.
 * `*`, `+` and `{n,}` are unbounded (Infinity). With every quantifier bounded, an attempt costs
 * a bounded number of steps whatever the input, so a scan is linear in the text's length.
 */
export function attemptBound(source: string): number {
  const groups = new Map<string, number>();
  let i = 0;
  const alternation = (): number => {
    let best = sequence();
    while (source[i] === "|") {
      i++;
      best = Math.max(best, sequence());
    }
    return best;
  };
  const sequence = (): number => {
    let sum = 0;
    while (i < source.length && source[i] !== "|" && source[i] !== ")") sum += quantified(atom());
    return sum;
  };
  const quantified = (inner: number): number => {
    const c = source[i];
    let times = 1;
    if (c === "*" || c === "+") {
      i++;
      times = Infinity;
    } else if (c === "?") {
      i++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (m) {
        i += m[0].length;
        times = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
      }
    }
    if (source[i] === "?" && times !== 1) i++; // lazy
    return inner === 0 ? 0 : inner * times;
  };
  const atom = (): number => {
    const c = source[i];
    if (c === "(") {
      i++;
      const name = /^\?<([A-Za-z_]\w*)>/.exec(source.slice(i));
      if (name) i += name[0].length;
      else if (/^\?(?:<[=!]|[:=!])/.test(source.slice(i))) i += source[i + 1] === "<" ? 3 : 2;
      const inner = alternation();
      assert.equal(source[i], ")", `unbalanced group in ${source}`);
      i++;
      if (name) groups.set(name[1], inner);
      return inner;
    }
    if (c === "[") {
      i++;
      if (source[i] === "^") i++;
      if (source[i] === "]") i++;
      while (source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      i++;
      return 1;
    }
    if (c === "\\") {
      const ref = /^\\k<(\w+)>/.exec(source.slice(i));
      if (ref) {
        i += ref[0].length;
        return groups.get(ref[1]) ?? Infinity;
      }
      const e = source[i + 1];
      i += 2;
      if (e === "b" || e === "B") return 0;
      if (e === "u" || e === "x") {
        i += source[i] === "{" ? source.indexOf("}", i) - i + 1 : e === "u" ? 4 : 2;
      }
      return 1;
    }
    i++;
    return c === "^" || c === "$" ? 0 : 1;
  };
  const bound = alternation();
  assert.equal(i, source.length, `parsed ${i} of ${source.length} characters of ${source}`);
  return bound;
}

/**
 * Patterns with an unbounded quantifier, and why each stays linear: an unbounded run of one
 * character class that no alternative of the pattern re-reads.
 */
const UNBOUNDED: Record<string, string> = {
  NAMED_VALUE:
    "runs of blanks and of name characters, read once per operator (bench: hex after names)",
  MAP_VALUE: "runs only inside one `{…}` map of at most 64 KB, each value a run of one class",
  NAMED_VALUE_SPEC: "no rule runs it: the plain spelling of NAMED_VALUE that a test compares",
  PIECE: "steps over one value a rule found, piece by piece, each piece a run of one class",
  REDIS_DIRECTIVE: "once for each `requirepass` or `masterauth` at a line's start: the blanks " +
    "after its value, to that line's end, read once",
  VARIABLE_DEFAULT: "runs on one Terraform variable block's text, 2 KB at most",
  HOST_TOKEN: "the blanks around a Composer member's `:`, read once: a key's members are " +
    "read up to the next key",
  MEMBER_GAP: "the blanks and commas between two Composer members, read once",
  TOKEN_NAME_REST: "a name's rest after one of its words, read once a name: a word that ends " +
    "inside the last rest read is passed over",
  VALUE_NAME_REST: "the same, for the names of values",
  BLANKS: "the blanks between two words of a command, read once as its words are stepped over",
};

/** The secret rules' modules: `secret_rules.ts` and its private parts. */
function ruleModules(): Array<{ file: string; text: string }> {
  const dir = new URL("../../pipeline/", import.meta.url);
  return [...Deno.readDirSync(dir)]
    .map((e) => e.name)
    .filter((name) => name === "secret_rules.ts" || /^_secret_rules_\w+\.ts$/.test(name))
    .sort()
    .map((file) => ({ file, text: Deno.readTextFileSync(new URL(file, dir)) }));
}

/** The end of the regular expression literal whose first `/` is at `at` (after its flags). */
function literalEnd(text: string, at: number): { end: number; source: string; flags: string } {
  let i = at + 1;
  for (let inClass = false; text[i] !== "/" || inClass; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") inClass = true;
    else if (text[i] === "]") inClass = false;
  }
  const flags = /^[a-z]*/.exec(text.slice(i + 1))![0];
  return { end: i + 1 + flags.length, source: text.slice(at + 1, i), flags };
}

/**
 * Every module-level regular expression of the secret rules that steps through a text (flag `g`
 * or `y`: from a position the rule sets, or from match to match) or reads its lines (`m`), by
 * name, found in the modules' source: a literal is made from its text; one made with
 * `new RegExp` must be in {@linkcode SCAN_PATTERNS} (or copy the source of one there). So a rule
 * added tomorrow is bounded here without a list to forget it in.
 */
function steppingPatterns(): { found: Record<string, RegExp>; missing: string[] } {
  const found: Record<string, RegExp> = {};
  const missing: string[] = [];
  const stepping = (flags: string) => /[gym]/.test(flags);
  for (const { file, text } of ruleModules()) {
    const heads = /^(?:export )?const ([A-Za-z_0-9]+)(?:: [^=\n]+)? =\s*(\/|new RegExp\(|\{)/gm;
    for (const m of text.matchAll(heads)) {
      const [head, name, kind] = m;
      const from = m.index + head.length;
      if (kind === "/") {
        const { source, flags } = literalEnd(text, from - 1);
        if (stepping(flags)) found[name] = new RegExp(source, flags);
      } else if (kind === "new RegExp(") {
        const args = text.slice(from, text.indexOf(");", from));
        const flags = /["'`]([a-z]*)["'`],?\s*$/.exec(args)?.[1] ?? "";
        const copy = /^([A-Z_0-9]+)\.source\b/.exec(args)?.[1];
        if (!stepping(flags) || name in SCAN_PATTERNS) continue;
        if (!(copy && copy in SCAN_PATTERNS)) missing.push(`${file}: ${name}`);
      } else {
        // A record of literals (`{ '"': /…/y, … }`), each as `NAME[key]`.
        const body = text.slice(from, text.indexOf("\n};", from));
        for (const entry of body.matchAll(/^\s*(\S+): \//gm)) {
          const { source, flags } = literalEnd(body, entry.index + entry[0].length - 1);
          if (stepping(flags)) found[`${name}[${entry[1]}]`] = new RegExp(source, flags);
        }
      }
    }
  }
  return { found, missing };
}

Deno.test("every stepping pattern of the secret rules' modules is bounded here", () => {
  const { found, missing } = steppingPatterns();
  assert.deepEqual(missing, [], "add these to SCAN_PATTERNS (pipeline/secret_rules.ts)");
  // No reason is kept for a pattern that is gone.
  for (const name of Object.keys(UNBOUNDED)) {
    assert.ok(name in found || name in SCAN_PATTERNS, `UNBOUNDED names ${name}: none is`);
  }
  // The finder reads what it should: a literal of each kind, and the record's entries.
  for (const name of ["REDIS_DIRECTIVE", "LIST_OPEN", "VARIABLE_DEFAULT", 'ESCAPED_VALUE["\'"]']) {
    assert.ok(name in found, name);
  }
  assert.equal(found.FILTER_DEFAULT.flags, "dy");
  assert.ok(Object.keys(found).length > 30, Object.keys(found).join(", "));
  for (const [name, pattern] of Object.entries(found)) {
    const bound = attemptBound(pattern.source);
    if (name in UNBOUNDED) assert.equal(bound, Infinity, `${name} is bounded now`);
    else assert.ok(bound <= 200_000, `${name}: ${bound} characters an attempt`);
  }
});

Deno.test("one attempt of every pattern reads a bounded number of characters", () => {
  const bounds: Record<string, number> = {};
  for (const [name, pattern] of Object.entries(SCAN_PATTERNS)) {
    bounds[name] = attemptBound(pattern.source);
    if (name in UNBOUNDED) assert.equal(bounds[name], Infinity, `${name} is bounded now`);
    else assert.ok(bounds[name] <= 200_000, `${name}: ${bounds[name]} characters an attempt`);
  }
  // The parser reads what it should: a known pattern's bound.
  assert.equal(attemptBound("(?<=a{0,3})b(?:c|de){2}(?<v>x)\\k<v>"), 3 + 1 + 4 + 1 + 1);
  assert.equal(attemptBound("a+b"), Infinity);
  assert.ok(Object.keys(bounds).length > 20, Object.keys(bounds).join(", "));
});

/** Lines of 1 MB built to make a pattern try hard: many starts, runs that almost match. */
const ADVERSARIAL: Array<[string, string]> = [
  ["a= over and over", "a=".repeat(512 * 1024)],
  ["quotes", '"'.repeat(1024 * 1024)],
  ["escaped quotes", '\\"'.repeat(512 * 1024)],
  [
    "base64 alphabet",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".repeat(16384),
  ],
  ["BEGIN without END", "-----BEGIN".repeat(100 * 1024)],
  ["BEGIN PRIVATE KEY lines", "-----BEGIN PRIVATE KEY-----\n".repeat(36 * 1024)],
  ["password names", "password=".repeat(112 * 1024)],
  ["password names and values", "DB_PASSWORD=x1y2z3w4 ".repeat(48 * 1024)],
  ["escaped password names", '\\"password\\": \\"'.repeat(64 * 1024)],
  ["XML elements", "<password>a1b2c3d4e5".repeat(48 * 1024)],
  ["name/value pairs", "- name: DB_PASSWORD\n  value: ".repeat(32 * 1024)],
  ["XML settings", '<add key="password" value="'.repeat(36 * 1024)],
  ["ENV lines", "ENV API_TOKEN ".repeat(72 * 1024)],
  ["login and password", "login me password ".repeat(56 * 1024)],
  ["user options", " -u a:".repeat(170 * 1024)],
  ["base64 BEGIN", "LS0tLS1CRUdJTi".repeat(72 * 1024)],
  ["Basic schemes", "Authorization: Basic ".repeat(48 * 1024)],
  ["triple quotes", "secret_key = '''".repeat(64 * 1024)],
  ["URLs without @", "https://u:".repeat(100 * 1024)],
  ["Secret documents", "kind: Secret\ndata:\n---\n".repeat(40 * 1024)],
  ["Secret data keys without values", "kind: Secret\ndata:\n" + "  k:\n".repeat(200 * 1024)],
  ["token prefixes without tokens", "dop_v1_sk_live_pplx-dp.pt.".repeat(40 * 1024)],
  ["prefixes and short bodies", "sntryu_abc12 xai-x9 ".repeat(52 * 1024)],
  ["separators and runs", "_abcdefgh-ABCDEFGH.01234567:".repeat(36 * 1024)],
  ["mysql and options", "mysql" + " -p".repeat(340 * 1024)],
  ["IDENTIFIED BY without values", "IDENTIFIED BY ".repeat(72 * 1024)],
  ["PASSWORD without strings", "PASSWORD (".repeat(100 * 1024)],
  ["SET PASSWORD FOR without =", "SET PASSWORD FOR x".repeat(56 * 1024)],
  [".pgpass fields without a password", "'h:1:db:u:".repeat(100 * 1024)],
  ["YAML keys without values", "password:\n  ".repeat(80 * 1024)],
  ["references without defaults", "${DB_PASSWORD:-".repeat(64 * 1024)],
  ["lists under names without tokens", 'TOKENS = ["a", '.repeat(64 * 1024)],
  ["connects without passwords", "new PDO('mysql:', 'u', ".repeat(40 * 1024)],
  ["Redis directives without values", "requirepass masterauth ".repeat(44 * 1024)],
  ["JWT heads in one run", "eyJ".repeat(340 * 1024)],
  ["pass words in one name", "PASSPassPW".repeat(100 * 1024)],
  ["JWT heads between literals", '"eyJ" +\n"'.repeat(120 * 1024)],
];

Deno.test("no rule backtracks on adversarial 1 MB lines: each finds what it should", () => {
  for (const [what, text] of ADVERSARIAL) {
    const { findings } = redactSync(text);
    // A finding for each value in the lines that hold values (a BEGIN line without its END is
    // redacted: the block may have been cut); none elsewhere.
    // `password=password=…` ends with a value: the last `password=`.
    const expected = what === "password names and values"
      ? 48 * 1024
      : what === "BEGIN PRIVATE KEY lines"
      ? 36 * 1024
      : what === "password names"
      ? 1
      : 0;
    assert.equal(findings.length, expected, what);
  }
});
