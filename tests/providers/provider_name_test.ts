import assert from "node:assert/strict";
import { buildContext, ConfigError } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

Deno.test("an unknown provider.name is a config error naming the key, with a hint", async () => {
  const root = await makeProject({ "a.txt": "a\n" });
  await assert.rejects(
    buildContext({ cwd: root, inline: { provider: { name: "antropic" } } }, { write: false }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(
        error.message,
        /Unknown provider "antropic" at "provider\.name" \(did you mean "anthropic"\?\)/,
      );
      return true;
    },
  );
  // Built-ins by either name, and a plugin's provider by its own, are accepted.
  for (const name of ["openai", "slop:gemini"]) {
    const ok = await buildContext({ cwd: root, inline: { provider: { name } } }, { write: false });
    assert.equal(ok.manifest.files.length, 1);
  }
  const mine = await buildContext({
    cwd: root,
    inline: { provider: { name: "mine" }, plugins: [{ kind: "provider", name: "mine" }] },
  }, { write: false });
  assert.equal(mine.manifest.files.length, 1);
});
