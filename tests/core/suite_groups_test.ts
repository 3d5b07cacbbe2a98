// `deno task test` runs the test files in groups (tests/_suite.ts): every test file must be run by
// exactly one group or alone, and the task must name every group's runner and every file alone.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ALONE, groupFiles, GROUPS } from "../_suite.ts";
import { REPO } from "../_helpers.ts";

/** Every `*_test.ts` file in a folder of `tests/`, as paths from the repository. */
function allTestFiles(): string[] {
  const files: string[] = [];
  for (const folder of Deno.readDirSync(join(REPO, "tests"))) {
    if (!folder.isDirectory || folder.name === "fixtures" || folder.name.startsWith("_")) continue;
    for (const entry of Deno.readDirSync(join(REPO, "tests", folder.name))) {
      if (entry.name.endsWith("_test.ts")) files.push(`tests/${folder.name}/${entry.name}`);
    }
  }
  return files.sort();
}

/** The arguments of the `test` task after `deno test`. */
function taskFiles(): string[] {
  const task: string = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).tasks.test;
  const at = task.indexOf("deno test ");
  assert.ok(at >= 0, `no "deno test" in the test task: ${task}`);
  return task.slice(at).split(/\s+/).filter((word) => word.startsWith("tests/"));
}

Deno.test("every test file is run once by deno task test: by one group or alone", () => {
  const runs = new Map<string, string[]>();
  for (const [name, group] of Object.entries(GROUPS)) {
    for (const file of groupFiles(group)) runs.set(file, [...runs.get(file) ?? [], name]);
  }
  for (const file of Object.keys(ALONE)) runs.set(file, [...runs.get(file) ?? [], "alone"]);
  const problems: string[] = [];
  const files = allTestFiles();
  for (const file of files) {
    const by = runs.get(file) ?? [];
    if (by.length !== 1) problems.push(`${file}: run by ${by.length ? by.join(", ") : "nothing"}`);
  }
  for (const file of runs.keys()) {
    if (!files.includes(file)) problems.push(`${file}: listed but not a test file`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("the test task names every group's runner and every file alone, nothing else", () => {
  const expected = [
    ...Object.keys(GROUPS).map((name) => `tests/_suite/${name}.ts`),
    ...Object.keys(ALONE),
  ].sort();
  assert.deepEqual([...taskFiles()].sort(), expected);
  const runners = [...Deno.readDirSync(join(REPO, "tests", "_suite"))].map((e) =>
    `tests/_suite/${e.name}`
  );
  assert.deepEqual(runners.sort(), Object.keys(GROUPS).map((n) => `tests/_suite/${n}.ts`).sort());
});

Deno.test("each group's runner runs its own group", () => {
  for (const name of Object.keys(GROUPS)) {
    const text = Deno.readTextFileSync(join(REPO, "tests", "_suite", `${name}.ts`));
    assert.match(text, new RegExp(`await runGroup\\("${name}"\\);`), `tests/_suite/${name}.ts`);
  }
});

Deno.test("a group's parts split its folders' files between them, each file in one part", () => {
  const whole = groupFiles({ folders: ["secrets"] });
  const parts = [1, 2, 3].map((k) => groupFiles({ folders: ["secrets"], part: [k, 3] }));
  assert.deepEqual(parts.flat().sort(), whole);
  assert.ok(parts.every((part) => part.length >= Math.floor(whole.length / 3)));
});
