import assert from "node:assert/strict";
import { renderCode, renderOrFallback, useSharedRenderer } from "../../plugins/view_modes/_code.ts";
import { codePool } from "../../plugins/view_modes/_code_pool.ts";
import { abortsHere, isRuntimeAbort, MAX_HEAP, MAX_RUNTIMES } from "../../grammars/tree_sitter.ts";
import { join } from "node:path";
import { REPO, tempDir } from "../_helpers.ts";
import "../../grammars/parser.ts";
import type { ViewContext, ViewOutput } from "../../pipeline/types.ts";
import { ambiguousLines, ambiguousRun } from "./_parse_aborts.ts";

// 64 KB of `a < `: tree-sitter-c-sharp's memory passes its bound at the end of the text and the
// runtime aborts (before, every later parse on that runtime failed with `Aborted()`).
const BAD = { path: "src/A.cs", text: ambiguousRun(16_000) };
// 16 KB of `x = a < a ‹` lines in Java: the runtime reads out of its memory (before, the next file on
// that runtime rendered as `class f(in retur ... ; } }`).
const DEEP = { path: "src/A.java", text: ambiguousLines(4_000) };
const GOOD = [
  {
    path: "src/B.cs",
    text: "namespace N { public class B { public int F(int x) { return x; } } }\n",
  },
  { path: "src/C.java", text: "class C { int f(int a) { return a + 1; } }\n" },
  { path: "src/d.py", text: "def d(x):\n    return x\n" },
  { path: "src/E.cs", text: "public record E(int A);\npublic enum K { One, Two }\n" },
];
const ABORTED = /^tree-sitter's runtime aborted \("Aborted\(\)[^"]*"\), and was made anew$/;
const OVERFLOWED =
  `tree-sitter's runtime aborted ("memory access out of bounds"), and was made anew`;

/** Each good file rendered on a runtime that never aborted: the reference. */
async function reference(): Promise<string[]> {
  const out: string[] = [];
  for (const f of GOOD) out.push(JSON.stringify(await renderCode(f.path, f.text)));
  return out;
}

Deno.test("a file that makes the runtime trap fails alone: later files on the same thread render as before", async () => {
  const before = await reference();
  const error = await renderCode(DEEP.path, DEEP.text).then(() => undefined, (e) => e);
  assert.deepEqual(await reference(), before, "the files after it");
  assert.ok(isRuntimeAbort(error), String(error));
  assert.equal((error as Error).message, OVERFLOWED);
});

Deno.test("a worker whose runtime aborts is replaced: the files after it in the burst and in the next render as on this thread", async () => {
  const before = await reference();
  // This thread's runtime aborted once (here or in the test before): it leaves files to workers.
  if (!abortsHere()) await renderCode(DEEP.path, DEEP.text).catch(() => {});
  const pool = codePool({ threads: 2, minChars: 0 });
  for (const [burst, file] of [BAD, DEEP].entries()) {
    const bad = pool.render(file.path, file.text).then(() => "rendered", (e) => e.message);
    const good = GOOD.map((f) => pool.render(f.path, f.text).then((v) => JSON.stringify(v)));
    assert.deepEqual(await Promise.all(good), before, `burst ${burst + 1}`);
    if (file === BAD) assert.match(await bad, ABORTED);
    else assert.equal(await bad, OVERFLOWED);
  }
  assert.equal(pool.rendered.workerAborts, 2, "a worker took the bad file in each burst");
  assert.deepEqual(pool.rendered, { thisThread: 0, workers: GOOD.length * 2, workerAborts: 2 });
  assert.equal(pool.workers, 0, "the workers stopped once idle");
});

Deno.test("the view of a file that made the runtime abort is its summary, with a note naming the view and the file, the same on this thread and on a worker", async () => {
  const summary: ViewOutput = { text: "**Java**, 4,000 lines", fenced: false };
  const ctx = { renderAs: () => Promise.resolve(summary) } as unknown as ViewContext;
  const file = { ...DEEP, absPath: "/x/src/A.java", sha256: "" };
  const views: ViewOutput[] = [];
  const pool = codePool({ threads: 2, minChars: 0 });
  for (const render of [renderCode, pool.render]) {
    useSharedRenderer(render);
    views.push(
      await renderOrFallback(file, ctx, {
        view: "skeleton",
        code: {},
        finish: (view) => ({ text: view.text }),
      }),
    );
  }
  useSharedRenderer(renderCode);
  assert.equal(pool.rendered.workerAborts, 1, "a worker took the file");
  assert.equal(pool.workers, 0, "no worker is left running");
  assert.deepEqual(views[0], views[1]);
  assert.equal(views[0].text, "**Java**, 4,000 lines");
  assert.equal(views[0].view, "summary");
  assert.equal(
    views[0].notes![0],
    `skeleton cannot parse "src/A.java": ${OVERFLOWED}: fell back to summary`,
  );
  // Stored: the same text aborts again, and each abort costs a runtime.
  assert.equal(views[0].cacheable, undefined);
});

Deno.test("a thread makes at most MAX_RUNTIMES runtimes: past them its code views fail with the bound, naming it", async () => {
  const dir = await tempDir();
  const script = join(dir, "bound.ts");
  await Deno.writeTextFile(
    script,
    `import { renderCode } from ${JSON.stringify(join(REPO, "plugins/view_modes/_code.ts"))};
const out = [];
for (const path of ["A.java", "A.java", "A.java", "B.java"]) {
  const text = path === "A.java" ? ${JSON.stringify(DEEP.text)} : "class B {}";
  out.push(await renderCode(path, text).then((v) => v.text, (e) => e.message));
}
console.log(JSON.stringify(out));
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(MAX_RUNTIMES, 3);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [
    OVERFLOWED,
    OVERFLOWED,
    OVERFLOWED,
    "tree-sitter's runtime is not made again: it aborted 3 times here",
  ]);
});

Deno.test("a runtime's memory stops at MAX_HEAP: the run that took 2 GiB aborts at 1, and the next runtime starts small", async () => {
  const dir = await tempDir();
  const script = join(dir, "memory.ts");
  await Deno.writeTextFile(
    script,
    `import { renderCode } from ${JSON.stringify(join(REPO, "plugins/view_modes/_code.ts"))};
import { heapBytes } from ${JSON.stringify(join(REPO, "grammars/tree_sitter.ts"))};
const bad = await renderCode("A.cs", ${JSON.stringify(BAD.text)}).then(() => "", (e) => e.message);
const good = (await renderCode("B.cs", "class B { void F() { int x = 1; } }\\n")).text;
console.log(JSON.stringify({ bad, good, heap: heapBytes(), rss: Deno.memoryUsage().rss }));
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const seen = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.match(seen.bad, ABORTED);
  assert.equal(seen.good, "class B { void F() { ... } }\n");
  // The aborted runtime's memory stays reserved on this thread: at most its bound, not 2 GiB.
  assert.ok(seen.rss < MAX_HEAP * 1.5, `rss ${seen.rss}`);
  assert.ok(seen.heap < MAX_HEAP / 16, `heap of the fresh runtime ${seen.heap}`);
});
