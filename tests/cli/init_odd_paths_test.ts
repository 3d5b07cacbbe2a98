import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runTask, tempDir } from "../_helpers.ts";

// slop may sit in a folder whose name has a space, a `#` or a quote (`~/My Tools/slop`): the task
// `slop init` writes must still run it, and the config must still import it.
for (const folder of ["my tools", "c# tools", "bob's tools"]) {
  Deno.test(`slop init from a path with "${folder}" writes a task and a config that work`, async () => {
    const outer = await tempDir({ prefix: "slop_odd_" });
    const link = join(outer, folder);
    await Deno.symlink(REPO, link);
    const root = await makeProject({ "src/a.ts": "export const a = 1;\n" });
    const init = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(link, "cli.ts"), "init"],
      cwd: root,
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(init.success, new TextDecoder().decode(init.stderr));
    const task = await runTask("context --no-server", root, { CI: "" });
    assert.equal(task.code, 0, task.stderr);
    const doc = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
    assert.match(doc, /### src\/a\.ts/);
    // The config imported slop's config module: its `defineConfig` ran without an error above,
    // and the file names the folder as written (only `#`, `?` and `%` escaped).
    const config = await Deno.readTextFile(join(root, "slop.config.ts"));
    assert.ok(config.includes(folder.replace("#", "%23")), config);
  });
}
