/**
 * A fake token of a rule's shape, made at test time from the rule's own pattern (so no real or
 * fixed token is ever written in this repository): lookarounds are skipped, each class and
 * quantifier is filled with random characters, an alternation takes its first branch.
 * Enough for the patterns of `pipeline/_secret_rules_prefixed.ts` and `_secret_rules_tokens.ts`.
 *
 * @module
 */

import type { SecretShape } from "../../pipeline/_secret_rules_common.ts";
import { redactText } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES } from "../../pipeline/secret_rules.ts";

/**
 * How many times a quantifier `{min,max}` repeats its atom: by default `min` to `min + 4`, at
 * random; a test of lengths asks for `max` (a token at its rule's bound) or `min`.
 */
export type Repeat = (min: number, max: number, random: () => number) => number;

const SOME: Repeat = (min, max, random) =>
  min + Math.floor(random() * (Math.min(max, min + 4) - min + 1));

/** A string that `source` matches (its lookarounds left out), from `random`. */
export function sampleOf(source: string, random: () => number, repeat: Repeat = SOME): string {
  let i = 0;
  const pick = (chars: string[]) => chars[Math.floor(random() * chars.length)];
  const alternation = (): string => {
    const first = sequence();
    while (source[i] === "|") {
      i++;
      sequence(); // read, not used: the first branch is the rule's main shape
    }
    return first;
  };
  const sequence = (): string => {
    let out = "";
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      const make = atom();
      const [min, max] = quantifier();
      const n = repeat(min, max, random);
      for (let k = 0; k < n; k++) out += make();
    }
    return out;
  };
  const quantifier = (): [number, number] => {
    const m = /^(?:\{(\d+)(?:,(\d*))?\}|\?)/.exec(source.slice(i));
    if (!m) return [1, 1];
    i += m[0].length;
    if (m[0] === "?") return [1, 1]; // an optional part is written
    const min = Number(m[1]);
    return [min, m[2] === undefined ? min : m[2] === "" ? min + 4 : Number(m[2])];
  };
  const atom = (): () => string => {
    const c = source[i];
    if (c === "(") {
      const look = /^\(\?(?:<[=!]|[=!])/.exec(source.slice(i));
      i += look ? look[0].length : /^\(\?(?::|<\w+>)/.exec(source.slice(i))?.[0].length ?? 1;
      const from = i;
      alternation();
      const body = source.slice(from, i);
      i++; // ")"
      return look ? () => "" : () => sampleOf(body, random, repeat);
    }
    if (c === "[") {
      const chars = charClass();
      return () => pick(chars);
    }
    if (c === "\\") {
      const e = source[i + 1];
      i += 2;
      if (e === "b") return () => "";
      if (e === "d") return () => pick([..."0123456789"]);
      return () => e;
    }
    i++;
    return () => c;
  };
  const charClass = (): string[] => {
    i++;
    const set: string[] = [];
    while (source[i] !== "]") {
      let c = source[i++];
      if (c === "\\") c = source[i++];
      if (source[i] === "-" && source[i + 1] !== "]") {
        const to = source[i + 1] === "\\" ? source[i + 2] : source[i + 1];
        i += source[i + 1] === "\\" ? 3 : 2;
        for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k++) set.push(String.fromCharCode(k));
      } else set.push(c);
    }
    i++;
    return set;
  };
  return alternation();
}

/**
 * A token of `shape` made from its own pattern: a sample that the pattern matches whole and the
 * shape's `accept` takes (40 tries, else an error naming the shape).
 */
export function tokenOf(
  shape: Pick<SecretShape, "id" | "pattern" | "accept">,
  random: () => number,
): string {
  for (let tries = 0; tries < 40; tries++) {
    const token = sampleOf(shape.pattern!.source, random);
    shape.pattern!.lastIndex = 0;
    if (
      shape.pattern!.exec(token)?.[0] === token &&
      (!shape.accept || shape.accept(token, token, 0, token.length))
    ) return token;
  }
  throw new Error(`No token of "${shape.id}" could be made from its pattern`);
}

/**
 * The secret rules' tokens known by their start (a prefix, a URL's head) and sampled whole from
 * their pattern: the shapes a test of tokens in odd places (split, encoded, joined) walks.
 */
export const PREFIXED_TOKENS: SecretShape[] = SECRET_SHAPES.filter((s) =>
  s.pattern && s.hints.length && !s.pattern.source.includes("(?<v>") &&
  !["base64-private-key", "nuget-key", "django-secret-key"].includes(s.id)
);

/**
 * The part of `token` past a URL's head or a prefix that ends in a separator: what must not be
 * left in an output.
 *
 * @example
 * ```ts ignore
 * secretOf("ghp_" + "a".repeat(36)); // the 36 letters
 * ```
 */
export function secretOf(token: string): string {
  const url = /^https?:\/\/[^/]+\/(?:api\/webhooks\/|services\/)?/.exec(token);
  if (url) return token.slice(url[0].length);
  const head = /^[A-Za-z]{1,8}[_-](?:[a-z]{2,4}_)?(?:v1_)?/.exec(token);
  return head ? token.slice(head[0].length) : token;
}

/**
 * Whether 12 letters and digits in a row of `secret` are left in `text` (whatever separators an
 * output put between them).
 *
 * @example
 * ```ts ignore
 * left("abcdefghijklm", "x abcdefghijkl y"); // true
 * ```
 */
export function left(secret: string, text: string): boolean {
  const letters = (s: string) => s.replace(/[^A-Za-z0-9]/g, "");
  const rest = letters(text);
  const chars = letters(secret);
  for (let i = 0; i + 12 <= chars.length; i++) {
    if (rest.includes(chars.slice(i, i + 12))) return true;
  }
  return false;
}

/** A token's two pieces joined in one form: the file it is in, what the form is, the text. */
export type TokenJoin = [path: string, how: string, join: (a: string, b: string) => string];

/**
 * Each prefixed token shape of 24 characters or more, cut `cuts` characters in and at its middle,
 * its pieces put in each of `joins` and redacted as its file would be: the placements whose second
 * piece is still there (see {@linkcode left}), and how many cuts and placements were tried.
 */
export async function splitTokenLeaks(
  joins: TokenJoin[],
  random: () => number,
  cuts: number[],
): Promise<{ leaks: string[]; splits: number; tried: number }> {
  const leaks: string[] = [];
  let splits = 0;
  let tried = 0;
  for (const shape of PREFIXED_TOKENS) {
    const token = tokenOf(shape, random);
    if (token.length < 24) continue;
    for (const at of [...cuts, token.length >> 1]) {
      splits++;
      for (const [path, how, join] of joins) {
        tried++;
        const out = (await redactText(join(token.slice(0, at), token.slice(at)), path)).text;
        if (left(token.slice(at), out)) leaks.push(`${shape.id} (${how}, at ${at}): ${out.trim()}`);
      }
    }
  }
  return { leaks, splits, tried };
}
