// A task build's map keeps the files changed most in the recent history in full (within
// `budget.mapFull` of its tokens), chosen without the task: two tasks still share it byte for
// byte, and the task section does not show those files again.
import assert from "node:assert/strict";
import { buildContext, type SlopConfig } from "../../mod.ts";
import {
  keptFiles,
  LARGE_FACTOR,
  LARGE_SHARE,
  MAP_SIZE_EXPONENT,
} from "../../pipeline/_task_map.ts";
import { OTHER_FILES } from "../../pipeline/rank.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { git, gitInit, makeProject, tempDir } from "../_helpers.ts";
import { taskProject } from "./_project.ts";

Deno.test("keptFiles takes files by change score over tokens^MAP_SIZE_EXPONENT while they fit", () => {
  const files = [
    { path: "a.py", tokens: 900, code: true },
    { path: "b.py", tokens: 100, code: true },
    { path: "c.py", tokens: 400, code: true },
    { path: "NEWS.md", tokens: 100, code: false },
    { path: "d.py", tokens: 50, code: true },
  ];
  const changes = new Map([["a.py", 1], ["b.py", 0.5], ["c.py", 0.2], ["NEWS.md", 1]]);
  // Values: b 0.05, a 0.033, NEWS 0.025 (a quarter: not code), c 0.01; d never changed: after
  // them all, as changed once.
  assert.deepEqual(keptFiles(files, changes, 10_000), [
    "NEWS.md",
    "a.py",
    "b.py",
    "c.py",
    "d.py",
  ]);
  // a (900) does not fit after b: passed over for the next ones that fit.
  assert.deepEqual(keptFiles(files, changes, 600), ["NEWS.md", "b.py", "c.py"]);
  // No changed file fits: d, which never changed, does.
  assert.deepEqual(keptFiles(files, changes, 99), ["d.py"]);
  assert.deepEqual(keptFiles(files, changes, 0), []);
  assert.deepEqual(keptFiles(files, changes, -5), []);
  // The same choice whatever order the files come in.
  assert.deepEqual(keptFiles(files.toReversed(), changes, 600), ["NEWS.md", "b.py", "c.py"]);
  assert.equal(MAP_SIZE_EXPONENT, 0.5);
  assert.equal(OTHER_FILES, 0.25);
});

Deno.test("keptFiles counts a file larger than LARGE_SHARE of the section's room LARGE_FACTOR times", () => {
  const files = [
    { path: "big.py", tokens: 1500, code: true },
    ...[1, 2, 3, 4].map((i) => ({ path: `s${i}.py`, tokens: 200, code: true })),
  ];
  const changes = new Map([["big.py", 1], ...[1, 2, 3, 4].map((i) => [`s${i}.py`, 0.4] as const)]);
  // Values: big 1/1500^0.5 = 0.026, each small one 0.4/200^0.5 = 0.028: the small ones first,
  // and big.py no longer fits after them.
  const small = ["s1.py", "s2.py", "s3.py", "s4.py"];
  assert.deepEqual(keptFiles(files, changes, 1600), small);
  // A section of 2,000 tokens seldom holds big.py (over 0.7 of it): worth 0.039, it comes first.
  assert.deepEqual(keptFiles(files, changes, 1600, { sectionRoom: 2000 }), ["big.py"]);
  // A section of 3,000 tokens can hold it: as without one.
  assert.deepEqual(keptFiles(files, changes, 1600, { sectionRoom: 3000 }), small);
  // Over LARGE_SHARE of the room, strictly.
  assert.deepEqual(keptFiles(files, changes, 1600, { sectionRoom: 1500 / LARGE_SHARE }), small);
  assert.equal(LARGE_SHARE, 0.7);
  assert.equal(LARGE_FACTOR, 1.5);
});

Deno.test("keptFiles takes the files no commit changed after every changed one, by size", () => {
  const files = [
    { path: "big.py", tokens: 3000, code: true },
    { path: "a.py", tokens: 400, code: true },
    { path: "tiny.py", tokens: 25, code: true },
    { path: "README.md", tokens: 25, code: false },
  ];
  // Only a.py changed: it comes first though tiny.py (1/5) is worth more for its size than a.py
  // (0.1/20); then tiny.py, then README.md (a quarter, 1/20); big.py does not fit.
  const changes = new Map([["a.py", 0.1]]);
  assert.deepEqual(keptFiles(files, changes, 440), ["a.py", "tiny.py"]);
  assert.deepEqual(keptFiles(files, changes, 450), ["README.md", "a.py", "tiny.py"]);
  assert.deepEqual(keptFiles(files, changes, 420), ["a.py"]);
  // No file changed: every file counts as changed once, as before.
  assert.deepEqual(keptFiles(files, new Map(), 460), ["README.md", "a.py", "tiny.py"]);
});

Deno.test("keptFiles breaks equal values by path and counts an empty file as one token", () => {
  const files = [
    { path: "z.py", tokens: 100, code: true },
    { path: "y.py", tokens: 100, code: true },
    { path: "x.py", tokens: 0, code: true },
  ];
  const changes = new Map([["z.py", 1], ["y.py", 1], ["x.py", 0.01]]);
  // y and z are worth the same and only one fits: y, by path; x (0 tokens) fits anyway.
  assert.deepEqual(keptFiles(files, changes, 150), ["x.py", "y.py"]);
});

/** The task project as a git repository whose later commits change two files again and again. */
async function historyProject(): Promise<string> {
  const root = await taskProject();
  await gitInit(root);
  for (let i = 0; i < 4; i++) {
    for (const path of ["src/retry.py", "lib/cache.ts"]) {
      const text = await Deno.readTextFile(`${root}/${path}`);
      const line = path.endsWith(".py") ? `# change ${i}` : `// change ${i}`;
      await Deno.writeTextFile(`${root}/${path}`, `${text}\n${line}\n`);
    }
    await git(root, "commit", "-qam", `change ${i}`);
  }
  return root;
}

/** One project for the tests that only build it (each build in a state dir of its own). */
let shared: Promise<string> | undefined;
function sharedProject(): Promise<string> {
  return shared ??= historyProject();
}

async function buildFor(root: string, config: SlopConfig) {
  const stateDir = await tempDir({ prefix: "slop_state_" });
  return await buildContext({ cwd: root, inline: config, stateDir }, { write: false });
}

const HOT = ["lib/cache.ts", "src/retry.py"];

Deno.test("the map keeps the most changed files in full and two tasks share it byte for byte", async () => {
  const root = await sharedProject();
  const budget = { tokens: 6000 };
  const one = await buildFor(root, { task: "Fix the cookie handler for empty values", budget });
  const two = await buildFor(root, { task: "stream uploads in chunks", budget });
  for (const result of [one, two]) {
    const views = new Map(result.manifest.files.map((f) => [f.path, f.view]));
    for (const path of HOT) assert.equal(views.get(path), "full", path);
    // The other files are stepped down to make room: the map is not everything in full.
    assert.ok([...views.values()].filter((v) => v !== "full").length >= 15);
    assert.ok(result.manifest.total.tokens <= 6000, `${result.manifest.total.tokens}`);
    const map = result.document.slice(0, result.document.indexOf("## Task Files\n"));
    const retry = await Deno.readTextFile(`${root}/src/retry.py`);
    assert.ok(map.includes(retry.trimEnd()), "the map holds src/retry.py as it is");
  }
  assert.equal(one.manifest.prefix.sha256, two.manifest.prefix.sha256);
  const bytes = one.manifest.prefix.bytes;
  assert.deepEqual(
    new TextEncoder().encode(one.document).slice(0, bytes),
    new TextEncoder().encode(two.document).slice(0, bytes),
  );
});

Deno.test("a file the map keeps in full is named in the task section, not shown again", async () => {
  const root = await sharedProject();
  const result = await buildFor(root, {
    task: "Raise the retry limit and retry on a timeout",
    budget: { tokens: 6000 },
  });
  const retry = result.manifest.task!.files.find((f) => f.path === "src/retry.py");
  assert.deepEqual(retry && { where: retry.where, view: retry.view }, {
    where: "map",
    view: "full",
  });
  const section = result.document.slice(result.document.indexOf("## Task Files\n"));
  assert.ok(!section.includes("### src/retry.py"));
  assert.ok(section.includes("- src/retry.py (full, in the map above)"));
  // The room goes to the next ranked files: the timeout module is shown in the section.
  assert.ok(section.includes("### src/timeout.py") || section.includes("### lib/timeout.ts"));
});

Deno.test("budget.mapFull 0 steps every file of the map down alike", async () => {
  const root = await sharedProject();
  const task = "Fix the cookie handler for empty values";
  const off = await buildFor(root, { task, budget: { tokens: 6000, mapFull: 0 } });
  const views = new Map(off.manifest.files.map((f) => [f.path, f.view]));
  for (const path of HOT) assert.notEqual(views.get(path), "full", path);
  // A quarter of the map: room for one of the two changed files only.
  const quarter = await buildFor(root, { task, budget: { tokens: 6000, mapFull: 0.25 } });
  const kept = quarter.manifest.files.filter((f) => HOT.includes(f.path) && f.view === "full");
  assert.equal(kept.length, 1);
});

Deno.test("a map that keeps files is the same bytes in two clones of the same history", async () => {
  const a = await sharedProject();
  const b = await historyProject();
  const config = { task: "stream uploads in chunks", budget: { tokens: 6000 } };
  const one = await buildFor(a, config);
  const two = await buildFor(b, config);
  assert.equal(one.document, two.document);
  assert.deepEqual(one.manifest.task, two.manifest.task);
});

Deno.test("a build without a task keeps no file: budget.mapFull changes nothing there", async () => {
  const root = await sharedProject();
  const plain = await buildFor(root, { budget: { tokens: 3000 } });
  const off = await buildFor(root, { budget: { tokens: 3000, mapFull: 0 } });
  assert.equal(plain.document, off.document);
  const views = new Map(plain.manifest.files.map((f) => [f.path, f.view]));
  for (const path of HOT) assert.notEqual(views.get(path), "full", path);
});

Deno.test("a warm task build keeps the files a cold one keeps: a script known by its #! line is code either way", async () => {
  const root = await taskProject();
  const body = Array.from({ length: 40 }, (_, i) => `retry_${i}() {\n  echo "attempt ${i}"\n}\n`);
  await Deno.mkdir(`${root}/bin`);
  await Deno.writeTextFile(`${root}/bin/retry-tool`, `#!/bin/sh\n${body.join("")}`);
  // The same lines, a little smaller, as notes: worth more per token unless the script is code.
  await Deno.writeTextFile(`${root}/NOTES.md`, body.slice(0, -1).join(""));
  await gitInit(root);
  for (let i = 0; i < 4; i++) {
    for (const path of ["NOTES.md", "bin/retry-tool"]) {
      await Deno.writeTextFile(`${root}/${path}`, `# change ${i}\n`, { append: true });
    }
    await git(root, "commit", "-qam", `change ${i}`);
  }
  // Older than the stat index's racy window, so the next build takes them unread.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const stateDir = await tempDir({ prefix: "slop_state_" });
  // Room for one of the two changed files: the script, as code.
  const config = { task: "stream uploads in chunks", budget: { tokens: 6000, mapFull: 0.25 } };
  const run = () => buildContext({ cwd: root, inline: config, stateDir }, { write: false });
  const cold = await run();
  const views = (result: typeof cold) =>
    ["bin/retry-tool", "NOTES.md"].map((p) =>
      result.manifest.files.find((f) => f.path === p)?.view
    );
  assert.deepEqual(views(cold), ["full", "summary"]);
  // Only the cache is left: the next build reads no unchanged file, and must choose the same.
  for (const kept of ["order", "budget"]) {
    await Deno.remove(`${stateDir}/${kept}`, { recursive: true });
  }
  const warm = await run();
  assert.deepEqual(views(warm), ["full", "summary"]);
  assert.equal(warm.document, cold.document);
});

Deno.test("after an import too large to count and one small commit, the map keeps the files it did not change in full too", async () => {
  const task = "retry the upload on timeout";
  const budget = { tokens: 1600 };
  // 40 handlers and the retry module in one commit (left out: more than 30 files), then one
  // commit that changes one handler: the history knows that file only.
  const root = await makeProject(handlersTree(40), await tempDir());
  await gitInit(root);
  await Deno.writeTextFile(`${root}/src/handler_7.py`, "def handler_7(request):\n    return 7\n");
  await git(root, "commit", "-qam", "handler 7 returns 7");
  const result = await buildFor(root, { task, budget });
  assert.ok(result.manifest.total.tokens <= budget.tokens);
  const full = result.manifest.files.filter((f) => f.view === "full").map((f) => f.path);
  // The changed handler, and the other handlers as one commit of them all keeps them.
  assert.ok(full.includes("src/handler_7.py"), full.join(", "));
  assert.ok(full.length >= 20, `${full.length} files in full: ${full.join(", ")}`);
  assert.equal(result.manifest.task!.files.find((f) => f.path === "src/retry.py")?.where, "task");
});

/** Ten small handlers and a module about retrying an upload on timeout. */
function handlersTree(handlers: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let n = 0; n < handlers; n++) {
    tree[`src/handler_${n}.py`] = `def handler_${n}(request):\n    return request.value + ${n}\n`;
  }
  const body = ['"""Retry the upload on timeout."""', "import time", ""];
  for (let i = 0; i < 5; i++) {
    body.push(
      `def retry_upload_${i}(client, payload, timeout=5.0, attempts=3):`,
      `    """Retry the upload on timeout, attempt ${i}."""`,
      "    for attempt in range(attempts):",
      "        try:",
      "            return client.upload(payload, timeout=timeout)",
      "        except TimeoutError:",
      "            time.sleep(2 ** attempt)",
      "",
    );
  }
  tree["src/retry.py"] = body.join("\n");
  return tree;
}

Deno.test("with no history to read, the map keeps files in full as one commit of them all does, and the task section shows the task's file", async () => {
  const task = "retry the upload on timeout";
  const mapViews = (result: Awaited<ReturnType<typeof buildFor>>) =>
    result.manifest.files.map((f) => `${f.path} ${f.view}`);
  for (const handlers of [10, 40]) {
    const budget = { tokens: handlers === 10 ? 800 : 1600 };
    const plain = await makeProject(handlersTree(handlers), await tempDir());
    const empty = await makeProject(handlersTree(handlers), await tempDir());
    await git(empty, "init", "-q", "-b", "main");
    // One commit of every file: with 40 files it is too large for the history to count.
    const once = await makeProject(handlersTree(handlers), await tempDir());
    await gitInit(once);
    const committed = await buildFor(once, { task, budget });
    for (const root of [plain, empty, once]) {
      const result = root === once ? committed : await buildFor(root, { task, budget });
      const label = `${handlers} handlers, ${
        root === plain ? "no git" : root === empty ? "no commit" : "one commit"
      }`;
      assert.ok(result.manifest.total.tokens <= budget.tokens, label);
      const retry = result.manifest.task!.files.find((f) => f.path === "src/retry.py");
      assert.equal(retry?.where, "task", label);
      assert.ok(result.document.includes("## Task Files\n\n### src/retry.py\n"), label);
      // The small handlers are kept in full in the map, not stepped down with everything else.
      const full = result.manifest.files.filter((f) => f.view === "full").length;
      assert.ok(full >= handlers / 2, `${label}: ${full} files in full`);
      assert.deepEqual(mapViews(result), mapViews(committed), label);
    }
  }
});
