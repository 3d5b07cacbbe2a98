import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheStats, openCache, parseSize, pruneCache } from "../../pipeline/cache.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { entryFiles } from "./_cache_helpers.ts";
import { build } from "../../pipeline/build.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";

/** Set a file's last use to `minutesAgo` minutes before now. */
async function usedAgo(path: string, minutesAgo: number): Promise<void> {
  const when = new Date(Date.now() - minutesAgo * 60_000);
  await Deno.utime(path, when, when);
}

Deno.test("pruneCache() removes the least recently used entries and packs until the folder fits", async () => {
  const dir = join(await tempDir(), "cache");
  const cache = openCache(dir);
  for (const name of ["a", "b", "c", "d"]) await cache.set(`key ${name}`, name.repeat(1000));
  const files = await entryFiles(dir);
  assert.equal(files.length, 4);
  const size = (await Deno.stat(files[0])).size;
  // Oldest first: the files as sorted by name, used 40, 30, 20, 10 minutes ago.
  for (const [i, file] of files.entries()) await usedAgo(file, 40 - 10 * i);
  await Deno.mkdir(join(dir, "packs"));
  const pack = join(dir, "packs", "p");
  await Deno.writeFile(pack, new Uint8Array(size));
  await usedAgo(pack, 25);
  // The pack's index file beside its stamp: it goes with the pack, not before it.
  await Deno.mkdir(join(dir, "pack-stamps"));
  const index = join(dir, "pack-stamps", "p.index");
  await Deno.writeFile(index, new Uint8Array(10));
  const stale = join(dir, "packs", "p.123.abcd.tmp");
  await Deno.writeFile(stale, new Uint8Array(10));
  await usedAgo(stale, 120);
  const fresh = join(dir, "packs", "q.123.abcd.tmp");
  await Deno.writeFile(fresh, new Uint8Array(10));
  await Deno.writeTextFile(join(dir, "README"), "not the cache's");

  const done = await pruneCache(dir, 3 * size);
  assert.equal(done.removed, 2);
  assert.equal(done.bytes, 3 * size);
  assert.equal(done.freed, 2 * size + 10, "two entries and the stale temp file");
  const left = await entryFiles(dir);
  assert.deepEqual(left, files.slice(2), "the two least recently used entries went first");
  assert.ok(await Deno.stat(pack), "the pack used after them stays");
  assert.ok(await Deno.stat(index), "and its index file");
  await assert.rejects(Deno.stat(stale), Deno.errors.NotFound);
  assert.ok(await Deno.stat(fresh), "a temp file of a write in progress stays");
  assert.equal(await Deno.readTextFile(join(dir, "README")), "not the cache's");
  assert.equal((await pruneCache(dir, 3 * size)).removed, 0, "under the limit: nothing to do");
  assert.equal((await pruneCache(dir, 0)).bytes, 0);
  await assert.rejects(Deno.stat(index), Deno.errors.NotFound, "the evicted pack's index file");
  assert.equal((await cacheStats(dir)).entries, 0);
});

Deno.test("a build keeps the cache under cache.maxSize, evicting the least recently used pack", async () => {
  const tree = (word: string) => ({
    "a.py": `def ${word}():\n    return ${JSON.stringify(word.repeat(400))}\n`,
    "b.md": `# ${word}\n\n${"text ".repeat(300)}\n`,
  });
  const cacheDir = join(await tempDir(), "shared-cache");
  const config = `export default { files: ["*.py", "*.md"], cache: { dir: ${
    JSON.stringify(cacheDir)
  } } };\n`;
  const buildWith = async (root: string, maxSize?: number) => {
    const config = await loadConfig({ cwd: root, stateDir: await tempDir() });
    if (maxSize !== undefined) config.cache.maxSize = maxSize;
    return await build(config, { builtins: defaultPlugins() });
  };
  const one = await makeProject({ ...tree("alpha"), "slop.config.ts": config });
  const two = await makeProject({ ...tree("beta"), "slop.config.ts": config });
  const first = await buildWith(one);
  await buildWith(two);
  const both = await cacheStats(cacheDir);
  assert.equal(both.packs.files, 2);
  // Limit the cache to what it holds now: the next build grows it and evicts the older pack.
  const limit = both.packs.bytes + both.bytes;
  await Deno.writeTextFile(join(two, "b.md"), "# changed\n");
  await Deno.writeTextFile(join(two, "a.py"), "X = 2\n");
  await buildWith(two, limit);
  const after = await cacheStats(cacheDir);
  assert.ok(after.bytes + after.packs.bytes <= limit, JSON.stringify(after));
  assert.equal(after.packs.files, 1);
  // The evicted project builds cold again, to the same bytes.
  const again = await buildWith(one);
  assert.equal(again.document, first.document);
  assert.deepEqual(again.manifest.files.map((f) => f.cache), ["miss", "miss"]);
});

Deno.test("cache.maxSize takes bytes or a size; anything else names the key", async () => {
  assert.equal(parseSize("512MB"), 512 * 1024 ** 2);
  assert.equal(parseSize("2 gb"), 2 * 1024 ** 3);
  assert.equal(parseSize("800k"), 800 * 1024);
  assert.equal(parseSize(1000), 1000);
  assert.equal(parseSize("1 TB"), undefined);
  assert.equal(parseSize(-1), undefined);
  const root = await makeProject({ "a.txt": "a\n" });
  const config = await loadConfig({ cwd: root, inline: {} });
  assert.equal(config.cache.maxSize, 1024 ** 3, "1 GB by default");
  const set = await loadConfig({ cwd: root, inline: { cache: { maxSize: "10MB" } } });
  assert.equal(set.cache.maxSize, 10 * 1024 ** 2);
  await assert.rejects(
    loadConfig({ cwd: root, inline: { cache: { maxSize: "lots" } } }),
    /"cache\.maxSize" must be a number of bytes or a size like "512MB", got "lots"/,
  );
});

Deno.test("slop cache prune trims to --max-size or cache.maxSize", async () => {
  const root = await makeProject({ "a.py": "def f():\n    pass\n", "b.txt": "notes\n" });
  await buildContext({ cwd: root }); // the state the command reads, built in this process
  const dir = join(root, ".slop", "cache");
  const before = await cacheStats(dir);
  assert.equal(before.packs.files, 1);
  const kept = await runCliShared(["cache", "prune"], root);
  assert.equal(kept.code, 0, kept.stderr);
  assert.match(kept.stdout, /removed 0 cache files \(0 B\) .*; it holds .* \(limit 1024\.0 MB\)/);
  const bad = await runCliShared(["cache", "prune", "--max-size", "huge"], root);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--max-size must be a number of bytes or a size like "200MB", got "huge"/,
  );
  const all = await runCliShared(["cache", "prune", "--max-size", "0"], root);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /removed 1 cache files .*; it holds 0 B \(limit 0 B\)/);
  assert.equal((await cacheStats(dir)).packs.files, 0);
  const cold = await runCliShared(["build", "--json", "-q"], root);
  assert.ok(JSON.parse(cold.stdout).files.every((f: { cache: string }) => f.cache === "miss"));
});
