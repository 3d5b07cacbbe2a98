// A warm build takes the token counts of the blocks the last document had from that document's
// record (`accel/patch_write.ts`), keeping their cache entries as read (`Cache.keep`): one cache
// read per changed block, not one per block, and the same document and manifest.
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { type Cache, openCache } from "../../pipeline/cache.ts";
import type { StageLayer } from "../../pipeline/stages.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { tokenCountKey } from "../../pipeline/count.ts";
import { sha256 } from "../../pipeline/read.ts";
import { countTokens } from "../../pipeline/tokens.ts";
import { cachedTokens } from "../../pipeline/_cached_tokens.ts";
import { makeProject, tempDir } from "../_helpers.ts";

const FILES = 60;

/** The speed layer, with a cache that counts its `get` and `keep` calls. */
function countingLayer(calls: { get: number; keep: number }): StageLayer {
  const layer = speedLayer();
  return {
    ...layer,
    cache(dir, options) {
      const cache: Cache = openCache(dir, options);
      return {
        ...cache,
        get: (key) => (calls.get++, cache.get(key)),
        keep: (key) => (calls.keep++, cache.keep!(key)),
      };
    },
  };
}

async function project(): Promise<string> {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
  };
  for (let i = 0; i < FILES; i++) tree[`src/m${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`;
  return await makeProject(tree);
}

Deno.test("a warm build reads the cache for the counts of the changed blocks only", async () => {
  const fast = await project();
  const plain = await project();
  const calls = { get: 0, keep: 0 };
  const once = async (root: string, layer?: StageLayer) => {
    const result = await build(await loadConfig({ cwd: root }), {
      builtins: defaultPlugins(),
      layer,
    });
    return [
      await Deno.readTextFile(result.output!.document),
      await Deno.readTextFile(result.output!.manifest),
    ];
  };
  await once(fast, countingLayer(calls));
  await once(plain);
  const edit = (root: string) =>
    Deno.writeTextFile(join(root, "src/m30.py"), "def g():\n    pass\n");
  await edit(fast);
  await edit(plain);
  const warm = { get: 0, keep: 0 };
  const [document, manifest] = await once(fast, countingLayer(warm));
  const blocks = JSON.parse(manifest).blocks.length;
  assert.ok(blocks > FILES);
  // The edited block, its earlier version (counted by difference), the header: a few, whatever
  // the files.
  assert.ok(
    warm.get <= 4,
    `count cache reads on a one-file edit: ${warm.get} for ${blocks} blocks`,
  );
  assert.ok(warm.keep >= blocks - 2, `counts taken from the last document: ${warm.keep}`);
  // The same bytes as the plain stages, the output's path aside.
  const [plainDocument, plainManifest] = await once(plain);
  assert.equal(document, plainDocument);
  const withoutOutput = (m: string) => ({ ...JSON.parse(m), output: undefined });
  assert.deepEqual(withoutOutput(manifest), withoutOutput(plainManifest));
});

Deno.test("a stepped or task view's token count is kept in the cache by its text, corrupt entries counted again", async () => {
  const dir = await tempDir({ prefix: "slop_counts_" });
  const text = Array.from({ length: 80 }, (_, i) => `def step_${i}(x):\n    return x * ${i}\n`)
    .join("");
  const exact = await countTokens(text);
  const counting = async (cache: Cache) => {
    let tokens = 0;
    const work = await tallyWork(async () => tokens = await cachedTokens(text, { cache }));
    return { tokens, counted: work.get("count") ?? 0 };
  };
  const first = openCache(dir);
  assert.ok((await counting(first)).counted > 0);
  await first.flush();
  // The next build: the count from the cache, nothing counted.
  assert.deepEqual(await counting(openCache(dir)), { tokens: exact, counted: 0 });
  // A wrong value under the key is not a count: counted again, and stored right.
  const key = tokenCountKey("o200k", sha256(text));
  for (const bad of ["12", -3, 1.5, null]) {
    const corrupt = openCache(dir);
    await corrupt.set(key, bad);
    await corrupt.flush();
    const again = await counting(openCache(dir));
    assert.equal(again.tokens, exact);
    assert.ok(again.counted > 0);
  }
  // Without a cache (or a short text): counted, the same count.
  assert.equal(await cachedTokens(text, {}), exact);
  await Deno.remove(dir, { recursive: true });
});
