import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { hashText, sha256Parts, utf8Length } from "../../pipeline/text_hash.ts";
import { streamDocument } from "../../pipeline/document.ts";
import { concatBytes } from "../../pipeline/_bytes.ts";
import { documentHashes } from "../../pipeline/document.ts";
import { resumedDocumentHashes } from "../../accel/resumed_hashes.ts";
import { fileStamp } from "../../pipeline/helpers.ts";
import { writePatched } from "../../accel/patch_write.ts";
import { fenceFor } from "../../plugins/markdown_fences.ts";
import { prng, tempDir } from "../_helpers.ts";

const encoder = new TextEncoder();
const whole = (parts: string[]) =>
  createHash("sha256").update(encoder.encode(parts.join(""))).digest("hex");

Deno.test("sha256Parts(), hashText() and utf8Length() measure long texts in pieces as their whole UTF-8 bytes", () => {
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
  for (const text of texts) {
    assert.equal(sha256Parts([text]), whole([text]));
    // The length and hash of one pass, and the length alone, are those of the whole encoding.
    const length = encoder.encode(text).length;
    assert.deepEqual(hashText(text), { sha256: whole([text]), length });
    assert.equal(utf8Length(text), length);
  }
  assert.equal(
    sha256Parts(["head\n", texts[0], "", texts[3]]),
    whole(["head\n", texts[0], "", texts[3]]),
  );
  assert.equal(sha256Parts([]), whole([]));
});

Deno.test("utf8Length() is the length TextEncoder encodes for any UTF-16 string, lone surrogates too", () => {
  const random = prng(11);
  // Units drawn from ASCII, the surrogates (paired or not, in any order) and the rest of the plane.
  const unit = () => {
    const r = random();
    const code = r < 0.3
      ? 0xd800 + Math.floor(random() * 0x800)
      : r < 0.6
      ? Math.floor(random() * 0x80)
      : Math.floor(random() * 0x10000);
    return String.fromCharCode(code);
  };
  for (let i = 0; i < 3000; i++) {
    const text = Array.from({ length: Math.floor(random() * 40) }, unit).join("");
    assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
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

Deno.test("a streamed document hashes and writes the same bytes as its blocks' encodings", async () => {
  const random = prng(17);
  const texts = [
    "## Files\n\n",
    "é".repeat(600_000) + "\n",
    "🙂".repeat(40_000) + "x\n",
    "",
    "abc\n".repeat(50_000),
    "€ end\n",
  ];
  const blocks = texts.map((text, i) => ({
    id: `b${i}`,
    section: "files",
    stability: "stable" as const,
    text,
    offset: 0,
    length: encoder.encode(text).length,
    sha256: "",
    tokens: 0,
  }));
  const parts = blocks.map((b) => encoder.encode(b.text));
  const doc = streamDocument(blocks);
  assert.deepEqual(doc.lengths, parts.map((p) => p.length));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const cuts = [
    0,
    1,
    parts[0].length,
    parts[0].length + 70_001,
    parts[0].length + parts[1].length,
    total - 3,
    total,
    total + 5,
  ];
  for (let i = 0; i < 5; i++) cuts.push(Math.floor(random() * total));
  for (const cut of cuts) assert.deepEqual(documentHashes(doc, cut), documentHashes(parts, cut));
  // Resumed after the leading blocks of an earlier document with the same sha256 (a resident
  // process's last document), whatever the prefix: the same hashes.
  const ids = parts.map((p) => createHash("sha256").update(p).digest("hex"));
  const earlier = blocks.slice(0, 3).concat([{ ...blocks[5], text: "other\n", length: 6 }]);
  const kept = resumedDocumentHashes(streamDocument(earlier), 0, {
    parts: ids.slice(0, 3).concat(["other"]),
  }).states;
  assert.equal(kept?.states.length, earlier.length);
  for (const cut of cuts) {
    const { states: _, ...resumed } = resumedDocumentHashes(doc, cut, {
      parts: ids,
      previous: kept,
    });
    assert.deepEqual(resumed, documentHashes(parts, cut), `cut ${cut}`);
  }
  assert.deepEqual(utf8Length(texts.join("")), total);
  // Written whole from a previous document that shares the first blocks.
  const dir = await tempDir();
  const old = join(dir, "old.md");
  await Deno.writeFile(
    old,
    concatBytes(parts.slice(0, 2).concat([encoder.encode("x".repeat(2 << 20))])),
  );
  const hashes = parts.map((p) => createHash("sha256").update(p).digest("hex"));
  const previous = {
    hashes: hashes.slice(0, 2).concat(["other"]),
    path: old,
    stamp: fileStamp(old)!,
  };
  for (const [name, source] of [["a.md", parts], ["b.md", doc]] as const) {
    assert.ok(writePatched(join(dir, name), source, hashes, previous));
  }
  // Compared by hash: a failing comparison of megabytes would print them all.
  const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  assert.equal(hex(await Deno.readFile(join(dir, "a.md"))), hex(concatBytes(parts)));
  assert.equal(hex(await Deno.readFile(join(dir, "b.md"))), hex(concatBytes(parts)));
  await Deno.remove(dir, { recursive: true });
});
