import assert from "node:assert/strict";
import { manifestJson } from "../../accel/manifest_json.ts";
import type { Manifest, ManifestBlock, ManifestFile } from "../../pipeline/types.ts";
import { prng } from "../_helpers.ts";
import { tallyWork } from "../../pipeline/helpers.ts";

/** A manifest of `files` (in path order) and a block each, offsets from their lengths. */
function manifestOf(
  files: ManifestFile[],
  lengths: number[],
  notes: Map<number, string[]>,
): Manifest {
  let offset = 0;
  const blocks: ManifestBlock[] = files.map((f, i) => {
    const block: ManifestBlock = {
      id: `files:${f.path}`,
      section: "files",
      stability: "stable",
      offset,
      length: lengths[i],
      sha256: `b:${f.path}`,
      tokens: lengths[i] >> 2,
      ...(notes.has(i) ? { notes: notes.get(i)! } : {}),
    };
    offset += lengths[i];
    return block;
  });
  return {
    version: 1,
    files,
    blocks,
    prefix: { bytes: offset, sha256: "p", tokens: 1 },
    total: { bytes: offset, sha256: "t", tokens: 2 },
    warnings: ['a "quoted"\nwarning'],
  };
}

Deno.test("manifestJson() gives JSON.stringify's bytes through a chain of edits, additions, removals and entries with arrays", () => {
  const random = prng(7);
  const pick = (n: number) => Math.floor(random() * n);
  let files: ManifestFile[] = Array.from({ length: 200 }, (_, i) => ({
    path: `src/f${String(i).padStart(3, "0")}.py`,
    view: "full",
    status: "rendered",
    sha256: `h${i}`,
    bytes: 100 + i,
    cache: "hit",
  }));
  let lengths = files.map((f) => f.bytes + 20);
  let last;
  for (let step = 0; step < 60; step++) {
    const kind = pick(6);
    files = files.slice();
    lengths = lengths.slice();
    const at = pick(files.length);
    if (kind === 0) files[at] = { ...files[at], sha256: `e${step}`, bytes: 7 + step };
    else if (kind === 1) lengths[at] += 3;
    else if (kind === 2) {
      files.splice(at, 1);
      lengths.splice(at, 1);
    } else if (kind === 3) {
      files.splice(at, 0, {
        path: `src/n${step}.py`,
        view: "skeleton",
        status: "rendered",
        sha256: `n${step}`,
        bytes: 9,
      });
      lengths.splice(at, 0, 50);
    } else if (kind === 4) files[at] = { ...files[at], notes: [`note ${step}`] };
    // kind 5: nothing changed
    const notes = new Map(kind === 4 ? [[at, ["a", "b"]]] : []);
    const manifest = manifestOf(files, lengths, notes);
    last = manifestJson(manifest, last);
    assert.equal(last.json, JSON.stringify(manifest, null, 2), `step ${step}, kind ${kind}`);
  }
});

Deno.test("manifestJson() serializes the entries of a one-file edit at the end only", async () => {
  const files: ManifestFile[] = Array.from({ length: 1000 }, (_, i) => ({
    path: `f${String(i).padStart(4, "0")}`,
    view: "full",
    status: "rendered",
    sha256: `h${i}`,
    bytes: 10,
  }));
  const lengths = files.map(() => 30);
  let last = manifestJson(manifestOf(files, lengths, new Map()));
  // The edited file's entry, and its block, ordered last (the blocks before it stay in place).
  const edited = files.slice();
  edited[500] = { ...files[500], sha256: "edited", bytes: 11 };
  const manifest = manifestOf(edited, lengths, new Map());
  manifest.blocks[999] = { ...manifest.blocks[999], sha256: "edited block", length: 31 };
  const work = await tallyWork(() => last = manifestJson(manifest, last));
  assert.equal(work.get("manifest entries serialized"), 2);
  assert.equal(last.json, JSON.stringify(manifest, null, 2));
});
