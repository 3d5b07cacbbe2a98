import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { openCache } from "../../pipeline/cache.ts";
import {
  appendPack,
  readPack,
  readRecord,
  stampedFile,
  streamPack,
  touchPack,
  writePack,
} from "../../pipeline/_cache_pack.ts";
import { makeProject, tempDir } from "../_helpers.ts";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { entryFiles } from "./_cache_helpers.ts";

function packOf(dir: string): string {
  const packs = join(dir, "packs");
  return join(packs, [...Deno.readDirSync(packs)][0].name);
}

Deno.test("writePack() and streamPack() give each record's place as readPack() finds it, and readRecord() reads it back", async () => {
  const dir = await tempDir();
  const records = new Map<string, Uint8Array>();
  for (let i = 0; i < 40; i++) {
    records.set(`r${i}`, new TextEncoder().encode(String(i % 10).repeat((i * 7919) % 90_000)));
  }
  const path = join(dir, "written");
  const written = await writePack(path, records);
  const stream = streamPack(join(dir, "streamed"))!;
  for (const [name, payload] of records) stream.put(name, payload);
  await stream.finish();
  for (
    const [file, places] of [[path, written], [join(dir, "streamed"), stream.records()]] as const
  ) {
    const whole = readPack(file);
    assert.equal(places.size, 40);
    for (const [name, record] of whole) {
      const place = places.get(name)!;
      assert.deepEqual(
        [place.sha256, place.offset, place.length, place.payload],
        [record.sha256, record.offset, record.length, undefined],
      );
      assert.deepEqual(readRecord(file, place), records.get(name));
    }
  }
  // A record no longer where it was (the pack written again since) is not read back.
  await writePack(path, new Map([["r1", new Uint8Array([1])], ["r2", new Uint8Array([2])]]));
  assert.equal(readRecord(path, written.get("r39")!), undefined);
  assert.equal(readRecord(join(dir, "missing"), written.get("r39")!), undefined);
});

Deno.test("openCache() with lean: after a flush it reads the pack's records back from the file, not from memory", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await cold.set(`key ${i}`, { i, pad: "x".repeat(5000) });
  await cold.flush();

  const lean = openCache(dir, { pack: "project", lean: true });
  const held = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) {
    assert.equal(((await lean.get(`key ${i}`)) as { i: number }).i, i);
    await held.get(`key ${i}`);
  }
  await lean.flush();
  await held.flush();
  assert.equal(((await lean.get("key 4")) as { i: number }).i, 4, "read back by offset");
  // With the pack gone, only what a cache object holds in memory could serve a read: neither
  // holds the pack's payloads (a build reads the pack's index, and each payload when used).
  await Deno.remove(packOf(dir));
  assert.equal(await held.get("key 5"), undefined, "not held in memory");
  assert.equal(await lean.get("key 5"), undefined, "not held in memory");
});

Deno.test("openCache() with lean: a pack another build rewrote since is read again, never served from old offsets", async () => {
  const dir = join(await tempDir(), "cache");
  const first = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await first.set(`key ${i}`, `old ${i} ${"x".repeat(i * 100)}`);
  await first.flush();
  const lean = openCache(dir, { pack: "project", lean: true });
  for (let i = 0; i < 20; i++) await lean.get(`key ${i}`);
  await lean.flush();

  // Another process writes the pack anew, with other values at other places.
  const other = join(await tempDir(), "cache");
  const writer = openCache(other, { pack: "project" });
  for (let i = 19; i >= 0; i--) await writer.set(`key ${i}`, `new ${i}`);
  await writer.flush();
  await Deno.copyFile(packOf(other), packOf(dir));

  for (let i = 0; i < 20; i++) assert.equal(await lean.get(`key ${i}`), `new ${i}`);
});

Deno.test("openCache() with lean: a rewritten pack keeps every entry used, read back from the old pack and entry files", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 30; i++) await cold.set(`key ${i}`, `value ${i}`);
  await cold.flush();

  const lean = openCache(dir, { pack: "project", lean: true });
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 30; i++) assert.equal(await lean.get(`key ${i}`), `value ${i}`);
    // Over a tenth of the entries new: the next flush writes the pack again from what was used.
    for (let i = 0; i < 10; i++) await lean.set(`new ${round} ${i}`, `fresh ${round} ${i}`);
    await lean.flush();
  }
  const next = openCache(dir, { pack: "project" });
  for (let i = 0; i < 30; i++) assert.equal(await next.get(`key ${i}`), `value ${i}`);
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 10; i++) {
      assert.equal(await next.get(`new ${round} ${i}`), `fresh ${round} ${i}`);
    }
  }
  assert.equal(readPack(packOf(dir)).size, 60, "one pack with all of them");
  assert.ok((await entryFiles(dir)).length <= 10);
});

Deno.test("a pack's stamp holds while only its writers touch it: a write in place of the same size, or an append cut short, unstamps it", async () => {
  const dir = await tempDir();
  const path = join(dir, "pack");
  const stamp = join(dir, "stamp");
  const records = new Map([["a", new Uint8Array([1, 2, 3])], ["b", new Uint8Array([4, 5])]]);
  const written = await writePack(path, records, { stamp });
  const stamped = () => {
    using file = Deno.openSync(path);
    return stampedFile(file, stamp);
  };
  assert.ok(stamped());
  // Appended and touched by slop: stamped again.
  assert.ok(appendPack(path, new Map([["a", new Uint8Array([9])]]), { stamp }) > 0);
  assert.ok(stamped());
  touchPack(path, { stamp });
  assert.ok(stamped());
  // One byte changed in place, the size kept: another modification time, so no longer trusted,
  // and the record is checked again (its hash fails).
  const bytes = Deno.readFileSync(path);
  bytes[written.get("b")!.offset!] ^= 1;
  Deno.writeFileSync(path, bytes);
  assert.ok(!stamped());
  assert.equal(readRecord(path, written.get("b")!), undefined);
  // No append onto a pack not as stamped (it may end in a damaged record).
  assert.equal(appendPack(path, new Map([["c", new Uint8Array([7])]]), { stamp }), 0);
  // A record cut short by a killed append: the size differs from the stamp's.
  await writePack(path, records, { stamp });
  Deno.writeFileSync(path, new TextEncoder().encode("c 00 99\nxy"), { append: true });
  assert.ok(!stamped());
});

Deno.test("a pack changed where its stamp cannot tell is never written anew with the changed bytes under a fresh sha256", async () => {
  // Deno gives a file's change time in whole seconds: a write in place that restores the
  // modification time (`touch -r`, `cp -a` onto the file) in the second of slop's stamp keeps
  // the pack's fingerprint. Its stamp is forged here to stand for that second.
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await cold.set(`key ${i}`, { i, pad: "x".repeat(100) });
  await cold.flush();
  const path = packOf(dir);
  const stamp = join(dir, "pack-stamps", path.split("/").at(-1)!);
  const bytes = Deno.readFileSync(path);
  const at = bytes.indexOf("x".charCodeAt(0), bytes.length - 50);
  bytes[at] ^= 1;
  using file = Deno.openSync(path, { write: true });
  file.writeSync(bytes);
  const { dev, ino, size, mtime, ctime } = file.statSync();
  Deno.writeTextFileSync(stamp, `${dev} ${ino} ${size} ${mtime!.getTime()} ${ctime!.getTime()}\n`);
  // A build uses every entry and adds more than a tenth: the pack is written anew.
  const warm = openCache(dir, { pack: "project" });
  const changed: unknown[] = [];
  for (let i = 0; i < 20; i++) {
    const value = await warm.get<{ pad: string }>(`key ${i}`);
    if (value?.pad !== "x".repeat(100)) changed.push(value);
  }
  for (let i = 20; i < 40; i++) await warm.set(`key ${i}`, { i, pad: "x".repeat(100) });
  await warm.flush();
  // The record whose bytes no longer hash to its sha256 is left out of the new pack.
  const next = openCache(dir, { pack: "project" });
  for (let i = 0; i < 40; i++) {
    const value = await next.get<{ pad: string }>(`key ${i}`);
    assert.ok(
      value === undefined || value.pad === "x".repeat(100),
      `key ${i}: ${JSON.stringify(value)}`,
    );
  }
  assert.ok(changed.length <= 1);
});

/** Flip one byte of the pack at `at` in place and forge its stamp: a write within the stamp's second. */
function flipBehindStamp(path: string, stamp: string, at: number): void {
  const bytes = Deno.readFileSync(path);
  bytes[at] ^= 1;
  using file = Deno.openSync(path, { write: true });
  file.writeSync(bytes);
  const { dev, ino, size, mtime, ctime } = file.statSync();
  Deno.writeTextFileSync(stamp, `${dev} ${ino} ${size} ${mtime!.getTime()} ${ctime!.getTime()}\n`);
}

Deno.test("a record changed behind its pack's stamp fails its crc32: a trusted read whole gives nothing", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await cold.set(`key ${i}`, { i, pad: "x".repeat(100) });
  await cold.flush();
  const path = packOf(dir);
  const stamp = join(dir, "pack-stamps", path.split("/").at(-1)!);
  const bytes = Deno.readFileSync(path);
  flipBehindStamp(path, stamp, bytes.indexOf("x".charCodeAt(0), bytes.length - 50));
  const warm = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) {
    const value = await warm.get<{ pad: string }>(`key ${i}`);
    assert.ok(
      value === undefined || value.pad === "x".repeat(100),
      `key ${i}: ${JSON.stringify(value)}`,
    );
  }
});

Deno.test("a cached render's text changed behind the pack's stamp, left unread with its entry's head, fails the build that reads it; the next build is right", async () => {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "full" };\n`,
  };
  for (let i = 0; i < 6; i++) {
    tree[`src/m${i}.py`] = Array.from(
      { length: 300 },
      (_, j) => `x${j} = "${i} ${j}"  # line ${j} of the file m${i}\n`,
    ).join("");
  }
  const [root, plainRoot] = [await makeProject(tree), await makeProject(tree)];
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const layer = () => speedLayer({ spillAfter: 0 });
  const once = async (at: string, speed?: ReturnType<typeof speedLayer>) => {
    const result = await build(await loadConfig({ cwd: at }), {
      builtins: defaultPlugins(),
      layer: speed,
    });
    return await Deno.readTextFile(result.output!.document);
  };
  // A cold build, then a warm one (it measures the kept texts: the next takes the measures).
  await once(root, layer());
  await once(root, layer());
  const dir = join(root, ".slop", "cache");
  const path = packOf(dir);
  const stamp = join(dir, "pack-stamps", path.split("/").at(-1)!);
  const bytes = Buffer.from(Deno.readFileSync(path));
  // A byte of m4.py's render, past its entry's head (read alone): its last line.
  const render = [...readPack(path).values()].find((r) => {
    const text = Buffer.from(r.payload!).toString();
    return text.startsWith(`{"output"`) && text.includes("file m4");
  })!;
  flipBehindStamp(path, stamp, bytes.lastIndexOf("file m4", render.offset! + render.length) + 5);
  // Another file edited: the document is made again.
  for (const at of [root, plainRoot]) await Deno.writeTextFile(join(at, "src/m0.py"), "y = 1\n");
  await assert.rejects(
    () => once(root, layer()),
    /cache pack was changed at byte \d+ after this build trusted it/,
  );
  assert.equal(await once(root, layer()), await once(plainRoot));
});

Deno.test("a pack of record lines without a crc32 (an older slop's) is read, checked by sha256 though stamped, and written anew with them", async () => {
  const dir = join(await tempDir(), "cache");
  const cold = openCache(dir, { pack: "project" });
  for (let i = 0; i < 20; i++) await cold.set(`key ${i}`, { i, pad: "x".repeat(100) });
  await cold.flush();
  const path = packOf(dir);
  const stamp = join(dir, "pack-stamps", path.split("/").at(-1)!);
  // The same records, each line cut to its first three fields; one payload byte flipped.
  const older = ["slop-pack/1\n"];
  for (const [name, record] of readPack(path)) {
    older.push(
      `${name} ${record.sha256} ${record.length}\n`,
      new TextDecoder().decode(record.payload),
    );
  }
  const text = older.join("");
  Deno.writeTextFileSync(path, text);
  flipBehindStamp(path, stamp, text.lastIndexOf("x"));
  assert.ok([...readPack(path).values()].every((r) => r.crc32 === undefined));
  const warm = openCache(dir, { pack: "project" });
  let served = 0;
  for (let i = 0; i < 20; i++) {
    const value = await warm.get<{ pad: string }>(`key ${i}`);
    assert.ok(
      value === undefined || value.pad === "x".repeat(100),
      `key ${i}: ${JSON.stringify(value)}`,
    );
    if (value) served++;
  }
  assert.equal(served, 19);
  await warm.flush();
  const records = [...readPack(path).values()];
  assert.equal(records.length, 19);
  assert.ok(records.every((r) => r.crc32 !== undefined));
});

Deno.test("a pack is stamped over whatever stands at its stamp's path (a folder, a file for the stamps' folder), so the next build trusts it", async () => {
  const dir = await tempDir();
  const records = new Map([["a", new Uint8Array([1, 2, 3])]]);
  const stamped = (path: string, stamp: string) => {
    using file = Deno.openSync(path);
    return stampedFile(file, stamp);
  };
  const folder = join(dir, "stamps", "pack");
  Deno.mkdirSync(join(folder, "inside"), { recursive: true });
  await writePack(join(dir, "pack"), records, { stamp: folder });
  assert.ok(stamped(join(dir, "pack"), folder), "a folder at the stamp's path");
  Deno.writeTextFileSync(join(dir, "filed"), "not a folder\n");
  const under = join(dir, "filed", "pack");
  await writePack(join(dir, "pack2"), records, { stamp: under });
  assert.ok(stamped(join(dir, "pack2"), under), "a file where the stamps' folder goes");
});
