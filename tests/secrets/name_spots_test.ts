import assert from "node:assert/strict";
import { nameSpots, SCAN_PATTERNS } from "../../pipeline/secret_rules.ts";
import { prng } from "../_helpers.ts";

/**
 * Every position where `pattern` matches (tried at each `:`, `=` and `>`, the characters its
 * matches start with), not only those a search from the text's start reaches.
 */
function starts(pattern: RegExp, text: string): number[] {
  const sticky = new RegExp(pattern.source, pattern.flags.replace("g", "") + "y");
  const found: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (!":=>".includes(text[i])) continue;
    sticky.lastIndex = i;
    if (sticky.test(text)) found.push(i);
  }
  return found;
}

/** `word` with each letter in upper or lower case at random. */
function mixedCase(word: string, random: () => number): string {
  return [...word].map((c) => random() < 0.5 ? c.toUpperCase() : c).join("");
}

/**
 * Texts of names, name characters up to past the patterns' bounds (40), words that overlap
 * (`secretoken`, `passwordkey`), quotes and escapes, blanks of every kind `\s` has, operators and
 * values of each rule's shape, in random order and case.
 */
function generated(random: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const run = (chars: string, n: number) =>
    Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
  const words = [
    "secret",
    "key",
    "token",
    "passw",
    "password",
    "passwd",
    "passwort",
    "pwd",
    "passphrase",
    "credential",
    "auth",
    "bearer",
    "api_key",
    "apikey",
    "access-token",
    "secretoken",
    "passwordkey",
    "tokenkey",
    "credentialkey",
    "bearertoken",
    "authtoken",
    "pass_value",
    "client_secret_key",
    "pw",
    "ldap_bind_pw",
    "SMBPASS",
  ];
  const pieces = [
    () => mixedCase(pick(words), random),
    () => run("abcXYZ019_.-", Math.floor(random() * 46)),
    () => pick(['"', "'", '\\"', "]", '"]', "`", "&quot;"]),
    () =>
      pick([" ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "\r\n"]).repeat(1 + (random() * 18 | 0)),
    () => pick([":", "=", ":=", "=>", ">", "==", ": |\n  "]),
    () => run("0123456789abcdef", 32 + (random() * 4 | 0)),
    () => run("ABCabc0129_-./+~", 16 + (random() * 12 | 0)),
    () => pick(["Bearer ", "Basic ", "token "]) + run("ABCabc012", 20),
    () => pick(["x1y2z3w4", "hunter2x", "{", '{"a": "b1c2d3e4f5"}']),
  ];
  return Array.from({ length: 300 }, () => pick(pieces)()).join("");
}

Deno.test("every match of the named-value patterns starts at one of nameSpots()'s operators", () => {
  const random = prng(11);
  const { NAMED_VALUE, NAMED_TOKEN, NAMED_PASSWORD } = SCAN_PATTERNS;
  const counts = { value: 0, token: 0, password: 0 };
  for (let i = 0; i < 480; i++) {
    const text = generated(random);
    const spots = nameSpots(text);
    const operators = new Set(spots.operators);
    const valueOperators = new Set(spots.valueOperators);
    for (const at of starts(NAMED_VALUE, text)) {
      assert.ok(valueOperators.has(at), `NAMED_VALUE at ${at}: ${JSON.stringify(text)}`);
      counts.value++;
    }
    for (const [name, pattern] of [["token", NAMED_TOKEN], ["password", NAMED_PASSWORD]] as const) {
      for (const at of starts(pattern, text)) {
        assert.ok(operators.has(at), `${name} at ${at}: ${JSON.stringify(text)}`);
        counts[name]++;
      }
    }
  }
  // The texts hold many matches of each, so the check is not empty.
  for (const [name, n] of Object.entries(counts)) assert.ok(n > 100, `${name}: ${n} matches`);
});

Deno.test("nameSpots() reads a text of names without operators in linear time", () => {
  // A name's rest runs to the text's end: each word's rest is read once, not once per word.
  for (const text of ["key".repeat(200_000), "secret_".repeat(100_000) + "=" + "ab".repeat(16)]) {
    const spots = nameSpots(text);
    assert.ok(spots.operators.length <= 1 && spots.valueOperators.length <= 1);
  }
});
