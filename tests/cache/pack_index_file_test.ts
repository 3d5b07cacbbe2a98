import assert from "node:assert/strict";
import { join } from "node:path";
import {
  appendPack,
  type PackRecord,
  readPackIndex,
  readRecord,
  readStampedIndex,
  saveStampedIndex,
  touchPack,
  writePack,
} from "../../pipeline/_cache_pack.ts";
import { openCache } from "../../pipeline/cache.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { tempDir } from "../_helpers.ts";

/**
 * A stamped pack's index file (`pipeline/_cache_pack_index.ts`) gives the records the pack's own
 * record lines give, and is taken only for the pack as it was when its rows were written: after
 * an append or a touch that followed it, the same records as the pack's; after one that did not
 * (an older slop's), after damage, or for a pack written anew, none (the pack is read).
 */
const encoder = new TextEncoder();

/** Payloads of every kind of head: a short first line, none (no newline), one past 256 bytes. */
function payloads(tag: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < 12; i++) {
    const head = i % 3 === 0
      ? `{"view":"full","n":${i}}\n`
      : i % 3 === 1
      ? ""
      : "x".repeat(300) + "\n";
    out.set(`key-${tag}-${i}`, encoder.encode(`${head}é ${tag} ${"text ".repeat(40 * i)}`));
  }
  return out;
}

/** A pack of `payloads("a")` with its stamp, its records saved in its index file. */
async function stampedPack(): Promise<{ path: string; stamp: string }> {
  const dir = await tempDir();
  const path = join(dir, "pack"), stamp = join(dir, "stamps", "pack");
  await writePack(path, payloads("a"), { stamp });
  using file = Deno.openSync(path);
  assert.equal(readStampedIndex(file, stamp), undefined, "no index file before it is saved");
  saveStampedIndex(file, stamp, readPackIndex(file));
  return { path, stamp };
}

/** The index file's records of the pack at `path`, as its reader takes them (or `undefined`). */
function indexed(path: string, stamp: string): Map<string, PackRecord> | undefined {
  using file = Deno.openSync(path);
  return readStampedIndex(file, stamp);
}

function sameRecords(got: Map<string, PackRecord>, path: string): void {
  const want = readPackIndex(path);
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  for (const [name, record] of want) {
    const row = got.get(name)!;
    assert.equal(row.sha256, record.sha256, name);
    assert.equal(row.crc32, record.crc32, name);
    assert.equal(row.offset, record.offset, name);
    assert.equal(row.length, record.length, name);
    // A head is the payload's first line; the pack's read keeps it when its read held it.
    const payload = readRecord(path, record)!;
    if (row.head) assert.deepEqual(row.head, payload.subarray(0, row.head.length), name);
    if (record.head) assert.deepEqual(row.head, record.head, name);
    assert.deepEqual(readRecord(path, row), payload, name);
  }
}

Deno.test("a pack's index file gives the pack's records, and follows an append and a touch", async () => {
  const { path, stamp } = await stampedPack();
  sameRecords(indexed(path, stamp)!, path);
  // New values of keys the pack holds, and new keys: the last record of a name wins.
  const more = new Map([...payloads("b"), ["key-a-3", encoder.encode("{}\nnew value")]]);
  assert.ok(appendPack(path, more, { stamp }) > 0);
  const after = indexed(path, stamp)!;
  sameRecords(after, path);
  assert.deepEqual(readRecord(path, after.get("key-a-3")!), encoder.encode("{}\nnew value"));
  touchPack(path, { stamp });
  sameRecords(indexed(path, stamp)!, path);
});

Deno.test("a pack's index file is not taken for a pack changed without it", async () => {
  // An append by a writer that stamps the pack but keeps no index file (an older slop).
  {
    const { path, stamp } = await stampedPack();
    const other = `${stamp}-other`;
    Deno.copyFileSync(stamp, other);
    assert.ok(appendPack(path, payloads("c"), { stamp: other }) > 0);
    Deno.copyFileSync(other, stamp);
    assert.equal(indexed(path, stamp), undefined, "an index file of the pack before the append");
  }
  // Its rows changed behind it (a head's byte), the length kept.
  {
    const { path, stamp } = await stampedPack();
    const index = `${stamp}.index`;
    const bytes = Deno.readFileSync(index);
    const at = bytes.lastIndexOf(0x37); // a "7" in the rows (a hex digit or a number's)
    bytes[at] = 0x36;
    Deno.writeFileSync(index, bytes);
    assert.equal(indexed(path, stamp), undefined, "rows changed behind the header");
  }
  // A pack written anew in its place: the last one's index file goes.
  {
    const { path, stamp } = await stampedPack();
    await writePack(path, payloads("d"), { stamp });
    assert.equal(indexed(path, stamp), undefined, "the last pack's index file");
    assert.throws(() => Deno.statSync(`${stamp}.index`), Deno.errors.NotFound);
  }
});

Deno.test("a cache reads the pack's records from its index file once the pack's reader saved it", async () => {
  const dir = join(await tempDir(), "cache");
  const values = [...payloads("e")];
  const cold = openCache(dir, { pack: "project" });
  for (const [key, value] of values) await cold.setBytes(key, value);
  await cold.flush();
  const reads = async () => {
    const cache = openCache(dir, { pack: "project" });
    let same = true;
    const work = await tallyWork(async () => {
      for (const [key, value] of values) {
        same &&= (await cache.getBytes(key))?.join() === value.join();
      }
      await cache.flush();
    });
    assert.ok(same, "the values stored");
    return [work.get("pack index reads") ?? 0, work.get("pack index file rows") ?? 0];
  };
  // The first reader reads the pack's record lines and saves them; the next reads them back.
  const [first, second] = [await reads(), await reads()];
  assert.ok(first[0] > 0 && first[1] === 0, JSON.stringify(first));
  assert.deepEqual(second, [0, values.length]);
});
