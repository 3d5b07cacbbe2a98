import assert from "node:assert/strict";
import { join } from "node:path";
import { coChangeFromLog, coChangeScores, LARGE_COMMIT_WEIGHT } from "../../pipeline/co_change.ts";
import { DECAY } from "../../pipeline/order_state.ts";
import { firstParentLog } from "../../pipeline/_git_history.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

Deno.test("co-change scores weigh newer commits more and are in [0, 1]", () => {
  const log = [
    { paths: ["a.ts"] },
    { paths: ["a.ts", "b.ts"] },
    { paths: ["c.ts"] },
  ];
  const scores = coChangeFromLog(log, ["a.ts", "b.ts", "c.ts", "d.ts"]);
  assert.equal(scores.get("a.ts"), 1);
  assert.equal(scores.get("b.ts"), DECAY / (1 + DECAY));
  assert.equal(scores.get("c.ts"), DECAY ** 2 / (1 + DECAY));
  assert.equal(scores.has("d.ts"), false);
  assert.deepEqual([...scores.keys()], ["a.ts", "b.ts", "c.ts"]);
});

Deno.test("with seeds, only the commits that changed a seed count, wide commits a tenth or none", () => {
  const wide = { paths: Array.from({ length: 40 }, (_, i) => `w${i}.ts`).concat(["a.ts", "c.ts"]) };
  const log = [{ paths: ["a.ts", "b.ts"] }, { paths: ["c.ts"] }, wide];
  const scores = coChangeFromLog(log, ["a.ts", "b.ts", "c.ts"], { seeds: ["a.ts"] });
  assert.deepEqual([...scores], [["b.ts", 1], ["c.ts", DECAY * DECAY * LARGE_COMMIT_WEIGHT]]);
  const none = coChangeFromLog(log, ["a.ts", "b.ts", "c.ts"], { seeds: ["a.ts"], largeWeight: 0 });
  assert.deepEqual([...none], [["b.ts", 1]]);
});

Deno.test("a wide commit left out (largeWeight 0) still ages the commits older than it", () => {
  const wide = { paths: Array.from({ length: 40 }, (_, i) => `w${i}.ts`) };
  const log = [{ paths: ["a.ts"] }, wide, { paths: ["b.ts"] }];
  const scores = coChangeFromLog(log, ["a.ts", "b.ts", "w0.ts"], { largeWeight: 0 });
  assert.deepEqual([...scores], [["a.ts", 1], ["b.ts", DECAY ** 2]]);
});

Deno.test("coChangeScores reads the first-parent history of the root's repository", async () => {
  const root = await makeProject({ "a.ts": "1\n", "b.ts": "1\n" });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "a.ts"), "2\n");
  await git(root, "commit", "-qam", "a again");
  const scores = await coChangeScores(root, ["a.ts", "b.ts"]);
  assert.equal(scores.get("a.ts"), 1);
  assert.equal(scores.get("b.ts"), DECAY / (1 + DECAY));
  const outside = await makeProject({ "a.ts": "1\n" });
  assert.equal((await coChangeScores(outside, ["a.ts"])).size, 0);
});

Deno.test("firstParentLog with messages reads each commit's message in the same git log, the paths as without", async () => {
  const root = await makeProject({ "a.ts": "1\n", "dir/b ü.ts": "1\n" });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "dir/b ü.ts"), "2\n");
  // A body, a line that reads like a path, control bytes a log's markers use.
  const odd = "Fix the \x01 cookie\x02 jar\n\ndir/b ü.ts\n\x01" + "f".repeat(40) + " done";
  await git(root, "commit", "-qam", odd);
  await Deno.writeTextFile(join(root, "a.ts"), "2\n");
  await git(root, "commit", "-qam", "a again");
  const plain = await firstParentLog(root, 10);
  const read = await firstParentLog(root, 10, "HEAD", { messages: true });
  assert.deepEqual(read?.map((c) => c.message), ["a again", odd, "init"]);
  assert.deepEqual(read?.map((c) => ({ hash: c.hash, paths: c.paths })), plain);
  assert.deepEqual(read?.map((c) => c.paths), [["a.ts"], ["dir/b ü.ts"], ["a.ts", "dir/b ü.ts"]]);
  assert.equal(plain?.[0].message, undefined);
});

Deno.test("firstParentLog: a message that copies a log's record marks (with a real hash) splits no commit", async () => {
  const root = await makeProject({ "a.ts": "1\n", "b.ts": "1\n" });
  await gitInit(root);
  const parent = (await git(root, "rev-parse", "HEAD")).trim();
  // What a record of the log looks like, for the parent commit, inside the message.
  const forged = `Tidy\x02\n\n\x01${parent}\x02forged\x02\nc.ts\n\x01${parent}\nd.ts`;
  await Deno.writeTextFile(join(root, "b.ts"), "2\n");
  await git(root, "commit", "-qam", forged);
  const read = await firstParentLog(root, 10, "HEAD", { messages: true });
  const plain = await firstParentLog(root, 10);
  assert.deepEqual(read?.map((c) => c.message), [forged.trim(), "init"]);
  assert.deepEqual(read?.map((c) => c.paths), [["b.ts"], ["a.ts", "b.ts"]]);
  assert.deepEqual(plain?.map((c) => c.paths), [["b.ts"], ["a.ts", "b.ts"]]);
  assert.equal(read?.[1].hash, parent);
});

Deno.test("a commit of more files than maxFiles counts at LARGE_COMMIT_WEIGHT, in a generated history", async () => {
  const root = await makeProject({ "a.ts": "1\n", "b.ts": "1\n" });
  await gitInit(root);
  // A sweep over 35 files (a formatter's run): b.ts changed in it, and nowhere since.
  const sweep = Array.from({ length: 34 }, (_, i) => `s${String(i).padStart(2, "0")}.ts`);
  for (const path of [...sweep, "b.ts"]) await Deno.writeTextFile(join(root, path), "2\n");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "format everything");
  await Deno.writeTextFile(join(root, "a.ts"), "2\n");
  await git(root, "commit", "-qam", "a again");
  const scores = await coChangeScores(root, ["a.ts", "b.ts", "s00.ts"]);
  // Newest first: "a again" (1), the sweep (DECAY, at a tenth), "init" (DECAY^2, both files).
  const a = 1 + DECAY ** 2;
  assert.equal(LARGE_COMMIT_WEIGHT, 0.1);
  assert.equal(scores.get("a.ts"), 1);
  assert.ok(Math.abs(scores.get("b.ts")! - (DECAY * LARGE_COMMIT_WEIGHT + DECAY ** 2) / a) < 1e-12);
  assert.ok(Math.abs(scores.get("s00.ts")! - DECAY * LARGE_COMMIT_WEIGHT / a) < 1e-12);
  // The same history read twice gives the same scores; maxFiles moves the line.
  assert.deepEqual([...await coChangeScores(root, ["a.ts", "b.ts", "s00.ts"])], [...scores]);
  const wider = await coChangeScores(root, ["a.ts", "b.ts", "s00.ts"], { maxFiles: 40 });
  assert.ok(Math.abs(wider.get("s00.ts")! - DECAY / (1 + DECAY ** 2)) < 1e-12);
});
