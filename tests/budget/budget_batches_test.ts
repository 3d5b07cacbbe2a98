import assert from "node:assert/strict";
import {
  FIRST_BATCH,
  MAX_BATCH,
  MAX_BATCH_BYTES,
  stepRenders,
  type StepView,
} from "../../pipeline/_budget_ahead.ts";
import type { RenderedFile } from "../../pipeline/types.ts";
import { buildContext, type ViewModePlugin } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** A render that warns once per step and counts its calls, the files it renders at once and the most of them. */
function fakeRender(sizes: Map<string, number> = new Map()) {
  const seen = { calls: [] as string[], inFlight: new Set<string>(), overlap: 0, most: 0 };
  const told: string[] = [];
  const renders = stepRenders({
    async render({ path, view }, warn) {
      const key = `${path}@${view}`;
      seen.calls.push(key);
      if (seen.inFlight.has(path)) seen.overlap++;
      seen.inFlight.add(path);
      seen.most = Math.max(seen.most, seen.inFlight.size);
      await new Promise((resolve) => setTimeout(resolve, 0));
      seen.inFlight.delete(path);
      warn(`warned by ${key}`);
      return { path, view, status: "rendered", text: key } as RenderedFile;
    },
    wanted: () => true,
    bytes: (path) => sizes.get(path) ?? 100,
    warn: (message) => told.push(message),
  });
  return { renders, seen, told };
}

/** Take the steps of `order` one after another, as the budget does, until `stop` of them are taken. */
async function take(renders: ReturnType<typeof stepRenders>, order: StepView[], stop: number) {
  const got: string[] = [];
  for (const [i, step] of order.entries()) {
    if (i >= stop) break;
    renders.fill(order, i);
    got.push((await renders.render(step))!.text!);
  }
  return got;
}

const steps = (n: number, view = "outline") =>
  Array.from({ length: n }, (_, i) => ({ path: `f${i}.py`, view }));

Deno.test("the budget's steps rendered in batches give each step its own render and its warnings in step order", async () => {
  const { renders, seen, told } = fakeRender();
  const order = steps(300);
  const got = await take(renders, order, 100);
  assert.deepEqual(got, order.slice(0, 100).map((s) => `${s.path}@${s.view}`));
  // Warnings are told as each step is taken, in the order of the steps, never for a step not taken.
  assert.deepEqual(told, got.map((key) => `warned by ${key}`));
  // Renders ahead: the batches double from FIRST_BATCH, so the renders never taken are fewer than
  // those taken, and at most one batch.
  const wasted = seen.calls.length - 100;
  assert.ok(wasted >= 0 && wasted < 100 && wasted <= MAX_BATCH, `wasted ${wasted}`);
  assert.equal(renders.counts.rendered, seen.calls.length);
  assert.ok(seen.most > 1 && seen.most <= MAX_BATCH, `at once: ${seen.most}`);
  // Each step rendered once.
  assert.equal(new Set(seen.calls).size, seen.calls.length);
});

Deno.test("a budget that takes one step renders at most the first batch", async () => {
  const { renders, seen, told } = fakeRender();
  await take(renders, steps(300), 1);
  assert.equal(seen.calls.length, FIRST_BATCH);
  assert.deepEqual(told, ["warned by f0.py@outline"]);
});

Deno.test("a file's steps never render at once, and a batch holds at most MAX_BATCH_BYTES of source", async () => {
  // The same file stepped twice in a row (remembered steps), and files of half the bound each.
  const order: StepView[] = [];
  for (let i = 0; i < 20; i++) {
    order.push({ path: `f${i}.py`, view: "skeleton" }, { path: `f${i}.py`, view: "outline" });
  }
  const sizes = new Map(order.map((s) => [s.path, MAX_BATCH_BYTES / 2]));
  const { renders, seen } = fakeRender(sizes);
  const got = await take(renders, order, order.length);
  assert.deepEqual(got, order.map((s) => `${s.path}@${s.view}`));
  assert.equal(seen.overlap, 0);
  // A batch of two (half the bound each), while the last one of the batch before may still run.
  assert.ok(seen.most <= 3, `at once: ${seen.most}`);
  assert.equal(seen.calls.length, order.length);
});

Deno.test("steps the budget no longer wants are not rendered ahead", async () => {
  const told: string[] = [];
  const calls: string[] = [];
  const renders = stepRenders({
    render: ({ path }) => {
      calls.push(path);
      return Promise.resolve(
        { path, view: "outline", status: "rendered", text: path } as RenderedFile,
      );
    },
    wanted: ({ path }) => !path.startsWith("no"),
    bytes: () => 10,
    warn: (m) => told.push(m),
  });
  const order = [...steps(3), { path: "no.py", view: "outline" }, ...steps(40).slice(3)];
  await take(renders, order, 3);
  assert.ok(!calls.includes("no.py"));
});

Deno.test("a build's budget renders its steps ahead in batches: each step's warnings once, in step order", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 120; i++) {
    files[`notes/n${String(i).padStart(3, "0")}.txt`] = `line ${i} of plain words\n`.repeat(20 + i);
  }
  const root = await makeProject(files);
  const seen = { renders: 0, inFlight: 0, most: 0 };
  // A `skeleton` of its own (found before the built-in): half the file, a warning per render.
  const skeleton: ViewModePlugin = {
    kind: "view-mode",
    name: "skeleton",
    version: "1",
    async render(file, ctx) {
      seen.renders++;
      seen.most = Math.max(seen.most, ++seen.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.inFlight--;
      ctx.warn(`rendered ${file.path}`);
      return { text: file.text.slice(0, file.text.length / 2) };
    },
  };
  const inline = { plugins: [skeleton], cache: { enabled: false } };
  const full = await buildContext({ cwd: root, inline }, { write: false });
  assert.equal(seen.renders, 0);
  const tokens = Math.floor(full.manifest.total.tokens * 0.8);
  const result = await buildContext({ cwd: root, inline: { ...inline, budget: { tokens } } }, {
    write: false,
  });
  const stepped = result.manifest.budget!.steppedDown;
  assert.ok(stepped.length > 10 && stepped.length < 100, `${stepped.length} steps`);
  // Every render the budget took told its warning once, in the order of the steps; the renders
  // ahead that it never took told nothing, and are fewer than a batch.
  // A config's plugin's warning is under its name.
  const told = result.warnings.filter((w) => w.startsWith("[plugin skeleton] rendered "));
  assert.deepEqual(
    told.slice(0, stepped.length),
    stepped.map((s) => `[plugin skeleton] rendered ${s.path}`),
  );
  assert.equal(new Set(told).size, told.length);
  assert.ok(
    seen.renders - told.length <= MAX_BATCH,
    `${seen.renders} renders, ${told.length} told`,
  );
  assert.ok(seen.renders <= 2 * told.length, `${seen.renders} renders, ${told.length} told`);
  assert.ok(seen.most > 1, "renders ran one at a time");
});

Deno.test("a render ahead that fails is an error only when the budget takes its step", async () => {
  const renders = stepRenders({
    render: ({ path }) =>
      path === "f2.py" || path === "f1.py"
        ? Promise.reject(new Error(`cannot render ${path}`))
        : Promise.resolve(
          { path, view: "outline", status: "rendered", text: path } as RenderedFile,
        ),
    wanted: () => true,
    bytes: () => 10,
    warn: () => {},
  });
  const order = steps(8);
  // f2.py is rendered ahead with the first batch and never taken: no unhandled rejection.
  renders.fill(order, 0);
  assert.equal((await renders.render(order[0]))!.text, "f0.py");
  renders.fill(order, 1);
  await assert.rejects(renders.render(order[1]), /cannot render f1\.py/);
  await new Promise((resolve) => setTimeout(resolve, 10));
});

Deno.test("a budget's try at listing from the last file back that gives up tells no warning of its own", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) {
    files[`notes/n${String(i).padStart(3, "0")}.txt`] = `line ${i} of plain words\n`.repeat(20 + i);
  }
  const root = await makeProject(files);
  const skeleton: ViewModePlugin = {
    kind: "view-mode",
    name: "skeleton",
    version: "1",
    render(file, ctx) {
      ctx.warn(`rendered ${file.path}`);
      return { text: file.text.slice(0, file.text.length / 2) };
    },
  };
  const inline = { plugins: [skeleton], cache: { enabled: false } };
  const full = await buildContext({ cwd: root, inline }, { write: false });
  // Under half the tree (the try is made) and over what the views reach (no file is listed).
  const tokens = Math.floor(full.manifest.total.tokens * 0.4);
  const result = await buildContext({ cwd: root, inline: { ...inline, budget: { tokens } } }, {
    write: false,
  });
  assert.ok(result.files.every((f) => f.view !== "listed"));
  const stepped = result.manifest.budget!.steppedDown.filter((s) => s.from === "full");
  // A config's plugin's warning is under its name.
  const told = result.warnings.filter((w) => w.startsWith("[plugin skeleton] rendered "));
  assert.deepEqual(
    told.slice(0, stepped.length),
    stepped.map((s) => `[plugin skeleton] rendered ${s.path}`),
  );
  assert.equal(new Set(told).size, told.length, told.join("\n"));
});
