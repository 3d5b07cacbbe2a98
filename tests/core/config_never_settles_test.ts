// A config whose loading never finishes is an error that names the file, after a time limit:
// a top-level await that never settles used to hang a build server or an MCP call forever.
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../mod.ts";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeProject, REPO } from "../_helpers.ts";

Deno.test("a config whose top-level await never settles fails with its file named", async () => {
  const root = await makeProject({
    "slop.config.ts": "await new Promise(() => {});\nexport default {};\n",
    "a.py": "x = 1\n",
    // The stalled module stays stalled: a process of its own, which exits once the load failed.
    "load.ts": `import { loadConfig } from "${pathToFileURL(join(REPO, "mod.ts")).href}";\n` +
      "await loadConfig({ cwd: Deno.cwd(), loadTimeoutMs: 300 }).catch((e) => console.log(e.message));\n" +
      "Deno.exit(0);\n",
  });
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "load.ts"],
    cwd: root,
    stderr: "inherit",
  }).output();
  assert.equal(code, 0);
  assert.equal(
    new TextDecoder().decode(stdout),
    'Invalid config "slop.config.ts": Cannot load the config: it did not finish loading in 0.3 s ' +
      "(a top-level await that never settles?)\n",
  );
});

const CASES: Record<string, { source: string; message: RegExp }> = {
  "a config function": {
    source: "export default () => new Promise(() => {});\n",
    message: /: The config function failed: it did not return in 0\.3 s$/,
  },
  "a default export that is a promise": {
    source: "export default new Promise(() => {});\n",
    message: /: The config's promise failed: it did not return in 0\.3 s$/,
  },
};

for (const [name, { source, message }] of Object.entries(CASES)) {
  Deno.test(`a config that never settles (${name}) fails with its file named`, async () => {
    const root = await makeProject({ "slop.config.ts": source, "a.py": "x = 1\n" });
    const error = await loadConfig({ cwd: root, loadTimeoutMs: 300 }).then(
      () => assert.fail("the config loaded"),
      (e) => e,
    );
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, /^Invalid config "slop\.config\.ts": /);
    assert.match(error.message, message);
  });
}

Deno.test("a config that takes a while but settles within the limit loads", async () => {
  const root = await makeProject({
    "slop.config.ts": "await new Promise((r) => setTimeout(r, 50));\n" +
      "export default async () => {\n  await new Promise((r) => setTimeout(r, 50));\n" +
      '  return { files: ["a.py"] };\n};\n',
    "a.py": "x = 1\n",
  });
  const config = await loadConfig({ cwd: root, loadTimeoutMs: 5000 });
  assert.equal(config.files.length, 1);
});
