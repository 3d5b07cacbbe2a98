import assert from "node:assert/strict";
import { makeProject, runCli } from "../_helpers.ts";
import { progressBar, progressLine } from "../../cli/_progress.ts";

Deno.test("the progress bar stays silent when stderr is not a terminal", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 200; i++) tree[`src/f${i}.ts`] = `export const v${i} = ${i};\n`.repeat(50);
  const root = await makeProject(tree);
  const run = await runCli(["build"], root);
  assert.equal(run.code, 0);
  const printed = run.stderr + run.stdout;
  assert.ok(!printed.includes("\r") && !printed.includes("slop [") && !printed.includes("\x1b["));
});

Deno.test("progressBar() waits half a second, then draws files done, total and cache hits", () => {
  let now = 0;
  const out: string[] = [];
  const bar = progressBar({
    enabled: true,
    color: false,
    now: () => now,
    write: (s) => out.push(s),
    width: 10,
  });
  bar.update({ stage: "transform", done: 1, total: 4, cacheHits: 0 });
  assert.equal(out.length, 0, "nothing before the delay");
  now = 600;
  bar.update({ stage: "transform", done: 2, total: 4, cacheHits: 1 });
  assert.equal(out.join("|"), "\rslop [#####-----] 2/4 files, 1 cached");
  now = 650;
  bar.update({ stage: "transform", done: 3, total: 4, cacheHits: 1 });
  assert.equal(out.length, 1, "redraws are throttled");
  now = 800;
  bar.update({ stage: "tokens", done: 5, total: 5, cacheHits: 1 });
  assert.equal(out[1], "\rslop [##########] counting tokens 5/5 blocks");
  bar.done();
  assert.equal(out[2], `\r${" ".repeat(out[1].length - 1)}\r`, "done() erases the line");
});

Deno.test("progressLine() uses colour only when asked (NO_COLOR turns it off)", () => {
  const p = { stage: "transform" as const, done: 1, total: 2, cacheHits: 0 };
  assert.ok(!progressLine(p, { color: false }).includes("\x1b"));
  assert.ok(progressLine(p, { color: true }).includes("\x1b[36m"));
  const disabled: string[] = [];
  const bar = progressBar({ enabled: false, now: () => 1e9, write: (s) => disabled.push(s) });
  bar.update(p);
  bar.done();
  assert.deepEqual(disabled, []);
});
