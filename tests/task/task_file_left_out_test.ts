import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli, runCliShared, tempDir } from "../_helpers.ts";
import type { Manifest } from "../../mod.ts";

// An agent that follows the skill writes the text into the project (`issue.md` beside the
// code) and runs `slop build --task-file issue.md`: the file is the task, which the document's
// task section holds already. Bundled as one more file of the project, the text came twice (or the
// map listed a file that changes with every task), and `slop rank` ranked the task for itself.

const TASK = "The retry loop in src/fetch.py should stop after max_retries attempts\n";

/** A project with two sources and the task's file, in `where` (a path from the root). */
function project(where: string) {
  return makeProject({
    "src/fetch.py": "def fetch(url, max_retries=3):\n    for attempt in range(max_retries):\n" +
      "        pass\n",
    "src/util.py": "def slug(text):\n    return text.lower()\n",
    [where]: TASK,
  });
}

/** The paths of the files a `--json` build's manifest lists. */
function manifestPaths(stdout: string): string[] {
  return (JSON.parse(stdout) as Manifest).files.map((f) => f.path);
}

Deno.test("slop build leaves out the file its --task-file names, wherever it is under the root", async () => {
  for (const where of ["issue.md", "notes/issue [1].md"]) {
    const root = await project(where);
    // Named as typed, and by another spelling of the same file.
    for (const named of [where, `./${where}`, join(root, where)]) {
      const run = await runCliShared(
        ["build", "--task-file", named, "--json", "--quiet", "--no-server"],
        root,
      );
      assert.equal(run.code, 0, run.stderr);
      const paths = manifestPaths(run.stdout);
      assert.deepEqual(paths, ["src/fetch.py", "src/util.py"], `--task-file ${named}`);
      const doc = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
      // The task's text is in the document once: its section, not a file block.
      assert.equal(doc.split("stop after max_retries").length - 1, 1, `--task-file ${named}`);
      await Deno.remove(join(root, ".slop"), { recursive: true });
    }
  }
});

Deno.test("a file the task file is not stays a file of the project; a task from stdin leaves out nothing", async () => {
  const root = await project("issue.md");
  const outside = join(await tempDir({ prefix: "slop_task_" }), "issue.md");
  await Deno.writeTextFile(outside, TASK);
  const run = await runCliShared(
    ["build", "--task-file", outside, "--json", "--quiet", "--no-server"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(manifestPaths(run.stdout), ["issue.md", "src/fetch.py", "src/util.py"]);
  const typed = await runCliShared(
    ["build", "--task", TASK.trim(), "--json", "--quiet", "--no-server"],
    root,
  );
  assert.deepEqual(manifestPaths(typed.stdout), ["issue.md", "src/fetch.py", "src/util.py"]);
});

Deno.test("slop rank does not rank the task's own file for it", async () => {
  const root = await project("issue.md");
  const run = await runCli(["rank", "--task-file", "issue.md", "--top", "0", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const ranked = (JSON.parse(run.stdout) as { files: Array<{ path: string }> }).files;
  assert.deepEqual(ranked.map((f) => f.path).sort(), ["src/fetch.py", "src/util.py"]);
});

Deno.test("slop build --server leaves out the task file too: the server gets its text", async () => {
  const root = await project("issue.md");
  // A folder of its own for the server; CI empty, so that --server starts one on a CI machine.
  const env = { XDG_RUNTIME_DIR: await tempDir({ prefix: "slop_servers_" }), CI: "" };
  try {
    const run = await runCli(
      ["build", "--server", "--task-file", "issue.md", "--json", "--quiet"],
      root,
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(manifestPaths(run.stdout), ["src/fetch.py", "src/util.py"]);
  } finally {
    await runCli(["server", "stop", "--all", "--quiet"], root, env);
  }
});
