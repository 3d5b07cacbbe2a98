import assert from "node:assert/strict";
import { join } from "node:path";
import { build, buildContext, defaultPlugins, loadConfig } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { rankInputs } from "../../cli/rank.ts";
import { gitListing } from "../../pipeline/_git.ts";
import { changedSince, SinceError } from "../../pipeline/since.ts";
import { changeCounts } from "../../pipeline/budget.ts";
import { firstParentLog } from "../../pipeline/_git_history.ts";
import { git, gitInit, makeProject, REPO, runCliShared, tempDir, V8_FLAGS } from "../_helpers.ts";

/** The files and warnings of `slop build --stdout --json` in `cwd` with `env`. */
async function listed(cwd: string, env: Record<string, string> = {}) {
  const run = await runCliShared(["build", "--stdout", "--json", "--no-cache"], cwd, env);
  assert.equal(run.code, 0, run.stderr);
  const { manifest } = JSON.parse(run.stdout);
  return {
    files: manifest.files.map((f: { path: string; status: string }) => `${f.path}:${f.status}`),
    warnings: manifest.warnings as string[],
    stderr: run.stderr,
  };
}

Deno.test("a hook's GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE do not send slop's git to another repository", async () => {
  // The hook's repository: what a husky pre-commit (or a worktree's hook) exports points here.
  const hook = await makeProject({ "hook_only.ts": "h\n", "sub/local.txt": "hook's\n" });
  await gitInit(hook);
  // The project: `local.txt` is ignored by its own .git/info/exclude, which only its git reads.
  const root = await makeProject({ "a.ts": "a\n", "sub/b.ts": "b\n", "sub/local.txt": "mine\n" });
  await gitInit(root);
  await git(root, "rm", "-q", "--cached", "sub/local.txt");
  await Deno.writeTextFile(join(root, ".git", "info", "exclude"), "local.txt\n");
  const hookDir = join(hook, ".git");
  const envs: Record<string, string>[] = [
    { GIT_DIR: hookDir },
    { GIT_WORK_TREE: hook },
    { GIT_INDEX_FILE: join(hookDir, "index") },
    { GIT_DIR: hookDir, GIT_WORK_TREE: hook, GIT_INDEX_FILE: join(hookDir, "index") },
  ];
  // One process sets each in turn (this one's environment is shared with tests running alongside).
  const code = `import { gitFiles } from ${
    JSON.stringify(new URL("../../pipeline/_git.ts", import.meta.url).href)
  };\nconst out = [];\nfor (const env of ${JSON.stringify(envs)}) {
    for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]) Deno.env.delete(name);
    for (const [name, value] of Object.entries(env)) Deno.env.set(name, value);
    out.push((await gitFiles(Deno.cwd()))?.sort());
  }\nconsole.log(JSON.stringify(out));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: root,
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  const answers = JSON.parse(new TextDecoder().decode(out.stdout));
  envs.forEach((env, i) => {
    assert.deepEqual(answers[i], ["a.ts", "sub/b.ts"], JSON.stringify(env));
  });
  // The whole build, from a subfolder of the project (a monorepo package), in the hook's setting.
  const run = await listed(join(root, "sub"), envs[3]);
  assert.deepEqual(run.files, ["b.ts:rendered"]);
  assert.deepEqual(run.warnings, []);
});
const REFUSED =
  /^git cannot list the files \((.+)\): slop lists them itself by the \.gitignore files, and orders them without git's history$/;

Deno.test("a .git that git cannot read is one warning naming git's reason, and the files are listed by the .gitignore files", async () => {
  const tree = { "a.ts": "a\n", ".gitignore": "*.log\n", "x.log": "log\n" };
  const broken = async (damage: (root: string) => Promise<void>) => {
    const root = await makeProject(tree);
    await gitInit(root);
    await damage(root);
    return root;
  };
  const cases: [string, string, RegExp][] = [
    [
      "corrupt index",
      await broken((r) => Deno.writeFile(join(r, ".git", "index"), new Uint8Array(64).fill(7))),
      /index file corrupt/,
    ],
    [
      ".git file naming nowhere",
      await broken(async (r) => {
        await Deno.remove(join(r, ".git"), { recursive: true });
        await Deno.writeTextFile(join(r, ".git"), "gitdir: /nonexistent/slop/wt\n");
      }),
      /not a git repository/,
    ],
    [
      "an include of a FIFO in .git/config",
      await broken(async (r) => {
        // git opens each config file as it starts: this held every git call for good.
        const fifo = join(r, ".git", "shared.cfg");
        await new Deno.Command("mkfifo", { args: [fifo] }).output();
        await Deno.writeTextFile(join(r, ".git", "config"), `[include]\n\tpath = shared.cfg\n`, {
          append: true,
        });
      }),
      /config file ".*shared\.cfg" \(an include of ".*config"\) is a FIFO or a socket/,
    ],
    [
      "a FIFO .git/packed-refs",
      await broken(async (r) => {
        await new Deno.Command("mkfifo", { args: [join(r, ".git", "packed-refs")] }).output();
      }),
      /file ".*packed-refs" is a FIFO or a socket/,
    ],
  ];
  if (Deno.uid() === 0) {
    // Another user's repository (git's "dubious ownership"), where the tests run as root.
    const other = await broken(async () => {});
    await new Deno.Command("chown", { args: ["-R", "65534", other] }).output();
    cases.push(["another user's", other, /dubious ownership.*safe\.directory/]);
  }
  for (const [name, root, reason] of cases) {
    const listing = await gitListing(root);
    assert.ok(listing && "refused" in listing, `${name}: ${JSON.stringify(listing)}`);
    assert.match(listing.refused, REFUSED, name);
    assert.match(listing.refused.match(REFUSED)![1], reason, name);
    const result = await buildContext({ cwd: root }, { write: false });
    assert.deepEqual(result.manifest.files.map((f) => f.path), [".gitignore", "a.ts"], name);
    assert.deepEqual(result.warnings, [listing.refused], name);
    // A budget and a task read the history too: git's reason is no config of its to correct.
    for (const inline of [{ budget: { tokens: 600 } }, { task: "fix a" }]) {
      const read = await buildContext({ cwd: root, inline }, { write: false });
      assert.deepEqual(read.warnings, [listing.refused], `${name}: ${JSON.stringify(inline)}`);
    }
    // `slop rank` says it too (it ranked from the walk without a word).
    const heard: string[] = [];
    await rankInputs(await loadConfig({ cwd: root }), { onWarning: (w) => heard.push(w) });
    assert.deepEqual(heard, [listing.refused], name);
  }
  // No git on PATH: the same warning, once, in the build's output.
  const run = await listed(cases[0][1], { PATH: "/nonexistent" });
  assert.deepEqual(run.files, [".gitignore:rendered", "a.ts:rendered"]);
  assert.equal(run.warnings.length, 1);
  assert.match(run.warnings[0].match(REFUSED)?.[1] ?? "", /git is not installed/);
});

Deno.test("a project folder inside a git directory (a bare repository, .git) is an error, not a bundle of git's store", async () => {
  const work = await makeProject({ "a.ts": "a\n" });
  await gitInit(work);
  const bare = join(await makeProject({}), "app.git");
  await git(work, "clone", "-q", "--bare", work, bare);
  for (const dir of [bare, join(bare, "refs"), join(work, ".git"), join(work, ".git", "objects")]) {
    await assert.rejects(
      () => gitListing(dir),
      /^Error: The project folder ".+" is inside the git directory ".+" \(a bare repository or a \.git folder\), which holds git's store, not the project's files: run slop in a work tree/,
      dir,
    );
  }
  const run = await runCliShared(["build", "--stdout"], bare);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  assert.match(run.stderr, /^slop: The project folder .* is inside the git directory/);
  // A work tree's own folders are not git directories.
  const listing = await gitListing(work);
  assert.ok(listing && "files" in listing, JSON.stringify(listing));
});

Deno.test("--since in a repository git cannot read, or a shallow clone, names the cause and what to do", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "a.ts"), "a2\n");
  await git(root, "commit", "-qam", "two");
  const shallow = join(await makeProject({}), "shallow");
  await git(root, "clone", "-q", "--depth", "1", `file://${root}`, shallow);
  await assert.rejects(
    () => changedSince(shallow, "HEAD~1"),
    new SinceError(
      'Unknown git revision "HEAD~1" for --since: the clone is shallow, "git fetch ' +
        '--unshallow" (or --deepen <n>) brings its history',
    ),
  );
  assert.deepEqual(await changedSince(root, "HEAD~1"), ["a.ts"]);
  // `--since master` (copied from a page) where the branch is `main`: the branches are named.
  await assert.rejects(
    () => changedSince(root, "master"),
    new SinceError('Unknown git revision "master" for --since (branches here: main)'),
  );
  await assert.rejects(
    () => changedSince(shallow, "trunk"),
    /for --since: the clone is shallow/,
  );
  // A ref to a tree or a file's blob (a tag of one): named so, not a damaged repository; a
  // commit found by its message (`:/two`) is the commit.
  await git(root, "tag", "tree-tag", "HEAD^{tree}");
  for (
    const [ref, kind] of [["HEAD^{tree}", "tree"], ["tree-tag", "tree"], ["HEAD:a.ts", "blob"]]
  ) {
    await assert.rejects(
      () => changedSince(root, ref),
      new SinceError(
        `Invalid --since "${ref}": it names a ${kind}, not a commit; name a branch, a tag or a ` +
          "commit (HEAD~1)",
      ),
    );
  }
  // A ref git refuses for a reason of its own (a branch with no upstream, a detached HEAD's
  // `@{u}`): git's reason, not a damaged repository to "git fsck".
  await assert.rejects(
    () => changedSince(root, "@{u}"),
    new SinceError(`Invalid --since "@{u}": no upstream configured for branch 'main'`),
  );
  await assert.rejects(
    () => changedSince(root, "nob@{u}"),
    new SinceError(`Invalid --since "nob@{u}": no such branch: 'nob'`),
  );
  await Deno.writeTextFile(join(root, "a.ts"), "a3\n");
  assert.deepEqual(await changedSince(root, ":/two"), ["a.ts"]);
  await git(root, "checkout", "-q", "a.ts");
  // A fresh repository: no ref names a commit, HEAD included.
  const fresh = await makeProject({ "a.ts": "a\n" });
  await git(fresh, "init", "-q");
  await assert.rejects(
    () => changedSince(fresh, "HEAD"),
    new SinceError(
      'Unknown git revision "HEAD" for --since: HEAD names no commit yet (a new repository or ' +
        "an orphan branch): commit once, or build without --since",
    ),
  );
  // A .git file naming nowhere: git's reason, not "not inside a git work tree".
  const moved = await makeProject({ "a.ts": "a\n", ".git": "gitdir: /nonexistent/slop/wt\n" });
  await assert.rejects(
    () => changedSince(moved, "HEAD"),
    /^SinceError: Cannot use --since "HEAD": git cannot read the repository \(not a git repository: \/nonexistent\/slop\/wt\)$/,
  );
  // A commit whose object is damaged (a disk error, a copy cut short): git's reason, not "names
  // no commit yet" (which told to commit once).
  const broken = await makeProject({ "a.ts": "a\n" });
  await gitInit(broken);
  await Deno.writeTextFile(join(broken, "a.ts"), "a2\n");
  await git(broken, "commit", "-qam", "two");
  const head = (await git(broken, "rev-parse", "HEAD")).trim();
  const object = join(broken, ".git", "objects", head.slice(0, 2), head.slice(2));
  await Deno.chmod(object, 0o644);
  await Deno.writeTextFile(object, "garbage\n");
  for (const ref of ["HEAD~1", "HEAD"]) {
    await assert.rejects(
      () => changedSince(broken, ref),
      new RegExp(
        `^SinceError: Cannot use --since "${ref}": git cannot read the ` +
          `repository \\(loose object ${head} \\(stored in .*\\) is corrupt\\): "git fsck" ` +
          "names what is damaged$",
      ),
    );
  }
  await Deno.writeFile(join(root, ".git", "index"), new Uint8Array(64).fill(7));
  await assert.rejects(
    () => changedSince(root, "HEAD~1"),
    /^SinceError: Cannot list the files changed since "HEAD~1" with git \(index file corrupt\)$/,
  );
});

Deno.test("a partial clone whose remote is out of reach counts and lists changes as a full clone does", async () => {
  // A rename with an edit: git's rename detection compares the two files' contents, which a
  // --filter=blob:none clone fetches when asked (or fails to: its remote is gone, offline).
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i} of a text that stays alike\n`);
  const source = await makeProject({ "old.txt": lines.join(""), "b.txt": "b\n" });
  await gitInit(source);
  await git(source, "mv", "old.txt", "new.txt");
  await Deno.writeTextFile(join(source, "new.txt"), lines.join("") + "edited\n");
  await git(source, "commit", "-qam", "rename with an edit");
  await Deno.writeTextFile(join(source, "b.txt"), "b2\n");
  await git(source, "commit", "-qam", "b");
  await git(source, "config", "uploadpack.allowFilter", "true");
  const partial = join(await makeProject({}), "partial");
  await git(source, "clone", "-q", "--filter=blob:none", `file://${source}`, partial);
  const counts = await changeCounts(source);
  // Moved into a folder the test module removes when it ends.
  await Deno.rename(source, join(await tempDir(), "gone"));
  assert.deepEqual(await changeCounts(partial), counts);
  assert.deepEqual([counts.get("new.txt"), counts.get("b.txt")], [1, 2]);
  assert.deepEqual(await changedSince(partial, "HEAD~2"), ["b.txt", "new.txt"]);
});

Deno.test("the budget's change counts name files git quotes (a quote, a backslash, a tab, a newline) as they are", async () => {
  const names = ['a"b.py', "back\\slash.py", "tab\tc.py", "new\nline.py", "ü.py", "plain.py"];
  const root = await makeProject(Object.fromEntries(names.map((n) => [n, "1\n"])));
  await gitInit(root);
  for (const name of names) await Deno.writeTextFile(join(root, name), "2\n");
  await git(root, "commit", "-qam", "two");
  const counts = await changeCounts(root);
  assert.deepEqual(names.map((n) => counts.get(n)), names.map(() => 2));
  assert.equal(counts.size, names.length);
});

Deno.test("a git older than 2.31 (no --diff-merges) reads the same first-parent history, merges included", async () => {
  const root = await makeProject({ "a.ts": "a\n", "b.ts": "b\n" });
  await gitInit(root);
  await git(root, "checkout", "-q", "-b", "side");
  await Deno.writeTextFile(join(root, "b.ts"), "b2\n");
  await git(root, "commit", "-qam", "side");
  await git(root, "checkout", "-q", "main");
  await Deno.writeTextFile(join(root, "a.ts"), "a2\n");
  await git(root, "commit", "-qam", "main");
  await git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side");
  const expected = await firstParentLog(root, 10, "HEAD", { messages: true });
  assert.deepEqual(expected?.map((c) => c.paths), [["b.ts"], ["a.ts"], ["a.ts", "b.ts"]]);
  // A git that refuses --diff-merges as git 2.30 and older do, the real one behind it.
  const real = (await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" })
    .output()).stdout;
  const bin = await makeProject({
    "git": `#!/bin/sh\nfor a in "$@"; do case "$a" in --diff-merges*)\n` +
      `  echo "fatal: unrecognized argument: $a" >&2; exit 128;; esac; done\n` +
      `exec ${new TextDecoder().decode(real).trim()} "$@"\n`,
  });
  await Deno.chmod(join(bin, "git"), 0o755);
  const code = `import { firstParentLog } from ${
    JSON.stringify(new URL("../../pipeline/_git_history.ts", import.meta.url).href)
  };\nconsole.log(JSON.stringify(await firstParentLog(Deno.cwd(), 10, "HEAD", { messages: true })));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: root,
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), expected);
});

Deno.test("a user's git config that changes what git log prints (log.showSignature, i18n.logOutputEncoding, log.showRoot) changes no count, path or message", async () => {
  const root = await makeProject({ "a.py": "a\n" });
  await gitInit(root);
  // A signed commit (an SSH key, as GitHub's web merges are signed), checked on every log.
  const key = join(root, ".git", "signing-key");
  const keygen = ["-q", "-t", "ed25519", "-N", "", "-C", "slop", "-f", key];
  assert.ok((await new Deno.Command("ssh-keygen", { args: keygen }).output()).success);
  const allowed = join(root, ".git", "allowed-signers");
  await Deno.writeTextFile(
    allowed,
    `slop@example.invalid ${await Deno.readTextFile(`${key}.pub`)}`,
  );
  for (const [name, value] of [["gpg.format", "ssh"], ["user.signingkey", key]]) {
    await git(root, "config", name, value);
  }
  await git(root, "config", "gpg.ssh.allowedSignersFile", allowed);
  await Deno.writeTextFile(join(root, "a.py"), "a2\n");
  await git(root, "commit", "-S", "-qam", "réparer le délai");
  const counts = await changeCounts(root);
  const log = await firstParentLog(root, 10, "HEAD", { messages: true });
  assert.deepEqual([...counts], [["a.py", 2]]);
  assert.deepEqual(log?.map((c) => [c.message, c.paths]), [
    ["réparer le délai", ["a.py"]],
    ["init", ["a.py"]],
  ]);
  await git(root, "config", "log.showSignature", "true");
  await git(root, "config", "i18n.logOutputEncoding", "ISO-8859-1");
  await git(root, "config", "log.showRoot", "false");
  assert.match(await git(root, "log", "-1"), /Good "git" signature/);
  assert.deepEqual([...await changeCounts(root)], [...counts]);
  assert.deepEqual(await firstParentLog(root, 10, "HEAD", { messages: true }), log);
});

Deno.test("a core.fsmonitor hook is never run by slop's git (one that hangs held every git call)", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "b.md": "b\n",
    ".gitattributes": "*.md -diff\n",
  });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "new.ts"), "n\n");
  // The hook notes each call, then answers nothing useful (a watchman that is not running).
  const calls = join(root, ".git", "fsmonitor-calls");
  const hook = join(root, ".git", "fsmonitor-hook");
  await Deno.writeTextFile(hook, `#!/bin/sh\necho called >> "${calls}"\nexit 1\n`);
  await Deno.chmod(hook, 0o755);
  await git(root, "config", "core.fsmonitor", hook);
  await git(root, "status", "--short");
  assert.ok(await Deno.stat(calls), "git itself calls the hook");
  await Deno.remove(calls);
  const run = await listed(root);
  assert.deepEqual(run.files, [
    ".gitattributes:rendered",
    "a.ts:rendered",
    "b.md:skipped",
    "new.ts:rendered",
  ]);
  assert.deepEqual(await changedSince(root, "HEAD"), ["new.ts"]);
  await assert.rejects(() => Deno.stat(calls), Deno.errors.NotFound);
});

Deno.test("a folder git cannot open is listed with git's cause in place of its untracked files, and a tracked file no look reaches is listed with why", async () => {
  const root = await makeProject({ "a.ts": "a\n", "app/lo'ck ed/t.ts": "t\n", "app/b.ts": "b\n" });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "app/lo'ck ed/new.ts"), "n\n"); // untracked
  // As root no permission bit stops git: a git in front of the real one adds the warning git
  // writes for a folder its user may not list (its name as it is, from the work tree's top).
  const bin = await tempDir();
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" }).output())
      .stdout,
  ).trim();
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh\n"${real}" "$@"; code=$?\ncase "$*" in *exclude-standard*) echo ` +
      `"warning: could not open directory 'app/lo'ck ed/': Permission denied" >&2;; esac\nexit $code\n`,
  );
  await Deno.chmod(join(bin, "git"), 0o755);
  // That git on the PATH of a process of its own: this one's environment is shared with the test
  // files running alongside, whose git would add the warning too.
  const cases = [[root, "app/lo'ck ed"], [join(root, "app"), "lo'ck ed"]];
  const code = `import { buildContext } from ${
    JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
  };
const out = [];
for (const [cwd, folder] of ${JSON.stringify(cases)}) {
  const { manifest } = await buildContext({ cwd }, { write: false });
  const row = manifest.files.find((f) => f.path === folder);
  out.push([row?.status, row?.reason, manifest.files.some((f) => f.path === folder + "/t.ts")]);
}
console.log(JSON.stringify(out));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: REPO, // this process's working folder may be another test's for a moment
    env: { PATH: `${bin}:${Deno.env.get("PATH") ?? ""}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const reason = "a folder git cannot list (Permission denied): its untracked files are left out";
  // The tracked file: git lists it.
  const rows = JSON.parse(new TextDecoder().decode(out.stdout));
  cases.forEach(([cwd], i) => assert.deepEqual(rows[i], ["skipped", reason, true], cwd));
  // A tracked file whose folder became a link to itself: listed with why, not dropped.
  await Deno.remove(join(root, "app"), { recursive: true });
  await Deno.symlink("app", join(root, "app"));
  const { manifest } = await buildContext({ cwd: root }, { write: false });
  const row = manifest.files.find((f) => f.path === "app/b.ts");
  assert.equal(row?.status, "error");
  assert.match(row?.reason ?? "", /symbolic links/);
});

Deno.test("a git that ignores SIGTERM and never answers is still stopped at its deadline or when the caller gives up", async () => {
  const root = await makeProject({ "a.py": "a\n" });
  const bin = await makeProject({
    // A wrapper in git's place: deaf to SIGTERM, silent forever (a hook or a FIFO it waits on).
    "git": "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.2; done\n",
  });
  await Deno.chmod(join(bin, "git"), 0o755);
  const code =
    `import { gitOutput, TIMED_OUT } from ${
      JSON.stringify(new URL("../../pipeline/_git.ts", import.meta.url).href)
    };\nconst late = await gitOutput(["status"], Deno.cwd(), { deadlineMs: 200 });\n` +
    `const stop = new AbortController();\nsetTimeout(() => stop.abort(), 200);\n` +
    `const given = await gitOutput(["status"], Deno.cwd(), { signal: stop.signal });\n` +
    `console.log(JSON.stringify([late === TIMED_OUT, given === TIMED_OUT]));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: root,
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [true, true]);
});

Deno.test("a value git refuses in its config (it fails every git log, not the listing) gives each build that reads the history (a first order, a budget, a task) one warning naming the key, not a silent order without history", async () => {
  const root = await makeProject({ "a.py": "x = 1\n".repeat(200), "b.py": "y = 2\n".repeat(200) });
  await gitInit(root);
  const inline = { budget: { tokens: 600 } };
  const plain = await buildContext({ cwd: root, inline }, { write: false });
  assert.deepEqual(plain.manifest.warnings.filter((w) => w.includes("history")), []);
  await git(root, "config", "color.diff.new", "notacolor");
  const built = await buildContext({ cwd: root, inline }, { write: false });
  const history = built.manifest.warnings.filter((w) => w.includes("history"));
  assert.equal(history.length, 1, history.join("\n"));
  assert.match(
    history[0],
    /^git cannot read the history \(bad config variable 'color\.diff\.new' in file '\.git\/config' at line \d+\): the build goes without it \(a first order by sizes, a budget without change counts, a task without co-change and commit messages\); correct the value in git's config$/,
  );
  // A task build reads the history for its ranking, and the first build for its first order:
  // the same word, once (a budget build read it for its order and its counts above).
  const task = await buildContext({ cwd: root, inline: { task: "fix a" } }, { write: false });
  assert.deepEqual(task.manifest.warnings.filter((w) => w.includes("history")), history);
  // (The builds above remembered an order: forget it, as before a first build.)
  await Deno.remove(join(root, ".slop"), { recursive: true });
  const first = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(first.manifest.warnings.filter((w) => w.includes("history")), history);
  // The build server's first build too (its order keeps what it wrote in memory).
  await Deno.remove(join(root, ".slop"), { recursive: true });
  const server = resident();
  const layer = speedLayer({ resident: server });
  const served = await build(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    layer,
    write: false,
  });
  assert.deepEqual(served.manifest.warnings.filter((w) => w.includes("history")), history);
  // The server writes its state in a quiet moment after the build: closed, it has written it.
  await server.close();
  await Deno.remove(join(root, ".slop"), { recursive: true });
  const both = await buildContext({ cwd: root, inline }, { write: false });
  assert.deepEqual(both.manifest.warnings.filter((w) => w.includes("history")), history);
  // `slop rank` reads the history for the same signals as a task build: the same word (in a
  // process of its own: this one's console is shared with the test files running alongside).
  const ranked = await runCliShared(["rank", "--task", "fix a", "--json"], root);
  assert.equal(ranked.code, 0, ranked.stderr);
  const said = ranked.stderr.split("\n");
  assert.deepEqual(said.filter((l) => l.includes("history")), [`warning: ${history[0]}`]);
  // A build that remembers an order reads no history next time: no word.
  await buildContext({ cwd: root }, {});
  const next = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(next.manifest.warnings.filter((w) => w.includes("history")), []);
  // A repository with no commit yet fails its log too, for no fault of its config: no warning.
  const fresh = await makeProject({ "a.py": "x = 1\n".repeat(200) });
  await git(fresh, "init", "-q");
  const warned: string[] = [];
  assert.equal((await changeCounts(fresh, 200, { warn: (m) => warned.push(m) })).size, 0);
  assert.deepEqual(warned, []);
});

Deno.test("GIT_CEILING_DIRECTORIES stops the look for a work tree above the project as it stops git's", async () => {
  const top = await makeProject({ "pkg/deep/a.py": "x = 1\n" });
  await gitInit(top);
  const root = join(top, "pkg", "deep");
  const ceilings = ["", top, join(top, "pkg"), root, `/nowhere:${join(top, "pkg")}`];
  // One process sets each in turn; git itself, asked in the same setting, is the oracle.
  const code = `import { gitFolders } from ${
    JSON.stringify(new URL("../../pipeline/git_folders.ts", import.meta.url).href)
  };\nconst out = [];\nfor (const ceiling of ${JSON.stringify(ceilings)}) {
    Deno.env.set("GIT_CEILING_DIRECTORIES", ceiling);
    const git = new Deno.Command("git", { args: ["rev-parse", "--show-toplevel"], stdout: "piped", stderr: "null" }).outputSync();
    out.push([gitFolders(Deno.cwd()).top ?? null, git.success ? new TextDecoder().decode(git.stdout).trim() : null]);
  }\nconsole.log(JSON.stringify(out));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: root,
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  const answers: Array<[string | null, string | null]> = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  ceilings.forEach((ceiling, i) => {
    const [slop, git] = answers[i];
    assert.equal(slop, git, `GIT_CEILING_DIRECTORIES=${ceiling}`);
  });
  assert.deepEqual(answers.map(([, git]) => git !== null), [true, false, false, true, false]);
});

Deno.test("a .git file whose commondir is a FIFO or a link to /dev/zero (an unpacked tree's) is read no further than a line", async () => {
  // `commondir` was read whole by `Deno.readTextFileSync`: the link took memory until the process
  // was killed (21 GB in a minute), the FIFO held the build for good. Both are a folder's
  // `commondir` that is none: the git folder named is the common one.
  const root = await makeProject({ "a.py": "x = 1\n", ".git": "gitdir: g\n", "h/x": "" });
  await Deno.mkdir(join(root, "g"));
  await new Deno.Command("mkfifo", { args: [join(root, "g", "commondir")] }).output();
  await Deno.writeTextFile(join(root, "h", ".git"), "gitdir: ../g2\n");
  await Deno.mkdir(join(root, "g2"));
  await Deno.symlink("/dev/zero", join(root, "g2", "commondir"));
  const code = `import { gitFolders } from ${JSON.stringify(`${REPO}/pipeline/git_folders.ts`)};
console.log(JSON.stringify([gitFolders(Deno.args[0]), gitFolders(Deno.args[0] + "/h")]));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code, root],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Bounded: the old read never came back.
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output();
  clearTimeout(guard);
  assert.ok(out.success, "gitFolders() did not return: " + new TextDecoder().decode(out.stderr));
  const [top, sub] = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(top, { gitDir: join(root, "g"), commonDir: join(root, "g"), outside: true });
  assert.deepEqual(sub, {
    gitDir: join(root, "g2"),
    commonDir: join(root, "g2"),
    outside: true,
  });
  await Deno.remove(root, { recursive: true });
});

Deno.test("git's config files made /dev/null (git run without the user's settings) are no FIFO: git lists the files", async () => {
  const root = await makeProject({ "a.ts": "a\n", ".gitignore": "*.log\n", "x.log": "log\n" });
  await gitInit(root);
  const run = await listed(root, {
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_SYSTEM: "/dev/null",
  });
  assert.deepEqual(run.warnings, []);
  assert.deepEqual(run.files, [".gitignore:rendered", "a.ts:rendered"]);
});
