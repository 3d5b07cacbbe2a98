// Two tasks on the same tree share the task-independent prefix (the repository map) byte for byte,
// with and without a budget; the task's files follow it, and the task text comes last.
import assert from "node:assert/strict";
import { buildContext, countTokens, type SlopConfig } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";
import { taskProject } from "./_project.ts";

const TASKS = [
  "Fix the cookie handler: a cookie with an empty value is dropped",
  "Raise the retry limit and retry on a timeout",
  "stream uploads in chunks",
];

async function buildFor(root: string, config: SlopConfig, stateDir?: string) {
  return await buildContext(
    { cwd: root, inline: config, stateDir },
    { write: false },
  );
}

/** The project of the warm build's test, and when it was written: made as the module loads. */
const aging = taskProject().then((root) => ({ root, at: Date.now() }));

/** Byte length of the common prefix of two strings' UTF-8 encodings. */
function commonPrefix(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

for (const budget of [undefined, 3000, 6000]) {
  const label = budget === undefined ? "without a budget" : `with a budget of ${budget}`;

  Deno.test(`two tasks share the stable prefix byte for byte ${label}`, async () => {
    const root = await taskProject();
    const results = [];
    // One after the other in the same project (order memory and budget memory kept), as a user
    // asks for one task after another.
    for (const task of TASKS) {
      results.push(await buildFor(root, { task, budget: { tokens: budget } }));
    }
    const [first, ...rest] = results;
    const bytes = first.manifest.prefix.bytes;
    assert.ok(bytes > 0);
    const prefix = new TextEncoder().encode(first.document).slice(0, bytes);
    for (const other of rest) {
      assert.equal(other.manifest.prefix.sha256, first.manifest.prefix.sha256);
      assert.deepEqual(new TextEncoder().encode(other.document).slice(0, bytes), prefix);
      assert.ok(commonPrefix(first.document, other.document) >= bytes);
      assert.notEqual(other.document, first.document);
    }
    for (const [i, result] of results.entries()) {
      const doc = result.document;
      // The prefix ends where the task section starts, and the task text is the last block.
      const start = doc.indexOf("## Task Files\n");
      assert.equal(new TextEncoder().encode(doc.slice(0, start)).length, bytes);
      assert.equal(result.blocks.at(-1)!.id, "task:text");
      assert.ok(doc.endsWith(`## Task\n\n${TASKS[i]}\n\n`));
      if (budget !== undefined) {
        assert.ok(result.manifest.total.tokens <= budget, `${result.manifest.total.tokens}`);
        assert.ok((await countTokens(doc)) <= budget);
      }
    }
  });

  Deno.test(`the prefix does not depend on the order memory of earlier tasks ${label}`, async () => {
    // Each task in a fresh state dir: the same map as the builds that followed each other.
    const root = await taskProject();
    const fresh = [];
    for (const task of TASKS) {
      const stateDir = await tempDir({ prefix: "slop_state_" });
      fresh.push(await buildFor(root, { task, budget: { tokens: budget } }, stateDir));
    }
    const hashes = new Set(fresh.map((r) => r.manifest.prefix.sha256));
    assert.equal(hashes.size, 1);
  });
}

Deno.test("a task build is deterministic: the same task twice gives the same bytes", async () => {
  const a = await taskProject();
  const b = await taskProject();
  const config = { task: TASKS[0], budget: { tokens: 5000 } };
  const one = await buildFor(a, config);
  const two = await buildFor(b, config);
  assert.equal(one.document, two.document);
  assert.deepEqual(one.manifest.task, two.manifest.task);
});

Deno.test("at most half the budget goes to the task by default: the prefix is at least half the document", async () => {
  const root = await taskProject();
  for (const task of TASKS) {
    const result = await buildFor(root, { task, budget: { tokens: 6000 } });
    const m = result.manifest;
    assert.equal(m.task?.share, 0.5);
    assert.ok(m.prefix.tokens >= m.total.tokens - m.task!.tokens);
    assert.ok(m.task!.tokens <= 3000, `${m.task!.tokens}`);
    // In bytes too: the prefix two tasks share is at least half of each document.
    assert.ok(m.prefix.bytes * 2 >= m.total.bytes, `${m.prefix.bytes} of ${m.total.bytes}`);
  }
});

Deno.test("budget.taskShare moves the boundary: a larger share gives the task more and the map less", async () => {
  const root = await taskProject();
  const small = await buildFor(root, { task: TASKS[0], budget: { tokens: 6000, taskShare: 0.2 } });
  const large = await buildFor(root, { task: TASKS[0], budget: { tokens: 6000, taskShare: 0.8 } });
  assert.ok(small.manifest.prefix.tokens > large.manifest.prefix.tokens);
  assert.ok(small.manifest.task!.tokens < large.manifest.task!.tokens);
  for (const r of [small, large]) assert.ok(r.manifest.total.tokens <= 6000);
});

Deno.test("budget.mapTokens caps the map: a larger budget goes to the task's files", async () => {
  const root = await taskProject();
  const capped = await buildFor(root, {
    task: TASKS[0],
    budget: { tokens: 12000, mapTokens: 2000 },
  });
  const m = capped.manifest;
  assert.ok(m.prefix.tokens <= 2000, `${m.prefix.tokens}`);
  assert.equal(m.task!.share, 0.8333);
  // The task section fills the rest of the budget: past the cap it is not held to the map's bytes.
  assert.ok(m.total.tokens <= 12000);
  assert.ok(m.total.tokens >= 11500, `${m.total.tokens}`);
  assert.ok(m.total.bytes > 6 * m.prefix.bytes, `${m.total.bytes} ${m.prefix.bytes}`);
  // The same cap and budget, another task: the same map.
  const other = await buildFor(root, {
    task: TASKS[1],
    budget: { tokens: 12000, mapTokens: 2000 },
  });
  assert.equal(other.manifest.prefix.sha256, m.prefix.sha256);
});

Deno.test("a build without a task between two task builds leaves their shared prefix alone", async () => {
  const root = await taskProject();
  const budget = { tokens: 5000 };
  await buildFor(root, { budget: { tokens: 3000 } });
  const first = await buildFor(root, { task: TASKS[0], budget });
  // The build without a task remembers its own steps for its whole budget.
  await buildFor(root, { budget });
  await buildFor(root, { budget: { tokens: 9000 } });
  const second = await buildFor(root, { task: TASKS[1], budget });
  assert.equal(second.manifest.prefix.sha256, first.manifest.prefix.sha256);
});

Deno.test("task builds keep their map's order and budget steps apart from other builds'", async () => {
  const root = await taskProject();
  await buildFor(root, { budget: { tokens: 3000 } });
  await buildFor(root, { task: TASKS[0], budget: { tokens: 5000 } });
  const names = async (dir: string) =>
    (await Array.fromAsync(Deno.readDir(`${root}/.slop/${dir}`))).map((e) => e.name).sort();
  assert.deepEqual(await names("order"), ["context.json", "context.task.json"]);
  assert.deepEqual(await names("budget"), ["context.json", "context.task.json"]);
});

Deno.test("a warm build (files not read again, from the stat index) ranks and shows the same files", async () => {
  const { root, at } = await aging;
  // Files (and their inode change times) older than the stat index's racy window: a warm build
  // takes them from the index without reading them. The project was written as the module
  // loaded, so the tests before this one ran during the wait.
  await new Promise((done) => setTimeout(done, Math.max(0, at + 2100 - Date.now())));
  const config = { task: TASKS[0], budget: { tokens: 5000 } };
  const cold = await buildFor(root, config);
  const warm = await buildFor(root, config);
  assert.ok(cold.manifest.task!.files.some((f) => f.where === "task"));
  assert.equal(warm.document, cold.document);
  assert.deepEqual(warm.manifest.task, cold.manifest.task);
});
