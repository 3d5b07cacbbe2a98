// A token in a URL's query, percent-encoded once or twice (a link inside a link's `next=`), and
// one right after an escape (`%3Dghp_…`, `%3A…`: the escape's last hex digit glued to its first letter,
// no boundary before it): every prefixed shape of the table, in code and in a log, under no name.
// Braintree's `$` as `%24`, `\u0024` or `\x24`. The tokens are made here from each rule's own
// pattern: no real token is written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES } from "../../pipeline/secret_rules.ts";
import { left, PREFIXED_TOKENS, secretOf, tokenOf as tokenFrom } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";
import { kept } from "./_redacts.ts";

const random = prng(31);

const once = (t: string) => encodeURIComponent(t);
const twice = (t: string) => encodeURIComponent(encodeURIComponent(t));

/** The places, each with its file: a query's value once and twice encoded, and nested. */
const FORMS: Array<[string, string, (t: string) => string]> = [
  ["a.ts", "once in code", (t) => `const u = "https://example.org/cb?state=${once(t)}";\n`],
  ["a.ts", "twice in code", (t) => `const u = "https://example.org/r?to=${twice(t)}";\n`],
  ["notes.txt", "twice in a note", (t) => `redirect ${twice(t)} done\n`],
  ["access.log", "twice in a log", (t) => `"GET /cb?next=${twice(t)}&x=1 HTTP/1.1" 200\n`],
  ["a.ts", "after %3D in code", (t) => `const u = "/login?next=%2Fcb%3Ftoken%3D${twice(t)}";\n`],
  ["a.py", "after %3D in Python", (t) => `URL = "/login?next=%2Fhook%3Fkey%3D${twice(t)}"\n`],
  ["a.go", "after %3A in Go", (t) => `u := "/login?next=%2Fcb%3Fauth%3Abearer%3A${twice(t)}"\n`],
  ["access.log", "after %3D in a log", (t) => `"GET /l?next=%2Fcb%3Fs%3D${twice(t)}" 302\n`],
];

Deno.test("a token URL-encoded once or twice, or right after an escape, is redacted", async () => {
  const leaks: string[] = [];
  for (const shape of PREFIXED_TOKENS) {
    const token = tokenFrom(shape, random);
    for (const [path, how, make] of FORMS) {
      const out = (await redactText(make(token), path)).text;
      if (left(secretOf(token), out)) leaks.push(`${shape.id} (${how}): ${out.trim()}`);
    }
  }
  assert.ok(PREFIXED_TOKENS.length >= 100, `${PREFIXED_TOKENS.length} shapes`);
  assert.deepEqual(leaks, []);
});

Deno.test("Braintree's token with its `$` escaped is redacted", async () => {
  const shape = SECRET_SHAPES.find((s) => s.id === "braintree-token")!;
  const token = tokenFrom(shape, random);
  for (const dollar of ["%24", "%2524", "\\u0024", "\\x24"]) {
    const text = `const t = "${token.replaceAll("$", dollar)}";\n`;
    const out = (await redactText(text, "a.js")).text;
    assert.ok(!left(secretOf(token), out), out);
  }
});

Deno.test("escapes that hold no token are kept", async () => {
  for (
    const text of [
      'printf("%24s|%2d%s\\n", name, n, unit);\n',
      'const u = "https://example.org/r?to=%252Fdocs%252Fguide%253Fpage%253D2";\n',
      'log.info("GET /l?next=%2Fsettings%3Ftab%3Dprofile%26view%3Dfull");\n',
      'price = "\\x24" + amount.toFixed(2)\n',
    ]
  ) await kept(text, "a.js");
});
