import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop explain says when the two builds have different formats", async () => {
  const root = await makeProject({ "src/a.ts": "export const a = 1;\n" });
  assert.equal((await runCli(["build", "-q"], root)).code, 0);
  assert.equal((await runCli(["build", "-q", "--format", "xml"], root)).code, 0);
  const run = await runCli(["explain"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /\n {2}formats differ: #001 is markdown, #002 is xml \(each format has its own bytes, so they share no cache\)\n/,
  );
  const json = JSON.parse((await runCli(["explain", "--json"], root)).stdout);
  assert.deepEqual(json.formats, ["markdown", "xml"]);
  // Same format: no such line.
  assert.equal((await runCli(["build", "-q", "--format", "xml"], root)).code, 0);
  const same = await runCli(["explain"], root);
  assert.doesNotMatch(same.stdout, /formats differ/);
});
