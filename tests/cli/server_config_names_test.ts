import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { ConfigError, loadConfig } from "../../pipeline/config.ts";
import { serverSession } from "../../server/session.ts";

Deno.test("a build server loads anew when a file named as a config is written beside the one it keeps, or where there was none", async () => {
  // The server stamped only slop.config.ts, .js and .mjs: a slop.config.yaml written while it ran
  // was not named (a new build would refuse it), nor one written beside its config (warned).
  const dir = await makeProject({ "a.py": "x = 1\n" });
  const session = serverSession();
  // The server's own folder is not the project's: the stamps are taken in the config's folder.
  const load = () => loadConfig({ cwd: dir });
  try {
    assert.equal((await session.config("k", load)).zeroConfig, true);
    await Deno.writeTextFile(join(dir, "slop.config.yaml"), "files: [a.py]\n");
    await assert.rejects(session.config("k", load), ConfigError, '"slop.config.yaml"');
    await Deno.remove(join(dir, "slop.config.yaml"));
    await Deno.writeTextFile(join(dir, "slop.config.ts"), 'export default { files: ["a.py"] };\n');
    const kept = await session.config("k", load);
    assert.deepEqual([kept.configPath, kept.configsBeside], [
      join(dir, "slop.config.ts"),
      undefined,
    ]);
    assert.equal(await session.config("k", load), kept);
    await Deno.writeTextFile(join(dir, "slop.config.json"), '{"files": []}\n');
    assert.deepEqual((await session.config("k", load)).configsBeside, ["slop.config.json"]);
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a build server loads anew when a file named as a config in other letters is written, beside its config or where there was none", async () => {
  // Only the names in lower case were stamped: a Slop.Config.yaml written while the server ran
  // was missed until it restarted (slop watch saw it).
  const dir = await makeProject({ "a.py": "x = 1\n" });
  const session = serverSession();
  const load = () => loadConfig({ cwd: dir });
  try {
    assert.equal((await session.config("k", load)).zeroConfig, true);
    await Deno.writeTextFile(join(dir, "Slop.Config.yaml"), "files: [a.py]\n");
    await assert.rejects(session.config("k", load), ConfigError, '"Slop.Config.yaml"');
    await Deno.remove(join(dir, "Slop.Config.yaml"));
    await Deno.writeTextFile(join(dir, "slop.config.ts"), 'export default { files: ["a.py"] };\n');
    const kept = await session.config("k", load);
    assert.equal(kept.configsBeside, undefined);
    await Deno.writeTextFile(join(dir, "SLOP.config.TOML"), "files = []\n");
    assert.deepEqual((await session.config("k", load)).configsBeside, ["SLOP.config.TOML"]);
    // Kept while no file of the folder changes; another file made there loads nothing anew.
    const again = await session.config("k", load);
    assert.equal(await session.config("k", load), again);
    await Deno.writeTextFile(join(dir, "b.py"), "y = 2\n");
    assert.equal(await session.config("k", load), again);
  } finally {
    session.close();
    await Deno.remove(dir, { recursive: true });
  }
});
