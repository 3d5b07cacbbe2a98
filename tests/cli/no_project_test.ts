// `slop build` with no config and no paths in the home folder or the file system's root would
// crawl everything under it: it stops at once with one line that says what to do.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";
import { parentConfig, parentConfigWarning } from "../../cli/_parent_config.ts";
import { loadBuildConfig } from "../../cli/build.ts";
import { NoProjectError } from "../../cli/_no_project.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";

async function withHome<T>(home: string, cwd: string, run: () => Promise<T>): Promise<T> {
  const [here, before] = [Deno.cwd(), Deno.env.get("HOME")];
  Deno.env.set("HOME", home);
  Deno.chdir(cwd);
  try {
    return await run();
  } finally {
    Deno.chdir(here);
    if (before === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", before);
  }
}

Deno.test("a build without config or paths in the home folder says to run it in a project", async () => {
  const home = await makeProject({ "notes.txt": "hi\n", "project/a.txt": "a\n" });
  const real = Deno.realPathSync(home);
  await assert.rejects(
    () => withHome(home, home, () => loadBuildConfig([], {})),
    (error: Error) => {
      assert.ok(error instanceof NoProjectError);
      assert.equal(
        error.message,
        `No project here: "${real}" is your home folder, and without a config slop would bundle ` +
          "every file under it; run slop in a project's folder, or name what to bundle " +
          "(slop build src/)",
      );
      return true;
    },
  );
  // Named paths, a project folder below it, or a config there: a build as usual.
  await withHome(home, home, () => loadBuildConfig(["notes.txt"], {}));
  await withHome(home, join(home, "project"), () => loadBuildConfig([], {}));
  await Deno.writeTextFile(join(home, "slop.config.ts"), 'export default { files: ["*.txt"] };\n');
  await withHome(home, home, () => loadBuildConfig([], {}));
});

Deno.test("a build without config in an empty folder says there is no file to bundle, not files[0]", async () => {
  const empty = await makeProject({});
  const { warnings } = await withHome(
    await makeProject({}),
    empty,
    async () => resolveTargets(await loadBuildConfig([], {})),
  );
  assert.deepEqual(warnings, [
    "No file to bundle: this folder has no file git would track (it is empty, or every file is " +
    "ignored); add files, or run slop in a project's folder",
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
  const run = await runCli(["build", "--stdout"], deep);
  assert.equal(run.code, 0, run.stderr);
  const warning = `warning: ${parentConfigWarning("../../slop.config.ts")}\n`;
  assert.ok(run.stderr.startsWith(warning), run.stderr);
  assert.equal(run.stderr.split(warning).length, 2, "once");
  // With the config named, or --quiet, it is not said.
  const named = await runCli(["build", "--stdout", "--config", "../../slop.config.ts"], deep);
  assert.equal(named.code, 0, named.stderr);
  assert.doesNotMatch(named.stderr, /No slop config/);
  assert.match(named.stdout, /### src\/deep\/a\.ts/);
});
