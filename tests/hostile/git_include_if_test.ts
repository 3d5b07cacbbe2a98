import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { followsIncludeIf } from "../../pipeline/_git_include_if.ts";
import { gitListing } from "../../pipeline/_git.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

/**
 * git opens the file an `[includeIf "…"]` section names only when its condition holds. slop
 * looks at the files git opens before it runs git (a FIFO there holds git for good): it counted
 * every `includeIf`, so a FIFO named for another folder (`gitdir:~/work/`) or another branch
 * stopped every git call of a project git reads without it.
 */
Deno.test("an includeIf is followed as git follows it: gitdir, gitdir/i, onbranch, and no other condition", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  await git(root, "checkout", "-q", "-b", "feature/x");
  const probe = join(root, "probe.cfg");
  await Deno.writeTextFile(probe, "[slop]\n\tprobe = 1\n");
  const config = join(root, ".git", "config");
  const plain = await Deno.readTextFile(config);
  const name = basename(root);
  const conditions = [
    `gitdir:${root}/.git`,
    `gitdir:${root}/`,
    `gitdir:${root}`,
    `gitdir:${root}/*`,
    `gitdir:${name}/.git`,
    `gitdir:${name}/`,
    `gitdir:**/${name}/**`,
    `gitdir:/nowhere/`,
    `gitdir:~/nowhere/`,
    `gitdir:./`,
    `gitdir:./../`,
    `gitdir/i:${root.toUpperCase()}/`,
    `gitdir:${root.toUpperCase()}/`,
    `gitdir:${root}/.gi?`,
    `gitdir:${root}/.[g]it`,
    `gitdir:${root}/.[!g]it`,
    "onbranch:feature/x",
    "onbranch:feature/",
    "onbranch:feature/*",
    "onbranch:feat*",
    "onbranch:main",
    "nosuchcondition:x",
    "gitdir",
  ];
  const differ: string[] = [];
  for (const condition of conditions) {
    const quoted = condition.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    await Deno.writeTextFile(config, `${plain}[includeIf "${quoted}"]\n\tpath = ${probe}\n`);
    const read = await new Deno.Command("git", {
      args: ["config", "--get", "slop.probe"],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).output();
    const ours = followsIncludeIf(condition, {
      gitDir: join(root, ".git"),
      configPath: config,
      home: Deno.env.get("HOME"),
    });
    if (ours !== read.success) differ.push(`${condition}: git ${read.success}, slop ${ours}`);
  }
  assert.deepEqual(differ, []);
});

Deno.test("a FIFO an includeIf names is looked at only when git would open it", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  const fifo = join(root, ".git", "elsewhere.cfg");
  assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
  const config = join(root, ".git", "config");
  const plain = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, `${plain}[includeIf "gitdir:/nowhere/"]\n\tpath = ${fifo}\n`);
  const listing = await gitListing(root);
  assert.ok(listing && "files" in listing, JSON.stringify(listing));
  await Deno.writeTextFile(config, `${plain}[includeIf "gitdir:${root}/"]\n\tpath = ${fifo}\n`);
  const refused = await gitListing(root);
  assert.ok(refused && "refused" in refused, JSON.stringify(refused));
  assert.match(
    refused.refused,
    /elsewhere\.cfg" \(an include of ".*config"\) is a FIFO or a socket/,
  );
});
