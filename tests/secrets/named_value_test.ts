import assert from "node:assert/strict";
import { NAMED_VALUE, NAMED_VALUE_SPEC, redactSync } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

/** Where each match ends and its group 1: all that the hex-secret and key-map rules read. */
function ends(pattern: RegExp, text: string): string[] {
  return [...text.matchAll(pattern)].map((m) => `${m.index! + m[0].length}:${m[1] ?? ""}`);
}

Deno.test("NAMED_VALUE ends where NAMED_VALUE_SPEC does, with the same value", () => {
  const random = prng(3);
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdefABCDEF"[Math.floor(random() * 22)]).join("");
  const pick = (items: string[]) => items[Math.floor(random() * items.length)];
  // An assignment's parts in order (each may be left out or swapped for a stray piece), then
  // pieces that join assignments or break them.
  const slots = [
    ["", "api_", "MY", "x", "_", "deadbeef"],
    ["secret", "KEY", "Token", "passwd", "PassWord", "pwd", "Credential", "k", "sec"],
    ["", "_MAP", "s", "_2", "-x"],
    ["", '"', "'"],
    ["", " ", "\n", "\t "],
    [":", "=", "=>", "==", ":>", ";"],
    ["", " ", "\n"],
    ["", '"', "'"],
  ];
  const stray = ["{", "}", ",", "x", "_", "k", " ", ":", "="];
  let found = 0;
  for (let i = 0; i < 3000; i++) {
    const parts: string[] = [];
    for (let j = 1 + Math.floor(random() * 4); j > 0; j--) {
      for (const slot of slots) parts.push(random() < 0.1 ? pick(stray) : pick(slot));
      const value = random() < 0.3 ? "{" : hex(28 + Math.floor(random() * 10));
      parts.push(value, random() < 0.5 ? pick(stray) : "");
    }
    const text = parts.join("");
    const expected = ends(NAMED_VALUE_SPEC, text);
    assert.deepEqual(ends(NAMED_VALUE, text), expected, JSON.stringify(text));
    found += expected.length;
  }
  assert.ok(found > 200, `${found} matches`);
});

Deno.test("NAMED_VALUE's redactions: hex values and key maps after a name", () => {
  const hex = "4dac".repeat(8);
  // (an id's hex differs from the secret's: a found value is hidden wherever it repeats)
  const text = `API_SECRET=${hex}\nLLM_API_KEY_MAP={"together":"abcdefgh12"}\nid = ${
    "9f1e".repeat(8)
  }\n`;
  assert.deepEqual(redactSync(text).findings, [
    { line: 1, rule: "hex-secret" },
    { line: 2, rule: "key-map" },
  ]);
});
