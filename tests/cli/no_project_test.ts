// `slop build` with no config and no paths in the home folder or the file system's root would
// crawl everything under it: it stops at once with one line that says what to do.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
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
