import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A test's or suite's call broken over lines (`it(\n  "adds"\n) do`, munit's `test(\n  "adds"\n)
// {`) had its line breaks' blanks in its signature, `it( "adds" )`, where one on its line is
// `it("adds")`: a signature the language tells now reads as one read from the text does. Written
// for this test.
Deno.test("a test head over lines has the signature of one on its line", async () => {
  const ruby = [
    "RSpec.describe(",
    '  "Cart",',
    ") do",
    "  it(",
    '    "adds"',
    "  ) do",
    "    expect(1).to eq(1)",
    "  end",
    "end",
    "",
  ].join("\n");
  const spec = (await renderCode("spec/cart_spec.rb", ruby))!;
  assert.deepEqual(spec.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["Cart", "suite", 'RSpec.describe("Cart")'],
    ["Cart.adds", "test", 'it("adds")'],
  ]);
  const scala = [
    "class ASuite extends munit.FunSuite {",
    "  test(",
    '    "adds"',
    "  ) {",
    "    assertEquals(1, 1)",
    "  }",
    "}",
    "",
  ].join("\n");
  const suite = (await renderCode("ASuite.scala", scala))!;
  assert.deepEqual(suite.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["ASuite", "class", "class ASuite extends munit.FunSuite"],
    ["ASuite.adds", "test", 'test("adds")'],
  ]);
});

// A signature's blanks inside a bracket are taken out (`it( "adds" )` as `it("adds")`), and were
// inside its literals too: a test's title `"adds ( one )"` read `"adds (one)"`, a Kotlin test
// named `` `returns [ ] when empty` `` lost its blanks, a default `/[ ]/` became `/[]/`, and
// `"a, )"` lost its comma (review20). A literal is left as written. Written for this test.
Deno.test("a signature's strings, backticks and regex literals keep their blanks", async () => {
  const signatures = async (path: string, text: string) =>
    (await renderCode(path, text))!.symbols.map((s) => s.signature);
  assert.deepEqual(
    await signatures(
      "a.test.js",
      'describe( "a, )", () => {\n  it( "adds ( one ) and [ two ]", () => {});\n});\nexport function f( re = /[ ]( a/, b ) {}\n',
    ),
    ['describe("a, )")', 'it("adds ( one ) and [ two ]")', "function f(re = /[ ]( a/, b)"],
  );
  assert.deepEqual(
    await signatures("spec/a_spec.rb", "describe 'a [ b ]' do\n  it \"x ( y )\" do\n  end\nend\n"),
    ["describe 'a [ b ]'", 'it "x ( y )"'],
  );
  assert.deepEqual(
    await signatures(
      "AT.kt",
      "class AT {\n  @Test\n  fun `returns [ ] when ( empty )`( a: Int ) {}\n}\n",
    ),
    ["class AT", "@Test fun `returns [ ] when ( empty )`(a: Int)"],
  );
  assert.deepEqual(
    await signatures(
      "tests/test_a.py",
      '@pytest.mark.parametrize( "x", [ "( a", "b ]" ] )\ndef test_a(x):\n    pass\n',
    ),
    ['@pytest.mark.parametrize("x", ["( a", "b ]"]) def test_a(x)'],
  );
  assert.deepEqual(
    await signatures(
      "tests/Feature/ATest.php",
      "<?php\nit(\n    'adds ( one ), [ x ]',\n    function () {\n        expect(1)->toBe(1);\n    },\n);\n",
    ),
    ["it('adds ( one ), [ x ]', function () { ... })"],
  );
  // Rust's lifetimes open no literal: the brackets after them are tightened still.
  assert.deepEqual(
    await signatures("a.rs", "fn borrow<'a>( x: &'a str, c: char, ) -> &'a str { x }\n"),
    ["fn borrow<'a>(x: &'a str, c: char) -> &'a str"],
  );
  // Nor do Haskell's primes.
  assert.deepEqual(
    (await signatures("A.hs", "module A where\n\nfoo :: ( Int, a' ) -> [ b' ]\nfoo x' = x'\n"))[0],
    "foo :: (Int, a') -> [b']",
  );
});

// A Catch2 template test's head lists its types one a line (CLI11's `TEMPLATE_TEST_CASE(
// "Container container", "[optiontype]",` then 12 `std::vector<icontainer1>,` lines): past the 8
// lines a head was read over, the test was dropped with its body and no marker. Written for
// this test.
Deno.test("a template test's head over many lines of types is a test", async () => {
  const types = ["vector", "list", "set", "deque"].flatMap((c) =>
    [1, 2, 3, 4, 5].map((n) => `                   std::${c}<container${n}>,`)
  );
  const text = [
    '#include "catch.hpp"',
    "",
    'TEMPLATE_TEST_CASE("Container container",',
    '                   "[optiontype]",',
    ...types,
    "                   std::vector<int>) {",
    "    TestType cv;",
    "    CHECK(cv.empty());",
    "}",
    "",
    'TEST_CASE("after", "[t]") {',
    "    CHECK(true);",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("tests/ContainerTest.cpp", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["Container container", "test"],
    ["after", "test"],
  ]);
  assert.match(view.text, /std::vector<int>\) \{ \.\.\. \}\n/);
});
