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
