import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheKey, cacheStats, canonicalJson, clearCache, openCache } from "../../mod.ts";
import { entryFiles } from "./_cache_helpers.ts";
import { tempDir, V8_FLAGS } from "../_helpers.ts";

Deno.test("openCache() gives back what was stored and counts hits and misses", async () => {
  const cache = openCache(join(await tempDir(), "cache"));
  const key = cacheKey(["test", "1", { b: 2, a: 1 }]);
  assert.equal(await cache.get(key), undefined);
  await cache.set(key, { text: "héllo\n", n: [1, 2] });
  assert.deepEqual(await cache.get(key), { text: "héllo\n", n: [1, 2] });
  assert.deepEqual(cache.counts(), { hits: 1, misses: 1, corrupt: 0, writes: 1 });
  // Any string is a key; the file name is its sha256.
  await cache.set("not a digest", 7);
  assert.equal(await openCache(cache.dir).get("not a digest"), 7);
});

Deno.test("cacheKey() does not depend on the order of object keys", () => {
  assert.equal(cacheKey([{ a: 1, b: { c: 2, d: 3 } }]), cacheKey([{ b: { d: 3, c: 2 }, a: 1 }]));
  assert.notEqual(cacheKey(["a", 1]), cacheKey(["a", "1"]));
  assert.equal(canonicalJson({ z: undefined, y: [2, 1] }), '{"y":[2,1]}');
});

Deno.test("canonicalJson() of an array writes each element as JSON.stringify with sorted keys does", () => {
  const sorted = (value: unknown) =>
    JSON.stringify(value, (_key, v) => {
      if (!v || typeof v !== "object" || Array.isArray(v)) return v;
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    }) ?? "null";
  const values: unknown[] = [
    [],
    ["a", 1, true, null, undefined, () => 1, Symbol("s"), NaN, -0, Infinity, 'é\n\u2028"\\'],
    ["view/3", "slop:full", "1", { b: 1, a: [{ d: 1, c: undefined }], e: undefined }, "p", ""],
    [[1, [2, { z: 1, y: 2 }]], new Date(0), { toJSON: () => "x" }, [[], {}]],
  ];
  for (const value of values) assert.equal(canonicalJson(value), sorted(value));
});

Deno.test("openCache() ignores garbage, truncated and wrong-hash entries and rewrites them", async () => {
  const dir = join(await tempDir(), "cache");
  const cache = openCache(dir);
  const keys = ["garbage", "truncated", "wrong-hash", "wrong-key", "empty"].map((k) =>
    cacheKey([k])
  );
  for (const key of keys) await cache.set(key, { text: "x".repeat(100) });
  const files = await entryFiles(dir);
  assert.equal(files.length, 5);
  const byKey = (key: string) => files.find((f) => f.endsWith(key))!;
  await Deno.writeFile(byKey(keys[0]), crypto.getRandomValues(new Uint8Array(300)));
  const whole = await Deno.readFile(byKey(keys[1]));
  await Deno.writeFile(byKey(keys[1]), whole.subarray(0, whole.length - 10));
  const text = await Deno.readTextFile(byKey(keys[2]));
  await Deno.writeTextFile(byKey(keys[2]), text.replace('"xxx', '"yyy'));
  // An entry copied under another key's name is not that key's value.
  await Deno.writeFile(byKey(keys[3]), await Deno.readFile(byKey(keys[4])));
  await Deno.writeFile(byKey(keys[4]), new Uint8Array());
  const reader = openCache(dir);
  for (const key of keys) assert.equal(await reader.get(key), undefined, key);
  assert.equal(reader.counts().corrupt, 5);
  for (const key of keys) await reader.set(key, { text: "fresh" });
  for (const key of keys) assert.deepEqual(await openCache(dir).get(key), { text: "fresh" });
});

Deno.test("openCache() readers never see a broken entry, even from a writer killed mid-write", async () => {
  const dir = join(await tempDir(), "cache");
  const key = cacheKey(["killed"]);
  // A child process starts writing a large entry and is killed mid-way.
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      V8_FLAGS,
      `import { openCache } from ${JSON.stringify(new URL("../../mod.ts", import.meta.url).href)};
       const cache = openCache(${JSON.stringify(dir)});
       for (let i = 0; ; i++) await cache.set(${JSON.stringify(key)}, "y".repeat(1e6) + i);`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const cache = openCache(dir);
  // Read while the child writes: every read is a miss or a whole value, never a broken one. Read
  // until ten values were seen, for up to 60 s: on a busy machine the child starts late (it had 2 s).
  let seen = 0;
  for (const end = Date.now() + 60_000; Date.now() < end && seen < 10;) {
    const value = await cache.get<string>(key);
    if (value !== undefined) {
      seen++;
      assert.ok(value.startsWith("y".repeat(1e6)), "whole value");
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(seen > 0, "the writer wrote");
  child.kill("SIGKILL");
  await child.status;
  assert.equal(cache.counts().corrupt, 0);
  const stats = await cacheStats(dir);
  assert.ok(stats.entries <= 1);
  const value = await cache.get<string>(key);
  if (value !== undefined) assert.ok(value.startsWith("y".repeat(1e6)));
  assert.equal(await clearCache(dir), stats.entries);
  assert.equal((await cacheStats(dir)).tempFiles, 0);
});

Deno.test("openCache() with enabled: false never reads nor writes", async () => {
  const dir = join(await tempDir(), "cache");
  await openCache(dir).set("k", 1);
  const off = openCache(dir, { enabled: false });
  assert.equal(await off.get("k"), undefined);
  await off.set("k2", 2);
  assert.equal(await openCache(dir).get("k2"), undefined);
});

Deno.test("clearCache() removes entries and the last-build record but not other files", async () => {
  const dir = join(await tempDir(), "cache");
  const cache = openCache(dir);
  for (let i = 0; i < 20; i++) await cache.set(cacheKey([i]), i);
  await Deno.writeTextFile(join(dir, "mine.txt"), "keep me");
  const stats = await cacheStats(dir);
  assert.equal(stats.entries, 20);
  assert.ok(stats.bytes > 20 * 64);
  assert.equal(await clearCache(dir), 20);
  assert.equal((await cacheStats(dir)).entries, 0);
  assert.equal(await Deno.readTextFile(join(dir, "mine.txt")), "keep me");
});
