import assert from "node:assert/strict";
import { findSecrets } from "../../pipeline/secret_rules.ts";
import { assertLinear, SIZES } from "./_growth.ts";
import { readsOf } from "./_read_meter.ts";

/**
 * One line of a rule's start repeated, with no line end: a rule that looks back to its line's
 * start, or ahead to its end or to a closing mark, from each of its starts read the whole line
 * again from each (each of these read 126x to 224x more for 16x the line: a 1 MB line of
 * `password: string = 'swordfish'` took 6 s, of `xfreerdp /u:a` 8.7 s). Each is read a bounded
 * span now.
 */
const LINES: Array<[string, string, string]> = [
  ["a password name's look back", "password: string = 'swordfish' ", "a.ts"],
  ["an expect prompt's look back", 'expect "Password:" ', "a.exp"],
  ["a pipe to --password-stdin", "echo x | docker login --password-stdin ", "a.sh"],
  ["a password name's look back (a name of code)", "password: a_b_c ", "a.txt"],
  ["a variable block's close", 'variable "db_password" { default = "abc" ', "a.tf"],
  ["FreeRDP's line", "xfreerdp /u:a ", "a.sh"],
  ["a HAR cookie's list", '"name": "a", "value": "b", ', "a.har"],
  // a token is redacted to the end of its run: a run of tokens is read once, not from each
  ["a run of prefixed tokens", "sk-ant-api03-abcdefghijKLMNOPQRST-", "a.txt"],
  ["a run of Twilio SIDs", "AC0123456789abcdef0123456789abcdef-", "a.txt"],
  ["a run of base64 tokens", `ops_eyJ${"aB3+".repeat(30)}+`, "a.txt"],
  // escapes and wraps of tokens: the text around them read once again, decoded or joined
  ["escapes in a URL", "ab%2Fcd%3Aef\\/gh ", "a.txt"],
  ["lines of a wrapped token", "sk-ant-api03-abcdefgh1\n  ijklmnop2\n", "a.txt"],
  // the twenty-fifth round's shapes: each read a bounded span around its start
  ["YAML complex keys", "? password\n: Qx7vLm2R!k9T\n", "a.yml"],
  ["a stub's matchers", '{"X-Api-Key": {"equalTo": "Qx7vLm2Rk9TzAb12Cd34Ef56"}}, ', "a.json"],
  ["base64 encoders' literals", 'btoa("u:Qx7vLm2R!k9T"); ', "a.js"],
  ["Set-Cookie headers", "Set-Cookie: sid=Qx7vLm2Rk9TzAb12Cd34; Path=/\n", "a.log"],
  [
    "a HAR's Set-Cookie",
    '{"name": "Set-Cookie", "value": "sid=Qx7vLm2Rk9TzAb12; Path=/"}, ',
    "a.har",
  ],
  ["credentials constructors", 'Credentials("r", "h", "u", "Qx7vLm2R!k9T") ', "a.sbt"],
  ["a tool's -t after a quoted argument", "influx q 'a(b)|c' -t Qx7vLm2Rk9TzAb12 ", "a.sh"],
  ["commented keys", "; key = g4crBNJrwAJW4AfOhYOqzXLEwJZfjwvyGcO5ifGv\n", "a.asm"],
  ["Nostr keys", "nsec1tavgtlv9k074ntgudhz749e88j3f3yydgjuuxk55jajkfchsj6c7k8xc48 ", "a.txt"],
  ["other scripts' words in code", "$c = ['пароль' => 'Qx7vLm2R!k9T']; ", "a.php"],
  [
    "a key in base64 wrapped over lines",
    `LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQ${"aB3d".repeat(9)}\n`,
    "a.txt",
  ],
];

for (const [what, unit, path] of LINES) {
  Deno.test(`secret rules read a line of ${JSON.stringify(unit)} in linear work (${what})`, () => {
    const work = SIZES.map((n) => {
      const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
      return readsOf(() => findSecrets(text, { path }));
    });
    assertLinear(`${what}: ${JSON.stringify(unit)} in ${path}`, work);
  });
}

Deno.test("secret rules read one line of joined literals 2 KB apart in linear work", () => {
  // Literals joined (`'0Uah' + '…'`) further apart than one window of joints: each window was the
  // line before to the line after, so on one line the whole line again for each (165x for 16x)
  const unit = "apiKey = '0Uah' + 'x' " + "x ".repeat(1100);
  const work = SIZES.map((n) => {
    const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    return readsOf(() => findSecrets(text, { path: "a.js" }));
  });
  assertLinear("joined literals 2 KB apart", work);
});

Deno.test("secret rules read a value under 64 nested data maps once", () => {
  // Each `data:  ` line (spaces after it) is a map and an entry of the map above: each map read
  // every line below it, and decoded and read the innermost value again (30x the reads of one map)
  const value = btoa("listen 8080\n".repeat(300));
  const nested = (maps: number) =>
    Array.from({ length: maps }, (_, i) => " ".repeat(i) + "data:  ").join("\n") +
    `\n${" ".repeat(maps)}app.conf: ${value}\n`;
  const one = readsOf(() => findSecrets(nested(1), { path: "cm.yaml" }));
  const many = readsOf(() => findSecrets(nested(64), { path: "cm.yaml" }));
  assert.ok(many < 2 * one, `64 nested maps read ${many} characters, one ${one}`);
});
