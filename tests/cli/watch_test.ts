import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, makeProject, REPO, tempDir } from "../_helpers.ts";
import { watchOnce, watchOnceWithStderr } from "./_watch.ts";
import { readEvent } from "../../accel/watch_events.ts";
import { ownOutputFiles } from "../../cli/_own_output.ts";
import {
  churnProject,
  coldBuild,
  linkedCheckout,
  linkedListingScript,
  listingSteps,
  OPS,
  scriptedOp as op,
  seeded,
  spawnWatch,
  watchChurn,
} from "./_churn.ts";

Deno.test("slop watch rebuilds after a change and prints the prefix reuse", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: ["src/**"],
  history: [{ role: "User", content: "keep going" }],
};
`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
  });
  assert.equal(lines[0], "slop: built .slop/out/context_001.md; watching for changes");
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: reused \d+ B of \d+ B \(\d+%\), 2 blocks; stable prefix changed$/,
  );
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  let same = 0;
  while (first[same] === second[same]) same++;
  assert.match(lines[1], new RegExp(`reused ${same} B`), "reuse is the common byte prefix");
});

Deno.test("slop watch picks up a file created while it runs (the file list is resolved again)", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(join(root, "src/c.ts"), "export const c = 3;\n");
  });
  assert.match(
    lines[1],
    /^slop: src\/c\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.match(second, /### src\/c\.ts\n\n```ts\nexport const c = 3;\n```/);
});

Deno.test("slop watch drops a file removed while it runs", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.remove(join(root, "src/b.ts"));
  });
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(second, /src\/b\.ts/);
});

Deno.test("slop watch reloads the config when slop.config.ts changes", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/a.ts"] };\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**"] };\n`,
    );
  });
  assert.match(
    lines[1],
    /^slop: slop\.config\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(first, /src\/b\.ts/);
  assert.match(second, /### src\/b\.ts/);
});

Deno.test("slop watch without a config loads one written while it runs, or names one it does not load", async () => {
  // A zero-config watch reloaded nothing: a slop.config.ts written later was ignored until a
  // restart, and so was a slop.config.yaml (which a new `slop build` refuses, naming it).
  const root = await makeProject({ "src/a.ts": "export const a = 1;\n", "b.md": "# b\n" });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**"] };\n`,
    );
  });
  assert.match(lines[1], /^slop: slop\.config\.ts changed: built \.slop\/out\/context_002\.md/);
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(second, /### b\.md/);
  await Deno.remove(join(root, "slop.config.ts"));
  const { stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "slop.config.yaml"), "files: [src/**]\n");
  });
  assert.match(stderr, /Invalid config "slop\.config\.yaml": slop loads only slop\.config\.ts/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("slop watch warns of a config file written beside its config while it runs", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const { stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "slop.config.yaml"), "files: [b.md]\n");
  });
  assert.match(stderr, /"slop\.config\.yaml" beside "slop\.config\.ts" is not loaded/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("slop watch says to restart when a module the config imports is edited", async () => {
  const root = await makeProject({
    "slop.config.ts": `import { files } from "./conf/files.ts";\nexport default { files };\n`,
    "conf/files.ts": `export const files = ["src/**"];\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "conf/files.ts"), `export const files = ["src/a.ts"];\n`);
  });
  assert.match(lines[1], /^slop: conf\/files\.ts changed: built /);
  assert.match(
    stderr,
    /warning: "conf\/files\.ts" is imported by the config and Deno cannot load a module twice: restart slop watch to use the edit/,
  );
});

Deno.test("slop watch does not warn about an edited module the config does not import", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  });
  assert.match(lines[1], /^slop: src\/a\.ts changed: built /);
  assert.doesNotMatch(stderr, /restart slop watch/);
});

const everything = () => true;

Deno.test("readEvent() keeps a modification to the file list", () => {
  assert.deepEqual(readEvent({ kind: "modify", paths: ["/p/a.ts"] }, everything), {
    paths: ["/p/a.ts"],
    structural: false,
  });
});

Deno.test("readEvent() makes creations, removals and renames look at every file", () => {
  for (const kind of ["create", "remove", "rename", "other", "any"] as const) {
    assert.equal(readEvent({ kind, paths: ["/p/a.ts"] }, everything)?.structural, true, kind);
  }
});

Deno.test("readEvent() skips accesses and events on ignored paths only", () => {
  assert.equal(readEvent({ kind: "access", paths: ["/p/a.ts"] }, everything), undefined);
  const outsideState = (path: string) => !path.startsWith("/p/.slop/");
  assert.equal(readEvent({ kind: "modify", paths: ["/p/.slop/x"] }, outsideState), undefined);
  assert.deepEqual(
    readEvent({ kind: "modify", paths: ["/p/.slop/x", "/p/b.ts"] }, outsideState)?.paths,
    ["/p/b.ts"],
  );
});

Deno.test("readEvent() treats lost events (rescan) as structural though they name no file", () => {
  assert.deepEqual(readEvent({ kind: "other", paths: [], flag: "rescan" }, everything), {
    paths: [],
    structural: true,
  });
  assert.equal(
    readEvent({ kind: "access", paths: [], flag: "rescan" }, everything)?.structural,
    true,
  );
});

const KEY = `sk-or-v1-${"ab".repeat(32)}`;

async function until(test: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await test()); waited += 50) {
    if (waited > 60_000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("slop watch > watch.log in the project neither rebuilds on its own lines nor bundles the log", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const command = [Deno.execPath(), "run", "-A", "--quiet", join(REPO, "cli.ts"), "watch"]
    .map((arg) => `'${arg}'`).join(" ");
  const child = new Deno.Command("sh", {
    args: ["-c", `${command} --debounce 50 --max-builds 1 > watch.log 2>&1`],
    cwd: root,
    clearEnv: true,
    env: childEnv(),
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const log = () => Deno.readTextFile(join(root, "watch.log")).catch(() => "");
  // The watcher is on before it says it watches: the edit needs no wait.
  await until(async () => (await log()).includes("watching for changes"), "the first build");
  await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  const status = await child.status;
  clearTimeout(guard);
  const lines = (await log()).trimEnd().split("\n");
  assert.equal(status.code, 0, lines.join("\n"));
  assert.equal(lines[0], "slop: built .slop/out/context_001.md; watching for changes");
  assert.match(lines[1], /^slop: src\/a\.ts changed: built \.slop\/out\/context_002\.md in /);
  for (const name of ["context_001.md", "context_002.md"]) {
    const document = await Deno.readTextFile(join(root, ".slop/out", name));
    assert.ok(document.includes("src/a.ts"), name);
    assert.ok(!document.includes("watch.log"), `${name} bundles the watcher's own log`);
  }
});

Deno.test("slop watch tells a warning once while it stays the same and counts it on the rebuild line", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/keys.ts": `export const KEY = "${KEY}";\n`,
    "src/b.ts": "export const b = 2;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
  });
  const told = stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.deepEqual(told, [
    'warning: Redacted a secret in "src/keys.ts" line 1 (openrouter-key)',
  ]);
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: .*; stable prefix changed; 1 warning as before$/,
  );
});

Deno.test("slop watch tells a warning again once the file that gave it changes it", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/keys.ts": `export const KEY = "${KEY}";\n`,
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/keys.ts"), `\nexport const KEY = "${KEY}";\n`);
  });
  const told = stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.deepEqual(told, [
    'warning: Redacted a secret in "src/keys.ts" line 1 (openrouter-key)',
    'warning: Redacted a secret in "src/keys.ts" line 2 (openrouter-key)',
  ]);
  assert.doesNotMatch(lines[1], /as before/);
});

Deno.test("ownOutputFiles() names the regular files descriptors 1 and 2 link to, once", async () => {
  const dir = await tempDir();
  const log = join(dir, "watch.log");
  await Deno.writeTextFile(log, "");
  const fds = join(dir, "fd");
  await Deno.mkdir(fds);
  await Deno.symlink(log, join(fds, "1"));
  await Deno.symlink(log, join(fds, "2"));
  assert.deepEqual(ownOutputFiles(fds), [log]);
  await Deno.remove(join(fds, "2"));
  await Deno.symlink(dir, join(fds, "2")); // a folder: not a file anything is written to
  assert.deepEqual(ownOutputFiles(fds), [log]);
  await Deno.remove(join(fds, "1"));
  await Deno.symlink("pipe:[12345]", join(fds, "1")); // what Linux shows for a pipe
  assert.deepEqual(ownOutputFiles(fds), []);
  assert.deepEqual(ownOutputFiles(join(dir, "none")), []);
});

/** What `slop watch` prints once it watches a project folder made again. */
const REWATCHED = "slop: the project folder was made again; watching it anew";

/**
 * `slop watch` in `root`: each step's `edit` runs once a line includes its `after` (in turn, no
 * sleep: each line is said once the watcher is on); stopped after a line that includes `last`.
 */
async function watchThrough(
  root: string,
  steps: Array<{ after: string; edit: () => Promise<void> }>,
  last: (line: string) => boolean,
): Promise<string[]> {
  const child = spawnWatch(root, "null");
  // Bounded: the watcher is killed if it has not finished in 60 s (a loaded machine is slow).
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const lines: string[] = [];
  let text = "";
  let step = 0;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const done = text.split("\n").slice(0, -1);
    for (const line of done.slice(lines.length)) {
      lines.push(line);
      if (last(line)) child.kill("SIGINT");
      if (step < steps.length && line.includes(steps[step].after)) await steps[step++].edit();
    }
  }
  await child.status;
  clearTimeout(guard);
  return lines;
}

Deno.test("slop watch follows a project folder removed and made again", async () => {
  const root = await churnProject(3);
  // As the churn's: the watcher may still write its state (the folder is removed again then).
  const remake = () =>
    OPS.find((op) => op.name === "delete and re-create tree")!.run(root, seeded(1), "");
  let edited = false;
  const after = async () => {
    await Deno.writeTextFile(join(root, "src/after.py"), "def after():\n    return 1\n");
    edited = true;
  };
  // The build that holds the edit: on a loaded machine the last of the new folder's files may be
  // seen after it is watched anew, in one batch with the edit ("5 files changed").
  const builtPath = (line: string) => /: built ([^\s;]+)/.exec(line)?.[1];
  const holdsEdit = (line: string) => {
    const built = builtPath(line);
    if (!edited || !built) return false;
    try {
      return Deno.readTextFileSync(join(root, built)).includes("### src/after.py");
    } catch {
      return false; // An older output the retention removed: not the edit's build.
    }
  };
  const lines = await watchThrough(root, [
    { after: "watching for changes", edit: remake },
    { after: REWATCHED, edit: after },
  ], holdsEdit);
  // Watched anew once; the edit in the new folder is built after it.
  assert.equal(lines.filter((l) => l === REWATCHED).length, 1, lines.join("\n"));
  const seen = lines.findIndex(holdsEdit);
  assert.ok(seen > lines.indexOf(REWATCHED), lines.join("\n"));
  const last = await Deno.readTextFile(join(root, builtPath(lines[seen])!));
  const cold = await coldBuild(root);
  assert.equal(last, typeof cold === "string" ? cold : cold.document);
});

// More seeds by hand: CHURN_SEEDS=1-20 TZ=Z deno test -A tests/cli/watch_test.ts
const range = (Deno.env.get("CHURN_SEEDS") ?? "1-1").split("-").map(Number);
const seeds = Array.from({ length: (range[1] ?? range[0]) - range[0] + 1 }, (_, i) => range[0] + i);

Deno.test("slop watch's output equals a cold build after random batches of file changes", async () => {
  for (const seed of seeds) await watchChurn(seed);
});

Deno.test("slop watch sees what git's index, .git/info/exclude and .git/info/attributes change in the file list", async () => {
  const steps = listingSteps((root) => join(root, ".git", "info"));
  await watchChurn(1, {
    script: [
      [steps.ignoreLib],
      [steps.untrackLib],
      [op(
        "exclude docs",
        (root) => Deno.writeTextFile(join(root, ".git/info/exclude"), "docs/\n"),
      )],
      [steps.gitattributes],
      [steps.markBinary],
      [steps.unmarkBinary],
    ],
  });
});

Deno.test("slop watch in a git worktree sees its index and the main repository's info/exclude and config change", async () => {
  const checkout = await linkedCheckout("worktree");
  // Fewer batches than the server's (each costs a second here): a change under the root, then
  // the index and info/exclude at once, then the config.
  const [untracked, exclude, , ignore, rmCached, , , , , excludesFile] = linkedListingScript(
    checkout,
  );
  const script = [[...untracked, ...ignore], [...exclude, ...rmCached], excludesFile];
  await watchChurn(1, { script, project: () => Promise.resolve(checkout.root) });
});

Deno.test("slop watch in a folder of a monorepo sees the top's .gitattributes, .gitignore, info/exclude and index change", async () => {
  const top = await makeProject({
    ".gitignore": ".slop/\n",
    ".gitattributes": "*.md text\n",
    "pkg/slop.config.ts": 'export default { files: ["src/**", "docs/**", "*.md"] };\n',
    "pkg/README.md": "# pkg\n",
    "pkg/src/zz_marker.ts": "export const marker = 0;\n",
    "pkg/src/a.py": "A = 1\n",
    "pkg/src/lib/b.ts": "export const b = 1;\n",
    "pkg/docs/c.md": "# C\n",
  });
  await gitIn(top, "init", "-q", "-b", "main");
  await gitIn(top, "add", "-A");
  await gitIn(top, "commit", "-qm", "base");
  const script = [
    [op(
      "mark .py binary at the top",
      (root) => Deno.writeTextFile(join(root, "../.gitattributes"), "*.py binary\n"),
    )],
    [op(
      "exclude docs in info/exclude",
      (root) => Deno.writeTextFile(join(root, "../.git/info/exclude"), "docs/\n"),
    )],
    [
      op(
        "ignore src/lib at the top",
        (root) => Deno.writeTextFile(join(root, "../.gitignore"), ".slop/\npkg/src/lib/\n"),
      ),
      op("git rm --cached src/lib", (root) => gitIn(root, "rm", "-rqf", "--cached", "src/lib")),
    ],
  ];
  await watchChurn(1, { script, project: () => Promise.resolve(join(top, "pkg")) });
});

async function gitIn(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(out.success, `git ${args.join(" ")}`);
}

Deno.test("slop watch in a folder of a monorepo sees a .gitignore or .gitattributes made above it while it runs", async () => {
  const top = await makeProject({
    ".gitignore": ".slop/\n",
    "group/pkg/slop.config.ts": 'export default { files: ["src/**", "docs/**"] };\n',
    "group/pkg/src/zz_marker.ts": "export const marker = 0;\n",
    "group/pkg/src/a.py": "A = 1\n",
    "group/pkg/docs/c.md": "# C\n",
  });
  await gitIn(top, "init", "-q", "-b", "main");
  const script = [
    [op(
      "a .gitattributes made in the folder above",
      (root) => Deno.writeTextFile(join(root, "../.gitattributes"), "*.py binary\n"),
    )],
    [op(
      "a .gitignore made in the folder above",
      (root) => Deno.writeTextFile(join(root, "../.gitignore"), "pkg/docs/\n"),
    )],
  ];
  await watchChurn(1, { script, project: () => Promise.resolve(join(top, "group", "pkg")) });
});

Deno.test("slop watch sees a .gitattributes made above its folder during its first build", async () => {
  // A section made by the config writes the file above while the first build runs: before
  // "watching for changes" is said, so only a look taken before that build can tell it is new.
  const config = `const above = new URL("../.gitattributes", import.meta.url);
export default {
  files: ["src/**"],
  plugins: [{
    kind: "section",
    name: "writes-above",
    async compose() {
      try {
        await Deno.lstat(above);
      } catch {
        await Deno.writeTextFile(above, "*.py binary\\n");
      }
      return [];
    },
  }],
};
`;
  const top = await makeProject({
    ".gitignore": ".slop/\n",
    "group/pkg/slop.config.ts": config,
    "group/pkg/src/zz_marker.ts": "export const marker = 0;\n",
    "group/pkg/src/a.py": "A = 1\n",
  });
  await gitIn(top, "init", "-q", "-b", "main");
  const script = [[op("nothing but the marker", () => Promise.resolve())]];
  await watchChurn(1, { script, project: () => Promise.resolve(join(top, "group", "pkg")) });
});
