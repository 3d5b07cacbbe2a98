import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A C# test's table of cases written as one attribute a line (xUnit's `[InlineData(...)]`,
// NUnit's `[TestCase(...)]`): FluentValidation's `EmailValidatorTests.cs` kept 13 rows whole in a
// skeleton, where pytest's `parametrize` and Pester's `-TestCases` tables are `...` past
// `maxValueLines` lines. Written for this test.
Deno.test("a run of one attribute over maxValueLines lines before a C# test is one ...; a short one stays", async () => {
  const rows = Array.from({ length: 13 }, (_, i) => `\t[InlineData("case${i}@example.com")]`);
  const text = [
    "public class EmailTests {",
    "\t[Theory]",
    ...rows,
    "\tpublic void Valid(string email) {",
    "\t\tAssert.True(Check(email));",
    "\t}",
    "",
    "\t[TestCase(1)]",
    "\t[TestCase(2)]",
    '\t[Category("fast")]',
    "\tpublic void Short(int x) {",
    "\t\tAssert.True(x > 0);",
    "\t}",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("EmailTests.cs", text))!;
  assert.equal(
    view.text,
    [
      "public class EmailTests {",
      "\t[Theory]",
      "\t...",
      "\tpublic void Valid(string email) { ... }",
      "",
      "\t[TestCase(1)]",
      "\t[TestCase(2)]",
      '\t[Category("fast")]',
      "\tpublic void Short(int x) { ... }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.name), ["EmailTests", "Valid", "Short"]);
});

// The same tables in PHPUnit (`#[TestWith([1, 2])]` a line) and JUnit (`@CsvSource({` then a case
// a line): kept whole in a skeleton. Written for this test.
Deno.test("PHPUnit's TestWith rows and a JUnit annotation's long argument are ... in a skeleton", async () => {
  const rows = Array.from({ length: 13 }, (_, i) => `    #[TestWith([${i}, ${i + 1}])]`);
  const php = [
    "<?php",
    "class T extends TestCase {",
    "    #[Test]",
    ...rows,
    "    public function adds(int $a, int $b): void {",
    "        $this->assertTrue($a < $b);",
    "    }",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("T.php", php))!.text,
    "<?php\nclass T extends TestCase {\n    #[Test]\n    ...\n    public function adds(int $a, int $b): void { ... }\n}\n",
  );
  const cases = Array.from({ length: 13 }, (_, i) => `    "case${i}, ${i}",`);
  const java = [
    "class T {",
    "  @ParameterizedTest",
    "  @CsvSource({",
    ...cases,
    "  })",
    "  void f(String s, int n) {",
    "    g();",
    "  }",
    "",
    '  @ValueSource(strings = {"a", "b"})',
    "  void h(String s) {",
    "    g();",
    "  }",
    "}",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("T.java", java))!.text,
    [
      "class T {",
      "  @ParameterizedTest",
      "  @CsvSource(...)",
      "  void f(String s, int n) { ... }",
      "",
      '  @ValueSource(strings = {"a", "b"})',
      "  void h(String s) { ... }",
      "}",
      "",
    ].join("\n"),
  );
});
