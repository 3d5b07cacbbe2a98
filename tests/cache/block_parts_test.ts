import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { countTexts, tableFor } from "../../pipeline/count.ts";
import { bpeCounter } from "../../pipeline/_bpe.ts";
import type { CountHelper, CountText } from "../../pipeline/secrets.ts";
import {
  finishPrecount,
  knownCount,
  precountServed,
  startPrecount,
  stopRun,
} from "../../accel/precount.ts";
import { joinFileBlock, takeParts, textParts } from "../../pipeline/block_parts.ts";
import { streamDocument } from "../../pipeline/document.ts";
import { hashText } from "../../pipeline/text_hash.ts";
import { concatBytes } from "../../pipeline/_bytes.ts";
import { renderFileBlock } from "../../plugins/sections/_render.ts";
import type { Block, PlacedBlock, RenderedFile } from "../../pipeline/types.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { buildIn } from "./_cache_helpers.ts";

const encoder = new TextEncoder();

function source(seed: number, lines: number): string {
  const random = prng(seed);
  return Array.from(
    { length: lines },
    (_, j) => `${j % 4 ? "  " : ""}let v${j} = ${Math.floor(random() * 1e6)}; // ${"é€🙂"[j % 3]}`,
  ).join("\n") + "\n";
}

function fileOf(path: string, text: string): RenderedFile {
  const status = "rendered" as const;
  return { path, text, fenced: true, status, language: "ts", view: "full", sha256: "", bytes: 0 };
}

function blockOf(file: RenderedFile): Block {
  return {
    id: `files:${file.path}`,
    section: "files",
    stability: "stable",
    source: file.path,
    text: renderFileBlock(file),
  };
}

/** A counting thread in this one, holding the texts it is given (as a scan worker does). */
function helperOf(kept: Map<string, string>): CountHelper {
  let count: ((text: string) => number) | undefined;
  return {
    count: ({ spans, texts }, table) => {
      count ??= bpeCounter(table);
      const mine = spans.map(([path, start, end]) => count!(kept.get(path)!.slice(start, end)));
      // A lazy text's piece comes as its bytes, decoded as a scan worker decodes them.
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      const text = (t: CountText) =>
        typeof t === "string" ? t : decoder.decode(t.bytes).slice(t.start, t.end);
      return Promise.resolve(mine.concat(texts.map((t) => count!(text(t)))));
    },
    stop: () => {},
  };
}

Deno.test("a file block keeps the parts it was joined from: the file's text itself, not a copy", () => {
  const file = fileOf("a.ts", source(1, 3000));
  const block = blockOf(file);
  assert.ok(takeParts(block, file), "the block keeps its parts");
  const parts = textParts(block);
  assert.equal(parts.length, 3);
  assert.equal(parts.join(""), block.text);
  assert.equal(parts[1], file.text);
  // Hashed, measured and written part by part as the joined text would be.
  const bytes = encoder.encode(block.text);
  assert.deepEqual(hashText(parts), {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    length: bytes.length,
  });
  const placed = { ...block, offset: 0, length: bytes.length, sha256: "", tokens: 0 };
  // Each piece is valid until the next is asked for: copied as it comes.
  const pieces = Array.from(streamDocument([placed as PlacedBlock]).pieces(), (p) => p.slice());
  assert.deepEqual(concatBytes(pieces), bytes);
  // A block whose text a plugin replaced is read as it is.
  const replaced = { ...block, text: block.text.toUpperCase() };
  assert.deepEqual(textParts(replaced), [replaced.text]);
});

Deno.test("parts that would split a surrogate pair are not kept", () => {
  const file = fileOf("a.ts", "x");
  assert.equal(joinFileBlock(file, ["a\ud83d", "\ude42b", "c"]), "a🙂bc");
  assert.equal(takeParts({ text: "a🙂bc" }, file), false);
  const block = { text: joinFileBlock(file, ["a\n", "\ud83d\ude42", "\n"]) };
  assert.equal(takeParts(block, file), true);
});

Deno.test("early counts of file blocks read part by part count them as counting them whole does", async () => {
  const texts: Record<string, string> = {
    "a.ts": source(3, 5000),
    // The middle starts at the text's start (the character before it is the fence's newline).
    "b.ts": "x = 1\n" + source(4, 2000),
    // The middle ends at the text's end (the character after it is the closing fence).
    "c.ts": source(5, 1500).trimEnd() + "\nlast = 1\n",
    // No final newline: the block adds one after the text.
    "d.ts": source(6, 1500) + "tail = 2",
  };
  const table = await tableFor("o200k");
  const kept = new Map(Object.entries(texts));
  const files = Object.entries(texts).map(([path, text]) => fileOf(path, text));
  startPrecount(
    files.map((f) => ({ path: f.path, text: f.text!, helper: 0 })),
    "o200k",
    [helperOf(kept)],
    table,
  );
  const blocks = files.map(blockOf);
  blocks.forEach((b, i) => takeParts(b, files[i]));
  const count = bpeCounter(table);
  await finishPrecount("o200k", count);
  const whole = await countTexts(blocks.map((b) => b.text), { workers: 1 });
  const before = precountServed();
  // Found by its parts alone: the joined text is not searched (here it is not even given).
  blocks.forEach((b, i) =>
    assert.equal(knownCount("o200k", b.source, "", count, textParts(b)), whole[i], b.source)
  );
  assert.equal(precountServed() - before, blocks.length);
  stopRun("o200k");
});

Deno.test("a build's document and counts are those of its blocks joined", async () => {
  const tree = { "src/a.ts": source(7, 3000), "src/b.ts": source(8, 100), "src/c.md": "# c\n" };
  const root = await makeProject(tree);
  const result = await buildIn(root, await tempDir());
  const document = await Deno.readFile(result.output!.document);
  assert.deepEqual(document, encoder.encode(result.blocks.map((b) => b.text).join("")));
  const counted = await countTexts(result.blocks.map((b) => b.text), { workers: 1 });
  assert.deepEqual(result.blocks.map((b) => b.tokens), counted);
  for (const block of result.blocks) {
    assert.equal(block.sha256, createHash("sha256").update(block.text).digest("hex"));
    assert.equal(block.length, encoder.encode(block.text).length);
  }
});
