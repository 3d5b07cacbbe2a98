import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";

Deno.test("slop init names deno.jsonc when that is the file it adds the task to", async () => {
  const root = await makeProject({ "deno.jsonc": '{\n  "imports": {}\n}\n' });
  const run = await runCli(["init"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^slop: added the "context" task to deno\.jsonc$/m);
  assert.equal(await Deno.lstat(join(root, "deno.json")).then(() => true, () => false), false);
});

Deno.test("slop init into a path that is a file, or cannot be made, names the folder", async () => {
  const root = await makeProject({ "afile": "x\n" });
  const file = await runCli(["init", "afile"], root);
  assert.equal(file.code, 1);
  assert.equal(file.stderr, `slop: Cannot create the folder "afile": a file of that name exists\n`);
  const deep = await runCli(["init", "afile/sub"], root);
  assert.equal(deep.code, 1);
  assert.match(deep.stderr, /^slop: Cannot create the folder "afile\/sub": .+\n$/);
  assert.doesNotMatch(deep.stderr, /os error|mkdir '/);
});
