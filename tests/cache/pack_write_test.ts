import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { cacheStats, openCache } from "../../pipeline/cache.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { buildIn, entryFiles, marks } from "./_cache_helpers.ts";

/** A project of 60 files, three of them large (pieces for the counting workers). */
function tree(): Record<string, string> {
  const random = prng(4);
  const out: Record<string, string> = {};
  for (let i = 0; i < 60; i++) {
    const lines = Array.from(
      { length: i % 20 === 0 ? 40_000 : 200 },
      (_, j) => `def f${j}(x):\n    return x * ${Math.floor(random() * 1e6)}  # ${i}`,
    );
    out[`src/m${i}.py`] = lines.join("\n") + "\n";
  }
  return out;
}

function comparable(result: Awaited<ReturnType<typeof buildIn>>) {
  const { output: _output, files, ...rest } = result.manifest as unknown as Record<string, unknown>;
  const withoutMarks = (files as Array<Record<string, unknown>>).map(({ cache: _c, ...f }) => f);
  return { document: result.document, manifest: { ...rest, files: withoutMarks } };
}

Deno.test("a cold build streams its entries into one pack; cold, warm and uncached builds give the same bytes", async () => {
  const root = await makeProject(tree());
  const state = await tempDir();
  const cold = await buildIn(root, state);
  const cache = join(state, "cache");
  assert.deepEqual(await entryFiles(cache), [], "no entry file per view or count");
  const stats = await cacheStats(cache);
  assert.equal(stats.packs.files, 1);
  assert.ok(stats.packs.bytes > 4 * 1024 * 1024);
  assert.equal(stats.tempFiles, 0);
  const warm = await buildIn(root, state);
  assert.ok(Object.values(marks(warm)).every((m) => m === "hit"));
  const freshState = await tempDir();
  const fresh = await buildIn(root, freshState, { cache: false });
  assert.deepEqual(comparable(cold), comparable(fresh));
  assert.deepEqual(comparable(warm), comparable(fresh));
  assert.deepEqual(cold.manifest.blocks, fresh.manifest.blocks, "token counts");
  for (const dir of [root, state, freshState]) await Deno.remove(dir, { recursive: true });
});

Deno.test("openCache() with a pack: cold writes stream into it, a few later writes are entry files, a new value of a packed key is appended", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await cold.set(`key ${i}`, { i });
  assert.deepEqual(await cold.get("key 3"), { i: 3 }, "read back before the flush");
  assert.ok(cold.has("key 19"));
  assert.deepEqual(await entryFiles(dir), []);
  await cold.flush();
  assert.equal((await cacheStats(dir)).packs.entries, 20);

  const warm = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) assert.deepEqual(await warm.get(`key ${i}`), { i });
  await warm.set("new key", "fresh");
  await warm.set("key 0", "changed");
  await warm.flush();
  assert.equal((await entryFiles(dir)).length, 1, "the new key only");
  const stats = await cacheStats(dir);
  assert.equal(stats.packs.files, 1);
  assert.equal(stats.packs.entries, 20, "key 0 twice in the file, once as a record");

  const next = openCache(dir, { pack: "project" });
  assert.equal(await next.get("key 0"), "changed", "the appended record wins");
  assert.equal(await next.get("new key"), "fresh");
  assert.deepEqual(await next.get("key 7"), { i: 7 });
});

Deno.test("a pack that appended values keep replacing is rewritten before they take over", async () => {
  const dir = join(await tempDir(), "cache");
  const first = openCache(dir, { pack: "project" });
  for (let i = 0; i < 10; i++) await first.set(`key ${i}`, "x".repeat(1000));
  await first.flush();
  const packs = join(dir, "packs");
  const pack = join(packs, [...Deno.readDirSync(packs)][0].name);
  let largest = 0;
  for (let round = 0; round < 40; round++) {
    const cache = openCache(dir, { pack: "project" });
    for (let i = 0; i < 10; i++) await cache.get(`key ${i}`);
    await cache.set("key 0", `${round}`.repeat(50_000));
    await cache.flush();
    largest = Math.max(largest, (await Deno.stat(pack)).size);
  }
  assert.ok(largest < 2.5 * 1024 * 1024, `the pack stays small: ${largest} bytes`);
  assert.equal(await openCache(dir, { pack: "project" }).get("key 0"), "39".repeat(50_000));
});

Deno.test("setText() stores a head and a text as setBytes() of their bytes would, streamed into a cold pack or joined", async () => {
  const encoder = new TextEncoder();
  const head = encoder.encode('{"plugins":["full@1"]}\n');
  // Over the pack's 1 MB buffer, with a surrogate pair across a 64K piece boundary.
  const texts = ["a".repeat(65_535) + "🙂" + "é€".repeat(600_000), "", "x = 1\n"];
  const bytesOf = (text: string) => {
    // Joined with set(), not spread: a spread of 3 MB of bytes took seconds.
    const body = encoder.encode(text);
    const bytes = new Uint8Array(head.length + body.length);
    bytes.set(head);
    bytes.set(body, head.length);
    return bytes;
  };
  const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const dir = join(await tempDir(), "cache");
  // Cold: the pack takes them in pieces; read back before and after the flush.
  const cold = openCache(dir, { pack: "project" });
  for (const [i, text] of texts.entries()) {
    assert.equal(await cold.setText!(`text ${i}`, head, text), sha(bytesOf(text)));
  }
  assert.deepEqual(await cold.getBytes("text 0"), bytesOf(texts[0]));
  await cold.flush();
  assert.deepEqual(await entryFiles(dir), []);
  // Warm (a pack is there): joined and written as setBytes would.
  const warm = openCache(dir, { pack: "project" });
  for (const [i, text] of texts.entries()) {
    assert.deepEqual(await warm.getBytes(`text ${i}`), bytesOf(text));
  }
  assert.equal(
    await warm.setText!("text 3", head, texts[2] + "y"),
    sha(bytesOf(texts[2] + "y")),
  );
  await warm.flush();
  const next = openCache(dir, { pack: "project" });
  assert.deepEqual(await next.getBytes("text 3"), bytesOf(texts[2] + "y"));
  assert.deepEqual(await next.getBytes("text 1"), bytesOf(texts[1]));
  // A cache that is off stores nothing.
  assert.equal(await openCache(dir, { enabled: false }).setText!("t", head, "x"), undefined);
});
