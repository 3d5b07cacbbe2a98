import assert from "node:assert/strict";
import { NAMED_VALUE, redactSync } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

// The key-map rule as it was, brace counting from each `{` (the spec the one-pass pairing keeps).
const MAP_VALUE = /"[^"\\\n]{1,200}"\s*:\s*"([^"\\\n]{8,})"/g;
const MAX_MAP = 64 * 1024;

function oldMatchingBrace(text: string, open: number): number {
  let depth = 0;
  const limit = Math.min(text.length, open + MAX_MAP);
  for (let i = open; i < limit; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The text redacted by the named-value rules as they were. */
function specRedacted(text: string): string {
  const matches: Array<{ start: number; end: number; rule: string }> = [];
  for (const m of text.matchAll(NAMED_VALUE)) {
    const end = m.index! + m[0].length;
    if (m[1]) {
      matches.push({ start: end - m[1].length, end, rule: "hex-secret" });
      continue;
    }
    const close = oldMatchingBrace(text, end - 1);
    if (close < 0) continue;
    const body = text.slice(end - 1, close + 1);
    for (const v of body.matchAll(MAP_VALUE)) {
      const at = end - 1 + v.index! + v[0].lastIndexOf(`"${v[1]}"`) + 1;
      matches.push({ start: at, end: at + v[1].length, rule: "key-map" });
    }
  }
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: typeof matches = [];
  for (const m of matches) {
    const last = merged[merged.length - 1];
    if (last && m.start < last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  let out = "";
  let at = 0;
  for (const m of merged) {
    out += text.slice(at, m.start) + `[REDACTED:${m.rule}]`;
    at = m.end;
  }
  return out + text.slice(at);
}

Deno.test("key maps are found by pairing the text's braces once, as counting them from each brace did", () => {
  const random = prng(8);
  const pieces = [
    "API_KEY_MAP={",
    "secret: {",
    "{",
    "}",
    "}}",
    '"openai": "abcdefgh1234"',
    '"k": "v"',
    ", ",
    "\n",
    "token = ",
    '"x":"12345678abc"',
  ];
  let redacted = 0;
  for (let n = 0; n < 3000; n++) {
    let text = "";
    const parts = 1 + Math.floor(random() * 20);
    for (let i = 0; i < parts; i++) text += pieces[Math.floor(random() * pieces.length)];
    const expected = specRedacted(text);
    assert.equal(redactSync(text).text, expected, JSON.stringify(text));
    if (expected !== text) redacted++;
  }
  assert.ok(redacted > 300, `only ${redacted} texts redacted`);
});

Deno.test("a key map further than its limit from its close is left alone, as before", () => {
  const far = `secret: {"a": "abcdefgh1234"${" ".repeat(MAX_MAP)}}`;
  assert.equal(redactSync(far).text, far);
  const near = `secret: {"a": "abcdefgh1234"}`;
  assert.equal(redactSync(near).text, 'secret: {"a": "[REDACTED:key-map]"}');
});
