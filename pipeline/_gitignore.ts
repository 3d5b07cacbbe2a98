/**
 * `.gitignore` patterns read and matched as git reads and matches them (gitignore(5), git's
 * wildmatch), in time linear in the path's length for every pattern.
 *
 * A pattern is compiled to a list of tokens and run as a set of states over the path's UTF-8
 * bytes (git matches bytes too: `?` is one byte). Regular expressions were exponential here:
 * `**` + `/**` repeated, against a path 200 folders deep, took minutes per path.
 *
 * @module
 */

import { countWork } from "./_work_count.ts";

/** One step of a compiled pattern. */
type Token =
  | { kind: "byte"; byte: number }
  | { kind: "one" } // `?`: one byte but `/`
  | { kind: "set"; bytes: Uint8Array; negated: boolean } // `[...]`: one byte but `/`
  | { kind: "star" } // `*`: bytes but `/`
  | { kind: "dirs" } // `**/`: zero or more whole folders
  | { kind: "all" }; // a final `/**` (after its `/`) or `**` alone: any bytes

/** One rule of a `.gitignore` file. */
interface Rule {
  negated: boolean;
  /** A trailing `/`: folders only. */
  dirOnly: boolean;
  /** No `/` but a trailing one: matched against the name alone, at any depth. */
  nameOnly: boolean;
  /** Undefined when the pattern can match nothing (an unclosed `[`, a trailing `\`). */
  tokens: Token[] | undefined;
  /** The bytes every path it matches starts with, ends with, and the fewest it has. */
  ends: Ends;
}

/** What a pattern's tokens say of every path they match, looked at before the tokens are run. */
interface Ends {
  head: Uint8Array;
  tail: Uint8Array;
  least: number;
}

/** The rules of one `.gitignore` file, in order. */
export interface IgnoreRules {
  rules: Rule[];
}

const SLASH = 0x2f;
const encoder = new TextEncoder();

/**
 * Read the text of a `.gitignore` file: blank lines and `#` comments are dropped, a trailing CR
 * and unescaped trailing spaces are cut, `!` negates, a trailing `/` means folders only.
 *
 * @example
 * ```ts
 * import { ignoreMatch, parseIgnore } from "./_gitignore.ts";
 * const rules = parseIgnore("*.log\n!keep.log\n");
 * ignoreMatch(rules, "a/b.log", false); // "ignored"
 * ignoreMatch(rules, "keep.log", false); // "unignored"
 * ```
 */
export function parseIgnore(text: string): IgnoreRules {
  const rules: Rule[] = [];
  for (let line of text.replace(/^\ufeff/, "").split("\n")) {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "" || line.startsWith("#")) continue;
    line = trimTrailingSpaces(line);
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    if (line === "") continue;
    const nameOnly = !line.includes("/");
    if (!nameOnly && line.startsWith("/")) line = line.slice(1);
    const tokens = compile(line);
    rules.push({ negated, dirOnly, nameOnly, tokens, ends: endsOf(tokens ?? []) });
  }
  return { rules };
}

/**
 * What a file's rules say about `path` (relative to the file's folder, `/`-separated): the
 * last rule that matches decides; undefined when none does.
 *
 * @example
 * ```ts
 * import { ignoreMatch, parseIgnore } from "./_gitignore.ts";
 * ignoreMatch(parseIgnore("build/\n"), "src/build", true); // "ignored"
 * ignoreMatch(parseIgnore("build/\n"), "src/build", false); // undefined
 * ```
 */
export function ignoreMatch(
  { rules }: IgnoreRules,
  path: string,
  isDir: boolean,
): "ignored" | "unignored" | undefined {
  const bytes = encoder.encode(path);
  const name = bytes.subarray(bytes.lastIndexOf(SLASH) + 1);
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i];
    if (!rule.tokens || (rule.dirOnly && !isDir)) continue;
    const text = rule.nameOnly ? name : bytes;
    // A path of other first or last bytes is no match: a long list of names or of `*.ext`
    // patterns is passed over in a comparison a rule, not a run of its tokens.
    if (!endsFit(rule.ends, text)) continue;
    if (matches(rule.tokens, text)) {
      return rule.negated ? "unignored" : "ignored";
    }
  }
  return undefined;
}

/** The line without its trailing spaces, but for one escaped with `\` (git's rule). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " ") {
    let slashes = 0;
    for (let i = end - 2; i >= 0 && line[i] === "\\"; i--) slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

/** The tokens of a pattern, or undefined when git would match nothing with it. */
function compile(pattern: string): Token[] | undefined {
  const p = encoder.encode(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === 0x5c) { // `\`: the next byte as it is
      if (++i >= p.length) return undefined;
      tokens.push({ kind: "byte", byte: p[i] });
    } else if (c === 0x3f) tokens.push({ kind: "one" });
    else if (c === 0x5b) {
      const set = readSet(p, i);
      if (!set) return undefined;
      tokens.push(set.token);
      i = set.end;
    } else if (c === 0x2a) i = star(p, i, tokens);
    else tokens.push({ kind: "byte", byte: c });
  }
  return tokens;
}

/** Push the token of the `*` run at `i`; the index of its last byte (or of a `/` it took). */
function star(p: Uint8Array, i: number, tokens: Token[]): number {
  let end = i;
  while (p[end + 1] === 0x2a) end++;
  const whole = end > i && (i === 0 || p[i - 1] === SLASH);
  if (whole && p[end + 1] === SLASH) {
    // `**/`: folders. Runs of them are one (`**/**/` means the same), so the state set stays small.
    if (tokens.at(-1)?.kind !== "dirs") tokens.push({ kind: "dirs" });
    return end + 1;
  }
  if (whole && end + 1 === p.length) tokens.push({ kind: "all" });
  else if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
  return end;
}

const CLASSES: Record<string, (b: number) => boolean> = {
  alnum: (b) => isAlpha(b) || isDigit(b),
  alpha: (b) => isAlpha(b),
  blank: (b) => b === 0x20 || b === 0x09,
  cntrl: (b) => b < 0x20 || b === 0x7f,
  digit: (b) => isDigit(b),
  graph: (b) => b > 0x20 && b < 0x7f,
  lower: (b) => b >= 0x61 && b <= 0x7a,
  print: (b) => b >= 0x20 && b < 0x7f,
  punct: (b) => b > 0x20 && b < 0x7f && !isAlpha(b) && !isDigit(b),
  space: (b) => b === 0x20 || (b >= 0x09 && b <= 0x0d),
  upper: (b) => b >= 0x41 && b <= 0x5a,
  xdigit: (b) => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66),
};

function isAlpha(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/** The `[...]` set starting at `start`, and the index of its `]`; undefined when unclosed. */
function readSet(p: Uint8Array, start: number): { token: Token; end: number } | undefined {
  const bytes = new Uint8Array(256);
  let i = start + 1;
  const negated = p[i] === 0x21 || p[i] === 0x5e; // `!` or `^`
  if (negated) i++;
  for (let first = true; i < p.length; i++, first = false) {
    let c = p[i];
    if (c === 0x5d && !first) return { token: { kind: "set", bytes, negated }, end: i };
    if (c === 0x5c) {
      if (++i >= p.length) return undefined;
      c = p[i];
    } else if (c === 0x5b && p[i + 1] === 0x3a) { // `[:name:]`, else a plain `[`
      const close = p.indexOf(0x5d, i + 2);
      if (close < 0) return undefined;
      if (p[close - 1] === 0x3a && close - 1 >= i + 2) {
        const test = CLASSES[new TextDecoder().decode(p.subarray(i + 2, close - 1))];
        if (!test) return undefined; // git: an unknown class matches nothing
        for (let b = 0; b < 256; b++) if (test(b)) bytes[b] = 1;
        i = close;
        continue;
      }
    }
    if (p[i + 1] === 0x2d && p[i + 2] !== undefined && p[i + 2] !== 0x5d) { // a range `a-z`
      let high = p[i + 2];
      i += 2;
      if (high === 0x5c) {
        if (++i >= p.length) return undefined;
        high = p[i];
      }
      for (let b = c; b <= high; b++) bytes[b] = 1;
    } else bytes[c] = 1;
  }
  return undefined;
}

/** The literal bytes the tokens start and end with, and how many bytes they take at least. */
function endsOf(tokens: Token[]): Ends {
  const literal = (t: Token) => t.kind === "byte";
  let first = tokens.findIndex((t) => !literal(t));
  if (first < 0) first = tokens.length;
  const last = tokens.findLastIndex((t) => !literal(t));
  const bytesOf = (part: Token[]) =>
    Uint8Array.from(part, (t) => (t as { kind: "byte"; byte: number }).byte);
  return {
    head: bytesOf(tokens.slice(0, first)),
    tail: last < 0 ? new Uint8Array(0) : bytesOf(tokens.slice(last + 1)),
    least: tokens.filter((t) => t.kind === "byte" || t.kind === "one" || t.kind === "set").length,
  };
}

/** Whether `text` starts and ends with the bytes the rule's paths do, and is long enough. */
function endsFit({ head, tail, least }: Ends, text: Uint8Array): boolean {
  if (text.length < least) return false;
  for (let i = 0; i < head.length; i++) if (text[i] !== head[i]) return false;
  const from = text.length - tail.length;
  for (let i = 0; i < tail.length; i++) if (text[from + i] !== tail[i]) return false;
  return true;
}

/**
 * Whether the tokens match all of `text`: a set of states (token index, and for `**` whether it
 * is inside a folder name) advanced one byte at a time, so the work is tokens x bytes at most.
 */
function matches(tokens: Token[], text: Uint8Array): boolean {
  // Counted for the growth tests: a run's states, set up before its first byte.
  countWork("ignore", tokens.length + 1);
  const n = tokens.length;
  let now = new Uint8Array(2 * n + 2);
  let next = new Uint8Array(2 * n + 2);
  now[0] = 1;
  close(tokens, now);
  for (const b of text) {
    next.fill(0);
    let any = false;
    for (let s = 0; s < 2 * n; s++) {
      if (now[s]) any = step(tokens, s, b, next) || any;
    }
    if (!any) return false;
    close(tokens, next);
    [now, next] = [next, now];
  }
  return now[2 * n] === 1;
}

/** Add the states reached without a byte: past a star or folders token that takes none. */
function close(tokens: Token[], states: Uint8Array): void {
  for (let p = 0; p < tokens.length; p++) {
    const kind = tokens[p].kind;
    if (states[2 * p] && (kind === "star" || kind === "all" || kind === "dirs")) {
      states[2 * p + 2] = 1;
    }
  }
}

/** Mark the states `b` leads to from state `s`; whether it leads anywhere. */
function step(tokens: Token[], s: number, b: number, next: Uint8Array): boolean {
  const p = s >> 1;
  const token = tokens[p];
  if (s & 1) { // inside a folder name that a folders token takes
    next[b === SLASH ? 2 * p : s] = 1;
    return true;
  }
  let to = -1;
  if (token.kind === "byte") to = b === token.byte ? 2 * p + 2 : -1;
  else if (token.kind === "one") to = b !== SLASH ? 2 * p + 2 : -1;
  else if (token.kind === "set") {
    to = b !== SLASH && (token.bytes[b] === 1) !== token.negated ? 2 * p + 2 : -1;
  } else if (token.kind === "star") to = b !== SLASH ? 2 * p : -1;
  else if (token.kind === "all") to = 2 * p;
  else to = b !== SLASH ? 2 * p + 1 : -1;
  if (to < 0) return false;
  next[to] = 1;
  return true;
}
