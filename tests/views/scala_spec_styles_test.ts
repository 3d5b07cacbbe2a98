import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// ScalaTest's FlatSpec, WordSpec and FreeSpec write tests as operators, not calls: `"A Stack"
// should "pop" in { ... }`, `"empty" when { ... }`, `"a" - { ... }`. The code views dropped them:
// a spec read `class StackSpec extends AnyFlatSpec { ... }`, its tests and all lost. Written for
// these tests.
Deno.test("ScalaTest's flat, word and free specs: tests by their titles, suites nesting them", async () => {
  const text = [
    "class StackSpec extends AnyFlatSpec {",
    '  "A Stack" should "pop values" in {',
    "    stack.pop() shouldBe 2",
    "  }",
    '  it must "throw" taggedAs Slow in { a[Error] should be thrownBy s.pop() }',
    '  "A Set" can "grow" ignore {',
    "    Set(1) + 2",
    "  }",
    "  stack.size should be (0)",
    "}",
    "",
    "class SetSpec extends AnyWordSpec {",
    '  "A Set" when {',
    '    "empty" should {',
    '      "have size 0" in {',
    "        assert(Set.empty.size == 0)",
    "      }",
    "    }",
    "  }",
    "}",
    "",
    "class PathSpec extends AnyFreeSpec {",
    '  "a path" - {',
    '    "joins" in { assert(a / b == c) }',
    "  }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/test/scala/StackSpec.scala", text))!;
  assert.equal(
    view.text,
    [
      "class StackSpec extends AnyFlatSpec {",
      '  "A Stack" should "pop values" in { ... }',
      '  it must "throw" taggedAs Slow in { ... }',
      '  "A Set" can "grow" ignore { ... }',
      "}",
      "",
      "class SetSpec extends AnyWordSpec {",
      '  "A Set" when {',
      '    "empty" should {',
      '      "have size 0" in { ... }',
      "    }",
      "  }",
      "}",
      "",
      "class PathSpec extends AnyFreeSpec {",
      '  "a path" - {',
      '    "joins" in { ... }',
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.depth]), [
    ["StackSpec", "class", 0],
    ["A Stack should pop values", "test", 1],
    ["it must throw", "test", 1],
    ["A Set can grow", "test", 1],
    ["SetSpec", "class", 0],
    ["A Set", "suite", 1],
    ["empty", "suite", 2],
    ["have size 0", "test", 3],
    ["PathSpec", "class", 0],
    ["a path", "suite", 1],
    ["joins", "test", 2],
  ]);
});

// A block an operator takes in an expression is no test's: it stays as the expression is shown
// (circe's `def equals(that: Any): Boolean = that.isInstanceOf[Absolute] && { ... }`).
Deno.test("an operator's block that defines nothing stays as written", async () => {
  const text = [
    "object Pointer {",
    "  def same(that: Any): Boolean = that.isInstanceOf[Pointer] && {",
    "    that == this",
    "  }",
    "}",
    "",
  ].join("\n");
  assert.equal((await renderCode("src/Pointer.scala", text))!.text, text);
});

// An sbt setting's value is a call, not a block: it stays as written, not `{ ... }`.
Deno.test("an infix whose right side is no block keeps it", async () => {
  const text = 'libraryDependencies ++= Seq(\n  "a" %% "b" % "1"\n)\n';
  assert.equal((await renderCode("build.sbt", text))!.text, text);
});

// FlatSpec skips a test by writing `ignore` for its subject (`ignore should "pop" in { ... }`, as
// `it` and `they` stand for the last subject): the skeleton dropped it, a test the spec defines.
Deno.test("FlatSpec's ignored test, `ignore` in place of its subject, is a test", async () => {
  const text = [
    "class StackSpec extends AnyFlatSpec {",
    '  "A Stack" should "pop" in {',
    "    stack.pop() shouldBe 2",
    "  }",
    '  ignore should "push" in {',
    "    stack.push(1)",
    "  }",
    '  ignore must "peek" taggedAs Slow in { stack.peek() }',
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/StackSpec.scala", text))!;
  assert.equal(
    view.text,
    [
      "class StackSpec extends AnyFlatSpec {",
      '  "A Stack" should "pop" in { ... }',
      '  ignore should "push" in { ... }',
      '  ignore must "peek" taggedAs Slow in { ... }',
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(
    view.symbols.filter((s) => s.kind === "test").map((s) => s.name),
    ["A Stack should pop", "ignore should push", "ignore must peek"],
  );
});
