// A cache whose pack has no file yet reads another pack (its seed) for what it cannot serve, and
// writes those entries into its own pack: the first build after `slop init` wrote a config file
// (a pack of its own) reads what the builds without a config wrote, instead of rendering again.
import assert from "node:assert/strict";
import { join } from "node:path";
import { openCache } from "../../pipeline/cache.ts";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

const packs = (dir: string) => [...Deno.readDirSync(join(dir, "packs"))].map((e) => e.name);

Deno.test("a pack with no file yet reads its seed's entries and keeps them; one with a file does not", async () => {
  for (const lean of [false, true]) {
    const dir = await tempDir();
    const a = openCache(dir, { pack: "project\0" });
    await a.set("k1", { v: 1 });
    await a.setBytes("k2", new Uint8Array(70_000).fill(7));
    await a.flush();
    const [seedPack] = packs(dir);
    const b = openCache(dir, { pack: "project\0config", seed: "project\0", lean });
    assert.equal(b.has("k1"), true);
    assert.deepEqual(await b.get("k1"), { v: 1 });
    assert.equal((await b.getBytes("k2"))?.length, 70_000);
    assert.equal(b.counts().hits, 2);
    await b.flush();
    // Read from its own pack from now on: the seed may go.
    assert.equal(packs(dir).length, 2);
    await Deno.remove(join(dir, "packs", seedPack));
    assert.deepEqual(await b.get("k1"), { v: 1 }, `lean ${lean}: the same object`);
    const again = openCache(dir, { pack: "project\0config", seed: "project\0" });
    assert.deepEqual(await again.get("k1"), { v: 1 });
    assert.equal((await again.getBytes("k2"))?.[69_999], 7);
  }
  // A pack that has a file of its own is not seeded: the seed is for its first build only.
  const dir = await tempDir();
  const seed = openCache(dir, { pack: "s" });
  await seed.set("k", 1);
  await seed.flush();
  const own = openCache(dir, { pack: "o" });
  await own.set("other", 2);
  await own.flush();
  const later = openCache(dir, { pack: "o", seed: "s" });
  assert.equal(later.has("k"), false);
  assert.equal(await later.get("k"), undefined);
});

Deno.test("the first build with a config file takes the renders of the builds without one from the cache", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "README.md": "# A\n" });
  const built = async () => {
    const config = await loadConfig({ cwd: root });
    const result = await build(config, { builtins: defaultPlugins(), layer: speedLayer({}) });
    return Object.fromEntries(result.files.map((f) => [f.path, f.cache]));
  };
  await built();
  await Deno.writeTextFile(join(root, "slop.config.js"), 'export default { files: ["**"] };\n');
  assert.deepEqual(await built(), { "README.md": "hit", "a.py": "hit", "slop.config.js": "miss" });
});
