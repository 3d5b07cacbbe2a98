/**
 * Reads the test samples of two other secret scanners' rule files (Go source) at bench time, for
 * `bench/secret_recall.ts`: gitleaks' rules (`cmd/generate/config/rules/*.go`: true positives
 * written as `utils.GenerateSampleSecrets(id, "prefix" + secrets.NewSecret(regex))` or as lines in
 * `tps := []string{…}`, false positives in `fps := []string{…}`) and trufflehog's detector tests
 * (`pkg/detectors/<name>/<name>_test.go`: the `want: []string{…}` values that the test's input
 * holds). Nothing of theirs is copied into this repository: the Go is evaluated here, a small
 * subset of it (string literals, `+`, the few helpers the samples call), and a regex is turned
 * into a random string that matches it.
 *
 * @module
 */

/** One sample: a secret's value (or a whole line that holds one) and the family it belongs to. */
export interface Sample {
  /** The provider family: the rule file's or the detector folder's name. */
  family: string;
  /** The secret's value (`kind: "value"`) or a line of text that holds one (`"line"`). */
  text: string;
  kind: "value" | "line";
  /** Where it was read, `path` in the mirror. */
  from: string;
}

type Token = { t: "str" | "id" | "num" | "op"; v: string };

/** Go tokens, enough for string expressions: literals, identifiers (dotted), numbers, punctuation. */
export function goTokens(src: string): Token[] {
  const out: Token[] = [];
  const re =
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`|'(?:[^'\\]|\\.)*'|([A-Za-z_][\w.]*)|(\d+)|(:=|[^\s])/g;
  for (const m of src.matchAll(re)) {
    if (m[1] !== undefined) out.push({ t: "str", v: unquote(m[1]) });
    else if (m[2] !== undefined) out.push({ t: "str", v: m[2] });
    else if (m[3] !== undefined) out.push({ t: "id", v: m[3] });
    else if (m[4] !== undefined) out.push({ t: "num", v: m[4] });
    else if (m[5] !== undefined) out.push({ t: "op", v: m[5] });
  }
  return out;
}

function unquote(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{3}|.)/g, (_, e: string) => {
    if (e[0] === "u" || e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return { n: "\n", t: "\t", r: "\r", "0": "\0" }[e] ?? e;
  });
}

/** A string expression could not be evaluated (a helper or variable this reader does not know). */
class Unknown extends Error {}

/** The helpers of gitleaks' generator that build a regex of a size. */
const SIZED: Record<string, string> = {
  "utils.Numeric": "[0-9]",
  "utils.Hex": "[a-f0-9]",
  "utils.AlphaNumeric": "[a-z0-9]",
  "utils.AlphaNumericExtendedShort": "[a-z0-9_-]",
  "utils.AlphaNumericExtended": "[a-z0-9=_\\-]",
  "utils.AlphaNumericExtendedLong": "[a-z0-9\\/=_\\+\\-]",
};

/** Evaluates Go string expressions over a token list, with the file's string variables. */
export class GoStrings {
  i = 0;
  /** Sample values produced by `GenerateSampleSecret(s)` calls met while evaluating. */
  values: string[] = [];
  constructor(
    readonly toks: Token[],
    readonly vars: Map<string, string>,
    readonly random: () => number,
  ) {}

  /** `primary ("+" primary)*` from token `i`; throws Unknown on anything else. */
  expr(): string {
    let s = this.primary();
    while (this.toks[this.i]?.v === "+") {
      this.i++;
      s += this.primary();
    }
    return s;
  }

  primary(): string {
    const tok = this.toks[this.i++];
    if (!tok) throw new Unknown("end");
    if (tok.t === "str") return tok.v;
    if (tok.t === "num") return tok.v;
    if (tok.t === "id" && this.toks[this.i]?.v === "(") return this.call(tok.v);
    if (tok.t === "id" && this.vars.has(tok.v)) return this.vars.get(tok.v)!;
    if (tok.v === "(") {
      const s = this.expr();
      this.expect(")");
      return s;
    }
    throw new Unknown(tok.v);
  }

  expect(v: string): void {
    if (this.toks[this.i]?.v !== v) throw new Unknown(`expected ${v}`);
    this.i++;
  }

  args(): string[] {
    this.expect("(");
    const out: string[] = [];
    while (this.toks[this.i]?.v !== ")") {
      out.push(this.expr());
      if (this.toks[this.i]?.v === ",") this.i++;
      else if (this.toks[this.i]?.v !== ")") throw new Unknown("argument");
    }
    this.i++;
    return out;
  }

  call(name: string): string {
    const args = this.args();
    const fn = name.replace(/^.*\b(utils|secrets|fmt|strings)\./, "$1.");
    if (fn in SIZED) return `${SIZED[fn]}{${args[0]}}`;
    if (fn === "utils.Hex8_4_4_4_12") {
      return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    }
    if (fn === "secrets.NewSecret") return sampleRegex(args[0], this.random);
    if (fn === "strings.Repeat") return args[0].repeat(Number(args[1]));
    if (fn === "fmt.Sprintf") {
      let k = 1;
      return args[0].replace(/%[sdvq]/g, () => args[k++] ?? "");
    }
    if (fn === "utils.GenerateSampleSecret" || fn === "utils.GenerateSampleSecrets") {
      this.values.push(args[1]);
      return args[1];
    }
    throw new Unknown(name);
  }
}

/** A string that `source` (RE2 syntax, the subset gitleaks' samples use) matches. */
export function sampleRegex(source: string, random: () => number): string {
  let i = 0;
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  let fold = false;
  const alternation = (): string => {
    const branches = [sequence()];
    while (source[i] === "|") {
      i++;
      branches.push(sequence());
    }
    return branches[0]; // the first branch: the rule's main shape
  };
  const sequence = (): string => {
    let s = "";
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      const start = i;
      const gen = atom();
      const [min, max] = quantifier();
      const n = min + Math.floor(random() * (Math.min(max, min + 8) - min + 1));
      let part = "";
      for (let k = 0; k < n; k++) part += k === 0 ? gen.first : gen.again();
      s += part;
      if (i === start) throw new Unknown("regex");
    }
    return s;
  };
  const quantifier = (): [number, number] => {
    const c = source[i];
    let q: [number, number] = [1, 1];
    if (c === "*") [i, q] = [i + 1, [0, 4]];
    else if (c === "+") [i, q] = [i + 1, [1, 4]];
    else if (c === "?") [i, q] = [i + 1, [1, 1]]; // an optional part is written
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))!;
      i += m[0].length;
      const min = Number(m[1]);
      q = [min, m[2] === undefined ? min : m[3] === "" ? min + 4 : Number(m[3])];
    }
    if (source[i] === "?") i++;
    return q;
  };
  const atom = (): { first: string; again: () => string } => {
    const c = source[i];
    if (c === "(") {
      i++;
      const flags = /^\?([a-z]*)(?::|\))/.exec(source.slice(i));
      if (flags?.[0].endsWith(")")) {
        i += flags[0].length;
        if (flags[1].includes("i")) fold = true;
        return { first: "", again: () => "" };
      }
      if (flags) i += flags[0].length;
      else if (source.startsWith("?P<", i)) i = source.indexOf(">", i) + 1;
      const from = i;
      const s = alternation();
      i++; // ")"
      const body = source.slice(from, i - 1);
      return { first: s, again: () => sampleRegex(body, random) };
    }
    if (c === "[") {
      const chars = charClass();
      return { first: pick(chars), again: () => pick(chars) };
    }
    if (c === "\\") {
      const e = source[i + 1];
      i += 2;
      const cls = ESCAPES[e];
      if (cls) return { first: pick(cls), again: () => pick(cls) };
      if (e === "b" || e === "B") return { first: "", again: () => "" };
      return { first: e, again: () => e };
    }
    i++;
    if (c === ".") return { first: "x", again: () => pick(ALNUM) };
    if (c === "^" || c === "$") return { first: "", again: () => "" };
    const lit = fold && random() < 0.5 ? c.toUpperCase() : c;
    return { first: lit, again: () => c };
  };
  const charClass = (): string[] => {
    i++;
    const negate = source[i] === "^";
    if (negate) i++;
    const set: string[] = [];
    while (source[i] !== "]" || set.length === 0 && source[i - 1] === "[") {
      let c = source[i++];
      if (c === "\\") {
        const e = source[i++];
        if (ESCAPES[e]) {
          set.push(...ESCAPES[e]);
          continue;
        }
        c = e;
      }
      if (source[i] === "-" && source[i + 1] !== "]") {
        let to = source[i + 1];
        i += 2;
        if (to === "\\") to = source[i++];
        for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k++) set.push(String.fromCharCode(k));
      } else set.push(c);
    }
    i++;
    if (negate) return ALNUM.filter((ch) => !set.includes(ch));
    return set;
  };
  return alternation();
}

const ALNUM = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
const ESCAPES: Record<string, string[]> = {
  d: [..."0123456789"],
  w: [...ALNUM, "_"],
  s: [" "],
};

/** A seeded random source (mulberry32), so a bench run's samples are the same each time. */
export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The file's string variables (`name = "…"`, `name := …`, consts), evaluated in order. */
function stringVars(toks: Token[], random: () => number): Map<string, string> {
  const vars = new Map<string, string>();
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i].t !== "id" || !(toks[i + 1].v === "=" || toks[i + 1].v === ":=")) continue;
    const ev = new GoStrings(toks, vars, random);
    ev.i = i + 2;
    try {
      vars.set(toks[i].v, ev.expr());
    } catch { /* not a string */ }
  }
  return vars;
}

/** The elements of a `[]string{…}` literal that starts at token `i` (at `[`). */
function listElements(ev: GoStrings, i: number): string[] {
  const out: string[] = [];
  ev.i = i + 4; // [ ] string {
  while (ev.i < ev.toks.length && ev.toks[ev.i].v !== "}") {
    const start = ev.i;
    try {
      out.push(ev.expr());
    } catch {
      // skip to the next element of this list
      let depth = 0;
      ev.i = start;
      while (ev.i < ev.toks.length) {
        const v = ev.toks[ev.i].v;
        if (depth === 0 && (v === "," || v === "}")) break;
        if (v === "(" || v === "{" || v === "[") depth++;
        if (v === ")" || v === "}" || v === "]") depth--;
        ev.i++;
      }
    }
    if (ev.toks[ev.i]?.v === ",") ev.i++;
  }
  return out;
}

/**
 * gitleaks' samples of one rule file: the values of `GenerateSampleSecret(s)` calls, the lines of
 * `tps` lists (true positives) and of `fps` lists (false positives).
 */
export function gitleaksSamples(
  src: string,
  family: string,
  from: string,
  random: () => number,
): { tps: Sample[]; fps: Sample[] } {
  const toks = goTokens(src);
  const vars = stringVars(toks, random);
  const tps: Sample[] = [];
  const fps: Sample[] = [];
  const ev = new GoStrings(toks, vars, random);
  for (let i = 0; i < toks.length; i++) {
    const v = toks[i].v;
    if (/(?:^|\.)GenerateSampleSecrets?$/.test(v) && toks[i + 1]?.v === "(") {
      ev.i = i;
      ev.values = [];
      try {
        ev.expr();
      } catch { /* a value it cannot build */ }
      for (const value of ev.values) tps.push({ family, text: value, kind: "value", from });
    }
    const list = toks[i + 1]?.v === ":=" || toks[i + 1]?.v === "=";
    if ((v === "tps" || v === "fps") && list && toks[i + 2]?.v === "[") {
      ev.values = [];
      const lines = listElements(ev, i + 2);
      const generated = new Set(ev.values);
      for (const line of lines) {
        if (generated.has(line)) continue; // a GenerateSampleSecret call, counted above
        (v === "tps" ? tps : fps).push({ family, text: line, kind: "line", from });
      }
    }
  }
  return { tps, fps };
}

/** trufflehog's samples of one detector test: each `want` value that the test's input holds. */
export function trufflehogSamples(
  src: string,
  family: string,
  from: string,
  random: () => number,
): Sample[] {
  const toks = goTokens(src);
  const vars = stringVars(toks, random);
  const strings = toks.filter((t) => t.t === "str").map((t) => t.v);
  const ev = new GoStrings(toks, vars, random);
  const inputs = [...vars.values(), ...strings];
  // The tests' inputs, also those put together (`fmt.Sprintf("%s token = '%s'", …)`).
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i].v !== "input" || toks[i + 1].v !== ":") continue;
    ev.i = i + 2;
    try {
      inputs.push(ev.expr());
    } catch { /* an input it cannot build */ }
  }
  const out: Sample[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + 4 < toks.length; i++) {
    if (toks[i].v !== "want" || toks[i + 1].v !== ":" || toks[i + 2].v !== "[") continue;
    for (const value of listElements(ev, i + 2)) {
      if (seen.has(value) || value.length < 8) continue;
      // A value the input holds (not one the detector puts together from parts).
      if (!inputs.some((s) => s !== value && s.includes(value))) continue;
      seen.add(value);
      out.push({ family, text: value, kind: "value", from });
    }
  }
  return out;
}
