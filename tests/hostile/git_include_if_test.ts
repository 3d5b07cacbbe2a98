import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { followsIncludeIf } from "../../pipeline/_git_include_if.ts";
import { gitListing } from "../../pipeline/_git.ts";
import { gitConfigStamp } from "../../pipeline/_git_wait_files.ts";
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

/**
 * In a new repository with a FIFO at `.git/<name>` and `extra` in its config: git runs under the
 * `[includeIf "<closed>"]` that names the FIFO (git does not open it), and is refused, naming the
 * FIFO, under `[includeIf "<open>"]`.
 */
async function fifoInclude(name: string, closed: string, open: string, extra = "") {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  const fifo = join(root, ".git", name);
  assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
  const config = join(root, ".git", "config");
  const plain = `${await Deno.readTextFile(config)}${extra}`;
  const include = (condition: string) =>
    `${plain}[includeIf "${condition.replace("{root}", root)}"]\n\tpath = ${fifo}\n`;
  await Deno.writeTextFile(config, include(closed));
  const listing = await gitListing(root);
  assert.ok(listing && "files" in listing, JSON.stringify(listing));
  await Deno.writeTextFile(config, include(open));
  const refused = await gitListing(root);
  assert.ok(refused && "refused" in refused, JSON.stringify(refused));
  const named = name.replace(".", "\\.");
  assert.match(
    refused.refused,
    new RegExp(`${named}" \\(an include of ".*config"\\) is a FIFO or a socket`),
  );
}

Deno.test("a FIFO an includeIf names is looked at only when git would open it", async () => {
  await fifoInclude("elsewhere.cfg", "gitdir:/nowhere/", "gitdir:{root}/");
});

/**
 * For each config text `tails(opened)` gives (added to a new repository's config): where slop's
 * look at the files git opens (the config stamp) and git differ on `.git/opened.cfg`. A folder
 * there fails git's read of its config (`unable to access …: Is a directory`) when, and only when,
 * git opens it.
 */
async function opensDiffer(tails: (opened: string) => string[]): Promise<string[]> {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  const opened = join(root, ".git", "opened.cfg");
  await Deno.mkdir(opened);
  const config = join(root, ".git", "config");
  const plain = await Deno.readTextFile(config);
  const differ: string[] = [];
  for (const tail of tails(opened)) {
    await Deno.writeTextFile(config, `${plain}${tail}`);
    const ours = gitConfigStamp(root).split("\0").some((s) => s.startsWith(`${opened}:`));
    const read = await new Deno.Command("git", {
      args: ["config", "--get", "core.bare"],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).output();
    const git = !read.success;
    if (ours !== git) differ.push(`${JSON.stringify(tail)}: git ${git}, slop ${ours}`);
  }
  return differ;
}

/**
 * `[includeIf "hasconfig:remote.*.url:…"]` (git 2.36+): to decide one, git gathers the URLs of
 * every remote, reading the file of each such section whatever its pattern, so a FIFO there holds
 * git even for a pattern no remote matches; `hasconfig:` of any other key is no condition git
 * knows. slop counted every `hasconfig:` as opened (a FIFO named by `hasconfig:remote.*.pushurl:`
 * stopped every git call of a project git reads without it). Its look is compared with git's
 * opens, for each condition, with remotes and without.
 */
Deno.test("an includeIf hasconfig is opened as git opens it: remote.*.url whatever its pattern, no other key", async () => {
  const remote = '[remote "origin"]\n\turl = https://github.com/acme/app.git\n';
  const conditions = [
    "hasconfig:remote.*.url:https://github.com/acme/**",
    "hasconfig:remote.*.url:https://gitlab.com/**",
    "hasconfig:remote.*.url:",
    "hasconfig:remote.*.pushurl:**",
    "hasconfig:remote.origin.url:**",
    "hasconfig:core.bare:false",
    "hasconfig:",
  ];
  const differ = await opensDiffer((opened) =>
    [remote, ""].flatMap((base) =>
      conditions.map((c) => `${base}[includeIf "${c}"]\n\tpath = ${opened}\n`)
    )
  );
  assert.deepEqual(differ, []);
});

/**
 * An include written in each of the ways git reads a config: a comment after the path, quotes and
 * escapes, the section's header on the same line, a line joined by `\`, capitals, the old
 * `[section.sub]` header, a subsection git does not follow (`[include "x"]`). slop read a line at a
 * time by pattern: it looked for a file named `a.cfg # mine` (missing a FIFO at `a.cfg`) and
 * followed `[include "x"]`, which git passes over.
 */
Deno.test("an include is read as git reads it: comments, quotes, escapes, joined lines, headers", async () => {
  const forms = [
    "[include]\n\tpath = opened.cfg # mine\n",
    "[include]\n\tpath = opened.cfg ; mine\n",
    '[include]\n\tpath = "opened.cfg" # mine\n',
    '[include]\n\tpath = "open"ed.cfg  \n',
    "[include]\n\tpath = open\\\ned.cfg\n",
    "[include] path = opened.cfg\n",
    "[INCLUDE]\n\tPATH = opened.cfg\n",
    '[include "x"]\n\tpath = opened.cfg\n',
    "[include.x]\n\tpath = opened.cfg\n",
    "[include]\n\tpaths = opened.cfg\n",
    "[include]\n# path = opened.cfg\n",
    '[includeIf "gitdir:/nowhere/"] path = x.cfg\n[include]\n\tpath = opened.cfg\n',
    '[includeIf "gitdir:/nowhere/"]\n\tpath = opened.cfg\n',
    "[include]\r\n\tpath = opened.cfg\r\n",
  ];
  assert.deepEqual(await opensDiffer(() => forms), []);
});

Deno.test("a FIFO a hasconfig includeIf names is looked at whatever its pattern, and no other key's", async () => {
  await fifoInclude(
    "work.cfg",
    "hasconfig:remote.*.pushurl:https://a.example/**",
    "hasconfig:remote.*.url:https://work.example/**",
    '[remote "origin"]\n\turl = https://a.example/x\n',
  );
});
