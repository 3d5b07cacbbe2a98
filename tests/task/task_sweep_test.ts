// A commit of more than 30 files (a formatter's run, a release, a merge) counts at
// LARGE_COMMIT_WEIGHT in the ranking's co-change: a file such a sweep changed ranks above one it
// did not, for a task whose words match no file. The map's choice leaves sweeps out, so two tasks
// still share the prefix byte for byte, and the same history gives the same bytes.
import assert from "node:assert/strict";
import { buildContext, type SlopConfig } from "../../mod.ts";
import { LARGE_COMMIT_WEIGHT } from "../../pipeline/co_change.ts";
import { git, gitInit, runCliShared, tempDir } from "../_helpers.ts";
import { taskProject, TOPICS } from "./_project.ts";

/**
 * The task project in git: `init` (25 files), then a sweep of 32 files that changes every
 * `src/<topic>.py` and adds 20 fixtures (no `lib/<topic>.ts`), then two commits of
 * `src/retry.py` alone.
 */
async function sweptProject(): Promise<string> {
  const root = await taskProject();
  await gitInit(root);
  for (const topic of TOPICS) {
    await Deno.writeTextFile(`${root}/src/${topic}.py`, "# formatted\n", { append: true });
  }
  await Deno.mkdir(`${root}/fixtures`);
  for (let i = 0; i < 20; i++) {
    await Deno.writeTextFile(`${root}/fixtures/case_${String(i).padStart(2, "0")}.txt`, `${i}\n`);
  }
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "Run the formatter over the sources");
  for (let i = 0; i < 2; i++) {
    await Deno.writeTextFile(`${root}/src/retry.py`, `# retry ${i}\n`, { append: true });
    await git(root, "commit", "-qam", `retry ${i}`);
  }
  return root;
}

async function buildFor(root: string, config: SlopConfig) {
  const stateDir = await tempDir({ prefix: "slop_state_" });
  return await buildContext({ cwd: root, inline: config, stateDir }, { write: false });
}

Deno.test("a file a sweep of more than 30 files changed ranks above one it did not, and the prefix holds", async () => {
  const root = await sweptProject();
  const changed = await git(root, "show", "--name-only", "--format=", "HEAD~2");
  assert.equal(changed.trim().split("\n").length, 32);
  assert.equal(LARGE_COMMIT_WEIGHT, 0.1);
  // No word of these tasks is in a file: co-change alone ranks the files.
  const tasks = ["Tidy up after the formatter", "Bump everything to zorbnax nine"];
  const rank = await runCliShared(["rank", "--task", tasks[0], "--top", "0", "--json"], root);
  assert.equal(rank.code, 0, rank.stderr);
  const { files } = JSON.parse(rank.stdout) as { files: { path: string; score: number }[] };
  // src/retry.py changed most; then the eleven other sources the sweep changed (init, and the
  // sweep at a tenth), the same score each, in path order; then the files only init changed.
  const swept = TOPICS.filter((t) => t !== "retry").map((t) => `src/${t}.py`).sort();
  assert.deepEqual(files.slice(0, 12).map((f) => f.path), ["src/retry.py", ...swept]);
  const score = (path: string) => files.find((f) => f.path === path)!.score;
  assert.ok(score("src/cookie.py") > score("lib/cookie.ts"));
  assert.ok(score("lib/cookie.ts") > 0);
  // The same history and task give the same bytes; another task shares the map byte for byte.
  const budget = { tokens: 6000 };
  const first = await buildFor(root, { task: tasks[0], budget });
  const again = await buildFor(root, { task: tasks[0], budget });
  assert.equal(again.document, first.document);
  const other = await buildFor(root, { task: tasks[1], budget });
  assert.ok(first.manifest.prefix.bytes > 0);
  assert.equal(other.manifest.prefix.sha256, first.manifest.prefix.sha256);
  assert.notEqual(other.document, first.document);
  // The section shows the ranking's first file the map does not hold in full, the sweep's first.
  const shown = first.manifest.task!.files.filter((f) => f.where === "task").map((f) => f.path);
  assert.ok(shown.some((p) => swept.includes(p)), JSON.stringify(shown));
});
