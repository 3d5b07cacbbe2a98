import assert from "node:assert/strict";
import { join } from "node:path";
import { countTexts, tableFor } from "../../pipeline/count.ts";
import { bpeCounter } from "../../pipeline/_bpe.ts";
import type { CountHelper } from "../../pipeline/secrets.ts";
import {
  finishPrecount,
  knownCount,
  precountServed,
  startPrecount,
  stopRun,
} from "../../accel/precount.ts";
import { shareFileTexts } from "../../accel/_share_text.ts";
import type { Block, RenderedFile } from "../../pipeline/types.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { buildIn } from "./_cache_helpers.ts";

function source(seed: number, lines: number): string {
  const random = prng(seed);
  return Array.from(
    { length: lines },
    (_, j) =>
      `${j % 4 ? "  " : ""}let v${j} = ${Math.floor(random() * 1e6)}; // ${
        ["é", "€", "🙂"][j % 3]
      }`,
  ).join("\n") + "\n";
}

const blockOf = (path: string, text: string): Block => ({
  id: `files:${path}`,
  section: "files",
  stability: "stable",
  source: path,
  text: `### ${path}\n\n\`\`\`ts\n${text}\`\`\`\n\n`,
});

/** A counting thread in this one: it keeps the texts it is given, as a scan worker does. */
function helperOf(kept: Map<string, string>): CountHelper {
  let count: ((text: string) => number) | undefined;
  return {
    count: ({ spans, texts }, table) => {
      count ??= bpeCounter(table);
      const mine = spans.map(([path, start, end]) => {
        const text = kept.get(path);
        return text === undefined ? -1 : count!(text.slice(start, end));
      });
      return Promise.resolve(mine.concat(texts.map(count)));
    },
    stop: () => {},
  };
}

Deno.test("a built file's text is held inside its block and reads the same as the file", async () => {
  const tree = { "src/a.ts": source(1, 3000), "src/b.ts": source(2, 4000), "src/c.ts": "x = 1\n" };
  const root = await makeProject(tree);
  const result = await buildIn(root, await tempDir());
  for (const [path, text] of Object.entries(tree)) {
    const file = result.files.find((f) => f.path === path)!;
    assert.equal(file.text, text);
    assert.ok(result.blocks.find((b) => b.source === path)!.text.includes(text));
    assert.equal(file.text, await Deno.readTextFile(join(root, path)));
  }
});

Deno.test("early counts moved onto the blocks' texts count the blocks as counting them whole does", async () => {
  const texts = { "a.ts": source(3, 5000), "b.ts": source(4, 2000) };
  const table = await tableFor("o200k");
  const kept = new Map(Object.entries(texts));
  const files = Object.entries(texts).map(([path, text]) => ({ path, text, helper: 0 }));
  startPrecount(files, "o200k", [helperOf(kept)], table);
  const blocks = Object.entries(texts).map(([path, text]) => blockOf(path, text));
  const rendered = Object.entries(texts).map(([path, text]) => ({ path, text }) as RenderedFile);
  shareFileTexts(blocks, rendered, "o200k");
  rendered.forEach((f) => assert.equal(f.text, texts[f.path as keyof typeof texts]));
  const count = bpeCounter(table);
  await finishPrecount("o200k", count);
  const whole = await countTexts(blocks.map((b) => b.text), { workers: 1 });
  const before = precountServed();
  blocks.forEach((b, i) => assert.equal(knownCount("o200k", b.source, b.text, count), whole[i]));
  assert.equal(precountServed() - before, 2);
  stopRun("o200k");
});

Deno.test("early counts this thread takes back from a slow helper are counted on the blocks' texts", async () => {
  const texts = { "a.ts": source(6, 4000) };
  const table = await tableFor("o200k");
  // Begins nothing (its flags stay free) and answers late, with nothing counted.
  const slow: CountHelper = {
    count: ({ spans, texts }) =>
      new Promise((resolve) => setTimeout(() => resolve([...spans, ...texts].map(() => -1)), 50)),
    stop: () => {},
  };
  const files = Object.entries(texts).map(([path, text]) => ({ path, text, helper: 0 }));
  startPrecount(files, "o200k", [slow], table);
  const blocks = Object.entries(texts).map(([path, text]) => blockOf(path, text));
  const rendered = Object.entries(texts).map(([path, text]) => ({ path, text }) as RenderedFile);
  shareFileTexts(blocks, rendered, "o200k");
  const count = bpeCounter(table);
  await finishPrecount("o200k", count);
  const [whole] = await countTexts([blocks[0].text], { workers: 1 });
  assert.equal(knownCount("o200k", "a.ts", blocks[0].text, count), whole);
  stopRun("o200k");
});

Deno.test("a block that does not hold its file's text leaves the file's text as it was", () => {
  const text = source(5, 500);
  const files = [{ path: "a.ts", text } as RenderedFile];
  const other = blockOf("a.ts", text.replace("let", "var"));
  shareFileTexts([other], files, "o200k");
  assert.equal(files[0].text, text);
});
