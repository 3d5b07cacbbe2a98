// A token known by its prefix is redacted to the end of its run of token characters: longer than
// its rule's bound, or with a `-` or `_` and more after the part its rule reads (a Stripe key with
// a dash in it, in a Jenkins credential's XML), and an OpenAI key of any kind, found by the marker
// every OpenAI key holds (`sk-service-account-…T3BlbkFJ…` in a test's list of wanted values). Found
// by the outside sweep on trufflehog. The values are made here at run time: none is written in
// this repository.
import assert from "node:assert/strict";
import { redactsValue } from "./_redacts.ts";
import { sampleOf } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";
import { PREFIXED_TOKENS } from "../../pipeline/_secret_rules_prefixed.ts";

const random = prng(30);
const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const run = (n: number) =>
  Array.from({ length: n }, () => B62[Math.floor(random() * B62.length)]).join("");

/** Places with no name that gives a token away. */
const PLACES: Array<(token: string) => string> = [
  (t) => `  <secret>{apideck AQAAABAAA ${t}}</secret>\n`,
  (t) => `\t\twant: []string{"${t}"},\n`,
  (t) => `# old one: ${t} (rotated)\n`,
];

/** Prefixed tokens with a `-`, a `_` or a run past the rule's bound after the part it reads. */
const TOKENS = [
  `sk_live_${run(73)}-${run(14)}`,
  `rk_test_${run(30)}_${run(20)}`,
  `sk_live_${run(300)}`,
  `npm_${run(36)}-${run(8)}`,
  `glpat-${run(300)}`,
  `xoxb-${run(12)}-${run(300)}`,
  `sk-${run(40)}-${run(12)}`,
];

/** OpenAI keys of kinds that do not start with a known word, found by their marker. */
const OPENAI = [
  `sk-service-account-name-${run(20)}T3BlbkFJ${run(20)}`,
  `sk-${run(20)}T3BlbkFJ${run(20)}`,
  `sk-proj-${run(600)}`,
];

Deno.test("a prefixed token is redacted to the end of its run, past its bound or a dash", async () => {
  for (const token of TOKENS) {
    for (const place of PLACES) await redactsValue(place(token), token);
  }
});

Deno.test("an OpenAI key of any kind is found by its marker, with no name around it", async () => {
  for (const token of OPENAI) {
    for (const place of PLACES) await redactsValue(place(token), token, "openai_test.go");
  }
});

Deno.test("each provider's prefixed token with a dash and more after it is redacted whole", async () => {
  // (heads that are common words, `re_`, `sk_`, too: what follows them reads as random; every
  // entry of the table at each length: `token_limits_test.ts`)
  assert.ok(PREFIXED_TOKENS.length >= 90, `${PREFIXED_TOKENS.length}`);
  for (const shape of PREFIXED_TOKENS) {
    const source = shape.pattern!.source;
    let token = "";
    for (let tries = 0; tries < 20 && !token; tries++) {
      const t = sampleOf(source, random);
      shape.pattern!.lastIndex = 0;
      if (shape.pattern!.exec(t)?.[0] === t && shape.accept!(t, t, 0, t.length)) {
        token = `${t}-${run(12)}`;
      }
    }
    if (!token) throw new Error(`No token of "${shape.id}" could be made`);
    await redactsValue(PLACES[0](token), token);
  }
});
