// Every token the rule table knows by its start (a provider's prefix: `sk-or-v1-`, `sk-ant-`,
// `re_`, `AKIA`, `eyJ…`) is redacted to the end of its run of token characters, whatever its
// length against its rule's bounds and whatever follows it: a key longer than a rule's bound had
// its start redacted and its tail past the bound left (`sk-or-v1-…`, `sk-ant-…`), a key with a `-`
// and more after it was kept whole where the rule's head is a common word (`re_`, `sk_`). The
// tokens are made here from each rule's own pattern, at its shortest, in between and at its bound,
// then longer, and with a `-` or `_` and more after them: no real token is written here.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES } from "../../pipeline/secret_rules.ts";
import { type Repeat, sampleOf } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";

type Shape = (typeof SECRET_SHAPES)[number];

/** The table's entries of a token known by its start: a pattern whose whole match is the value. */
const TOKENS = SECRET_SHAPES.filter((s) =>
  s.pattern && s.hints.length && !s.pattern.source.includes("(?<v>")
);

const random = prng(31);
const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const run = (n: number) =>
  Array.from({ length: n }, () => B62[Math.floor(random() * B62.length)]).join("");

/** Each quantifier at its least, somewhere between, at its bound (a bound past 4 KB is no limit). */
const LENGTHS: Array<[string, Repeat]> = [
  ["shortest", (min) => min],
  ["between", (min, max, r) => max > 4096 ? min + 2 : min + Math.floor(r() * (max - min + 1))],
  ["at its bound", (min, max) => max > 4096 ? min : max],
];

/** What may follow a token's body: nothing, more of it, a `-` or a `_` and more. */
const AFTER: Array<[string, () => string]> = [
  ["alone", () => ""],
  ["longer", () => run(6)],
  ["then -", () => `-${run(8)}`],
  ["then _", () => `_${run(8)}`],
];

/** Places with no name that gives a token away (NuGet's keys are read after its options). */
function placesOf(shape: Shape): Array<(token: string) => string> {
  if (shape.id === "nuget-key") return [(t) => `nuget push app.nupkg -k ${t}\n`];
  return [
    (t) => `  <secret>{apideck AQAAABAAA ${t}}</secret>\n`,
    (t) => `# old one: ${t} (rotated)\n`,
  ];
}

/** A token of `shape`'s pattern at the lengths `repeat` picks, that the shape takes. */
function tokenOf(shape: Shape, repeat: Repeat): string {
  for (let tries = 0; tries < 40; tries++) {
    const token = sampleOf(shape.pattern!.source, random, repeat);
    shape.pattern!.lastIndex = 0;
    const m = shape.pattern!.exec(token);
    if (m?.[0] === token && (!shape.accept || shape.accept(token, token, 0, token.length))) {
      return token;
    }
  }
  throw new Error(`No token of "${shape.id}" could be made from its pattern`);
}

/** What is wrong when `text` does not come back with `token` alone redacted, whole. */
function leftOf(text: string, token: string): string | undefined {
  const out = redactSync(text).text;
  const at = text.indexOf(token);
  const before = text.slice(0, at);
  const after = text.slice(at + token.length);
  const rest = out.startsWith(before) ? out.slice(before.length) : undefined;
  const placeholder = rest === undefined ? undefined : /^\[REDACTED:[\w.-]+\]/.exec(rest)?.[0];
  if (placeholder && rest!.slice(placeholder.length) === after) return undefined;
  return placeholder ? "part of it left" : "kept";
}

/**
 * A token known by its start (the PEM key in base64 is made by `tests/secrets/encoded_data_test.ts`:
 * its pattern's start must decode to a key's armour, which random base64 does not).
 */
const MADE = TOKENS.filter((s) => s.id !== "base64-private-key");

Deno.test("every prefixed token is redacted whole at, below and past its bound, and before a - or _", () => {
  assert.ok(MADE.length >= 110, `${MADE.length} rules`);
  const leaks: string[] = [];
  for (const shape of MADE) {
    for (const [length, repeat] of LENGTHS) {
      const body = tokenOf(shape, repeat);
      for (const [after, more] of AFTER) {
        const token = body + more();
        for (const place of placesOf(shape)) {
          const left = leftOf(place(token), token);
          if (left) leaks.push(`${shape.id} (${length}, ${after}): ${left}`);
        }
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a prefixed token longer than 64 KB is redacted to its end", () => {
  const leaks: string[] = [];
  for (const shape of MADE) {
    const token = tokenOf(shape, LENGTHS[2][1]) + run(66_000);
    const left = leftOf(placesOf(shape)[0](token), token);
    if (left) leaks.push(`${shape.id}: ${left}`);
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a base64 PEM key with more of its run after its rule's bound is redacted whole", () => {
  const pem = "-----BEGIN RSA PRIVATE KEY-----\n" + run(3000) + "\n-----END RSA PRIVATE KEY-----\n";
  const token = btoa(pem) + run(110_000);
  assert.equal(leftOf(`tls.key: ${token}\n`, token), undefined);
});

Deno.test("a name of code that starts with a common word's prefix is no token, however long", () => {
  // (the heads that are words are checked by what follows them: a name of code stays)
  const names = [
    "re_validate_emailAddressConfirmationInputs-field",
    "secret_AbstractSingletonProxyFactoryBeanResolverX_impl",
    "live_123456_AbstractSingletonProxyFactoryBeanResolver-x",
    "key-abstractsingletonproxyfactorybeanresolver-x",
  ];
  for (const name of names) {
    const text = `const ${name.replace(/-/g, "_")} = lookup("${name}");\n`;
    assert.equal(redactSync(text).text, text);
  }
});
