import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import {
  FREE_READINGS,
  PARSE_DEADLINE_MS,
  READ_CHUNK,
  timedParse,
} from "../../plugins/view_modes/_parse_deadline.ts";
import { parserFor } from "../../grammars/tree_sitter.ts";
import { tallyWork } from "../../pipeline/_work_count.ts";
import { isClockError } from "../../pipeline/helpers.ts";

// Texts tree-sitter parses in few steps but in time that grows with the square of their length
// (or worse): the parser lexes them again from far behind for each reading it keeps. Unbounded,
// the Scala one took 17 s and the Bash one 14 s on a busy two-core machine, a 200 KB Scala file
// of parentheses seven minutes; their steps stay far under the work budget.
const SLOW: [path: string, text: string][] = [
  ["slow.scala", `object A { val x = ${"a ? b : ".repeat(2000)}c }\n`],
  ["slow.sh", `x=$((${"f(".repeat(4000)}a${")".repeat(4000)}))\n`],
  ["deep.scala", `object A { val x = ${"(".repeat(100_000)}x${")".repeat(100_000)} }\n`],
];

const SCALA = "object A {\n  def f(x: Int): Int = x + 1\n}\n";

Deno.test("a parse that lexes its text again from far behind spends its work budget, with no clock", async () => {
  const before = await renderCode("ok.scala", SCALA);
  for (const [path, text] of SLOW) {
    const spent = await tallyWork(() =>
      assert.rejects(
        () => renderCode(path, text, { maxWork: 200_000, maxParseMs: Infinity }),
        /^Error: work budget of 200000 units \(parser steps and tree nodes visited\) spent/,
      )
    );
    // Counted, not timed: the same parse stops at the same unit on every machine.
    const again = await tallyWork(() =>
      renderCode(path, text, { maxWork: 200_000, maxParseMs: Infinity }).catch(() => {})
    );
    assert.equal(again.get("code"), spent.get("code"), path);
    assert.ok(spent.get("code")! > 200_000, path);
  }
  // The parser stopped mid-parse is left clean: the next Scala file renders whole.
  const next = await renderCode("ok.scala", SCALA);
  assert.deepEqual(next, before);
  assert.equal(next?.symbols.map((s) => s.qualifiedName).join(), "A,A.f");
});

Deno.test("a parse stopped by its clock throws a ClockError, never a tree or a budget's error", async () => {
  for (const [path, text] of [...SLOW, ["ok.scala", SCALA]]) {
    await assert.rejects(
      () => renderCode(path, text, { maxParseMs: -1 }),
      (error) => {
        assert.ok(isClockError(error), String(error));
        assert.match(String(error), /parse stopped at its deadline of -0\.001 s before its work/);
        return true;
      },
    );
  }
  assert.deepEqual(await renderCode("ok.scala", SCALA), await renderCode("ok.scala", SCALA));
});

Deno.test("the parse deadline changes nothing for a file parsed in time", async () => {
  const text = "def f(x):\n    return x\n\nclass A:\n    def g(self):\n        pass\n";
  const timed = await renderCode("a.py", text, { maxParseMs: PARSE_DEADLINE_MS });
  const untimed = await renderCode("a.py", text, { maxParseMs: Infinity });
  assert.deepEqual(timed, untimed);
  assert.equal(timed?.text, "def f(x):\n    ...\n\nclass A:\n    def g(self):\n        pass\n");
});

Deno.test("a timed input hands out the text in small pieces, counts readings past the free ones, and stops at its budget or deadline", async () => {
  const text = "abcdefgh".repeat(100);
  let left = 10;
  const input = timedParse(text, { maxMs: 3_600_000, length: text.length, left: () => left });
  assert.equal(input.read(2), text.slice(2, 2 + READ_CHUNK));
  // Read the whole text FREE_READINGS times over: all free.
  for (let i = 1; i < FREE_READINGS * text.length / READ_CHUNK; i++) input.read(0);
  assert.equal(input.rereads(), 0);
  input.read(0);
  assert.equal(input.rereads(), READ_CHUNK);
  // Over what is left of the budget: the text has ended, for the parser.
  assert.equal(input.read(0), "");
  left = Infinity;
  assert.equal(input.read(0), text.slice(0, READ_CHUNK));
  // Once parsed, the tree's nodes read the text whole, uncounted and untimed.
  input.parsed();
  left = 0;
  assert.equal(input.read(790), "ghabcdefgh");
  assert.equal(input.read(3), text.slice(3));
  assert.equal(input.rereads(), 2 * READ_CHUNK);
  const late = timedParse("abcdef", { maxMs: 30, length: 6, left: () => Infinity });
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(late.late(), true);
  assert.equal(late.read(0), "");
});

Deno.test("a text read in small pieces parses as it does whole, astral characters cut between pieces included", async () => {
  const lines = Array.from({ length: 400 }, (_, i) => `n_${i} = "${"😀é".repeat(i % 40)}"  # ${i}`);
  const text = `${lines.join("\n")}\n`;
  const parser = await parserFor("python");
  const whole = parser.parse(text)!;
  const input = timedParse(text, { maxMs: 3_600_000, length: text.length, left: () => Infinity });
  const pieces = parser.parse(input.read)!;
  input.parsed();
  try {
    assert.equal(pieces.rootNode.hasError, false);
    assert.equal(pieces.rootNode.toString(), whole.rootNode.toString());
    const texts = (tree: typeof whole) => tree.rootNode.namedChildren.map((c) => c?.text);
    assert.deepEqual(texts(pieces), texts(whole));
    assert.equal(texts(pieces).at(-2), lines.at(-1)!.replace(/ {2}#.*/, ""));
  } finally {
    whole.delete();
    pieces.delete();
  }
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
