import assert from "node:assert/strict";
import { join } from "node:path";
import { churnProject } from "./_churn.ts";
import { childEnv, tempDir, V8_FLAGS } from "../_helpers.ts";
import { serverWatch } from "../../server/_watch.ts";
import { loadConfig } from "../../mod.ts";
// Type-checked with the suite; run in a child process below.
import type {} from "./_server_churn_cases.ts";

/**
 * The tests of `_server_churn_cases.ts`, in a child process: a build server's build enters the
 * project's folder (which the churn deletes and makes again) and takes the client's environment,
 * which would move every test file of this process with it. One child runs them all, one after
 * another as they ran in this process before (a child each started the cases' modules five
 * times); each test here reads its own line of the child's report.
 */
const CASES = new URL("./_server_churn_cases.ts", import.meta.url).pathname;
const CASE_NAMES = [
  "a build server's builds equal cold builds after random batches of file changes",
  "a build server watches a project folder removed and made again anew",
  "a build server sees what git's index, config, info/exclude and info/attributes change in the file list",
  "a build server in a git worktree sees its index and the main repository's info/exclude, info/attributes and config change",
  "a build server in a checkout whose .git file names a git folder elsewhere (a submodule's) sees it change",
];

/** The child's report (stdout and stderr), started by the first test that asks for it. */
let casesRun: Promise<string> | undefined;
function runCases(): Promise<string> {
  casesRun ??= (async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-check", "--quiet", V8_FLAGS, CASES],
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: childEnv(),
    }).output();
    return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  })();
  return casesRun;
}

for (const name of CASE_NAMES) {
  Deno.test(name, async () => {
    const text = await runCases();
    // It ran and is not among the failures (`name => file:line`); the child ran these cases and
    // no other. (Its result may come lines after its name, past what the case printed; a case
    // over a minute has Deno's "has been running" notice right after the dots, with no space.)
    assert.ok(text.includes(`${name} ...`), text);
    assert.ok(!text.includes(`${name} => `), text);
    const [, passed, failed] = / (\d+) passed \| (\d+) failed/.exec(text) ?? [];
    assert.equal(Number(passed) + Number(failed), CASE_NAMES.length, text);
  });
}

Deno.test("a storm of 1,000 events leaves the server's watcher holding one record per file", async () => {
  const root = await churnProject(4);
  const dir = await tempDir({ prefix: "slop_storm_" });
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
  const watch = serverWatch({ dir, id: "storm", timeoutMs: 5000 });
  try {
    assert.equal(await watch.changes(config), undefined, "the first call starts the watch");
    // 20 writes a file: a record per event would hold 1,000, twenty times the files.
    for (let i = 0; i < 1000; i++) {
      await Deno.writeTextFile(join(root, "src", `s${i % 50}.ts`), `export const v = ${i};\n`);
    }
    // Settled: one record per file written (50), not per event (1,000). Looked at for up to 60 s:
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

Deno.test("a build server in a folder of a monorepo sees a .gitignore or .gitattributes made above it after it started", async () => {
  const top = await tempDir({ prefix: "slop_above_" });
  await Deno.mkdir(join(top, "group", "pkg", "src"), { recursive: true });
  await Deno.writeTextFile(join(top, "group", "pkg", "src", "a.py"), "x = 1\n");
  const init = new Deno.Command("git", { args: ["init", "-q"], cwd: top }).outputSync();
  assert.ok(init.success);
  const root = join(top, "group", "pkg");
  const dir = await tempDir({ prefix: "slop_above_ticks_" });
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
  const watch = serverWatch({ dir, id: "above", timeoutMs: 60_000 });
  try {
    assert.equal(await watch.changes(config), undefined, "the first call starts the watch");
    for (const made of ["group/.gitignore", ".gitattributes", "group/.gitattributes"]) {
      await Deno.writeTextFile(join(top, made), "*.py binary\n");
      const changes = await watch.changes(config);
      assert.ok(changes?.paths.includes(".git/index"), `${made}: ${JSON.stringify(changes)}`);
    }
    // And one edited, replaced by a rename as editors save.
    await Deno.writeTextFile(join(top, "group/.gitignore.new"), "*.md\n");
    await Deno.rename(join(top, "group/.gitignore.new"), join(top, "group/.gitignore"));
    const changes = await watch.changes(config);
    assert.ok(changes?.paths.includes(".git/index"), `a rename: ${JSON.stringify(changes)}`);
  } finally {
    watch.close();
  }
});
