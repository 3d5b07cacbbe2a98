// The task reaches the build from every place a build starts: the config, a persona, a preset,
// the library, the CLI (tests/cli/task_flags_test.ts) and the MCP server; bad tasks are errors
// that name the key; the manifest records the task's hash, never its text.
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, ConfigError, sha256Hex } from "../../mod.ts";
import { runCliShared } from "../_helpers.ts";
import { connect, data, texts } from "../mcp/_client.ts";
import { taskProject } from "./_project.ts";

const TASK = "Fix the cookie handler: a cookie with an empty value is dropped";

const CONFIG = `export default {
  task: "Raise the retry limit and retry on a timeout",
  budget: { tokens: 6000 },
  presets: { streams: { files: ["src/**", "lib/**"], task: "stream uploads in chunks" } },
  personas: { cookies: { task: ${JSON.stringify(TASK)} } },
};
`;

function lastBlock(document: string): string {
  return document.slice(document.lastIndexOf("## Task\n"));
}

Deno.test("the library's build takes the task through the config and records its hash", async () => {
  const root = await taskProject();
  const result = await buildContext({ cwd: root, inline: { task: TASK } }, { write: false });
  assert.equal(lastBlock(result.document), `## Task\n\n${TASK}\n\n`);
  const task = result.manifest.task!;
  assert.equal(task.sha256, sha256Hex(`## Task\n\n${TASK}\n\n`));
  assert.equal(task.share, undefined);
  assert.ok(task.files.length > 0);
  assert.ok(!JSON.stringify(result.manifest).includes("empty value"));
  // The flag of the library's config loader wins over the config's key.
  const flagged = await buildContext(
    { cwd: root, inline: { task: "something else" }, task: TASK },
    { write: false },
  );
  assert.equal(flagged.document, result.document);
});

Deno.test("without a task the build has no task section and no task in the manifest", async () => {
  const root = await taskProject();
  const result = await buildContext({ cwd: root }, { write: false });
  assert.ok(!result.blocks.some((b) => b.section === "task"));
  assert.equal("task" in result.manifest, false);
  assert.ok(!result.document.includes("## Task"));
});

Deno.test("a persona's task beats a preset's, which beats the config's", async () => {
  const root = await taskProject({ "slop.config.ts": CONFIG });
  const config = await buildContext({ cwd: root }, { write: false });
  assert.match(lastBlock(config.document), /retry limit/);
  const preset = await buildContext({ cwd: root, preset: "streams" }, { write: false });
  assert.match(lastBlock(preset.document), /stream uploads/);
  const persona = await buildContext(
    { cwd: root, preset: "streams", persona: "cookies" },
    { write: false },
  );
  assert.equal(lastBlock(persona.document), `## Task\n\n${TASK}\n\n`);
  for (const r of [config, preset, persona]) assert.ok(r.manifest.total.tokens <= 6000);
});

Deno.test("a bad task or task share is a config error naming the key path", async () => {
  const root = await taskProject();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ task: 3 }, `"task" must be a string, got number 3`],
    [{ task: " \n" }, `"task" must not be empty`],
    [{ personas: { p: { task: "" } } }, `"personas.p.task" must not be empty`],
    [{ presets: { p: { task: ["a"] } } }, `"presets.p.task" must be a string, got an array`],
    [{ budget: { taskShare: 1.5 } }, `"budget.taskShare" must be at most 1, got 1.5`],
    [{ budget: { taskShare: -0.1 } }, `"budget.taskShare" must be at least 0, got -0.1`],
    [{ taks: "x" }, `Unknown key "taks" (did you mean "task"?)`],
  ];
  for (const [inline, problem] of cases) {
    await assert.rejects(
      buildContext({ cwd: root, inline }, { write: false }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError, error.message);
        assert.deepEqual(error.problems, [problem]);
        return true;
      },
    );
  }
  await assert.rejects(
    buildContext({ cwd: root, task: "  " }, { write: false }),
    /The task must not be empty/,
  );
});

Deno.test("a task of invisible characters alone (zero-width, bidi marks, controls) is empty", async () => {
  const root = await taskProject();
  for (
    const task of [
      "\u200b",
      "\u200d\u2060\ufeff \n",
      "\u202e\u2066\u00ad",
      "\u0000\u001b",
      "\ud800",
    ]
  ) {
    await assert.rejects(
      buildContext({ cwd: root, inline: { task } }, { write: false }),
      (error: Error) => {
        assert.deepEqual((error as ConfigError).problems, [`"task" must not be empty`]);
        return true;
      },
    );
    await assert.rejects(
      buildContext({ cwd: root, task }, { write: false }),
      /The task must not be empty/,
    );
  }
});

Deno.test("a secret in the task text is redacted in the document and reported, never recorded", async () => {
  const root = await taskProject();
  const key = "AKIA" + "Q3EGZTQWQ7RZ5XPW";
  const task = `Fix the cookie handler; the failing call used AWS_ACCESS_KEY_ID=${key}`;
  const result = await buildContext({ cwd: root, inline: { task } }, { write: false });
  assert.ok(!result.document.includes(key));
  assert.match(lastBlock(result.document), /\[REDACTED:/);
  assert.ok(!JSON.stringify(result.manifest).includes(key));
  assert.ok(result.manifest.secrets?.some((s) => s.path === "task"));
  await assert.rejects(
    buildContext(
      { cwd: root, inline: { task, secrets: { failOnSecret: true } } },
      { write: false },
    ),
    /Found 1 secret/,
  );
});

Deno.test("the MCP server's build_context takes a task", async () => {
  const root = await taskProject();
  const { client, close } = await connect(root);
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t: { name: string }) => t.name === "build_context")!;
    const schema = (tool.inputSchema.properties as Record<string, { type?: string }>).task;
    assert.equal(schema.type, "string");
    const result = await client.callTool({
      name: "build_context",
      arguments: { task: TASK, budget: 5000 },
    });
    assert.equal(result.isError, undefined, texts(result).join("\n"));
    const d = data(result) as {
      task: { sha256: string; files: unknown[] };
      total: { tokens: number };
    };
    assert.equal(d.task.sha256, sha256Hex(`## Task\n\n${TASK}\n\n`));
    assert.ok(d.total.tokens <= 5000);
    const document = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
    assert.equal(lastBlock(document), `## Task\n\n${TASK}\n\n`);
    const empty = await client.callTool({ name: "build_context", arguments: { task: " " } });
    assert.equal(empty.isError, true);
    assert.match(texts(empty).join("\n"), /task/);
    const invisible = await client.callTool({
      name: "build_context",
      arguments: { task: "\u200b\u2060" },
    });
    assert.equal(invisible.isError, true);
    assert.equal(
      texts(invisible).join("\n"),
      `Invalid argument "task": expected a non-empty string, got "\u200b\u2060"`,
    );
  } finally {
    await close();
  }
  // And the CLI builds the same document for the same task and budget.
  const run = await runCliShared(
    ["build", "--task", TASK, "--budget", "5000", "--stdout", "-q"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout.slice(run.stdout.indexOf("## Task Files")),
    (await Deno.readTextFile(join(root, ".slop/out/context_001.md"))).slice(
      (await Deno.readTextFile(join(root, ".slop/out/context_001.md"))).indexOf("## Task Files"),
    ),
  );
});
