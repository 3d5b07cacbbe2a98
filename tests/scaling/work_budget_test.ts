import assert from "node:assert/strict";
import { buildContext, outlineViewMode, skeletonViewMode } from "../../mod.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { SHAPES } from "../../bench/shapes.ts";
import { makeProject } from "../_helpers.ts";
import { assertLinear, SMALL_SIZES as CODE_SIZES } from "./_growth.ts";

Deno.test("the code views' work (parser steps and tree nodes) grows linearly with the file, whatever its shape", async () => {
  for (const shape of SHAPES.filter((s) => /\.(js|py)$/.test(s.file))) {
    const work: number[] = [];
    for (const size of CODE_SIZES) {
      const text = shape.make(size);
      const steps = await tallyWork(async () => {
        await renderCode(shape.file, text, { maxWork: Infinity }).catch(() => undefined);
      });
      work.push(steps.get("code") ?? 0);
    }
    assertLinear(shape.name, work, CODE_SIZES);
  }
});

Deno.test("a code view over its work budget falls back to summary, with the reason in the manifest and the block", async () => {
  const lines = Array.from({ length: 400 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`);
  const root = await makeProject({ "big.py": lines.join(""), "small.py": "def g():\n    pass\n" });
  // The skeleton's own budget (its factory's option): the summary keeps its default.
  const build = (maxWork?: number) =>
    buildContext({
      cwd: root,
      inline: {
        files: [{ path: "*.py", view: "skeleton" }],
        plugins: maxWork ? [skeletonViewMode({ maxWork })] : [],
        cache: { enabled: false },
      },
    }, { write: false });
  const tight = await build(2000);
  const big = tight.manifest.files.find((f) => f.path === "big.py")!;
  assert.equal(big.view, "summary");
  assert.equal(big.fallback, "skeleton -> summary: over its work budget");
  assert.match(
    big.notes!.join("\n"),
    /^skeleton of "big\.py" stopped: work budget of 2000 units \(parser steps and tree nodes visited\) spent before the view was done: fell back to summary$/m,
  );
  assert.match(
    tight.document,
    /\(skeleton view over its work budget: summary shown\)\n\n\*\*Python\*\*, 800 lines/,
  );
  // A file under the budget is rendered as asked.
  const small = tight.manifest.files.find((f) => f.path === "small.py")!;
  assert.deepEqual([small.view, small.fallback], ["skeleton", undefined]);
  // The default budget is far above what these files need: no fallback, and the same document as
  // a budget that cannot be reached.
  const roomy = await build();
  assert.equal(roomy.manifest.files.find((f) => f.path === "big.py")!.view, "skeleton");
  const block = (document: string) => /### big\.py\n[^]*?\n```\n/.exec(document)?.[0];
  assert.equal(block(roomy.document), block((await build(1e15)).document));
  assert.match(block(roomy.document)!, /^def f399\(x\):\n {4}\.\.\.$/m);
});

Deno.test("a code view stops at the same point of its work budget each time: counted, not timed", async () => {
  const text = "x\n".repeat(50_000);
  const messages = new Set<string>();
  const spent = new Set<number>();
  for (let i = 0; i < 3; i++) {
    const steps = await tallyWork(async () => {
      await renderCode("tiny.py", text, { maxWork: 100_000 }).catch((e) => messages.add(e.message));
    });
    spent.add(steps.get("code")!);
  }
  assert.deepEqual([...messages], [
    "work budget of 100000 units (parser steps and tree nodes visited) spent before the view was done",
  ]);
  assert.equal(spent.size, 1);
});

Deno.test("summary over its work budget lists the file only; a code view over budget then ends listed too", async () => {
  const root = await makeProject({
    "notes.txt": "line\n".repeat(100),
    "app.py": "def f(x):\n    return x\n".repeat(50),
  });
  const result = await buildContext({
    cwd: root,
    inline: {
      files: [
        { path: "notes.txt", view: "summary", options: { maxWork: 100 } },
        { path: "app.py", view: "skeleton", options: { maxWork: 100 } },
      ],
      cache: { enabled: false },
    },
  }, { write: false });
  const row = (path: string) => result.manifest.files.find((f) => f.path === path)!;
  assert.deepEqual([row("notes.txt").view, row("notes.txt").fallback], [
    "listed",
    "summary -> listed: over its work budget",
  ]);
  assert.deepEqual(row("notes.txt").notes, [
    'summary of "notes.txt" needs 1000 work units, over its budget of 100: listed only',
  ]);
  assert.match(
    result.document,
    /### notes\.txt\n\n\(summary over its work budget: listed only, 100 lines\)\n/,
  );
  assert.deepEqual([row("app.py").view, row("app.py").fallback], [
    "listed",
    "skeleton -> summary -> listed: over its work budget",
  ]);
  assert.match(
    result.document,
    /### app\.py\n\n\(skeleton view over its work budget\)\n\n\(summary over its work budget: listed only, 100 lines\)\n/,
  );
});

Deno.test("the reading before the parse stops once the tokens outside function bodies exceed the budget", async () => {
  const maxWork = 10_000;
  for (const [path, line] of [["tiny.js", "x\n"], ["tiny.ts", "x;\n"], ["tiny.py", "x\n"]]) {
    const read: number[] = [];
    for (const lines of [50_000, 200_000, 800_000]) {
      const text = line.repeat(lines);
      let message = "";
      const steps = await tallyWork(async () => {
        await renderCode(path, text, { maxWork }).catch((e) => message = e.message);
      });
      assert.match(
        message,
        /^work budget of 10000 units \(parser steps and tree nodes visited\) cannot hold the parse: more than 10000 tokens outside function bodies by character \d+, each at least one parser step$/,
        path,
      );
      // Neither parsed nor read to its end: the same few characters read at any size.
      assert.equal(steps.get("code") ?? 0, 0, path);
      read.push(steps.get("hollow")!);
    }
    assert.ok(read[0] > 0 && read[0] < 50_000 * line.length, `${path}: ${read}`);
    assert.deepEqual(new Set(read).size, 1, `${path}: ${read}`);
  }
});

Deno.test("tokens inside function bodies do not count before the parse: such a file renders as without a budget", async () => {
  const body = (indent: string, end: string) => `${indent}x${end}\n`.repeat(20_000);
  for (
    const [path, text] of [
      ["big.js", `export function f(a) {\n${body("  ", ";")}}\n`],
      ["big.py", `def f(a):\n${body("    ", "")}\nx = 1\n`],
    ]
  ) {
    let free: string | undefined;
    const cost = await tallyWork(async () => {
      free = (await renderCode(path, text, { maxWork: Infinity }))!.text;
    });
    // A budget of what the parse and the walk cost (give or take one call of the parser's
    // progress callback, 100 steps): 20,000 tokens in the body, far more than the budget for
    // JavaScript (whose hollowed body costs the parser a few steps).
    const maxWork = cost.get("code")! + 100;
    if (path.endsWith(".js")) assert.ok(maxWork < 20_000, `${path}: ${maxWork}`);
    assert.equal((await renderCode(path, text, { maxWork }))!.text, free, path);
    assert.match(free!, /^(export function f\(a\) \{|def f\(a\):)/, path);
  }
});

Deno.test("a parse stopped by the work budget leaves nothing behind: the next file of its language renders as alone", async () => {
  for (
    const [big, next] of [["tiny.py", "def f(a):\n    return a\n\nx = 1\n"], [
      "tiny.js",
      "function f(a) {\n  return a;\n}\nconst y = 1;\n",
    ]]
  ) {
    const path = big.replace("tiny", "next");
    const alone = (await renderCode(path, next))!.text;
    // Below the token rule's count (`hollow: false`): the parser itself stops at the budget.
    await assert.rejects(
      renderCode(big, "e()\nx\n".repeat(50_000), { maxWork: 100_000, hollow: false }),
      /^Error: work budget of 100000 units/,
    );
    assert.equal((await renderCode(path, next))!.text, alone, path);
  }
});

Deno.test("the code views' work grows linearly with a Ruby, PHP, C#, shell, Scala, Kotlin, Lua, Zig, Elixir, PowerShell or Haskell file", async () => {
  // One class a unit, repeated to the size: methods with bodies, constants, comments.
  const units: Array<[string, string, (i: number) => string]> = [
    ["a.rb", "", (i) => `# C${i}\nclass C${i}\n  X = ${i}\n  def f(a)\n    a + ${i}\n  end\nend\n`],
    [
      "a.php",
      "<?php\n",
      (i) =>
        `/** C${i} */\nclass C${i} {\n  const X = ${i};\n  public function f($a) { return $a + ${i}; }\n}\n`,
    ],
    [
      "a.cs",
      "",
      (i) =>
        `/// C${i}\nclass C${i} {\n  const int X = ${i};\n  int F(int a) { return a + ${i}; }\n}\n`,
    ],
    [
      "a.sh",
      "#!/bin/sh\n",
      (i) => `# f${i}\nX${i}=${i}\nf${i}() {\n  echo "$1" ${i}\n}\nf${i} a\n`,
    ],
    [
      "a.scala",
      "package p\n",
      (i) =>
        `/** C${i} */\nobject C${i} {\n  val X = ${i}\n  def f(a: Int): Int = {\n    a + ${i}\n  }\n}\n`,
    ],
    [
      "a.kt",
      "package p\n",
      (i) =>
        `/** C${i} */\nclass C${i} {\n  val x = ${i}\n  fun f(a: Int): Int {\n    return a + ${i}\n  }\n}\n`,
    ],
    [
      "a.lua",
      "local M = {}\n",
      (i) => `-- f${i}\nM.X${i} = ${i}\nfunction M.f${i}(a)\n  return a + ${i}\nend\n`,
    ],
    [
      "a.zig",
      "",
      (i) =>
        `/// C${i}\npub const C${i} = struct {\n    x: u32 = ${i},\n    pub fn f(a: u32) u32 {\n        return a + ${i};\n    }\n};\n`,
    ],
    [
      "a.ex",
      "",
      (i) => `# C${i}\ndefmodule C${i} do\n  @x ${i}\n  def f(a) do\n    a + ${i}\n  end\nend\n`,
    ],
    [
      "a.ps1",
      "",
      (i) =>
        `# C${i}\nclass C${i} {\n  [int] $X = ${i}\n  [int] F([int] $a) {\n    return $a + ${i}\n  }\n}\nfunction f${i} {\n  param($a = {})\n  $a\n}\n`,
    ],
    [
      "a.hs",
      "module A (f0) where\n",
      (i) => `-- | f${i}\nf${i} :: Int -> Int\nf${i} a =\n  a + ${i}\n\nx${i} = ${i}\n`,
    ],
  ];
  const sizes = CODE_SIZES;
  for (const [file, head, unit] of units) {
    const work: number[] = [];
    for (const size of sizes) {
      let text = head;
      for (let i = 0; text.length < size; i++) text += unit(i);
      const steps = await tallyWork(async () => {
        await renderCode(file, text, { maxWork: Infinity });
      });
      work.push(steps.get("code") ?? 0);
    }
    assertLinear(file, work, sizes);
  }
});

Deno.test("a masked view that hides an item after a long run of blanks on its line closes the cut in linear work", async () => {
  // The cut closed with `/[ \t]*\uE000[\uE000 \t]*/g`, which tried every blank of the run: a
  // megabyte of spaces in a C file held the view for half an hour (bench/fuzz_inputs.ts).
  const work: number[] = [];
  for (const size of CODE_SIZES) {
    const text = `int add(int a) { return a; }\nstatic${" ".repeat(size)}int g;  void f(void) {}\n`;
    let view: string | undefined;
    const steps = await tallyWork(async () => {
      view = (await renderCode("a.c", text, { mask: { f: "hide" }, rest: "sig" }))?.text;
    });
    assert.equal(view, `int add(int a) { ... }\nstatic${" ".repeat(size)}int g;\n`);
    work.push(steps.get("cuts") ?? 0);
  }
  assertLinear("closing the cuts", work, CODE_SIZES);
});

Deno.test("a file over its work budget is parsed to it once: not again for its outline, nor in the next build", async () => {
  // Different from every other test's text: the shared pool remembers a run over its budget.
  const lines = Array.from({ length: 400 }, (_, i) => `def once${i}(x):\n    return x - ${i}\n`);
  const root = await makeProject({ "big.py": lines.join("") });
  const build = (view: string) =>
    buildContext({
      cwd: root,
      inline: {
        files: [{ path: "*.py", view }],
        plugins: [skeletonViewMode({ maxWork: 2000 }), outlineViewMode({ maxWork: 2000 })],
        cache: { enabled: false },
      },
    }, { write: false });
  const first = await tallyWork(() => build("skeleton"));
  const again = await tallyWork(async () => {
    const outline = await build("outline");
    assert.equal(outline.manifest.files[0].fallback, "outline -> summary: over its work budget");
    const skeleton = await build("skeleton");
    assert.equal(skeleton.manifest.files[0].fallback, "skeleton -> summary: over its work budget");
  });
  assert.ok((first.get("code") ?? 0) >= 2000, `${first.get("code")}`);
  assert.equal(again.get("code") ?? 0, 0);
});
