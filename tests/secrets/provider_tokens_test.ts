// Provider tokens known by their prefix (`dop_v1_…`, `pplx-…`, `sntryu_…`, a Telegram bot token, a
// Discord webhook, `ATATT3…`, …): each is found by its shape alone, also with no name around it,
// and a stand-in of one repeated character is not. The tokens are made here at run time from each
// rule's own pattern: no real token is written in this repository.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES } from "../../pipeline/secret_rules.ts";
import { PREFIXED_TOKENS } from "../../pipeline/_secret_rules_prefixed.ts";
import { piecesOf } from "./_samples.ts";
import { sampleOf } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";

/** The rules of tokens with a prefix of their own: the prefixed family, and the `A…` tokens. */
const PREFIXED = [
  ...PREFIXED_TOKENS,
  ...SECRET_SHAPES.filter((s) => ["atlassian-token", "jfrog-key"].includes(s.id)),
];

/** Where a token may sit, with or without a name that gives it away. */
const PLACES: Array<(token: string) => string> = [
  (t) => `client = Client(host, "${t}")\n`,
  (t) => `curl -H 'X-Key: ${t}' https://api.example.org\n`,
  (t) => `# old one: ${t} (rotated)\n`,
  (t) => `SERVICE_TOKEN=${t}\n`,
  (t) => `service:\n  token: "${t}"\n`,
  (t) => `{"args": ["--region", "eu", "${t}"]}\n`,
];

function tokenOf(shape: (typeof SECRET_SHAPES)[number], random: () => number): string {
  for (let tries = 0; tries < 20; tries++) {
    const token = sampleOf(shape.pattern!.source, random);
    shape.pattern!.lastIndex = 0;
    const m = shape.pattern!.exec(token);
    if (m && m[0] === token && (!shape.accept || shape.accept(token, token, 0, token.length))) {
      return token;
    }
  }
  throw new Error(`No token of "${shape.id}" could be made from its pattern`);
}

Deno.test("a token known by its prefix is redacted whole wherever it sits, named or not", () => {
  const random = prng(29);
  const leaks: string[] = [];
  assert.ok(PREFIXED.length >= 70, `${PREFIXED.length} rules`);
  for (const shape of PREFIXED) {
    for (let n = 0; n < 3; n++) {
      const token = tokenOf(shape, random);
      for (const place of PLACES) {
        const { text } = redactSync(place(token));
        const piece = piecesOf(token).find((p) => text.includes(p));
        if (piece) leaks.push(`${shape.id}: ${JSON.stringify(place(token))}`);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a prefix with one character repeated after it is a stand-in, not a token", () => {
  const kept: string[] = [];
  for (const shape of PREFIXED) {
    const token = tokenOf(shape, prng(31));
    // The prefix (the hint the token starts with), then `x` or `0` for the rest.
    const head = shape.hints.find((h) => token.startsWith(h)) ?? token.slice(0, 4);
    for (const c of ["x", "X", "0"]) {
      const standIn = head + c.repeat(token.length - head.length);
      const { findings } = redactSync(`client = Client(host, "${standIn}")\n`);
      if (findings.length) kept.push(`${shape.id}: ${standIn} (${findings[0].rule})`);
    }
  }
  assert.deepEqual(kept, []);
});

Deno.test("Stripe's hint and a prefix that ends as it does are both seen in one text", () => {
  // `_test` of Stripe's `sk_test_` hint must not hide the `_` that ends `duffel_test_`, and
  // `sk_` with 32 hex digits must not hide Stripe's `sk_live_`.
  const random = prng(37);
  const duffel = tokenOf(SECRET_SHAPES.find((s) => s.id === "duffel-token")!, random);
  const hexKey = tokenOf(SECRET_SHAPES.find((s) => s.id === "hex-sk-key")!, random);
  const stripe = `sk_live_${sampleOf("[A-Za-z0-9]{24}", random)}`;
  for (
    const order of [[duffel, stripe, hexKey], [stripe, hexKey, duffel], [hexKey, duffel, stripe]]
  ) {
    const text = order.map((t, i) => `k${i} = "${t}"\n`).join("");
    const { findings } = redactSync(text);
    assert.deepEqual(findings.map((f) => f.rule).sort(), ["api-key", "duffel", "stripe"], text);
  }
});
