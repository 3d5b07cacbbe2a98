import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { makeProject, REPO, runCli, runTask, tempDir } from "../_helpers.ts";

Deno.test("slop init writes a commented config and the context task, and the task builds in a build server", async () => {
  const root = await makeProject({
    "deno.json": JSON.stringify({ tasks: { test: "deno test" }, fmt: { lineWidth: 90 } }, null, 2),
    "src/a.ts": "export const a = 1;\n",
  });
  const runtime = await tempDir({ prefix: "slop_servers_" });
  const env = { XDG_RUNTIME_DIR: runtime, CI: "" };
  const run = await runCli(["init"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /wrote slop.config.ts/);
  assert.match(run.stdout, /added the "context" task to deno.json/);
  assert.match(run.stdout, /the task builds in a build server kept warm between builds/);
  const deno = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  assert.equal(deno.tasks.test, "deno test", "other tasks are kept");
  assert.deepEqual(deno.fmt, { lineWidth: 90 }, "other keys are kept");
  assert.match(
    deno.tasks.context,
    /^deno run -A \S+\/cli\.ts build --server$/,
  );
  const config = await Deno.readTextFile(join(root, "slop.config.ts"));
  assert.match(config, /^\/\/ /, "the config is commented");
  try {
    for (const n of [1, 2]) {
      const task = await runTask("context", root, env);
      assert.equal(task.code, 0, task.stderr);
      assert.equal(task.stderr, "");
      const doc = await Deno.readTextFile(join(root, `.slop/out/context_00${n}.md`));
      assert.match(doc, /### src\/a\.ts/);
      await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
    }
    const status = await runCli(["server", "status", "--json"], root, env);
    assert.equal(JSON.parse(status.stdout).builds, 2, "both builds ran in one server");
    // `deno task context --no-server` builds in the process.
    const own = await runTask("context --no-server", root, env);
    assert.equal(own.code, 0, own.stderr);
    assert.match(await Deno.readTextFile(join(root, ".slop/out/context_003.md")), /a = 2/);
    const after = await runCli(["server", "status", "--json"], root, env);
    assert.equal(JSON.parse(after.stdout).builds, 2, "not in the server");
  } finally {
    await runCli(["server", "stop", "--all", "--quiet"], root, env);
  }
});

Deno.test("slop init never overwrites a config or a context task, and leaves alone a file it cannot edit", async () => {
  const broken = '{\n  "tasks": ["not", "an object"]\n}\n';
  const root = await makeProject({
    "slop.config.ts": "export default { files: ['x'] };\n",
    "deno.jsonc": broken,
  });
  const run = await runCli(["init"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /kept the existing slop config/);
  assert.match(
    run.stdout,
    /deno\.jsonc is not a JSON object slop can edit, left it alone: add the task\n {2}"context": "deno run/,
  );
  assert.equal(await Deno.readTextFile(join(root, "deno.jsonc")), broken);
  assert.equal(
    await Deno.readTextFile(join(root, "slop.config.ts")),
    "export default { files: ['x'] };\n",
  );
  const other = await makeProject({
    "deno.json": '{ "tasks": { "context": "echo mine" } }',
  });
  assert.equal((await runCli(["init", "-q"], other)).code, 0);
  assert.equal(
    await Deno.readTextFile(join(other, "deno.json")),
    '{ "tasks": { "context": "echo mine" } }',
  );
});

Deno.test("slop init creates deno.json when the project has none", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  const run = await runCli(["init", "."], root);
  assert.equal(run.code, 0, run.stderr);
  const deno = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  assert.deepEqual(deno, { tasks: { context: deno.tasks.context } }, "the task and nothing else");
});

Deno.test("slop init in a Node project: its task installs nothing into the project", async () => {
  const root = await makeProject({
    // A dependency in Deno's npm cache (slop's own), so that an install would need no network.
    "package.json": JSON.stringify({ name: "app", dependencies: { picomatch: "4.0.3" } }),
    "src/index.js": "export const a = 1;\n",
  });
  assert.equal((await runCli(["init", "-q"], root)).code, 0);
  const task = await runTask("context --no-server -q", root, { CI: "true" });
  assert.equal(task.code, 0, task.stderr);
  assert.match(await Deno.readTextFile(join(root, ".slop/out/context_001.md")), /src\/index\.js/);
  assert.equal(existsSync(join(root, "node_modules")), false, "no node_modules in the project");
  assert.equal(existsSync(join(root, "deno.lock")), false, "no deno.lock in the project");
});

Deno.test("this repository's tasks run slop as slop init's task does, with no V8 flags to type", async () => {
  const deno = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  assert.equal(deno.tasks.slop, "deno run -A cli.ts");
  assert.equal(deno.tasks.context, "deno run -A cli.ts build --config examples/slop.config.ts");
  for (const [name, task] of Object.entries<string>(deno.tasks)) {
    assert.doesNotMatch(task, /v8-flags/, `task "${name}"`);
  }
});
