// A generated key in one case (`o8oqti3t…`, `K7SOW2B8…`, a UUID) under a token's name is a secret,
// as a mixed-case one always was; words and numbers joined (`build-2024-linux-x64`) and a
// camelCase id's value (`credentialsId`) are not. Values are made at run time.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { piecesOf } from "./_samples.ts";
import { prng } from "../_helpers.ts";

const random = prng(41);
const run = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const HEX = "0123456789abcdef";

/** Keys in one case, as providers issue them (letters and digits mixed at random). */
function keys(): string[] {
  const uuid = () => [8, 4, 4, 4, 12].map((n) => run(HEX, n)).join("-");
  return [
    run(LOWER, 32),
    run(LOWER, 20),
    run(UPPER, 40),
    run(LOWER, 64),
    uuid(),
    `${run(LOWER, 10)}-${run(LOWER, 24)}`,
  ]
    // one that random chance made of letters alone would be a word: not what this tests
    .filter((k) => /[0-9].*[0-9].*[0-9]/.test(k));
}

const NAMED: Array<(v: string) => string> = [
  (v) => `service:\n  access_token: ${v}\n`,
  (v) => `export SERVICE_TOKEN=${v}\n`,
  (v) => `SERVICE_TOKEN="${v}"\n`,
  (v) => `const serviceAuthKey = '${v}';\n`,
  (v) => `{"service_token": "${v}"}\n`,
];

Deno.test("a generated key in one case under a token's name is redacted whole", () => {
  const leaks: string[] = [];
  for (let i = 0; i < 8; i++) {
    for (const key of keys()) {
      for (const place of NAMED) {
        const { text } = redactSync(place(key));
        if (piecesOf(key).some((p) => text.includes(p))) leaks.push(place(key));
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("words and numbers joined, versions and a camelCase id's value stay as written", () => {
  const texts = [
    `cache_key = "build-2024-linux-x64-node18"\n`,
    `token_type: sha256_hmac_v2_compat\n`,
    `release_key = "v1.2.3-beta.4+build.5"\n`,
    `TOKEN_URL=https://auth.example.org/oauth2/v1/token\n`,
    `key: src/utils/parser2/index3.ts\n`,
    `credentialsId: '${[8, 4, 4, 4, 12].map((n) => run(HEX, n)).join("-")}'\n`,
    `<UserSecretsId>${[8, 4, 4, 4, 12].map((n) => run(HEX, n)).join("-")}</UserSecretsId>\n`,
    `tokenizer = "wordpiece_uncased_2023"\n`,
  ];
  for (const text of texts) assert.deepEqual(redactSync(text).findings, [], text);
});
