import assert from "node:assert/strict";
import { join } from "node:path";
import {
  churn,
  churnProject,
  git,
  linkedCheckout,
  linkedListingScript,
  listingSteps,
  OPS,
  scriptedOp as op,
} from "./_churn.ts";
import { tempDir } from "../_helpers.ts";
import { serverWatch } from "../../server/_watch.ts";
import { loadConfig } from "../../mod.ts";

// More seeds by hand: CHURN_SEEDS=1-40 TZ=Z deno test -A tests/cli/server_churn_test.ts
const range = (Deno.env.get("CHURN_SEEDS") ?? "1-2").split("-").map(Number);
const seeds = Array.from({ length: (range[1] ?? range[0]) - range[0] + 1 }, (_, i) => range[0] + i);

Deno.test("a build server's builds equal cold builds after random batches of file changes", async () => {
  for (const seed of seeds) await churn(seed);
});

Deno.test("a build server watches a project folder removed and made again anew", async () => {
  const ops = OPS.filter((op) => ["delete and re-create tree", "create file"].includes(op.name));
  const log = await churn(1, { batches: 4, perBatch: 1, ops });
  // The seed has a tree made again, then a file created in the new one, in the next batch.
  const names = log.batches.map((batch) => batch[0]).join(",");
  assert.match(names, /delete and re-create tree,create file/);
});

Deno.test("a storm of 5,000 events leaves the server's watcher holding one record per file", async () => {
  const root = await churnProject(4);
  const dir = await tempDir({ prefix: "slop_storm_" });
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
  const watch = serverWatch({ dir, id: "storm", timeoutMs: 5000 });
  try {
    assert.equal(await watch.changes(config), undefined, "the first call starts the watch");
    for (let i = 0; i < 5000; i++) {
      await Deno.writeTextFile(join(root, "src", `s${i % 50}.ts`), `export const v = ${i};\n`);
    }
    // Settled: one record per file written (50), not per event (5,000). Looked at for up to 60 s:
    // a loaded machine hands the watcher its events late.
    for (let i = 0; i < 3000 && watch.held() < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(watch.held(), 50);
    const changes = await watch.changes(config);
    // Either the events (50 files) or "look at every file" when the system dropped some.
    if (changes) assert.equal(changes.paths.filter((p) => p.startsWith("src/s")).length, 50);
    assert.equal(watch.held(), 0, "a build takes what it held");
  } finally {
    watch.close();
  }
});

Deno.test("a storm of new file names holds at most maxPaths records, and the build looks at every file", async () => {
  const root = await churnProject(4);
  const dir = await tempDir({ prefix: "slop_storm_" });
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
  const watch = serverWatch({ dir, id: "names", timeoutMs: 5000, maxPaths: 100 });
  try {
    await watch.changes(config);
    for (let i = 0; i < 500; i++) {
      await Deno.writeTextFile(join(root, "src", `t${i}.ts`), `export const v = ${i};\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(watch.held() <= 100, `held ${watch.held()}`);
    const changes = await watch.changes(config);
    assert.ok(!changes || changes.structural, "a build after it looks at every file");
    assert.ok(!changes || changes.paths.length <= 100, `${changes?.paths.length} paths`);
  } finally {
    watch.close();
  }
});

Deno.test("a build server sees what git's index, config, info/exclude and info/attributes change in the file list", async () => {
  const steps = listingSteps((root) => join(root, ".git", "info"));
  await churn(1, {
    script: [
      // Ignored but tracked: still listed.
      [steps.ignoreLib],
      // Untracked and ignored: no longer listed, though no file under the root changed.
      [steps.untrackLib],
      [steps.trackLib],
      [op("new untracked file", (root) => Deno.writeTextFile(join(root, "src/u.py"), "U = 1\n"))],
      [op("exclude it", (root) => Deno.writeTextFile(join(root, ".git/info/exclude"), "*.py\n"))],
      [op("include it again", (root) => Deno.writeTextFile(join(root, ".git/info/exclude"), ""))],
      [steps.gitattributes],
      [steps.markBinary],
      [steps.unmarkBinary],
      [op("untracked notes", (root) => Deno.writeTextFile(join(root, "src/notes.md"), "# N\n"))],
      // An excludes file that `.git/config` names from now on (written before, unwatched).
      [op("core.excludesFile", async (root) => {
        await Deno.writeTextFile(join(root, ".git/more_excludes"), "*.md\n");
        await git(root, "config", "core.excludesFile", join(root, ".git/more_excludes"));
      })],
    ],
  });
});

Deno.test("a build server in a git worktree sees its index and the main repository's info/exclude, info/attributes and config change", async () => {
  const checkout = await linkedCheckout("worktree");
  await churn(1, {
    script: linkedListingScript(checkout),
    project: () => Promise.resolve(checkout.root),
  });
});

Deno.test("a build server in a checkout whose .git file names a git folder elsewhere (a submodule's) sees it change", async () => {
  const checkout = await linkedCheckout("separate");
  await churn(1, {
    script: linkedListingScript(checkout),
    project: () => Promise.resolve(checkout.root),
  });
});
