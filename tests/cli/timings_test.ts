import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";
import { stageClock, timingsText } from "../../pipeline/timings.ts";

Deno.test("slop build --timings prints every stage's time to stderr, and nothing to stdout", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.txt"] };\n`,
    "a.txt": "a\n",
  });
  const plain = await runCli(["build", "-q"], root);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stderr, /timings:/);
  const run = await runCli(["build", "-q", "--timings"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "");
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines[0], "timings:");
  const stages = lines.slice(1).map((l) => /^ {2}(\S+(?: \S+)?) +(\d+\.\d) ms +\d+%$/.exec(l)?.[1]);
  for (const stage of ["startup", "config", "resolve", "read", "secrets", "transform", "emit"]) {
    assert.ok(stages.includes(stage), `${stage} missing from:\n${run.stderr}`);
  }
  assert.equal(stages.at(-1), "total");
});

Deno.test("timingsText() adds a stage marked twice and totals every stage", () => {
  const clock = stageClock();
  clock.mark("a");
  clock.mark("b");
  clock.mark("a");
  const stages = clock.stages();
  assert.deepEqual(stages.map((s) => s.stage), ["startup", "a", "b"]);
  const total = Number(/total +(\d+\.\d) ms/.exec(timingsText(clock))?.[1]);
  const sum = stages.reduce((n, s) => n + Number(s.ms.toFixed(1)), 0);
  assert.ok(Math.abs(total - sum) < 0.2, `${total} vs ${sum}`);
});
