import assert from "node:assert/strict";
import { HINT_SEARCH, SECRETLINT_HINTS } from "../../pipeline/_scan.ts";
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
