// The rules' one decoder of escapes and its one map back: the marks around a value read whole in a
// data file, the characters of a token read in any file, and each place of what was read led back
// to the text (a decoded character to its whole escape, a removed joint left outside a match).
import assert from "node:assert/strict";
import { markEscapes, tokenEscapes } from "../../pipeline/_secret_rules_escapes.ts";
import {
  crossesEdit,
  editText,
  sourceEnd,
  sourceStart,
} from "../../pipeline/_secret_rules_edits.ts";
import { prng } from "../_helpers.ts";

const random = prng(25);

/** The ways a format writes one character escaped. */
const WAYS = [
  (c: string) => `\\u00${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  (c: string) => `\\u00${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`,
  (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`,
  (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
];

Deno.test("every way of escaping a mark or a token's character decodes to it", () => {
  for (const c of `"'&,:=[]{}`) {
    for (const way of WAYS) {
      const text = `a${way(c)}b`;
      assert.deepEqual(markEscapes(text, "a.json"), [
        { index: 1, length: way(c).length, text: c },
      ], text);
    }
  }
  for (const c of "&+-./:=_") {
    for (const way of WAYS) {
      const text = `a${way(c)}b`;
      assert.deepEqual(tokenEscapes(text), [{ index: 1, length: way(c).length, text: c }], text);
    }
  }
  for (const ref of ["&quot;", "&#34;", "&#034;", "&#x22;", "&#X22;", "&#x0022;"]) {
    assert.deepEqual(markEscapes(`a${ref}b`, "a.html"), [{
      index: 1,
      length: ref.length,
      text: '"',
    }]);
  }
  assert.deepEqual(tokenEscapes("a\\/b"), [{ index: 1, length: 2, text: "/" }]);
});

Deno.test("an escaped '=' is decoded with the escaped '&' after it in both readings", () => {
  // (one reading decoded `%3D` and not `%26`, and read `…%26next` as the value's own)
  const text = "user=bob&password%3DQx7vLm2Rk9Tz%26next%3D1";
  for (const escapes of [markEscapes(text, "a.log"), tokenEscapes(text)]) {
    assert.equal(editText(text, escapes).text, "user=bob&password=Qx7vLm2Rk9Tz&next=1");
  }
});

Deno.test("marks are decoded only in files whose format escapes them", () => {
  const text = "{&quot;k&quot;:1}";
  assert.equal(markEscapes(text, "a.html").length, 2);
  assert.deepEqual(markEscapes(text, "a.py"), []);
  assert.deepEqual(markEscapes(text), []);
});

Deno.test("a token's escapes are decoded only in runs that touch a letter or digit", () => {
  assert.deepEqual(tokenEscapes('printf("%2d %2f", x)'), []);
  assert.equal(tokenEscapes("https%3A%2F%2Fexample.org").length, 3);
  assert.deepEqual(tokenEscapes("no escapes here"), []);
});

/** A random text of letters, escapes and joints, with the edits that read it plainly. */
function randomText(): { source: string; plain: string; edits: Parameters<typeof editText>[1] } {
  let source = "", plain = "";
  const edits: Parameters<typeof editText>[1] = [];
  const n = 1 + Math.floor(random() * 20);
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.5) {
      const c = "abcXYZ019"[Math.floor(random() * 9)];
      source += c;
      plain += c;
    } else if (r < 0.8) {
      const escape = WAYS[Math.floor(random() * WAYS.length)]("/");
      edits.push({ index: source.length, length: escape.length, text: "/" });
      source += escape;
      plain += "/";
    } else {
      edits.push({ index: source.length, length: 3, text: "" });
      source += "\\\n ";
    }
  }
  return { source, plain, edits };
}

Deno.test("each span of what was read leads back to the text it was read from", () => {
  for (let round = 0; round < 500; round++) {
    const { source, plain, edits } = randomText();
    const view = editText(source, edits);
    assert.equal(view.text, plain);
    for (let start = 0; start < plain.length; start++) {
      for (let end = start + 1; end <= plain.length; end++) {
        const from = sourceStart(view, start);
        const to = sourceEnd(view, end);
        // the span's source, its escapes decoded and its joints removed, is the span read: no
        // half of an escape, no joint at either edge
        const inside = edits.filter((e) => e.index >= from && e.index + e.length <= to);
        assert.equal(editText(source, inside, from, to).text, plain.slice(start, end), source);
        // and it crosses an edit when one stands after its first character
        const crossed = inside.some((e) => e.index > from);
        assert.equal(crossesEdit(view, start, end), crossed, `${source} ${start}-${end}`);
      }
    }
  }
});

Deno.test("a piece of the text read with its edits keeps the places of the whole", () => {
  const source = "0123%2F56789";
  const view = editText(source, [{ index: 4, length: 3, text: "/" }], 2, 10);
  assert.equal(view.text, "23/567");
  assert.equal(sourceStart(view, 2), 4);
  assert.equal(sourceEnd(view, 3), 7);
  assert.equal(sourceEnd(view, 6), 10);
});
