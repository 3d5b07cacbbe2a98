import assert from "node:assert/strict";
import { join } from "node:path";
import { coChangeFromLog, coChangeScores } from "../../pipeline/co_change.ts";
import { DECAY } from "../../pipeline/order_state.ts";
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

Deno.test("with seeds, only the commits that changed a seed count, and wide commits none", () => {
  const wide = { paths: Array.from({ length: 40 }, (_, i) => `w${i}.ts`).concat(["a.ts", "c.ts"]) };
  const log = [{ paths: ["a.ts", "b.ts"] }, { paths: ["c.ts"] }, wide];
  const scores = coChangeFromLog(log, ["a.ts", "b.ts", "c.ts"], { seeds: ["a.ts"] });
  assert.deepEqual([...scores], [["b.ts", 1]]);
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
