// A secret given as a schema's field's default (the sixth outside sweep left protovalidate's):
// Protocol Buffers' `optional string password = 1 [default = "…"]`, alone or after other options,
// and an Avro record's `{"name": "password", "type": "string", "default": "…"}` on one line or
// over several. The values are made here at random: no real secret is written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";
import { kept } from "./_redacts.ts";

const random = prng(57);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const FORMS: Array<[string, (name: string, value: string) => string]> = [
  ["a.proto", (n, v) => `  optional string ${n} = 1 [default = "${v}"];\n`],
  ["a.proto", (n, v) => `  optional string ${n} = 12 [deprecated = true, default = "${v}"];\n`],
  ["a.proto", (n, v) => `  required bytes ${n}=3[default="${v}"];\n`],
  ["a.avsc", (n, v) => `{"name": "${n}", "type": "string", "default": "${v}"}\n`],
  [
    "user.avsc",
    (n, v) =>
      `    {\n      "name": "${n}",\n      "type": "string",\n      "default": "${v}"\n    },\n`,
  ],
  ["schema.json", (n, v) => `{"name":"${n}","type":["string","null"],"default":"${v}"}\n`],
];

const NAMES = ["password", "db_password", "api_key", "client_secret", "auth_token"];

Deno.test("a secret given as a schema's field's default is redacted", async () => {
  const leaks: string[] = [];
  let tried = 0;
  for (const [path, form] of FORMS) {
    for (const name of NAMES) {
      for (let k = 0; k < 4; k++) {
        const value = k % 2
          ? pick("abcdefghjkmnpqrstuvwxyz", 4) + pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 4) +
            pick("23456789", 4) + pick(AN, 8)
          : pick(AN, 32);
        const out = (await redactText(form(name, value), path)).text;
        tried++;
        if (out.includes(value)) leaks.push(`${path}: ${out.trim()}`);
      }
    }
  }
  assert.ok(tried >= 100, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("a schema's defaults that are no secret are kept", async () => {
  for (
    const [path, text] of [
      ["a.proto", `  optional string password = 1 [default = ""];\n`],
      ["a.proto", `  optional string password_hint = 4 [default = "Use your email address"];\n`],
      ["a.proto", `  optional string title = 2 [default = "k8sQ2mZ7pL4xW9vN3bR6"];\n`],
      ["a.proto", `  optional int32 token_ttl = 5 [default = 3600];\n`],
      ["a.avsc", `{"name": "title", "type": "string", "default": "k8sQ2mZ7pL4xW9vN3bR6"}\n`],
      ["a.avsc", `{"name": "api_key", "type": ["null", "string"], "default": null}\n`],
      ["a.avsc", `{"name": "token_type", "type": "string", "default": "Bearer"}\n`],
    ]
  ) await kept(text, path);
});
