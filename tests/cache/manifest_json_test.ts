import assert from "node:assert/strict";
import { keptManifestJson } from "../../accel/manifest_json.ts";
import { recordMemo } from "../../accel/derived_memo.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import type { Manifest, ManifestBlock, ManifestFile } from "../../pipeline/types.ts";

/** A seeded generator (mulberry32): the same steps each run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings JSON escapes or writes as they are: quotes, newlines, controls, non-ASCII, a lone surrogate. */
const ODD = [
  'a"b',
  "line\nbreak",
  "tab\tx",
  "\u0001",
  "é✓",
  "\ud800",
  "back\\slash",
  '  "files": []',
  ",\n    {",
  "{}",
];

function fileEntry(random: () => number, n: number): ManifestFile {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const entry: ManifestFile = {
    path: random() < 0.2 ? `src/${pick(ODD)}${n}.py` : `src/m${n}.py`,
    view: pick(["full", "skeleton", "summary"]),
    status: "rendered",
    ...(random() < 0.1 ? { reason: pick(ODD) } : {}),
    sha256: n.toString(16).padStart(64, "0"),
    bytes: Math.floor(random() * 1e6),
    ...(random() < 0.7 ? { cache: pick(["hit", "miss"] as const) } : {}),
    ...(random() < 0.1 ? { notes: random() < 0.5 ? [] : [pick(ODD), "x"] } : {}),
    ...(random() < 0.05 ? { fallback: pick(ODD) } : {}),
  } as ManifestFile;
  // As `buildManifest()` makes an entry through a memo: frozen, and given again.
  return random() < 0.8 ? Object.freeze(entry) : entry;
}

/** A block entry for a file entry, the same object while the file's is (as a block placed again). */
const blocks = new WeakMap<ManifestFile, ManifestBlock>();
function blockOf(file: ManifestFile, random: () => number): ManifestBlock {
  let block = blocks.get(file);
  if (!block) {
    block = {
      id: `files:${file.path}`,
      section: "files",
      stability: "stable",
      offset: Math.floor(random() * 1e6),
      length: 10,
      sha256: file.sha256,
      tokens: 3,
      ...(random() < 0.1 ? { notes: [ODD[1]] } : {}),
    };
    if (random() < 0.8) Object.freeze(block);
    blocks.set(file, block);
  }
  return block;
}

Deno.test("a resident's manifest JSON is JSON.stringify's, byte for byte, over 60 steps of edits, additions, removals and other keys", async () => {
  const random = seeded(30);
  const fromRecord = recordMemo();
  let files: ManifestFile[] = Array.from({ length: 40 }, (_, i) => fileEntry(random, i));
  let next = files.length;
  for (let step = 0; step < 60; step++) {
    // Edits (an entry made anew), additions and removals, at random places; sometimes none.
    files = files.slice();
    for (let k = Math.floor(random() * 4); k > 0; k--) {
      const at = Math.floor(random() * (files.length + 1));
      const what = random();
      if (what < 0.4 && files.length) files[at % files.length] = fileEntry(random, next++);
      else if (what < 0.7) files.splice(at, 0, fileEntry(random, next++));
      else files.splice(at, 1);
    }
    const manifest = {
      version: 1,
      files,
      blocks: files.map((f) => blockOf(f, random)),
      prefix: { bytes: 1, sha256: "00", tokens: 2 },
      ...(step % 3 ? { secrets: [{ path: 'src/"x".py', rule: "key" }] } : {}),
      ...(step % 5 === 0 ? { budget: { tokens: 5, files: [] } } : {}),
      warnings: step % 4 ? [] : ['  "files": [] a warning'],
    } as unknown as Manifest;
    const made = await tallyWork(() => keptManifestJson(manifest, fromRecord));
    assert.equal(
      keptManifestJson(manifest, fromRecord).join(""),
      JSON.stringify(manifest, null, 2),
    );
    // Each entry serialized once while it is the same object: the second pass, only those not
    // kept (not frozen, or with notes).
    const unkept = [...files, ...manifest.blocks]
      .filter((e) => !Object.isFrozen(e) || e.notes !== undefined).length;
    assert.ok((made.get("manifest entries") ?? 0) >= unkept);
    const again = await tallyWork(() => keptManifestJson(manifest, fromRecord));
    assert.equal(again.get("manifest entries") ?? 0, unkept, `step ${step}`);
  }
  // No files at all: as `JSON.stringify` lays out an empty array.
  const empty = { version: 1, files: [], blocks: [] } as unknown as Manifest;
  assert.equal(keptManifestJson(empty, fromRecord).join(""), JSON.stringify(empty, null, 2));
  const noFiles = { ...empty, blocks: [blockOf(fileEntry(random, 0), random)] } as Manifest;
  assert.equal(keptManifestJson(noFiles, fromRecord).join(""), JSON.stringify(noFiles, null, 2));
});
