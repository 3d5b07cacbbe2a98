// The relevance bench's `--misses` says where a real task build put each needed file it does not
// hold in full: what step 1 of a 128k miss hunt asks, without a throwaway script each session.
import assert from "node:assert/strict";
import { buildMissClass, MissTally } from "../../bench/_relevance_misses.ts";
import type { Manifest } from "../../pipeline/types.ts";

/** A manifest with only what the bench reads of it: the map's files and the task's entries. */
function manifest(): Manifest {
  return {
    files: [
      { path: "src/big.kt", status: "rendered", view: "outline" },
      { path: "src/listed.kt", status: "listed" },
      { path: "src/small.kt", status: "rendered", view: "full" },
    ],
    task: {
      sha256: "0",
      tokens: 111_900,
      files: [
        { path: "src/skel.kt", score: 0.4, where: "task", view: "skeleton" },
        { path: "src/named.kt", score: 0.3, where: "listed", view: "listed" },
      ],
    },
  } as unknown as Manifest;
}

Deno.test("the bench says where a real task build put each needed file it does not hold in full", () => {
  const m = manifest();
  assert.deepEqual(buildMissClass(m, "src/skel.kt", 3), "in the task section as skeleton");
  assert.deepEqual(buildMissClass(m, "src/named.kt", 12), "named in the task section's list");
  assert.deepEqual(
    buildMissClass(m, "src/big.kt", 40),
    "not in the task section, ranked 31 to 100, in the map as outline",
  );
  assert.deepEqual(
    buildMissClass(m, "src/listed.kt", 150),
    "not in the task section, ranked past 100",
  );
  assert.deepEqual(buildMissClass(m, "src/gone.kt", -1), "not in the task section, no score");
});

Deno.test("the bench counts a real build's misses at 32k and 128k only, with the section's tokens", () => {
  const tally = new MissTally();
  const ranked = ["src/skel.kt", "src/small.kt", "src/big.kt"].map((path, i) => ({
    path,
    score: 1 - i / 10,
    reasons: [],
  }));
  const c = {
    repo: "a+b",
    tuned: false,
    message: "Reformat\n\nbody",
    needed: ["src/small.kt", "src/big.kt"],
    ranked,
    tokens: { "src/small.kt": 300, "src/big.kt": 9000 },
  };
  const build = { manifest: manifest(), inFull: new Set(["src/small.kt"]), tokens: 127_950 };
  tally.addBuild(c, 8_000, build);
  assert.deepEqual(tally.buildLines, []);
  tally.addBuild(c, 128_000, build);
  assert.deepEqual(
    tally.counts.get("held out, build 128k")?.get(
      "not in the task section, ranked 1 to 10, in the map as outline",
    ),
    1,
  );
  const report = tally.report().join("\n");
  assert.ok(report.includes("a+b at 128k (document 127950 tokens, task section 111900): Reformat"));
  assert.ok(report.includes("#3 src/big.kt (9000 tokens, score 0.800)"));
});
