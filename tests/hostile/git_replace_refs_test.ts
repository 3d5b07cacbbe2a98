import assert from "node:assert/strict";
import { join } from "node:path";
import { firstParentLog } from "../../pipeline/_git_history.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

/** The paths of each commit of the first-parent history from HEAD, newest first. */
async function history(root: string): Promise<string[]> {
  const commits = await firstParentLog(root, 10);
  return (commits ?? []).map((commit) => commit.paths.join(","));
}

/**
 * A replace ref (`git replace`, `refs/replace/<hash>`) changes what `git log` shows of a commit
 * without a new commit: HEAD names the same one. A process that builds again (`slop watch`, the
 * build server, `slop mcp`) kept the history read before the ref was added, removed or packed,
 * and ordered and ranked files by a history git no longer shows.
 */
Deno.test("a replace ref added, changed, packed or removed between two reads gives git's history", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  for (const name of ["b.ts", "c.ts"]) {
    await Deno.writeTextFile(join(root, name), `${name}\n`);
    await git(root, "add", name);
    await git(root, "commit", "-q", "-m", name);
  }
  const first = await git(root, "rev-parse", "HEAD~2");
  const plain = ["c.ts", "b.ts", "a.ts"];
  assert.deepEqual(await history(root), plain);
  // HEAD's parent replaced by the first commit (a graft): the history skips b.ts's commit, and
  // HEAD's change is both files.
  await git(root, "replace", "--graft", "HEAD", first.trim());
  assert.deepEqual(await history(root), ["b.ts,c.ts", "a.ts"]);
  // The replace ref packed, then changed (HEAD a root commit), packed again and removed.
  await git(root, "pack-refs", "--all");
  assert.deepEqual(await history(root), ["b.ts,c.ts", "a.ts"]);
  await git(root, "replace", "-f", "--graft", "HEAD");
  assert.deepEqual(await history(root), ["a.ts,b.ts,c.ts"]);
  // git told not to follow replace refs by its config, then told again.
  await git(root, "config", "core.useReplaceRefs", "false");
  assert.deepEqual(await history(root), plain);
  await git(root, "config", "core.useReplaceRefs", "true");
  assert.deepEqual(await history(root), ["a.ts,b.ts,c.ts"]);
  await git(root, "pack-refs", "--all");
  const head = (await git(root, "rev-parse", "HEAD")).trim();
  await git(root, "replace", "-d", head);
  assert.deepEqual(await history(root), plain);
});
