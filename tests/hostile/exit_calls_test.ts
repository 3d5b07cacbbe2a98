import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("a config's plugin that calls process.exit(0) mid-build is named, and the build exits 1, not 0 with no word", async () => {
  // A module a config imports may end the process on its own (a flag parser's `--help`): the
  // command ended with code 0 and printed nothing, its document not written.
  const root = await makeProject({
    "a.py": "x = 1\n",
    "slop.config.ts": 'import process from "node:process";\n' +
      "export default { plugins: [{ kind: 'section', name: 'quits', compose() { " +
      "process.exit(0); } }] };\n",
  });
  const run = await runCli(["build", "--no-server"], root);
  assert.deepEqual([run.code, run.stderr], [
    1,
    "slop: The config's code or a plugin called Deno.exit(0) (or process.exit) before the " +
    "command finished, so its work was cut short: remove the call\n",
  ]);
});
