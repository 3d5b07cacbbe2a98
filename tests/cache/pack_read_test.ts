import assert from "node:assert/strict";
import { join } from "node:path";
import { openCache } from "../../pipeline/cache.ts";
import { tempDir } from "../_helpers.ts";

/**
 * A build reads the pack's index and each record when it is used, never the pack whole; a record
 * decoded at once (`getDecoded`, `get`) is read into one buffer the next read reuses, so a warm
 * build that reads the whole project from the pack leaves no buffer a record behind. What is
 * counted is the buffers the records were handed in, never time.
 */
Deno.test("getDecoded() gives what getBytes() gives, each pack record read into one reused buffer", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  const values = Array.from({ length: 30 }, (_, i) => `${i} ${"é".repeat(200 + i * 97)}`);
  for (const [i, value] of values.entries()) {
    await cold.setBytes(`key ${i}`, new TextEncoder().encode(value));
  }
  await cold.flush();

  const warm = openCache(dir, { pack: "project" });
  const buffers = new Set<ArrayBufferLike>();
  for (const [i, value] of values.entries()) {
    const text = await warm.getDecoded!(`key ${i}`, (bytes) => {
      buffers.add(bytes.buffer);
      return new TextDecoder().decode(bytes);
    });
    assert.equal(text, value);
  }
  // The buffer grows to the largest record read so far, at least doubling each time: a few
  // buffers (the records' sizes span a factor of about 14), not one a record.
  const sizes = values.map((v) => new TextEncoder().encode(v).length);
  const most = 1 + Math.ceil(Math.log2(Math.max(...sizes) / Math.min(...sizes)));
  assert.ok(buffers.size <= most, `${buffers.size} buffers for ${values.length} records`);
  await warm.flush();

  const other = openCache(dir, { pack: "project" });
  for (const [i, value] of values.entries()) {
    assert.equal(new TextDecoder().decode(await other.getBytes(`key ${i}`)), value);
  }
  assert.equal(await other.getDecoded!("no such key", () => "found"), undefined);
  await other.flush();
});
