// `sha256Hex` hashes a short text in one call (`hash()` of node:crypto) and a long one through a
// hash object: both give the digest of the same UTF-8 bytes (lone surrogates as U+FFFD), on
// either side of the threshold.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex } from "../../pipeline/helpers.ts";

const viaObject = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

Deno.test("sha256Hex gives a hash object's digest of texts and bytes of every length around its one-call threshold", () => {
  const pieces = ["a", "é", "日", "🙂", "\ud800", "\udc00", "\ufeff", "\n", "\0"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const length of [0, 1, 63, 64, 1000, 4095, 4096, 4097, 9000]) {
    let text = "";
    while (text.length < length) text += pieces[Math.floor(next() * pieces.length)];
    text = text.slice(0, length);
    assert.equal(sha256Hex(text), viaObject(text), `text of ${length}`);
    const bytes = new Uint8Array(length).map(() => Math.floor(next() * 256));
    assert.equal(sha256Hex(bytes), viaObject(bytes), `bytes of ${length}`);
    // A view into a larger buffer: its own bytes only.
    const view = new Uint8Array(length + 10).subarray(5, 5 + length);
    view.set(bytes);
    assert.equal(sha256Hex(view), viaObject(bytes), `a view of ${length}`);
  }
});
