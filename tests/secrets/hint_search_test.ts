import assert from "node:assert/strict";
import { HINT_SEARCH, SECRETLINT_HINTS, SLOP_SECRET_RULES } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

/**
 * A random string the regular expression `source` matches, for the constructs the hints use:
 * alternation, `(?:…)` groups, character classes with ranges, `\s` and escaped characters, and
 * the quantifiers `?`, `*`, `+` and `{m,n}`.
 */
function sample(source: string, random: () => number): string {
  let at = 0;
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  function alternation(): string[][] {
    const options: string[][] = [[]];
    while (at < source.length && source[at] !== ")") {
      if (source[at] === "|") {
        at++;
        options.push([]);
      } else options[options.length - 1].push(atom());
    }
    return options;
  }
  function atom(): string {
    let make: () => string;
    const c = source[at++];
    if (c === "(") {
      at += 2; // "?:"
      const options = alternation();
      at++; // ")"
      make = () => pick(options).join("");
    } else if (c === "[") {
      const chars: string[] = [];
      while (source[at] !== "]") {
        const from = source[at] === "\\" ? source[(at += 2) - 1] : source[at++];
        if (source[at] === "-" && source[at + 1] !== "]") {
          const to = source[at + 1];
          at += 2;
          for (let k = from.charCodeAt(0); k <= to.charCodeAt(0); k++) {
            chars.push(String.fromCharCode(k));
          }
        } else chars.push(from);
      }
      at++;
      make = () => pick(chars);
    } else if (c === "\\") {
      const e = source[at++];
      make = () => (e === "s" ? pick([" ", "\t", "\n"]) : e);
    } else make = () => c;
    let min = 1, max = 1;
    if (source[at] === "?") [min, max, at] = [0, 1, at + 1];
    else if (source[at] === "*") [min, max, at] = [0, 3, at + 1];
    else if (source[at] === "+") [min, max, at] = [1, 3, at + 1];
    else if (source[at] === "{") {
      const end = source.indexOf("}", at);
      const [lo, hi] = source.slice(at + 1, end).split(",").map(Number);
      [min, max, at] = [lo, Math.min(hi ?? lo, lo + 3), end + 1];
    }
    const n = min + Math.floor(random() * (max - min + 1));
    return Array.from({ length: n }, make).join("");
  }
  const options = alternation();
  return pick(options).join("");
}

Deno.test("HINT_SEARCH finds a hint in exactly the texts SECRETLINT_HINTS does", () => {
  const random = prng(5);
  const alternatives = SECRETLINT_HINTS.source.split(/\|(?![^(]*\))/);
  assert.ok(alternatives.length > 40, `${alternatives.length} alternatives`);
  for (const alternative of alternatives) {
    for (let i = 0; i < 40; i++) {
      const hint = sample(alternative, random);
      assert.ok(new RegExp(alternative).test(hint), `sample of ${alternative}: ${hint}`);
      // Cut and padded: the hint whole, and pieces of it that may or may not be one.
      for (const text of [`x ${hint} y`, hint.slice(1), hint.slice(0, -1), hint.toLowerCase()]) {
        assert.equal(
          HINT_SEARCH.test(text),
          SECRETLINT_HINTS.test(text),
          `${alternative}: ${text}`,
        );
      }
    }
  }
});

Deno.test("HINT_SEARCH agrees with SECRETLINT_HINTS on slop's own sources", async () => {
  let hinted = 0;
  for (const dir of ["pipeline", "plugins/view_modes", "tests/secrets", "cli"]) {
    for await (const entry of Deno.readDir(new URL(`../../${dir}`, import.meta.url))) {
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      const text = await Deno.readTextFile(new URL(`../../${dir}/${entry.name}`, import.meta.url));
      assert.equal(HINT_SEARCH.test(text), SECRETLINT_HINTS.test(text), `${dir}/${entry.name}`);
      if (SECRETLINT_HINTS.test(text)) hinted++;
    }
  }
  assert.ok(hinted > 3, `${hinted} files with hints`);
});

/** `text` with each letter's case flipped at random. */
function flipCase(text: string, random: () => number): string {
  return [...text].map((
    c,
  ) => (random() < 0.5 ? c : c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
    .join("");
}

/** Near-misses of `hint`: one character dropped, doubled or replaced by one of `pool`. */
function nearMisses(hint: string, random: () => number, pool: string): string[] {
  const at = Math.floor(random() * hint.length);
  const other = pool[Math.floor(random() * pool.length)];
  return [
    hint.slice(0, at) + hint.slice(at + 1),
    hint.slice(0, at) + hint[at] + hint.slice(at),
    hint.slice(0, at) + other + hint.slice(at + 1),
  ];
}

Deno.test("HINT_SEARCH agrees with SECRETLINT_HINTS on hints at a text's edges, in any case and one character off", () => {
  const random = prng(11);
  const alternatives = SECRETLINT_HINTS.source.split(/\|(?![^(]*\))/);
  // Characters the hints are made of, and pieces that could start, end or extend one.
  const pool = "kKgGxXaAqQhHpP_-.:=>@/\"' \n0123456789eEyYsSlL";
  const pieces = [
    "sk",
    "k_",
    "key",
    "KEY",
    "://",
    "u:p",
    "hv",
    "_",
    "a",
    "=",
    "  ",
    "\n",
    "x",
    "SG",
  ];
  const piece = () => pieces[Math.floor(random() * pieces.length)];
  let hinted = 0, texts = 0;
  for (const alternative of alternatives) {
    for (let i = 0; i < 30; i++) {
      const hint = sample(alternative, random);
      for (const shape of [hint, flipCase(hint, random), ...nearMisses(hint, random, pool)]) {
        const other = sample(alternatives[Math.floor(random() * alternatives.length)], random);
        const placed = [
          shape,
          piece() + shape,
          shape + piece(),
          piece() + shape + piece(),
          shape + other,
          other + shape,
          shape.slice(0, 2) + shape,
          shape + shape.slice(-2),
        ];
        for (const text of placed) {
          const expected = SECRETLINT_HINTS.test(text);
          assert.equal(HINT_SEARCH.test(text), expected, `${alternative}: ${JSON.stringify(text)}`);
          if (expected) hinted++;
          texts++;
        }
      }
    }
  }
  // Runs at the bounds of the basic-auth hint's {1,256} (the samples draw at most 4).
  for (const user of [1, 255, 256, 257]) {
    for (const password of [1, 256, 257]) {
      const text = `x://${"u".repeat(user)}:${"p".repeat(password)}@host`;
      assert.equal(HINT_SEARCH.test(text), SECRETLINT_HINTS.test(text), `${user}:${password}`);
    }
  }
  // Both answers came up often: the check could fail either way.
  assert.ok(hinted > texts / 3 && hinted < texts, `${hinted} of ${texts} texts hinted`);
});

Deno.test("sk-, which slop's own key rules all start with, is a hint: a text without hints skips them", () => {
  // redactText and redactUnlessHinted skip the "sk-" look-up on such texts.
  assert.ok(SECRETLINT_HINTS.test("sk-") && HINT_SEARCH.test("sk-"));
  for (const rule of SLOP_SECRET_RULES) {
    assert.ok(rule.pattern.source.startsWith("\\bsk-"), rule.name);
  }
});
