import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { changedSince } from "../../pipeline/since.ts";
import { git, gitInit, makeProject, runCli } from "../_helpers.ts";

/** A repo with two commits, then a modified, a deleted, an untracked and an ignored file. */
async function scriptedRepo(): Promise<string> {
  const root = await makeProject({
    ".gitignore": "*.log\n",
    "sub/a.py": "a = 1\n",
    "sub/b.py": "b = 1\n",
    "sub/c.py": "c = 1\n",
    "top.md": "# Top\n",
  });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "sub/a.py"), "a = 2\n");
  await git(root, "commit", "-q", "-am", "second");
  await Deno.writeTextFile(join(root, "sub/b.py"), "b = 2\n");
  await Deno.remove(join(root, "sub/c.py"));
  await Deno.writeTextFile(join(root, "sub/new.py"), "n = 1\n");
  await Deno.writeTextFile(join(root, "sub/debug.log"), "noise\n");
  return root;
}

Deno.test("changedSince() gives changed and untracked files, not deleted or ignored ones", async () => {
  const root = await scriptedRepo();
  assert.deepEqual(await changedSince(root, "HEAD"), ["sub/b.py", "sub/new.py"]);
  assert.deepEqual(await changedSince(root, "HEAD~1"), ["sub/a.py", "sub/b.py", "sub/new.py"]);
  // From a subfolder root, paths are relative to it.
  assert.deepEqual(await changedSince(join(root, "sub"), "HEAD~1"), ["a.py", "b.py", "new.py"]);
});

Deno.test("--since puts the changed files in focus, matched exactly", async () => {
  const root = await scriptedRepo();
  // A same-named file elsewhere must not be pulled into focus by its basename.
  await Deno.mkdir(join(root, "other"));
  await Deno.writeTextFile(join(root, "other/b.py"), "other = 1\n");
  await git(root, "add", "other/b.py");
  await git(root, "commit", "-q", "-m", "other");
  await Deno.writeTextFile(join(root, "other/b.py"), "other = 1\n");
  const result = await buildContext({
    cwd: root,
    since: "HEAD",
    inline: { defaultView: "none" },
  }, { write: false });
  const views = Object.fromEntries(result.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    ".gitignore": "none",
    "other/b.py": "none",
    "sub/a.py": "none",
    "sub/b.py": "full",
    "sub/new.py": "full",
    "top.md": "none",
  });
});

Deno.test("--since with an unknown ref or outside git is a clear usage error", async () => {
  const root = await scriptedRepo();
  const bad = await runCli(["build", "--since", "no-such-branch", "--stdout"], root);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown git revision "no-such-branch" for --since/);
  const option = await runCli(["build", "--since=--all", "--stdout"], root);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /Unknown git revision "--all" for --since/);
  const plain = await makeProject({ "a.py": "a = 1\n" });
  const outside = await runCli(["build", "--since", "HEAD", "--stdout"], plain);
  assert.equal(outside.code, 2);
  assert.match(outside.stderr, /Cannot use --since "HEAD": ".*" is not inside a git work tree/);
});

Deno.test("slop build --since REF renders the changed files in full, end to end", async () => {
  const root = await scriptedRepo();
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { defaultView: "summary", exclude: ["slop.config.ts"] };\n`,
  );
  const run = await runCli(["build", "--since", "HEAD~1", "--stdout"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /### sub\/a.py\n\n```python\na = 2\n```/);
  assert.match(run.stdout, /### sub\/b.py\n\n```python\nb = 2\n```/);
  assert.match(run.stdout, /### top.md\n\n\*\*Markdown\*\*/);
});
