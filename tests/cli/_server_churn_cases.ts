// The build server's builds run in this file's process, as a server's do (`serverBuilds` with its
// real watcher, resident and prepared builds), against cold builds after each batch of changes.
// A server's build enters the project's folder and takes the client's environment: so these
// tests run in a child process of their own (`server_churn_test.ts` starts it), never beside the
// suite's other files, which share their process's working folder and environment.
import assert from "node:assert/strict";
import {
  churn,
  git,
  linkedCheckout,
  linkedListingScript,
  listingSteps,
  OPS,
  scriptedOp as op,
} from "./_churn.ts";
import { join } from "node:path";

// More seeds by hand: CHURN_SEEDS=1-40 TZ=Z deno test -A tests/cli/_server_churn_cases.ts
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
