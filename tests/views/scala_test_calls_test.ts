import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// munit's and ScalaTest's tests are calls with a block (`test("adds") { ... }`), FunSpec's and
// utest's suites blocks of them (`describe("Stack") { ... }`, `val tests = Tests { ... }`). The
// code views dropped them: a suite's class read `class A extends FunSuite { ... }`, a utest
// object its `val tests = Tests` as written, locals and all. Written for these tests.
Deno.test("Scala test calls are symbols, their bodies elided, a suite's tests listed", async () => {
  const text = [
    "class SumSuite extends munit.FunSuite {",
    '  test("adds") {',
    "    assertEquals(1 + 1, 2)",
    "  }",
    '  test("slow".ignore) { assert(true) }',
    '  describe("Stack") {',
    "    val empty = Nil",
    '    it("pops") { assert(empty.isEmpty) }',
    "  }",
    "  println(1)",
    "}",
    "",
    "object PathTests extends TestSuite {",
    "  val tests = Tests {",
    '    test("cp") {',
    '      test("deep") { os.copy(a, b) }',
    "    }",
    "  }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("src/test/scala/SumSuite.scala", text))!;
  assert.equal(
    view.text,
    [
      "class SumSuite extends munit.FunSuite {",
      '  test("adds") { ... }',
      '  test("slow".ignore) { ... }',
      '  describe("Stack") {',
      "    val empty = Nil",
      '    it("pops") { ... }',
      "  }",
      "}",
      "",
      "object PathTests extends TestSuite {",
      "  val tests = Tests {",
      '    test("cp") {',
      '      test("deep") { ... }',
      "    }",
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "class SumSuite extends munit.FunSuite  // class",
      '  test("adds")  // test',
      '  test("slow".ignore)  // test',
      '  describe("Stack")  // suite',
      "    val empty = Nil  // val",
      '    it("pops")  // test',
      "object PathTests extends TestSuite  // object",
      "  val tests = ...  // val",
      "    Tests  // suite",
      '      test("cp")  // suite',
      '        test("deep")  // test',
      "",
    ].join("\n"),
  );
});

// Discipline's law checks (`checkAll("Codec[A]", CodecTests[A].codec)`: circe's suites hold
// dozens) take no block; they were statements, dropped from the skeleton.
Deno.test("a Scala law check is a test named by its title, kept as it is written", async () => {
  const text = [
    "class ScodecSuite extends CirceMunitSuite {",
    '  checkAll("Codec[BitVector]", CodecTests[BitVector].codec)',
    "  checkAll(name, laws)",
    "  println(1)",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("ScodecSuite.scala", text))!;
  assert.equal(
    view.text,
    [
      "class ScodecSuite extends CirceMunitSuite {",
      '  checkAll("Codec[BitVector]", CodecTests[BitVector].codec)',
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["ScodecSuite", "class"],
    ["ScodecSuite.Codec[BitVector]", "test"],
  ]);
});

// A test whose block's value is ascribed (`test("x") { ... }: @nowarn("msg=.*unused.*")`, doobie's
// `PutSuitePlatform`) was an expression, not a test: left out with its body and no marker. Written
// for this test.
Deno.test("a munit test with an ascription after its block is a test", async () => {
  const text = [
    "trait PutSuitePlatform { self: munit.FunSuite =>",
    '  test("derives for products") {',
    '    assertContains(compileErrors("Put[A]"), "No given instance")',
    '  }: @nowarn("msg=.*unused.*")',
    '  test("plain") { check() }',
    "  val table = List(1, 2): List[Int]",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("PutSuitePlatform.scala", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "trait PutSuitePlatform",
    "test PutSuitePlatform.derives for products",
    "test PutSuitePlatform.plain",
    "val PutSuitePlatform.table",
  ]);
  assert.match(
    view.text,
    /test\("derives for products"\) \{ \.\.\. \}: @nowarn\("msg=\.\*unused\.\*"\)\n/,
  );
});

// Scala 3's braceless tests (`test("adds"):` with the body indented below: lichess-org/scalachess
// writes its 893 munit tests so) were calls like any other: left out with no marker, and a class
// whose last statement was left out took the next class's line end with it (`  class C ...`
// indented into it). Written for this test.
Deno.test("Scala 3 tests and suites after a colon are symbols; a cut leaves the next line as it is", async () => {
  const text = [
    "class A extends FunSuite:",
    "  val x = 1",
    "",
    '  test("adds"):',
    "    assertEquals(1 + 1, 2)",
    '  test("slow".ignore):',
    "    check(2)",
    "",
    "class S extends AnyFunSpec:",
    '  describe("Stack"):',
    '    it("pops"):',
    "      check(1)",
    '    it("pushes") {',
    "      check(2)",
    "    }",
    "",
    "class C extends B:",
    "  val y = 2",
    "  foo():",
    "    bar(1)",
    "",
    "class D extends B:",
    "  val z = 3",
    "",
  ].join("\n");
  const view = (await renderCode("a.scala", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName} | ${s.signature}`), [
    "class A | class A extends FunSuite",
    "val A.x | val x = 1",
    'test A.adds | test("adds")',
    'test A.slow | test("slow".ignore)',
    "class S | class S extends AnyFunSpec",
    'suite S.Stack | describe("Stack")',
    'test S.Stack.pops | it("pops")',
    'test S.Stack.pushes | it("pushes")',
    "class C | class C extends B",
    "val C.y | val y = 2",
    "class D | class D extends B",
    "val D.z | val z = 3",
  ]);
  assert.equal(
    view.text,
    [
      "class A extends FunSuite:",
      "  val x = 1",
      "",
      '  test("adds"):',
      "    { ... }",
      '  test("slow".ignore):',
      "    { ... }",
      "",
      "class S extends AnyFunSpec:",
      '  describe("Stack"):',
      '    it("pops"):',
      "      { ... }",
      '    it("pushes") { ... }',
      "",
      "class C extends B:",
      "  val y = 2",
      "",
      "class D extends B:",
      "  val z = 3",
      "",
    ].join("\n"),
  );
});
