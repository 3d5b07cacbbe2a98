import assert from "node:assert/strict";
import { join } from "node:path";
import {
  churnProject,
  coldBuild,
  git,
  OPS,
  scriptedOp as op,
  seeded,
  spawnWatch,
  watchChurn,
} from "./_churn.ts";

/** What `slop watch` prints once it watches a project folder made again. */
const REWATCHED = "slop: the project folder was made again; watching it anew";

/**
 * `slop watch` in `root`: each step's `edit` runs once a line includes its `after` (in turn, no
 * sleep: each line is said once the watcher is on); stopped after a line that includes `last`.
 */
async function watchThrough(
  root: string,
  steps: Array<{ after: string; edit: () => Promise<void> }>,
  last: string,
): Promise<string[]> {
  const child = spawnWatch(root, "null");
  // Bounded: the watcher is killed if it has not finished in 60 s (a loaded machine is slow).
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const lines: string[] = [];
  let text = "";
  let step = 0;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const done = text.split("\n").slice(0, -1);
    for (const line of done.slice(lines.length)) {
      lines.push(line);
      if (line.includes(last)) child.kill("SIGINT");
      if (step < steps.length && line.includes(steps[step].after)) await steps[step++].edit();
    }
  }
  await child.status;
  clearTimeout(guard);
  return lines;
}

Deno.test("slop watch follows a project folder removed and made again", async () => {
  const root = await churnProject(3);
  // As the churn's: the watcher may still write its state (the folder is removed again then).
  const remake = () =>
    OPS.find((op) => op.name === "delete and re-create tree")!.run(root, seeded(1), "");
  const after = () =>
    Deno.writeTextFile(join(root, "src/after.py"), "def after():\n    return 1\n");
  const lines = await watchThrough(root, [
    { after: "watching for changes", edit: remake },
    { after: REWATCHED, edit: after },
  ], "src/after.py changed");
  // Watched anew once; the edit in the new folder is seen by name, after it.
  assert.equal(lines.filter((l) => l === REWATCHED).length, 1, lines.join("\n"));
  const seen = lines.findIndex((l) => l.includes("src/after.py changed: built"));
  assert.ok(seen > lines.indexOf(REWATCHED), lines.join("\n"));
  const name = /built (\S+)/.exec(lines[seen])![1];
  const last = await Deno.readTextFile(join(root, name));
  assert.match(last, /src\/after\.py/);
  const cold = await coldBuild(root);
  assert.equal(last, typeof cold === "string" ? cold : cold.document);
});

// More seeds by hand: CHURN_SEEDS=1-20 TZ=Z deno test -A tests/cli/watch_churn_test.ts
const range = (Deno.env.get("CHURN_SEEDS") ?? "1-1").split("-").map(Number);
const seeds = Array.from({ length: (range[1] ?? range[0]) - range[0] + 1 }, (_, i) => range[0] + i);

Deno.test("slop watch's output equals a cold build after random batches of file changes", async () => {
  for (const seed of seeds) await watchChurn(seed);
});

Deno.test("slop watch sees what git's index and .git/info/exclude change in the file list", async () => {
  await watchChurn(1, {
    script: [
      [op(
        "ignore src/lib",
        (root) => Deno.writeTextFile(join(root, ".gitignore"), ".slop/\nsrc/lib/\n"),
      )],
      [op("git rm --cached src/lib", (root) => git(root, "rm", "-rqf", "--cached", "src/lib"))],
      [op(
        "exclude docs",
        (root) => Deno.writeTextFile(join(root, ".git/info/exclude"), "docs/\n"),
      )],
    ],
  });
});
