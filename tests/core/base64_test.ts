import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { decodeBase64 } from "../../pipeline/_bytes.ts";

const CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.";

Deno.test("base64 text reads to node:buffer's bytes, padding and stray characters included", () => {
  const texts = [
    "",
    "a",
    "aG",
    "aGk",
    "aGk=",
    "aGk=aGk=",
    "aGVsbG8",
    "aGVsbG8=",
    "aGV sbG8",
    "a-_b",
    "====",
    "YQ",
  ];
  // A fixed pseudo-random walk over base64 and a few stray characters.
  let seed = 12345;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 5000; i++) {
    let text = "";
    for (let len = next(14); len > 0; len--) text += CHARS[next(next(10) < 9 ? 64 : CHARS.length)];
    texts.push(text);
  }
  for (const text of texts) {
    assert.deepEqual(
      [...decodeBase64(text)],
      [...Buffer.from(text, "base64")],
      JSON.stringify(text),
    );
  }
});
