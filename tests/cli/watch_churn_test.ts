import assert from "node:assert/strict";
import { join } from "node:path";
import {
  churnProject,
  coldBuild,
  git,
  scriptedOp as op,
  spawnWatch,
  watchChurn,
} from "./_churn.ts";

/**
 * `slop watch` in `root`: `edits[i]` runs after the i-th "built" line; stopped after a line that
 * names `last` (a rebuild while the root is gone may fail and print an error instead).
 */
async function watchThrough(
  root: string,
  edits: Array<() => Promise<void>>,
  last: string,
): Promise<string[]> {
  const child = spawnWatch(root, "null");
  // Bounded: the watcher is killed if it has not finished in 60 s (a loaded machine is slow).
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const lines: string[] = [];
  let text = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const done = text.split("\n").slice(0, -1);
    for (const line of done.slice(lines.length)) {
      lines.push(line);
      if (line.includes(last)) child.kill("SIGINT");
      const edit = edits[lines.filter((l) => l.includes("built")).length - 1];
      if (line.includes("built") && edit) {
        // Give the watcher a moment to subscribe.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await edit();
      }
    }
  }
  await child.status;
  clearTimeout(guard);
  return lines;
}

Deno.test("slop watch follows a project folder removed and made again", async () => {
  const root = await churnProject(3);
  const lines = await watchThrough(root, [
    async () => {
      const copy = `${root}.copy`;
      await new Deno.Command("cp", { args: ["-a", root, copy], cwd: "/" }).output();
      await Deno.remove(root, { recursive: true });
      await Deno.rename(copy, root);
    },
    () => Deno.writeTextFile(join(root, "src/after.py"), "def after():\n    return 1\n"),
  ], "src/after.py changed");
  const built = lines.filter((l) => l.includes("built"));
  assert.equal(built.length, 3, lines.join("\n"));
  const name = /built (\S+)/.exec(built[2])![1];
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
