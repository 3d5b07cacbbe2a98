import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli, runTask } from "../_helpers.ts";
import { jsoncToJson, withContextTask } from "../../cli/_jsonc.ts";

const TASK = "deno run -A cli.ts build";

Deno.test("withContextTask() writes the task into the text as it stands, in the object's own layout", () => {
  const cases: Array<[string, string]> = [
    [
      '{\n  // mine\n  "tasks": { "dev": "deno run main.ts" }\n}\n',
      `{\n  // mine\n  "tasks": { "dev": "deno run main.ts", "context": "${TASK}" }\n}\n`,
    ],
    [
      '{\n  "tasks": { "dev": "deno run main.ts", },\n}\n',
      `{\n  "tasks": { "dev": "deno run main.ts", "context": "${TASK}", },\n}\n`,
    ],
    [
      '{\n  "tasks": {\n    "dev": "deno run main.ts" // the dev server\n  },\n  "fmt": {}\n}\n',
      '{\n  "tasks": {\n    "dev": "deno run main.ts", // the dev server\n' +
      `    "context": "${TASK}"\n  },\n  "fmt": {}\n}\n`,
    ],
    [
      '{\n  "tasks": {\n    "dev": "x",\n  },\n}\n',
      `{\n  "tasks": {\n    "dev": "x",\n    "context": "${TASK}",\n  },\n}\n`,
    ],
    ['{\n  "tasks": {}\n}\n', `{\n  "tasks": { "context": "${TASK}" }\n}\n`],
    [
      '{\n\t"name": "x", /* why */\n\t"imports": { "a": "b" }\n}\n',
      `{\n\t"name": "x", /* why */\n\t"imports": { "a": "b" },\n\t"tasks": {\n\t\t"context": "${TASK}"\n\t}\n}\n`,
    ],
    ['{ "name": "x" }', `{ "name": "x", "tasks": { "context": "${TASK}" } }`],
    ["{}", `{ "tasks": { "context": "${TASK}" } }`],
    [
      '/* a */ { "a": "b\\"c // not a comment" /* x */ }',
      `/* a */ { "a": "b\\"c // not a comment", "tasks": { "context": "${TASK}" } /* x */ }`,
    ],
  ];
  for (const [before, after] of cases) assert.equal(withContextTask(before, TASK), after, before);
});

Deno.test("withContextTask() keeps a context task and refuses what it cannot edit safely", () => {
  assert.equal(withContextTask('{ "tasks": { "context": "mine" } }', TASK), "kept");
  for (
    const text of [
      '{ "tasks": [] }',
      '{ "tasks": "x" }',
      '{ "tasks": {}, "tasks": {} }',
      '{ "tasks": { /* keep me */ } }',
      "// only a comment\n",
      '{ "a": 1 } trailing',
      '{ "a": 1',
      '{ "a": "open }',
      '{ "a": 1 /* open }',
      "{ 'a': 1 }",
      "[1, 2]",
      "",
    ]
  ) {
    assert.equal(withContextTask(text, TASK), undefined, text);
  }
});

Deno.test("jsoncToJson() drops comments and trailing commas, never inside strings", () => {
  const text = '{\n  // c\n  "a": "// no", /* d */ "b": [1, 2,],\n  "c": { "d": "/* no */", },\n}';
  assert.deepEqual(JSON.parse(jsoncToJson(text)!), {
    a: "// no",
    b: [1, 2],
    c: { d: "/* no */" },
  });
  assert.equal(jsoncToJson('{ "a": "open'), undefined);
});

Deno.test("slop init adds the context task to a deno.jsonc with comments, which Deno then runs", async () => {
  const jsonc =
    '{\n  // the project\'s tasks\n  "tasks": {\n    "dev": "deno run main.ts", // dev server\n  },\n}\n';
  const root = await makeProject({ "deno.jsonc": jsonc, "src/a.ts": "export const a = 1;\n" });
  const run = await runCli(["init"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /added the "context" task to deno.jsonc/);
  const text = await Deno.readTextFile(join(root, "deno.jsonc"));
  assert.ok(
    text.startsWith(
      '{\n  // the project\'s tasks\n  "tasks": {\n    "dev": "deno run main.ts", // dev server\n    "context": "deno run -A ',
    ),
    text,
  );
  // In the process: the task's build server is `init_test.ts`'s (in a folder of its own).
  const task = await runTask("context --no-server", root);
  assert.equal(task.code, 0, task.stderr);
  assert.match(await Deno.readTextFile(join(root, ".slop/out/context_001.md")), /### src\/a\.ts/);
});
