import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

/** The git commands a build ran, by command (`log`, `ls-files`), with how many times each. */
async function gitCalls(work: () => Promise<unknown>): Promise<Record<string, number>> {
  const tally = await tallyWork(work);
  const calls: Record<string, number> = {};
  for (const [key, count] of tally) {
    if (key.startsWith("git ")) calls[key.slice(4)] = (calls[key.slice(4)] ?? 0) + count;
  }
  return calls;
}

Deno.test("a build reads git's history once for its first order, its budget and its task, and again only after a commit", async () => {
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 1;\n",
  });
  await gitInit(root);
  for (let i = 2; i < 6; i++) {
    await Deno.writeTextFile(join(root, "a.ts"), `export const a = ${i};\n`);
    await git(root, "commit", "-qam", `fix a ${i}`);
  }
  // No order memory yet: the first order comes from the history too.
  const inline = { budget: { tokens: 400 }, task: "fix a" };
  const build = () => buildContext({ cwd: root, inline }, { write: false });
  // One read with the messages (the task's ranking), one without (the first order's seed).
  const first = await gitCalls(build);
  assert.equal(first.log, 2, JSON.stringify(first));
  assert.equal((await gitCalls(build)).log, undefined);
  // A commit: the task reads the history again (the first order is remembered by now).
  await Deno.writeTextFile(join(root, "b.ts"), "export const b = 2;\n");
  await git(root, "commit", "-qam", "b");
  const after = await gitCalls(build);
  assert.equal(after.log, 1, JSON.stringify(after));
});
