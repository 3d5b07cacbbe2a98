import assert from "node:assert/strict";
import { join } from "node:path";
import { assertStablePrefix, buildContext, formatLock, parseLock } from "../../mod.ts";
import { fixture, makeProject, runCliShared, snapshotPath, tempDir } from "../_helpers.ts";
import type { Lock } from "../../pipeline/lock.ts";

const SHA = "a".repeat(64);

Deno.test("formatLock() and parseLock() round-trip ids with tabs, counts and the weight", () => {
  const lock: Lock = {
    lines: [
      { id: "files", sha256: SHA, bytes: 10, tokens: 3 },
      {
        id: "files:odd\tname.ts",
        sha256: SHA,
        bytes: 99,
        tokens: 20,
        content: "0123456789abcdef",
        changes: 1.5,
        last: -3,
      },
    ],
    total: { sha256: SHA, bytes: 109, tokens: 23 },
    generation: 4,
    weight: 12.25,
  };
  const text = formatLock(lock);
  assert.equal(text.split("\n").filter((l) => l && !l.startsWith("#")).length, 3);
  assert.deepEqual(parseLock(text, "slop.lock"), lock);
});

Deno.test("parseLock() names the file and line of a bad row", () => {
  assert.throws(
    () => parseLock(`files\t${SHA}\tten\t3\t-\t-\t-\ntotal\t${SHA}\t1\t1\t-\t-\t0\n`, "slop.lock"),
    /Invalid lock "slop\.lock" line 1: bytes "ten" is not an integer/,
  );
  assert.throws(
    () => parseLock("# only comments\n", "x.lock"),
    /Invalid lock "x\.lock": no total line/,
  );
});

Deno.test("assertStablePrefix() pins the basic fixture's prefix in a snapshot", async (t) => {
  await assertStablePrefix(t, {
    config: join(fixture("basic"), "slop.config.ts"),
    stateDir: await tempDir(),
    snapshotPath: snapshotPath(import.meta.url),
  });
});

Deno.test("slop check --determinism passes for the same bytes under shuffled listings and TZ", async () => {
  const root = await makeProject({
    "b/z.ts": "export const z = 1;\n",
    "a/y.ts": "export const y = 2;\n",
    "a/x.md": "# x\n",
    "c.txt": "plain\n",
  });
  const alone = await runCliShared(["check", "--determinism"], root);
  assert.equal(alone.code, 0, alone.stderr);
  assert.match(alone.stdout, /no lock "slop\.lock" yet: the prefix was not compared/);
  await runCliShared(["check", "--update", "-q"], root);
  const run = await runCliShared(["check", "--determinism"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /deterministic: two builds with shuffled listings/);
  assert.match(run.stdout, /the stable prefix matches slop\.lock/);
});

Deno.test("slop check --determinism fails on a view that depends on the time zone", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: [{ path: "a.txt", view: "stamp" }, "b.txt"],
  plugins: [{ kind: "view-mode", name: "stamp", version: "1", render: () => new Date(0).toString() }],
};
`,
    "a.txt": "a\n",
    "b.txt": "b\n",
  });
  const run = await runCliShared(["check", "--determinism"], root);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /Not deterministic: two builds differ at byte \d+ \(block "files:a\.txt", view "stamp"\)/,
  );
});

Deno.test("slop explain names the shared prefix of the last two builds and the block that ended it", async () => {
  const root = await makeProject({
    "big.ts": "export const big = 1;\n".repeat(40),
    "small.ts": "export const small = 2;\n",
  });
  // The two builds explain compares, in this process: explain is what runs as the CLI.
  await buildContext({ cwd: root });
  await Deno.writeTextFile(join(root, "small.ts"), "export const small = 3;\n");
  await buildContext({ cwd: root });
  const run = await runCliShared(["explain", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const e = JSON.parse(run.stdout);
  const m1 = JSON.parse(await Deno.readTextFile(join(root, ".slop/out/context_001.json")));
  const small = m1.blocks.find((b: { id: string }) => b.id === "files:small.ts");
  const cut = "### small.ts\n\n```ts\nexport const small = ".length;
  assert.deepEqual(e.builds, [1, 2]);
  assert.equal(e.bytes, small.offset + cut, "shared up to the edited character");
  assert.equal(e.ended.id, "files:small.ts");
  assert.equal(e.ended.kind, "changed");
  assert.equal(e.ended.at, cut);
  const text = await runCliShared(["explain"], root);
  assert.match(text.stdout, /^ {2}shared prefix: .*, \d+ of \d+ o200k tokens \(/m);
  assert.match(
    text.stdout,
    /ended by: "files:small\.ts" \(section files, file small\.ts\): its content changed \d+ bytes into the block/,
  );
});
