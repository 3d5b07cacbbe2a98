import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Parts } from "../../pipeline/_text_hash.ts";
import { fenceFor } from "../../plugins/sections/_render.ts";
import { prng } from "../_helpers.ts";

const encoder = new TextEncoder();
const whole = (parts: string[]) =>
  createHash("sha256").update(encoder.encode(parts.join(""))).digest("hex");

Deno.test("sha256Parts() hashes long texts in pieces to the sha256 of their UTF-8 bytes", () => {
  const piece = 64 * 1024;
  // A surrogate pair across each piece boundary, lone surrogates, two- and three-byte characters.
  const pairAt = (at: number) => "a".repeat(at - 1) + "🙂" + "é€".repeat(100);
  const texts = [
    pairAt(piece),
    pairAt(piece + 1),
    pairAt(2 * piece) + pairAt(piece),
    "x".repeat(piece - 1) + "\ud83d",
    "\udc00" + "y".repeat(3 * piece) + "\ud83d" + "z",
    "€".repeat(piece * 2 + 7),
    "",
  ];
  for (const text of texts) assert.equal(sha256Parts([text]), whole([text]));
  assert.equal(
    sha256Parts(["head\n", texts[0], "", texts[3]]),
    whole(["head\n", texts[0], "", texts[3]]),
  );
  assert.equal(sha256Parts([]), whole([]));
});

Deno.test("fenceFor() is one backtick longer than the longest run, at least three", () => {
  const random = prng(3);
  const byRegex = (text: string) => {
    let longest = 0;
    for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
    return "`".repeat(Math.max(3, longest + 1));
  };
  for (let i = 0; i < 300; i++) {
    const text = Array.from({ length: Math.floor(random() * 40) }, () => {
      const r = random();
      return r < 0.4 ? "`".repeat(1 + Math.floor(random() * 6)) : r < 0.7 ? "a\n" : "é ";
    }).join("");
    assert.equal(fenceFor(text), byRegex(text), JSON.stringify(text));
  }
  assert.equal(fenceFor(""), "```");
  assert.equal(fenceFor("``````"), "```````");
  assert.equal(fenceFor("a ``` b ` c"), "````");
});
