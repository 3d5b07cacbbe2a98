import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop slice add says what is wrong with a bad line range", async () => {
  const root = await makeProject({ "src/a.py": "x = 1\n" });
  const cases: Array<[string, string]> = [
    ["src/a.py:0-1", "lines are numbered from 1"],
    ["src/a.py:2-1", "the end line comes before the start line"],
    ["src/a.py:1-3", `"src/a.py" has 1 line`],
  ];
  for (const [spec, problem] of cases) {
    const run = await runCli(["slice", "add", spec], root);
    assert.equal(run.code, 2, spec);
    assert.equal(run.stderr, `slop: Invalid slice "${spec}": ${problem}\n`);
  }
});
