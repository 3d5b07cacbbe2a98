// A resident's manifest JSON made from the last one's pieces (`accel/manifest_json.ts`) is
// `JSON.stringify(manifest, null, 2)` byte for byte, whatever changed between two manifests.
import assert from "node:assert/strict";
import { manifestJson, manifestPieces } from "../../accel/manifest_json.ts";
import type { Manifest } from "../../pipeline/types.ts";
import { prng } from "../_helpers.ts";

function manifest(random: () => number, count: number, step: number): Manifest {
  const files = Array.from({ length: count }, (_, i) => ({
    path: i % 7 === 0 ? `src/dir "q"\\n\u202e${i}.py` : `src/m${i}.py`,
    view: random() < 0.1 * step ? "skeleton" : "full",
    status: "rendered" as const,
    ...(i % 5 === 0 ? { reason: "a reason" } : {}),
    sha256: `${i}`.padStart(64, "0"),
    bytes: 100 + i,
    ...(random() < 0.5 ? { cache: "hit" as const } : {}),
    ...(i % 9 === 0 ? { notes: [`note ${step}`] } : {}),
  }));
  let offset = 0;
  const blocks = files.map((f, i) => {
    const length = f.bytes + (random() < 0.2 ? step : 0);
    const block = {
      id: `files:${f.path}`,
      section: "files",
      stability: "stable" as const,
      offset,
      length,
      sha256: f.sha256,
      tokens: Math.floor(length / 4),
      ...(i % 11 === 0 ? { notes: ["bidi"] } : {}),
    };
    offset += length;
    return block;
  });
  const total = { bytes: offset, sha256: "f".repeat(64), tokens: 9 };
  return {
    version: 1,
    files,
    blocks,
    prefix: total,
    total,
    warnings: step % 2 ? [`warning ${step}`] : [],
  } as Manifest;
}

Deno.test("manifestJson() gives JSON.stringify's bytes, build after build, pieces used again or not", () => {
  const random = prng(30);
  const kept = manifestPieces();
  for (let step = 0; step < 8; step++) {
    const m = manifest(random, 40 - step * 3, step);
    assert.equal(manifestJson(m, kept), JSON.stringify(m, null, 2), `step ${step}`);
  }
  // Empty lists, and the pieces of files no longer there let go.
  const empty = { ...manifest(random, 0, 0), files: [], blocks: [] };
  assert.equal(manifestJson(empty, kept), JSON.stringify(empty, null, 2));
  assert.equal(kept.files.size + kept.blocks.size, 0);
});
