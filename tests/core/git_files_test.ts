import assert from "node:assert/strict";
import { join } from "node:path";
import { gitFiles } from "../../pipeline/_git.ts";
import { mayBeInWorkTree } from "../../pipeline/git_folders.ts";
import { git, gitInit, makeProject, tempDir, V8_FLAGS } from "../_helpers.ts";

/** What `gitFiles()` answered before it looked for `.git`: always git's own answer. */
async function askGit(
  root: string,
  env: Record<string, string> = {},
): Promise<string[] | undefined> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: root,
    env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", ...env },
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) return undefined;
  return [...new Set(new TextDecoder().decode(out.stdout).split("\0").filter(Boolean))];
}

const TREE = { "a.ts": "a", "sub/b.ts": "b", ".gitignore": "*.log\n", "x.log": "log" };

Deno.test("gitFiles() lists what git lists in a repository and in a folder under it", async () => {
  const root = await makeProject(TREE);
  await gitInit(root);
  await Deno.writeTextFile(join(root, "sub", "new.ts"), "untracked");
  for (const dir of [root, join(root, "sub")]) {
    assert.ok(mayBeInWorkTree(dir));
    const files = await gitFiles(dir);
    assert.deepEqual(files, await askGit(dir));
    assert.ok(files?.includes(dir === root ? "sub/new.ts" : "new.ts"), String(files));
  }
});

Deno.test("gitFiles() lists a worktree's files (its .git is a file)", async () => {
  const root = await makeProject(TREE);
  await gitInit(root);
  const tree = join(await tempDir({ prefix: "slop_test_" }), "tree");
  await git(root, "worktree", "add", "-q", tree);
  assert.ok((await Deno.lstat(join(tree, ".git"))).isFile);
  const files = await gitFiles(tree);
  assert.deepEqual(files, await askGit(tree));
  assert.deepEqual(files?.sort(), [".gitignore", "a.ts", "sub/b.ts"]);
});

Deno.test("gitFiles() lists files where .git is a file naming the repository elsewhere", async () => {
  const root = await makeProject(TREE);
  const store = join(await tempDir({ prefix: "slop_test_" }), "store.git");
  await git(root, "init", "-q", "--separate-git-dir", store);
  await Deno.writeTextFile(join(root, "sub", "c.ts"), "c");
  assert.match(await Deno.readTextFile(join(root, ".git")), /^gitdir: /);
  const files = await gitFiles(join(root, "sub"));
  assert.deepEqual(files, await askGit(join(root, "sub")));
  assert.deepEqual(files?.sort(), ["b.ts", "c.ts"]);
});

Deno.test("gitFiles() starts no git in a folder no work tree can contain", async () => {
  const root = await makeProject(TREE);
  assert.equal(mayBeInWorkTree(root), false);
  assert.equal(mayBeInWorkTree(join(root, "sub")), false);
  assert.equal(await askGit(root), undefined);
  assert.equal(await gitFiles(root), undefined);
  // A symbolic link into a repository: git sees the repository, and so does the look-up.
  const repo = await makeProject(TREE);
  await gitInit(repo);
  await Deno.symlink(join(repo, "sub"), join(root, "link"));
  assert.ok(mayBeInWorkTree(join(root, "link")));
  assert.deepEqual(await gitFiles(join(root, "link")), ["b.ts"]);
});

Deno.test("gitFiles() finds the repository from the folder, not from a GIT_DIR set around it", async () => {
  const repo = await makeProject(TREE);
  await gitInit(repo);
  const plain = await makeProject({ "a.ts": "other a", "d.ts": "d" });
  const env = { GIT_DIR: join(repo, ".git") };
  // In another process: the environment of this one is shared with tests running alongside.
  const code = `import { gitFiles } from ${
    JSON.stringify(new URL("../../pipeline/_git.ts", import.meta.url).href)
  };\nimport { mayBeInWorkTree } from ${
    JSON.stringify(new URL("../../pipeline/git_folders.ts", import.meta.url).href)
  };\nconsole.log(JSON.stringify([mayBeInWorkTree(Deno.cwd()), (await gitFiles(Deno.cwd()))?.sort()]));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: plain,
    env,
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  // A hook or a tool exports GIT_DIR for its own repository: listing that one's files here (the
  // plain folder as its work tree) named files this folder does not have (`sub/b.ts`).
  const [may, files] = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(may, false);
  assert.equal(files, null);
  assert.ok((await askGit(plain, env))?.includes("sub/b.ts"));
});
