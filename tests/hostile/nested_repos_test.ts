import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { git, gitInit, makeProject, tempDir } from "../_helpers.ts";

const REASON = "a nested git repository, a submodule or a clone: its files are not part of " +
  'this one; name them by path in "files" to include them';

Deno.test("a nested git repository and a submodule are listed as skipped with the reason, not silently missing", async () => {
  const inner = await makeProject({ "in.md": "inner\n" });
  await gitInit(inner);
  const root = await makeProject({ "top.md": "top\n", "clone/in.md": "clone\n" });
  await gitInit(join(root, "clone"));
  await git(root, "init", "-q");
  await git(
    root,
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "-q",
    "add",
    inner,
    "vendor/sub",
  );

  const result = await buildContext({ cwd: root }, { write: false });
  const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
  assert.equal(rows.get("top.md")?.status, "rendered");
  for (const path of ["clone", "vendor/sub"]) {
    assert.equal(rows.get(path)?.status, "skipped", `${path}: ${JSON.stringify([...rows.keys()])}`);
    assert.equal(rows.get(path)?.reason, REASON);
  }
  // Nothing of theirs reaches the document, and the reason says how to include a file.
  assert.doesNotMatch(result.document, /inner|clone\n/);
  const named = await buildContext({
    cwd: root,
    inline: { files: ["top.md", "clone/in.md"] },
  }, { write: false });
  assert.equal(named.manifest.files.find((f) => f.path === "clone/in.md")?.status, "rendered");
});

Deno.test("a submodule not checked out (a clone made without --recurse-submodules) says so, not to name files it lacks", async () => {
  const inner = await makeProject({ "in.md": "inner\n" });
  await gitInit(inner);
  const origin = await makeProject({ "top.md": "top\n" });
  await git(origin, "init", "-q", "-b", "main");
  await git(origin, "-c", "protocol.file.allow=always", "submodule", "-q", "add", inner, "lib/sub");
  await git(origin, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qam", "sub");
  const root = await tempDir({ dir: origin, prefix: "clone_" });
  await git(root, "clone", "-q", origin, ".");
  const result = await buildContext({ cwd: root }, { write: false });
  const row = result.manifest.files.find((f) => f.path === "lib/sub");
  assert.equal(row?.status, "skipped");
  assert.equal(
    row?.reason,
    'a submodule not checked out (its folder is empty): run "git submodule update --init" to ' +
      'check it out, then name its files by path in "files" to include them',
  );
});

const STORE =
  "a git directory (a bare repository, or a .git folder copied or moved aside): git's " +
  'store of objects, refs and config, not the project\'s files; name them by path in "files" ' +
  "to include them";

Deno.test("a git directory inside the project (a bare repository, a .git moved aside) is one skipped folder: untracked, tracked, outside git", async () => {
  const source = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(source);
  // The remote's credentials in its config: what a checkout's `.git/config` may hold.
  await git(source, "remote", "add", "origin", "https://ci:s3cr3t-pass-word@example.com/x.git");
  for (const mode of ["untracked", "tracked", "walk"]) {
    const root = await makeProject({ "top.md": "top\n", "store/HEAD": "not git's\n" });
    if (mode === "untracked") await gitInit(root);
    await git(root, "clone", "-q", "--bare", source, join(root, "backup.git"));
    await copyTree(join(source, ".git"), join(root, "old.git.bak"));
    if (mode === "tracked") await gitInit(root);
    const result = await buildContext({ cwd: root }, { write: false });
    const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
    const paths = ["backup.git", "old.git.bak", "store/HEAD", "top.md"];
    assert.deepEqual([...rows.keys()].sort(), paths, mode);
    for (const path of ["backup.git", "old.git.bak"]) {
      assert.equal(rows.get(path)?.status, "skipped", mode);
      assert.equal(rows.get(path)?.reason, STORE);
    }
    assert.doesNotMatch(result.document, /example\.com|\[core\]|hooks/, mode);
  }
});

/** A copy of the folder `from` at `to` (files and folders). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}
