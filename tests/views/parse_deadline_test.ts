import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { PARSE_DEADLINE_MS, timedParse } from "../../plugins/view_modes/_parse_deadline.ts";

// Texts tree-sitter parses in few steps but in time that grows with the square of their length
// (or worse): about 17 s for the Scala one and 14 s for the Bash one, unbounded, on a busy
// two-core machine. Their steps stay far under the work budget.
const SLOW: [path: string, text: string][] = [
  ["slow.scala", `object A { val x = ${"a ? b : ".repeat(2000)}c }\n`],
  ["slow.sh", `x=$((${"f(".repeat(4000)}a${")".repeat(4000)}))\n`],
];

const SCALA = "object A {\n  def f(x: Int): Int = x + 1\n}\n";

Deno.test("a parse that slows down as it goes stops at its deadline, and the next file of that language renders", async () => {
  const before = await renderCode("ok.scala", SCALA);
  for (const [path, text] of SLOW) {
    await assert.rejects(
      () => renderCode(path, text, { maxParseMs: 50 }),
      /parse stopped at its deadline of 0\.05 s: the grammar parses this text in time that grows faster than its length/,
    );
  }
  // The parser stopped mid-parse is left clean: the next Scala file renders whole (with the
  // default deadline: 50 ms is within a loaded machine's pause even for three lines).
  const next = await renderCode("ok.scala", SCALA);
  assert.deepEqual(next, before);
  assert.equal(next?.symbols.map((s) => s.qualifiedName).join(), "A,A.f");
});

Deno.test("the parse deadline changes nothing for a file parsed in time", async () => {
  const text = "def f(x):\n    return x\n\nclass A:\n    def g(self):\n        pass\n";
  const timed = await renderCode("a.py", text, { maxParseMs: PARSE_DEADLINE_MS });
  const untimed = await renderCode("a.py", text, { maxParseMs: Infinity });
  assert.deepEqual(timed, untimed);
  assert.equal(timed?.text, "def f(x):\n    ...\n\nclass A:\n    def g(self):\n        pass\n");
});

Deno.test("a timed input hands out the text until its deadline, then nothing", async () => {
  // Before the deadline: an hour away, so that no pause of a loaded machine reaches it.
  const early = timedParse("abcdef", 3_600_000);
  assert.equal(early.read(2), "cdef");
  assert.equal(early.late(), false);
  const input = timedParse("abcdef", 30);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(input.late(), true);
  assert.equal(input.read(0), "");
});

Deno.test("a text nested deeper than the walk follows fails with a plain reason, the same in every language", async () => {
  const deep: [string, (n: number) => string][] = [
    ["deep.ts", (n) => `const x = ${"(".repeat(n)}1${")".repeat(n)};\n`],
    ["deep.c", (n) => `int x = ${"(".repeat(n)}1${")".repeat(n)};\n`],
    ["deep.java", (n) => `class A { int x = ${"(".repeat(n)}1${")".repeat(n)}; }\n`],
  ];
  for (const [path, make] of deep) {
    // 3,000 levels overflowed JavaScript's stack, at a depth that depends on the thread.
    await assert.rejects(
      () => renderCode(path, make(3_000)),
      /^Error: its syntax tree nests deeper than the view follows \(1000 levels\)$/,
    );
    // 300 levels are walked.
    assert.ok((await renderCode(path, make(300)))?.text);
  }
});
