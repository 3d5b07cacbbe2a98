import assert from "node:assert/strict";
import { SCAN_PATTERNS } from "../../pipeline/secret_rules.ts";
import { redactSync } from "../../pipeline/_scan.ts";
import { worstLines } from "./_worst_lines.ts";
import { readsOf } from "../scaling/_read_meter.ts";
import { assertLinear } from "../scaling/_growth.ts";

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
  PLACEHOLDER_WORD: "tests a value; its runs are anchored by `^`: read at the value's start, once",
  TOKEN_RUN: "a prefixed token's run past its match, read once: its rule's search goes on " +
    "after the run (`matchRuns`), so no character of a run is read twice",
  BASE64_RUN: "the same, for a token in base64",
  DOTTED_RUN: "the same, for a token that holds `.`",
  FACEBOOK_RUN: "the same, for a Facebook token (its lookahead reads the run, once)",
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
 * name, found in the modules' source: a literal is made from its text; every one made with
 * `new RegExp` (stepping or not) must be in {@linkcode SCAN_PATTERNS} (or copy the source of one
 * there). So a rule added tomorrow is bounded here without a list to forget it in; the literals
 * inside functions are read by {@linkcode regexLiterals}.
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
        const copy = /^([A-Z_0-9]+)\.source\b/.exec(args)?.[1];
        // Every pattern built from parts is in SCAN_PATTERNS, stepping or not (a literal is read
        // from its text, below).
        if (name in SCAN_PATTERNS) continue;
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
    else if (!/[gy]/.test(pattern.flags) && linearShape(pattern.source, pattern.flags)) continue;
    else assert.ok(bounds[name] <= 200_000, `${name}: ${bounds[name]} characters an attempt`);
  }
  // The parser reads what it should: a known pattern's bound.
  assert.equal(attemptBound("(?<=a{0,3})b(?:c|de){2}(?<v>x)\\k<v>"), 3 + 1 + 4 + 1 + 1);
  assert.equal(attemptBound("a+b"), Infinity);
  assert.ok(Object.keys(bounds).length > 20, Object.keys(bounds).join(", "));
});

/**
 * Every regular expression literal in a module's `text`, wherever it is (module level, a record,
 * inside a function: `value.replace(/\.+$/, "")`), with its line. Comments, strings and templates
 * are stepped over (a template's `${…}` is read as code), and a `/` starts a literal where a
 * division cannot stand: after an operator, a bracket, a `,` or `;`, or a keyword such as `return`.
 */
export function regexLiterals(
  text: string,
): Array<{ line: number; source: string; flags: string; head?: string }> {
  const out: Array<{ line: number; source: string; flags: string; head?: string }> = [];
  const holes: boolean[] = []; // for each open `{`: whether it opened a template's `${`
  let i = 0;
  let prev = ""; // the last character of the last token
  const template = () => {
    for (; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === "`") return void i++;
      else if (text[i] === "$" && text[i + 1] === "{") {
        holes.push(true);
        return void (i += 2);
      }
    }
  };
  const keywordBefore = () =>
    /(?:^|[^\w$])(?:return|typeof|case|of|in|else|do|yield|await|void|throw)$/.test(
      text.slice(Math.max(0, i - 8), i),
    );
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      i = text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i);
    } else if (c === "/" && text[i + 1] === "*") i = text.indexOf("*/", i) + 2;
    else if (/\s/.test(c)) i++;
    else if (c === '"' || c === "'") {
      for (i++; text[i] !== c; i += text[i] === "\\" ? 2 : 1);
      i++;
      prev = "s";
    } else if (c === "`") {
      i++;
      template();
      prev = "s";
    } else if (c === "{" || c === "}") {
      i++;
      if (c === "{") holes.push(false);
      else if (holes.pop()) template();
      prev = c === "}" ? "s" : c;
    } else if (c === "/" && (/^[(,=:[!&|?{};+\-*%<>~^]?$/.test(prev) || keywordBefore())) {
      const { end, source, flags } = literalEnd(text, i);
      const line = text.slice(0, i).split("\n").length;
      const head = /(?:^|\n)(?:export )?const ([A-Za-z_0-9]+)(?:: [^=\n]+)? =\s*$/.exec(
        text.slice(Math.max(0, i - 120), i),
      )?.[1];
      // A part of a pattern built from parts (`/…/.source + …`) is judged as the whole's part.
      if (!/^\s*\.source\b/.test(text.slice(end, end + 16))) {
        out.push({ line, source, flags, head });
      }
      i = end;
      prev = "r";
    } else if (/[\w$]/.test(c)) {
      while (i < text.length && /[\w$]/.test(text[i])) i++;
      prev = "w";
      if (keywordBefore()) prev = "";
    } else {
      prev = c;
      i++;
    }
  }
  return out;
}

/**
 * Whether each unbounded run of `source` ends the pattern (or its top-level alternative) outside
 * any group and lookbehind: once an attempt reaches it, the attempt succeeds after reading the
 * run once (`[A-Za-z_$][\w$]*`, `_+|…`). A search resumes after the match, so nothing is read
 * again.
 */
export function openTail(source: string): boolean {
  // The top-level alternatives, split outside classes and groups.
  const alternatives: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0, inClass = false; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      alternatives.push(source.slice(from, i));
      from = i + 1;
    }
  }
  alternatives.push(source.slice(from));
  return alternatives.every((alt) => {
    if (attemptBound(alt) !== Infinity) return true;
    // One atom (a class, an escape or a character) and `*` or `+` at its end, the rest bounded.
    const m = /(?:\[(?:\\.|[^\]\\])*\]|\\.|[^\\()[\]|*+?{}])(?:[*+]|\{\d+,\})$/.exec(alt);
    return !!m && attemptBound(alt.slice(0, m.index)) !== Infinity;
  });
}

/**
 * The most unbounded runs one path through `source` reads one after another (a sequence adds
 * them, an alternation takes its largest; a lookahead's runs are read once, apart), or Infinity
 * when a run repeats a group that holds one (`(?:a+)+`) or sits in a lookbehind (read back from
 * every position tried). A pattern tried at one position (sticky, or anchored by `^`) with at most
 * one run on any path costs one pass over its run and a bounded rest for each step back.
 */
export function runsOnPath(source: string): number {
  let i = 0;
  const alternation = (): number => {
    let most = sequence();
    while (source[i] === "|") {
      i++;
      most = Math.max(most, sequence());
    }
    return most;
  };
  const sequence = (): number => {
    let sum = 0;
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      const inner = atom();
      const before = i;
      quantifierEnd();
      const unbounded = /^(?:[*+]|\{\d+,\})/.test(source.slice(before, i));
      if (unbounded && inner > 0) return Infinity;
      sum += unbounded ? 1 : inner === Infinity ? Infinity : inner;
    }
    return sum;
  };
  const quantifierEnd = () => {
    const m = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(source.slice(i));
    i += m ? m[0].length : 0;
  };
  const atom = (): number => {
    const c = source[i];
    if (c === "(") {
      i++;
      const look = /^\?<?[=!]/.exec(source.slice(i));
      const name = /^\?<[A-Za-z_]\w*>|^\?:/.exec(source.slice(i));
      if (look) i += look[0].length;
      else if (name) i += name[0].length;
      const inner = alternation();
      i++;
      if (look && look[0].includes("<")) return inner > 0 ? Infinity : 0;
      return look ? (inner > 1 ? Infinity : 0) : inner;
    }
    if (c === "[") {
      for (i++; source[i] !== "]"; i += source[i] === "\\" ? 2 : 1) if (i === source.length) break;
      i++;
      return 0;
    }
    if (c === "\\") {
      const e = source[i + 1];
      i += 2;
      if (e === "u" || e === "x") {
        i += source[i] === "{" ? source.indexOf("}", i) - i + 1 : e === "u" ? 4 : 2;
      } else if (e === "k") i = source.indexOf(">", i) + 1;
      return 0;
    }
    i++;
    return 0;
  };
  return alternation();
}

/** Whether a pattern is tried at one position only: sticky, or each alternative starts with `^`. */
function onePosition(source: string, flags: string): boolean {
  if (flags.includes("y")) return true;
  if (flags.includes("m") || flags.includes("g")) return false;
  return source.startsWith("^") &&
    !/\|(?!\^)/.test(source.replace(/\\.|\[(?:\\.|[^\]\\])*\]|\((?:[^()]|\([^()]*\))*\)/g, ""));
}

/**
 * Whether `source` (with `flags`) is linear in its input whatever it is run on: bounded, an open
 * tail, or tried at one position with one run on any path.
 */
export function linearShape(source: string, flags: string): boolean {
  return attemptBound(source) !== Infinity || openTail(source) ||
    (onePosition(source, flags) && runsOnPath(source) <= 1);
}

/**
 * The literals with an unbounded run that is not an open tail ({@linkcode openTail}), by file and
 * source, and why each stays linear: what it is run on (a name of 64 characters, a value the
 * rules took, one position of a text) and how its runs are read.
 */
const UNBOUNDED_LITERALS: Record<string, string> = {
  "_secret_rules_code.ts /^(?:[A-Za-z]+[0-9]*|[0-9]+)$/": "one position, a run of letters then " +
    "one of digits: a step back over the letters finds no digit to read",
  "_secret_rules_code.ts /^[&*]*(?:'[a-z]\\w* )?(?:(?:dyn|impl|mut|const) )*[A-Za-z_$][\\w$]*(?:(?:::|\\.)[A-Za-z_$][\\w$]*)*(?:<[\\w$:.&*'<>, ()\\[\\]]{1,200}>)?(?:\\[\\])*\\??$/":
    "a value of 256 characters at most, tried at one position: its names are separated by `::` " +
    "or `.`, which they do not hold",
  "_secret_rules_code.ts /^;[ \\t]*(?:\\/\\/[^\\r\\n]*|\\/\\*[^\\r\\n]*)?(?:\\r?\\n|$)/":
    "one position: blanks, then a comment that runs to the line's end, which is what follows",
  "_secret_rules_code.ts /^[ \\t]*(?:(?:if|elif|while|until|then|do|else|!)[ \\t]+)*(?:test|\\[\\[?)[ \\t]/":
    "one position: keywords separated by blanks, which they do not hold",
  "_secret_rules_common.ts /[${}<>%[\\]()]|^(?:x+|\\*+|\\.+|-+|#+)$|your|example|placeholder|changeme|change_me|dummy|sample|redacted|here$|^(?:pass(?:word|wd)?|pwd|secret|token|user(?:name)?|foo|bar|foobar|test|admin|root|guest|none|null|empty|string)$/i":
    "its runs are anchored by `^`: read at the value's start only, once",
  "_secret_rules_common.ts /^[A-Za-z_$][a-z0-9_$-]*(?:\\/[A-Za-z_$][a-z0-9_$-]*)+$/": "one " +
    "position, names that `/` separates: each character is read once",
  "_secret_rules_common.ts /^[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+$/": "one position, " +
    "names that `.` separates: each character is read once",
  "_secret_rules_common.ts /(?<!\\\\|\\[[^\\]]*)[a-z]/g": "run on the rules' own sources " +
    "when the modules load (`anyCase`), never on a text",
  "_secret_rules_names.ts /^eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}$/":
    "one position, three runs that `.` separates",
  "_secret_rules_names.ts /^[A-Za-z][a-z0-9_-]*(?:\\/[A-Za-z][a-z0-9_-]*)+$/": "one position, " +
    "names that `/` separates",
  "_secret_rules_names.ts /^[A-Za-z]+(?:[-_][A-Za-z]+)+(?:\\.[A-Za-z]{1,5})?$/": "one position, " +
    "words that `-` or `_` separates",
  "_secret_rules_names.ts /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/": "one position, words that `_` " +
    "separates",
  "_secret_rules_names.ts /^[A-Za-z_$][\\w$]*(?:\\.#?[A-Za-z_$][\\w$]*)+$/": "one position, " +
    "names that `.` separates",
  "_secret_rules_names.ts /^(?:0[xX][0-9A-Fa-f_]+|[0-9][0-9_]*(?:\\.[0-9]+)?)$/": "one position, " +
    "digits that `.` separates",
  "secret_rules.ts /^\\s*(?:-----BEGIN [A-Z0-9 ]{1,64}-----\\s*)?(?:\\[REDACTED:[\\w.-]{1,64}\\]\\s*)+(?:-----END [A-Z0-9 ]{1,64}-----\\s*)?$/":
    "one position, placeholders that `[` starts and blanks separate",
};

Deno.test("every regular expression literal of the secret rules' modules is bounded or read once", () => {
  const seen: string[] = [];
  const unjustified: string[] = [];
  let count = 0;
  for (const { file, text } of ruleModules()) {
    for (const { line, source, flags, head } of regexLiterals(text)) {
      count++;
      new RegExp(source, flags); // the finder read a whole literal
      if (linearShape(source, flags)) continue;
      if (head && (head in UNBOUNDED || head in SCAN_PATTERNS)) continue; // judged above
      const key = `${file} /${source}/${flags}`;
      seen.push(key);
      if (!(key in UNBOUNDED_LITERALS)) unjustified.push(`${file}:${line} /${source}/${flags}`);
    }
  }
  assert.deepEqual(unjustified, [], "bound these, or say in UNBOUNDED_LITERALS why each is linear");
  for (const key of Object.keys(UNBOUNDED_LITERALS)) assert.ok(seen.includes(key), `stale: ${key}`);
  // The finder reads what it should: literals inside functions too.
  assert.ok(count > 300, `${count} literals`);
  assert.ok(openTail("[A-Za-z_$][\\w$]*") && openTail("_+|(?<=[a-z])(?=[A-Z])"));
  assert.ok(!openTail("\\.+$") && !openTail("(?:a+)+"));
});

/**
 * Lines built to make a pattern try hard (many starts, runs that almost match): a unit, how many
 * times it makes 1 MB, and what goes before the units.
 */
const ADVERSARIAL: Array<[string, string, number, string?]> = [
  ["a= over and over", "a=", 512 * 1024],
  ["quotes", '"', 1024 * 1024],
  ["escaped quotes", '\\"', 512 * 1024],
  ["base64 alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 16384],
  ["BEGIN without END", "-----BEGIN", 100 * 1024],
  ["BEGIN PRIVATE KEY lines", "-----BEGIN PRIVATE KEY-----\n", 36 * 1024],
  ["password names", "password=", 112 * 1024],
  ["password names and values", "DB_PASSWORD=x1y2z3w4 ", 48 * 1024],
  ["escaped password names", '\\"password\\": \\"', 64 * 1024],
  ["XML elements", "<password>a1b2c3d4e5", 48 * 1024],
  ["name/value pairs", "- name: DB_PASSWORD\n  value: ", 32 * 1024],
  ["XML settings", '<add key="password" value="', 36 * 1024],
  ["ENV lines", "ENV API_TOKEN ", 72 * 1024],
  ["login and password", "login me password ", 56 * 1024],
  ["user options", " -u a:", 170 * 1024],
  ["base64 BEGIN", "LS0tLS1CRUdJTi", 72 * 1024],
  ["Basic schemes", "Authorization: Basic ", 48 * 1024],
  ["triple quotes", "secret_key = '''", 64 * 1024],
  ["URLs without @", "https://u:", 100 * 1024],
  ["Secret documents", "kind: Secret\ndata:\n---\n", 40 * 1024],
  ["Secret data keys without values", "  k:\n", 200 * 1024, "kind: Secret\ndata:\n"],
  ["token prefixes without tokens", "dop_v1_sk_live_pplx-dp.pt.", 40 * 1024],
  ["prefixes and short bodies", "sntryu_abc12 xai-x9 ", 52 * 1024],
  ["separators and runs", "_abcdefgh-ABCDEFGH.01234567:", 36 * 1024],
  ["mysql and options", " -p", 340 * 1024, "mysql"],
  ["IDENTIFIED BY without values", "IDENTIFIED BY ", 72 * 1024],
  ["PASSWORD without strings", "PASSWORD (", 100 * 1024],
  ["SET PASSWORD FOR without =", "SET PASSWORD FOR x", 56 * 1024],
  [".pgpass fields without a password", "'h:1:db:u:", 100 * 1024],
  ["YAML keys without values", "password:\n  ", 80 * 1024],
  ["references without defaults", "${DB_PASSWORD:-", 64 * 1024],
  ["lists under names without tokens", 'TOKENS = ["a", ', 64 * 1024],
  ["connects without passwords", "new PDO('mysql:', 'u', ", 40 * 1024],
  ["Redis directives without values", "requirepass masterauth ", 44 * 1024],
  ["JWT heads in one run", "eyJ", 340 * 1024],
  ["pass words in one name", "PASSPassPW", 100 * 1024],
  ["JWT heads between literals", '"eyJ" +\n"', 120 * 1024],
  // A look back to the line's start from each `chpasswd` read the whole line each time.
  ["pipes to chpasswd on one line", "echo u:p | chpasswd; ", 48 * 1024],
];

/**
 * Each line is read at a 64th and a quarter of its 1 MB (16 and 256 KB): growth is a ratio, so a
 * scanner that searches to the line's end, or back to its start, from each unit reads 256x for
 * the 16x (each line's ratio: bench/README.md, "Suite time, twenty-first session"). A pattern
 * that backtracks within one attempt is bounded above, from its source.
 */
const PARTS = [64, 4];

Deno.test("no rule reads adversarial lines in more than linear work: each finds what it should", () => {
  for (const [what, unit, times, head = ""] of ADVERSARIAL) {
    const work = PARTS.map((part) => {
      const text = head + unit.repeat(times / part);
      let findings = 0;
      const reads = readsOf(() => findings = redactSync(text).findings.length);
      // A finding for each value in the lines that hold values (a BEGIN line without its END is
      // redacted: the block may have been cut); none elsewhere.
      // `password=password=…` ends with a value: the last `password=`.
      const expected = what === "password names and values" || what === "BEGIN PRIVATE KEY lines"
        ? times / part
        : what === "password names"
        ? 1
        : 0;
      assert.equal(findings, expected, `${what} at ${1024 / part} KB`);
      return reads;
    });
    assertLinear(`${what} (${JSON.stringify(unit)})`, work, PARTS.map((part) => 1 / part));
  }
});

Deno.test("texts of 100 KB made from the rules' starts and runs are scanned, each once", () => {
  // `bench/secret_worst_lines.ts` times these; here each is scanned once: lines of 20 KB, five a
  // text (a pattern that reads a run from each of its characters takes seconds on one:
  // `api_key=aB1` and 20 KB of dots then `x` did: 13 s for these against 5 s, load 11).
  const runs = [".", "a", " ", "-", "aB1", '\\"', "' + '", "Key", "ab\\\n", "="];
  const lines = worstLines(100_000, { runs, ends: ["x"], unit: 20_000 });
  assert.equal(lines.length, 290);
  let findings = 0;
  for (const [, line] of lines) findings += redactSync(line).findings.length;
  // Most hold no value whole; some do (a run of letters after `api_key=aB1`).
  assert.ok(findings < lines.length, `${findings} findings`);
});
