import assert from "node:assert/strict";
import { ConfigError, loadConfig, validateConfig } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("validateConfig() names the inline history message at fault, not only the array", () => {
  assert.deepEqual(validateConfig({ history: [{ role: "user", content: 5 }] }), [
    '"history[0].content" must be a string, got number 5',
  ]);
  // A message may leave out its role (the seed's `Unknown` speaker); a misspelt key is named.
  assert.deepEqual(validateConfig({ history: ["hi", { rol: "user", content: "x" }] }), [
    'Unknown key "history[1].rol" (did you mean "history[1].role"?)',
  ]);
  assert.deepEqual(validateConfig({ history: [{ content: "x" }] }), []);
  assert.deepEqual(validateConfig({ history: [{ role: "user" }] }), [
    '"history[0].content" is required',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", 3] }), [
    '"history[1]" must be a string or a { role, content } object, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: 3 }), [
    '"history" must be a file path or an array of messages, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", { role: "user", content: "x" }] }), []);
});

Deno.test("loadConfig() rejects a root that is missing or a file, naming the key", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/afile`, "x\n");
  for (const [root, why] of [["nope", "not found"], ["afile", "a file"]]) {
    await assert.rejects(
      loadConfig({ cwd: dir, inline: { root } }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(
          error.message,
          new RegExp(`"root" must be a folder, got "${root}" \\(${why}\\)`),
        );
        return true;
      },
    );
  }
  const ok = await loadConfig({ cwd: dir, inline: { root: "." } });
  assert.equal(ok.root, dir);
  await Deno.remove(dir, { recursive: true });
});
