import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { git, makeProject, tempDir } from "../_helpers.ts";
import type { BuildResult } from "../../pipeline/build.ts";

const order = (r: BuildResult) => r.blocks.filter((b) => b.source).map((b) => b.source);

function body(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${name} line ${i}`).join("\n") + "\n";
}

/** A repo where hot.ts changed in each of 5 commits and the others only in the first. */
async function scriptedRepo(): Promise<string> {
  const root = await makeProject({
    "hot.ts": body("hot", 40),
    "cold_big.ts": body("cold big", 60),
    "cold_small.ts": body("cold small", 50),
    "slop.config.ts": `export default { files: ["*.ts"], exclude: ["slop.config.ts"] };\n`,
  });
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  for (let i = 0; i < 5; i++) {
    await Deno.writeTextFile(join(root, "hot.ts"), body(`hot ${i}`, 40));
    await git(root, "commit", "-q", "-am", `hot ${i}`);
  }
  return root;
}

Deno.test("volatility order: the first build seeds from git log, often-changed files last", async () => {
  const root = await scriptedRepo();
  const r = await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  assert.deepEqual(order(r), ["cold_big.ts", "cold_small.ts", "hot.ts"]);
});

Deno.test("volatility order: slop build remembers its order; a changed file moves after the kept prefix", async () => {
  const root = await scriptedRepo();
  const stateDir = await tempDir();
  const first = await buildContext({ cwd: root, stateDir });
  assert.deepEqual(order(first), ["cold_big.ts", "cold_small.ts", "hot.ts"]);
  const saved = JSON.parse(await Deno.readTextFile(join(stateDir, "order", "context.json")));
  assert.deepEqual(saved.files.map((f: { path: string }) => f.path), order(first));

  // cold_big changes: the break is at 0; it moves behind the unchanged cold_small but stays
  // before hot.ts, which changed in every commit.
  await Deno.writeTextFile(join(root, "cold_big.ts"), body("cold big v2", 60));
  const second = await buildContext({ cwd: root, stateDir });
  assert.deepEqual(order(second), ["cold_small.ts", "cold_big.ts", "hot.ts"]);

  // hot.ts changes: cold_small.ts (before it) stays, and so does the prefix's bytes.
  await Deno.writeTextFile(join(root, "hot.ts"), body("hot v2", 40));
  const third = await buildContext({ cwd: root, stateDir });
  assert.equal(order(third)[0], "cold_small.ts");
  const kept = second.blocks.find((b) => b.source === "cold_small.ts")!;
  const enc = new TextEncoder();
  const end = kept.offset + kept.length;
  assert.deepEqual(
    enc.encode(third.document).subarray(0, end),
    enc.encode(second.document).subarray(0, end),
    "the bytes before the first changed file are identical",
  );
});

Deno.test("volatility order: a new file goes after every remembered file", async () => {
  const root = await scriptedRepo();
  const stateDir = await tempDir();
  const first = await buildContext({ cwd: root, stateDir });
  await Deno.writeTextFile(join(root, "aaa_huge.ts"), body("huge", 500));
  const second = await buildContext({ cwd: root, stateDir });
  assert.deepEqual(order(second), [...order(first), "aaa_huge.ts"]);
  assert.ok(second.document.startsWith(first.document), "the old document is a prefix of the new");
});

Deno.test("state vs lock: slop build starts from the lock, then follows the state dir; the lock source ignores the state", async () => {
  const root = await scriptedRepo();
  const stateDir = await tempDir();
  // Pin the lock from git (cold_big, cold_small, hot), then let the state drift.
  const { checkPrefix } = await import("../../pipeline/pin.ts");
  const { loadConfig, defaultPlugins, formatLock } = await import("../../mod.ts");
  const config = await loadConfig({ cwd: root, stateDir });
  const pinned = await checkPrefix(config, { builtins: defaultPlugins() });
  // Reverse the pinned order by hand: a build with no order memory yet starts from the lock.
  const reversed = { ...pinned.current };
  reversed.lines = [pinned.current.lines[0], ...pinned.current.lines.slice(1).reverse()];
  await Deno.writeTextFile(join(root, "slop.lock"), formatLock(reversed));
  const fresh = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  assert.deepEqual(order(fresh), ["hot.ts", "cold_small.ts", "cold_big.ts"]);
  await Deno.writeTextFile(join(root, "slop.lock"), formatLock(pinned.current));
  await buildContext({ cwd: root, stateDir });
  await Deno.writeTextFile(join(root, "cold_big.ts"), body("cold big v2", 60));
  await buildContext({ cwd: root, stateDir });
  await Deno.writeTextFile(join(root, "cold_big.ts"), body("cold big", 60));
  const fromState = await buildContext({ cwd: root, stateDir }, { write: false });
  assert.deepEqual(order(fromState), ["cold_small.ts", "cold_big.ts", "hot.ts"]);
  const fromLock = await buildContext({ cwd: root, stateDir }, {
    write: false,
    orderSource: "lock",
  });
  assert.deepEqual(order(fromLock), ["cold_big.ts", "cold_small.ts", "hot.ts"]);
  const again = await checkPrefix(config, { builtins: defaultPlugins() });
  assert.equal(again.diff, undefined, "the files are back as pinned: the lock matches");
});

Deno.test("pinned ordering: ordering.pinned puts those files first, in pattern order", async () => {
  const root = await scriptedRepo();
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["*.ts"], exclude: ["slop.config.ts"], ordering: { pinned: ["hot.ts", "cold_s*"] } };\n`,
  );
  const r = await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  assert.deepEqual(order(r), ["hot.ts", "cold_small.ts", "cold_big.ts"]);
});

Deno.test("volatility order: a damaged order memory is ignored, not fatal", async () => {
  const root = await scriptedRepo();
  const stateDir = await tempDir();
  await Deno.mkdir(join(stateDir, "order"), { recursive: true });
  await Deno.writeTextFile(
    join(stateDir, "order", "context.json"),
    JSON.stringify({ version: 1, generation: 3, files: [{ path: 7 }] }),
  );
  const r = await buildContext({ cwd: root, stateDir });
  assert.deepEqual(order(r), ["cold_big.ts", "cold_small.ts", "hot.ts"], "seeded from git again");
  const saved = JSON.parse(await Deno.readTextFile(join(stateDir, "order", "context.json")));
  assert.equal(saved.files.length, 3);
});
