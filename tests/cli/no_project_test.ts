// `slop build` with no config and no paths in the home folder or the file system's root would
// crawl everything under it: it stops at once with one line that says what to do.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeProject, REPO, runCliShared, V8_FLAGS } from "../_helpers.ts";
import { parentConfig, parentConfigWarning } from "../../cli/_parent_config.ts";
import { checkProjectRoot, NoProjectError } from "../../cli/_no_project.ts";

/** What one `loadBuildConfig(args)` in `cwd` gave: the error's class and message, or the resolve's warnings. */
interface Outcome {
  error?: { noProject: boolean; message: string };
  warnings?: string[];
}

/**
 * `loadBuildConfig(args, {})` (and `resolveTargets` of its config) in `cwd` with HOME set to
 * `home`, in a process of its own: the working folder and the environment are the process's,
 * shared with the test files running alongside (their CLI starts would take this HOME's Deno
 * cache and git config).
 */
async function withHome(
  home: string,
  runs: Array<{ cwd: string; args?: string[]; resolve?: boolean }>,
) {
  const url = (path: string) => JSON.stringify(pathToFileURL(join(REPO, path)).href);
  const code = `import { loadBuildConfig } from ${url("cli/build.ts")};
import { NoProjectError } from ${url("cli/_no_project.ts")};
import { resolveTargets } from ${url("pipeline/resolve.ts")};
const out = [];
for (const { cwd, args, resolve } of ${JSON.stringify(runs)}) {
  Deno.chdir(cwd);
  try {
    const config = await loadBuildConfig(args ?? [], {});
    out.push(resolve ? { warnings: (await resolveTargets(config)).warnings } : {});
  } catch (error) {
    out.push({ error: { noProject: error instanceof NoProjectError, message: error.message } });
  }
}
console.log(JSON.stringify(out));`;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: REPO, // this process's working folder may be another test's for a moment
    // Deno's own cache stays this process's (by default it is under HOME).
    env: { HOME: home, DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(run.success, new TextDecoder().decode(run.stderr));
  return JSON.parse(new TextDecoder().decode(run.stdout)) as Outcome[];
}

/** Where Deno keeps its cache for this process: `DENO_DIR`, else its default on Linux. */
function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

Deno.test("a build without config or paths in the home folder says to run it in a project", async () => {
  const home = await makeProject({ "notes.txt": "hi\n", "project/a.txt": "a\n" });
  const real = Deno.realPathSync(home);
  const [refused, named, below] = await withHome(home, [
    { cwd: home },
    // Named paths, a project folder below it, or a config there: a build as usual.
    { cwd: home, args: ["notes.txt"] },
    { cwd: join(home, "project") },
  ]);
  assert.deepEqual(refused.error, {
    noProject: true,
    message: `No project here: "${real}" is your home folder, and without a config slop would ` +
      "bundle every file under it; run slop in a project's folder, or name what to bundle " +
      "(slop build src/)",
  });
  assert.equal(named.error, undefined, named.error?.message);
  assert.equal(below.error, undefined, below.error?.message);
  await Deno.writeTextFile(join(home, "slop.config.ts"), 'export default { files: ["*.txt"] };\n');
  const [configured] = await withHome(home, [{ cwd: home }]);
  assert.equal(configured.error, undefined, configured.error?.message);
});

Deno.test("a build without config in an empty folder says there is no file to bundle, not files[0]", async () => {
  const empty = await makeProject({});
  const [{ warnings }] = await withHome(await makeProject({}), [{ cwd: empty, resolve: true }]);
  assert.deepEqual(warnings, [
    "No file to bundle: this folder holds no file slop bundles (it is empty, or every file is " +
    "ignored or left out by default); add files, or run slop in a project's folder",
  ]);
});

Deno.test("a build in a folder below a project's config says which config it did not read", async () => {
  const root = await makeProject({
    "slop.config.ts": "export default { files: ['src/**'] };\n",
    "src/deep/a.ts": "export const a = 1;\n",
  });
  await Deno.mkdir(join(root, ".git"));
  const deep = join(root, "src/deep");
  assert.equal(parentConfig(deep), "../../slop.config.ts");
  assert.equal(
    parentConfigWarning("../../slop.config.ts"),
    "No slop config in this folder, so this build takes its files with the defaults; " +
      '"../../slop.config.ts" above is not read: run slop in its folder, or pass --config ' +
      "../../slop.config.ts",
  );
  assert.match(parentConfigWarning("../my app/slop.config.ts"), /--config '\.\.\/my app\//);
  // At the project's own folder, and above the top of its work tree, there is none to name.
  assert.equal(parentConfig(root), undefined);
  const outside = await makeProject({ "slop.config.ts": "export default {};\n" });
  const inner = join(outside, "repo/src");
  await Deno.mkdir(join(outside, "repo/.git"), { recursive: true });
  await Deno.mkdir(inner);
  assert.equal(parentConfig(inner), undefined);
  // Nor in a folder that is in no work tree (a config in /tmp is no project's).
  const loose = await makeProject({ "slop.config.ts": "export default {};\n", "a/b.txt": "b\n" });
  assert.equal(parentConfig(join(loose, "a")), undefined);
  // The command says it, once, on stderr.
  const run = await runCliShared(["build", "--stdout"], deep);
  assert.equal(run.code, 0, run.stderr);
  const warning = `warning: ${parentConfigWarning("../../slop.config.ts")}\n`;
  assert.ok(run.stderr.startsWith(warning), run.stderr);
  assert.equal(run.stderr.split(warning).length, 2, "once");
  // With the config named, or --quiet, it is not said.
  const named = await runCliShared(["build", "--stdout", "--config", "../../slop.config.ts"], deep);
  assert.equal(named.code, 0, named.stderr);
  assert.doesNotMatch(named.stderr, /No slop config/);
  assert.match(named.stdout, /### src\/deep\/a\.ts/);
});

Deno.test("checkProjectRoot() refuses a crowded folder that is no project, not a project or a small folder", async () => {
  const files = { "a.txt": "a\n", "b.txt": "b\n", "notes/c.txt": "c\n", "notes/d.txt": "d\n" };
  // makeProject's folders are under the system's temporary folder: no git repository around them.
  const crowded = await makeProject(files);
  assert.throws(
    () => checkProjectRoot(crowded, { maxFiles: 3 }),
    (error: Error) =>
      error instanceof NoProjectError &&
      error.message.startsWith(`No project here: "${crowded}" is not in a git repository`) &&
      error.message.includes("more than 3 files") && error.message.includes("slop build ."),
  );
  // At the limit, a project file, or a git repository around it: built as before.
  checkProjectRoot(crowded, { maxFiles: 4 });
  // not asked (the CLI when no person is at a terminal: a script, CI, an agent)
  checkProjectRoot(crowded, { maxFiles: 3, crowded: false });
  checkProjectRoot(await makeProject({ ...files, "package.json": "{}\n" }), { maxFiles: 3 });
  checkProjectRoot(await makeProject({ ...files, "go.mod": "module x\n" }), { maxFiles: 3 });
  const repo = await makeProject({ ".git/HEAD": "ref: refs/heads/main\n", "sub/x.txt": "x\n" });
  checkProjectRoot(await makeProject(files, join(repo, "sub")), { maxFiles: 3 });
  // A link to a folder of a repository: git (and the build) sees its real path, inside the work
  // tree, so the listing is git's and the folder is a project's.
  const outside = await makeProject({});
  await Deno.symlink(join(repo, "sub"), join(outside, "link"));
  checkProjectRoot(join(outside, "link"), { maxFiles: 3 });
});
