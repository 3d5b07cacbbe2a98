import assert from "node:assert/strict";
import { makeProject, runCliShared } from "../_helpers.ts";

Deno.test("slop slice add says what is wrong with a bad line range", async () => {
  const root = await makeProject({ "src/a.py": "x = 1\n" });
  const cases: Array<[string, string]> = [
    ["src/a.py:0-1", "lines are numbered from 1"],
    ["src/a.py:2-1", "the end line comes before the start line"],
    ["src/a.py:1-3", `"src/a.py" has 1 line`],
  ];
  for (const [spec, problem] of cases) {
    const run = await runCliShared(["slice", "add", spec], root);
    assert.equal(run.code, 2, spec);
    assert.equal(run.stderr, `slop: Invalid slice "${spec}": ${problem}\n`);
  }
});

Deno.test("slop slice add on a recorded range re-anchors it and keeps its tag and comment unless given", async () => {
  const root = await makeProject({ "src/a.py": "a = 1\nb = 2\nc = 3\n" });
  const first = await runCliShared(
    ["slice", "add", "src/a.py:2-3", "--tag", "pair", "--comment", "the two"],
    root,
  );
  assert.equal(first.code, 0, first.stderr);
  await Deno.writeTextFile(`${root}/src/a.py`, "a = 1\nb = 20\nc = 3\n");
  const again = await runCliShared(["slice", "add", "src/a.py:2-3"], root);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^slop: updated slice src\/a\.py:2-3 "pair" in slop\/slices\.toml$/m);
  const toml = await Deno.readTextFile(`${root}/slop/slices.toml`);
  assert.match(toml, /tag = "pair"/);
  assert.match(toml, /comment = "the two"/);
  const list = await runCliShared(["slice", "list"], root);
  assert.match(list.stdout, /src\/a\.py:2-3\s+exact\s+"pair"/);
  // A new tag replaces the old one.
  await runCliShared(["slice", "add", "src/a.py:2-3", "--tag", "renamed"], root);
  const renamed = await Deno.readTextFile(`${root}/slop/slices.toml`);
  assert.match(renamed, /tag = "renamed"/);
  assert.match(renamed, /comment = "the two"/);
});

Deno.test("slop slice add on a folder says it is a folder", async () => {
  const root = await makeProject({ "src/a.py": "a = 1\n" });
  const run = await runCliShared(["slice", "add", "src:1-1"], root);
  assert.equal(run.code, 1);
  assert.equal(run.stderr, `slop: Cannot read "src": it is a folder\n`);
});
