// A task build fits its budget (counted on the whole document, not only by blocks): the most
// relevant files in their richest view that fits, the task text last, a cache breakpoint at the
// end of the task-independent prefix.
import assert from "node:assert/strict";
import { buildContext, countTokens, type SlopConfig } from "../../mod.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { taskProject } from "./_project.ts";

const TASKS = [
  "Fix the cookie handler: a cookie with an empty value is dropped",
  "Raise the retry limit and retry on a timeout",
  "certificate",
];

async function buildFor(root: string, config: SlopConfig) {
  return await buildContext({ cwd: root, inline: config }, { write: false });
}

Deno.test("a task build never goes over its budget, counted on the whole document", async () => {
  const root = await taskProject();
  for (const tokens of [1200, 2500, 4000, 8000, 16000, 40000]) {
    for (const task of TASKS) {
      for (const format of ["markdown", "xml"] as const) {
        const result = await buildFor(root, { task, budget: { tokens }, output: { format } });
        const label = `${tokens} ${format} "${task}"`;
        assert.ok(result.manifest.total.tokens <= tokens, label);
        assert.ok((await countTokens(result.document)) <= tokens, label);
        assert.equal(result.manifest.budget?.met, true, label);
        assert.equal(result.manifest.budget?.tokens, tokens, label);
        assert.equal(result.manifest.budget?.after, result.manifest.total.tokens, label);
      }
    }
  }
});

Deno.test("the most relevant file is shown in full when it fits the task's share", async () => {
  const root = await taskProject();
  const result = await buildFor(root, { task: TASKS[0], budget: { tokens: 8000 } });
  const [top] = result.manifest.task!.files;
  assert.ok(top.path.includes("cookie"), top.path);
  assert.deepEqual([top.where, top.view], ["task", "full"]);
  const block = result.blocks.find((b) => b.id === `task:${top.path}`)!;
  assert.ok(block.text.startsWith(`### ${top.path}\n\n\`\`\``));
  // Its map view is lighter (the map is fitted to the other half).
  const inMap = result.manifest.files.find((f) => f.path === top.path)!;
  assert.notEqual(inMap.view, "full");
  // The files the section shows or names are in the ranking's order.
  const scores = result.manifest.task!.files.map((f) => f.score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
});

Deno.test("files passed over in full get a skeleton or an outline with what is left", async () => {
  const root = await taskProject();
  const result = await buildFor(root, { task: TASKS[0], budget: { tokens: 4000, taskShare: 0.2 } });
  const shown = result.manifest.task!.files.filter((f) => f.where === "task");
  assert.ok(shown.some((f) => f.view === "full"), JSON.stringify(shown));
  // The first file, too large in full for the section's 800 tokens, is shown condensed: it was
  // only named while a file ranked third had the skeleton.
  const [top] = result.manifest.task!.files;
  assert.ok(top.path.includes("cookie"), top.path);
  assert.equal(top.where, "task", JSON.stringify(shown));
  assert.ok(["skeleton", "outline"].includes(top.view), top.view);
  assert.ok(result.manifest.task!.tokens <= 800);
  assert.ok(result.manifest.total.tokens <= 4000);
});

Deno.test("files the map shows in full are named, not repeated", async () => {
  const root = await taskProject();
  // A budget the whole project fits in: the map has every file in full.
  const result = await buildFor(root, {
    task: TASKS[1],
    budget: { tokens: 200000, mapTokens: 200000 },
  });
  const files = result.manifest.task!.files;
  assert.ok(files.length > 0);
  assert.ok(files.every((f) => f.where === "map" && f.view === "full"));
  assert.ok(!result.blocks.some((b) => b.section === "task" && b.id.startsWith("task:src/")));
  assert.match(result.document, /\n- src\/retry\.py \(full, in the map above\)\n/);
});

Deno.test("a task text longer than the budget is kept whole, with a warning", async () => {
  const root = await taskProject();
  const task = `Fix the cookie handler.\n\n${"The log says the cookie was dropped. ".repeat(400)}`;
  const result = await buildFor(root, { task, budget: { tokens: 1500 } });
  assert.ok(result.document.endsWith(`${task.trim()}\n\n`));
  assert.equal(result.manifest.budget?.met, false);
  assert.ok(
    result.warnings.some((w) => /cannot be met with the task/.test(w)),
    result.warnings.join("\n"),
  );
});

Deno.test("an open code fence in the task is closed, so it cannot swallow what follows", async () => {
  const root = await taskProject();
  const result = await buildFor(root, { task: "Fix this:\n```python\nsplit_field('a,\"b,c\"')" });
  assert.ok(result.document.endsWith("```python\nsplit_field('a,\"b,c\"')\n```\n\n"));
});

Deno.test("the cache breakpoint ends the prefix: the last block before the task section", async () => {
  const root = await taskProject();
  for (const task of TASKS.slice(0, 2)) {
    const result = await buildFor(root, { task, budget: { tokens: 16000 } });
    const m = result.manifest;
    const boundary = result.blocks.findIndex((b) => b.id === "task");
    const last = result.blocks[boundary - 1];
    assert.equal(last.offset + last.length, m.prefix.bytes);
    assert.ok(
      m.breakpoints?.some((bp) => bp.end === m.prefix.bytes),
      JSON.stringify(m.breakpoints),
    );
  }
});

Deno.test("with a discussion between the prefix and the task, a breakpoint ends the discussion too", async () => {
  const root = await taskProject();
  const history = Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? "AI" : "User",
    content: `Message ${i} about the cookie jar and the session that keeps it. `.repeat(20),
  }));
  const result = await buildFor(root, { task: TASKS[0], history, budget: { tokens: 40000 } });
  const m = result.manifest;
  const boundary = result.blocks.findIndex((b) => b.id === "task");
  const before = result.blocks[boundary - 1];
  assert.equal(before.section, "history");
  assert.ok(m.prefix.bytes < before.offset);
  const ends = m.breakpoints!.map((bp) => bp.end);
  assert.ok(ends.includes(m.prefix.bytes), JSON.stringify(m.breakpoints));
  assert.ok(ends.includes(before.offset + before.length), JSON.stringify(m.breakpoints));
});

Deno.test("a task build ranks as slop rank does: the same scores, in the same order", async () => {
  const root = await taskProject();
  const task = TASKS[0];
  const rank = await runCliShared(["rank", "--task", task, "--json", "--top", "0"], root);
  assert.equal(rank.code, 0, rank.stderr);
  const ranked = JSON.parse(rank.stdout).files as Array<{ path: string; score: number }>;
  const scores = new Map(ranked.map((r) => [r.path, r.score]));
  const result = await buildFor(root, { task, budget: { tokens: 8000 } });
  const named = result.manifest.task!.files;
  assert.ok(named.length > 3);
  for (const f of named) assert.equal(f.score, scores.get(f.path), f.path);
  // The names follow the ranking's order (a subsequence of it).
  const positions = named.map((f) => ranked.findIndex((r) => r.path === f.path));
  assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
});

// vim/vim, "Fix crash when folding with foldmethod=expr in a closed fold after :move" at 32,000
// tokens: src/fold.c ranked first and src/move.c second, each larger than the section's room, were
// only named, while small files ranked eleventh and below were shown in full.
Deno.test("the ranking's first file, too large for the section in full, is shown condensed", async () => {
  const big = ['"""The cookie jar: parse, store, expire and send every cookie."""', ""];
  for (let i = 0; i < 80; i++) {
    big.push(
      `def cookie_step_${i}(jar, cookie, expires=None):`,
      `    """Apply step ${i} of the cookie jar's rules to one cookie."""`,
      ...Array.from({ length: 12 }, (_, j) => `    jar.v${j} = [cookie.n${j}, expires, ${i * j}]`),
      "    return jar",
      "",
      "",
    );
  }
  const tree: Record<string, string> = { "src/cookie_jar.py": big.join("\n") };
  for (let k = 0; k < 200; k++) {
    tree[`src/util_${k}.py`] = `"""Helpers ${k}; one reads a cookie."""\n\n` +
      Array.from(
        { length: 8 },
        (_, j) =>
          `def helper_${k}_${j}(value, limit=${j}):\n    """Add ${k} to the value."""\n` +
          `    return min(value + ${k}, limit)\n`,
      ).join("\n");
  }
  const root = await makeProject(tree);
  const task = "Fix the cookie jar: an expired cookie is still sent";
  const result = await buildFor(root, { task, budget: { tokens: 8000 } });
  const [top] = result.manifest.task!.files;
  assert.equal(top.path, "src/cookie_jar.py");
  assert.equal(top.where, "task", JSON.stringify(top));
  assert.ok(["skeleton", "outline", "summary"].includes(top.view), top.view);
  const block = result.blocks.find((b) => b.id === `task:${top.path}`)!;
  assert.ok(block.tokens <= 0.15 * result.manifest.task!.tokens + 200, String(block.tokens));
  assert.ok(result.manifest.total.tokens <= 8000);
});
