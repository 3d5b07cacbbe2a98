import assert from "node:assert/strict";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { documentHashes } from "../../pipeline/document.ts";
import { type HashStates, resumedDocumentHashes } from "../../accel/resumed_hashes.ts";
import { fileStamp } from "../../pipeline/helpers.ts";
import {
  loadWritten,
  saveWritten,
  withWrittenBlocks,
  writePatched,
} from "../../accel/patch_write.ts";
import type { StreamedDocument } from "../../pipeline/document.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { concatBytes } from "../../pipeline/_bytes.ts";
import { build, defaultPlugins, loadConfig } from "../../mod.ts";

function parts(sizes: number[], seed: number): Uint8Array[] {
  const random = prng(seed);
  return sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256)));
}

function hashes(list: Uint8Array[]): string[] {
  return list.map((p) => createHash("sha256").update(p).digest("hex"));
}

/** The last document written: `blocks` in a file of `dir`, and its record (with block lengths). */
async function lastDocument(dir: string, blocks: Uint8Array[]) {
  const path = join(dir, "context_001.md");
  await Deno.writeFile(path, concatBytes(blocks));
  const record = {
    hashes: hashes(blocks),
    lengths: blocks.map((p) => p.length),
    path,
    stamp: fileStamp(path)!,
  };
  return { path, record };
}

Deno.test("writePatched() writes the same bytes as a whole write, shorter or longer than before", async () => {
  const dir = await tempDir();
  const old = parts([700_000, 600_000, 50_000, 9], 1);
  const previous = join(dir, "context_001.md");
  await Deno.writeFile(previous, concatBytes(old));
  const base = { hashes: hashes(old), path: previous, stamp: fileStamp(previous)! };
  for (const [i, tail] of [[1000], [10, 20, 30], [], [200_000, 3]].entries()) {
    const next = [old[0], old[1], ...parts(tail, 10 + i)];
    const path = join(dir, `next_${i}.md`);
    assert.equal(writePatched(path, next, hashes(next), base), true);
    assert.deepEqual(await Deno.readFile(path), concatBytes(next));
  }
  // The previous file is untouched.
  assert.deepEqual(await Deno.readFile(previous), concatBytes(old));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("writePatched() copies the blocks the last document has from its file, moved or not", async () => {
  const dir = await tempDir();
  // An edited file's block moves to the end: the blocks after it shift, the rest is new.
  const old = parts([1_100_000, 300_000, 5_000, 70_000, 2_000_000, 40], 3);
  const { record: base } = await lastDocument(dir, old);
  const edited = parts([300_001], 4)[0];
  const next = [old[0], old[2], old[3], parts([123], 5)[0], old[4], old[5], edited];
  const path = join(dir, "next.md");
  assert.equal(writePatched(path, next, hashes(next), base), true);
  assert.deepEqual(await Deno.readFile(path), concatBytes(next));
  // The moved blocks came from the last document's file: given other bytes under the same
  // hashes, the file still holds the last document's.
  const given = next.map((p, i) => (i === 2 || i === 4 ? new Uint8Array(p.length) : p));
  const copied = join(dir, "copied.md");
  assert.equal(writePatched(copied, given, hashes(next), base), true);
  assert.deepEqual(await Deno.readFile(copied), concatBytes(next));
  // Without the lengths (a record kept before them), the blocks are encoded again.
  const encoded = join(dir, "encoded.md");
  const { lengths: _, ...unmeasured } = base;
  assert.equal(writePatched(encoded, given, hashes(next), unmeasured), true);
  assert.deepEqual(await Deno.readFile(encoded), concatBytes(given));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("writePatched() declines when little is shared or the previous file changed", async () => {
  const dir = await tempDir();
  const old = parts([1_200_000, 100], 2);
  const previous = join(dir, "context_001.md");
  await Deno.writeFile(previous, concatBytes(old));
  const stamp = fileStamp(previous)!;
  const path = join(dir, "next.md");
  const base = { hashes: hashes(old), path: previous, stamp };
  // The first part differs.
  const other = parts([1_200_000], 9)[0];
  assert.equal(writePatched(path, [other, old[1]], hashes([other, old[1]]), base), false);
  // Edited since it was written (another size).
  await Deno.writeFile(previous, concatBytes([old[0]]));
  assert.equal(writePatched(path, old, hashes(old), base), false);
  // Gone.
  await Deno.remove(previous);
  assert.equal(writePatched(path, old, hashes(old), base), false);
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});

/** A streamed document of `blocks` (each block one piece, as its own encoding would give). */
function streamed(blocks: Uint8Array[]): StreamedDocument {
  return {
    lengths: blocks.map((b) => b.length),
    *pieces(from = 0, to = blocks.length) {
      yield* blocks.slice(from, to);
    },
  };
}

/** The pieces from block `from` on, copied, with the index of the block each belongs to. */
function piecesOf(document: StreamedDocument, from: number): Array<[number, Uint8Array]> {
  const ends: number[] = [];
  for (let i = 0, at = 0; i < document.lengths.length; i++) ends.push(at += document.lengths[i]);
  let seen = from ? ends[from - 1] : 0;
  const out: Array<[number, Uint8Array]> = [];
  for (const piece of document.pieces(from)) {
    const block = ends.findIndex((end) => end > seen);
    assert.ok(seen + piece.length <= ends[block], "a piece never spans two blocks");
    out.push([block, piece.slice()]);
    seen += piece.length;
  }
  return out;
}

Deno.test("withWrittenBlocks() reads the blocks the last document has from its file, block by block", async () => {
  const dir = await tempDir();
  // Blocks over the 1 MB read buffer, moved behind an edited one, and new ones between.
  const old = parts([1_500_000, 300_000, 5_000, 70_000, 2_200_000, 40], 6);
  const { path: previous, record: base } = await lastDocument(dir, old);
  const next = [old[0], old[2], old[3], parts([123], 7)[0], old[4], old[5], parts([9_000], 8)[0]];
  const document = streamed(next);
  const read = withWrittenBlocks(document, hashes(next), base);
  assert.notEqual(read, document);
  for (const from of [0, 1, 3, 6]) {
    const pieces = piecesOf(read, from);
    assert.deepEqual(concatBytes(pieces.map(([, p]) => p)), concatBytes(next.slice(from)));
    for (let i = from; i < next.length; i++) {
      const bytes = concatBytes(pieces.filter(([block]) => block === i).map(([, p]) => p));
      assert.deepEqual(bytes, next[i], `block ${i}`);
    }
  }
  // Resumed hashing over them gives the document's hashes, and a state after every block.
  const { states: kept, ...whole } = resumedDocumentHashes(next, 1_000, { parts: hashes(next) });
  assert.equal(kept?.states.length, next.length);
  assert.deepEqual(documentHashes(read, 1_000), whole);
  // The known blocks come from the file: under the same hashes, other bytes given still read as
  // the file's.
  const given = next.map((p, i) => (i === 1 || i === 4 ? new Uint8Array(p.length) : p));
  const fromFile = withWrittenBlocks(streamed(given), hashes(next), base);
  assert.deepEqual(concatBytes(piecesOf(fromFile, 0).map(([, p]) => p)), concatBytes(next));
  // A file that changed since (its stamp), or a record without lengths: the document as given.
  const { lengths: _, ...unmeasured } = base;
  assert.equal(withWrittenBlocks(document, hashes(next), unmeasured), document);
  await Deno.writeFile(previous, concatBytes(old.slice(1)));
  assert.equal(withWrittenBlocks(document, hashes(next), base), document);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("withWrittenBlocks() throws when the last document ends early, so that the texts are hashed", async () => {
  const dir = await tempDir();
  const old = parts([2_000, 3_000], 9);
  const { path: previous, record: base } = await lastDocument(dir, old);
  const read = withWrittenBlocks(streamed([old[1], old[0]]), hashes([old[1], old[0]]), base);
  // Cut short after the stamp was taken (the stamp check cannot see a change in between).
  await Deno.truncate(previous, 2_500);
  assert.throws(() => [...read.pieces()], /The last document ".*context_001.md" ended early/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("documentHashes() gives the sha256 of the prefix and the whole, resumed or not", () => {
  const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const old = parts([300, 0, 5000, 17, 900], 3);
  let kept: HashStates | undefined;
  const variants = [old, [old[0], old[1], ...parts([40, 2], 4)], [
    ...parts([10], 5),
    ...old.slice(1),
  ]];
  for (const doc of variants) {
    const whole = concatBytes(doc);
    const cuts = [0, ...doc.map((_, i) => concatBytes(doc.slice(0, i + 1)).length)];
    for (const cut of cuts) {
      const plain = documentHashes(doc, cut);
      assert.deepEqual(plain, { prefix: hex(whole.subarray(0, cut)), total: hex(whole) });
      // Resumed from the first document's states.
      kept = resumedDocumentHashes(old, 0, { parts: hashes(old) }).states;
      const { states, ...resumed } = resumedDocumentHashes(doc, cut, {
        parts: hashes(doc),
        previous: kept,
      });
      assert.deepEqual(resumed, plain, `cut ${cut}`);
      assert.equal(states?.states.length, doc.length);
    }
  }
});

Deno.test("slop build writes the document from the last one's copy with the same bytes", async () => {
  const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
  const root = await makeProject({
    "big/a.txt": line.repeat(15_000),
    "big/b.txt": line.repeat(15_000).toUpperCase(),
    "small.txt": "small\n",
    "slop.config.ts": `export default { files: ["big/*.txt", "small.txt"] };\n`,
  });
  const state = join(root, ".state");
  const config = await loadConfig({ cwd: root, stateDir: state });
  for (const text of ["small\n", "small, edited\n", "s\n", "x".repeat(3000) + "\n"]) {
    await Deno.writeTextFile(join(root, "small.txt"), text);
    const result = await build(config, { builtins: defaultPlugins() });
    assert.equal(await Deno.readTextFile(result.output!.document), result.document);
    assert.match(
      result.document,
      new RegExp(`### small\\.txt\\n\\n\`\`\`txt\\n${text.slice(0, 40)}`),
    );
  }
  await Deno.remove(root, { recursive: true }); // 7 MB of outputs
});

Deno.test("writePatched() of a document whose last block alone changed maps no hash of the last document's", async () => {
  const dir = await tempDir();
  // 200 blocks after a first one past the least reused; the last one edited (a one-file edit's
  // block, last from its second edit on).
  const old = parts([1_100_000, ...Array.from({ length: 200 }, () => 40)], 6);
  const { record } = await lastDocument(dir, old);
  // The last document's hashes, with each whole pass over them seen (a map of them made).
  let passes = 0;
  const base = {
    ...record,
    hashes: new Proxy(record.hashes, {
      get(target, key, receiver) {
        if (key === "forEach" || key === "map" || key === Symbol.iterator) passes++;
        return Reflect.get(target, key, receiver);
      },
    }),
  };
  const next = [...old.slice(0, -1), parts([41], 7)[0]];
  const path = join(dir, "next.md");
  assert.equal(writePatched(path, next, hashes(next), base), true);
  assert.deepEqual(await Deno.readFile(path), concatBytes(next));
  // The edited block looked for by a pass over the hashes, by index: no map of the 201 (before: a
  // map of a big tree's every block's hash, at each build).
  assert.equal(passes, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the last document's record keeps each block's name, and a damaged or hand-edited record is not used", async () => {
  const dir = await tempDir();
  const path = join(dir, "record.doc.json");
  const written = { path: "/d.md", stamp: "1:2:3", hashes: ["a", "b"], lengths: [1, 2] };
  await saveWritten(path, { ...written, names: ["n1", ""] });
  assert.deepEqual(loadWritten(path)?.names, ["n1", ""]);
  const [line, json] = (await Deno.readTextFile(path)).split("\n");
  // Edited past its first line (the sha256 of the rest): two blocks' hashes swapped, one name
  // short, a length changed, cut short. A block's sha256 and length are taken from the record
  // unread, so none of it is used.
  for (
    const edit of [
      { hashes: ["b", "a"] },
      { names: ["n1"] },
      { lengths: [1, 3] },
    ]
  ) {
    await Deno.writeTextFile(path, `${line}\n${JSON.stringify({ ...JSON.parse(json), ...edit })}`);
    assert.equal(loadWritten(path), undefined, JSON.stringify(edit));
  }
  await Deno.writeTextFile(path, `${line}\n${json.slice(0, -1)}`);
  assert.equal(loadWritten(path), undefined);
  // A record of an older slop (JSON alone) is not used either: the next build writes a new one.
  await Deno.writeTextFile(path, json);
  assert.equal(loadWritten(path), undefined);
  await Deno.remove(dir, { recursive: true });
});
