import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

// A config whose values throw when read (a getter, a proxy) is a config error like any other:
// exit 2, the message names the config file, and no stack trace.
const CONFIGS = {
  getter: `export default { get files() { throw new Error("files getter failed"); } };\n`,
  proxy: `export default new Proxy({}, { ownKeys() { throw new Error("keys failed"); } });\n`,
};

for (const [name, source] of Object.entries(CONFIGS)) {
  Deno.test(`a config whose ${name} throws when read is a config error naming the file`, async () => {
    const root = await makeProject({ "a.ts": "export {};\n", "slop.config.ts": source });
    const run = await runCli(["build", "--stdout"], root);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^slop: Invalid config "slop\.config\.ts": Cannot read the config: (files getter|keys) failed\n$/,
    );
  });
}
