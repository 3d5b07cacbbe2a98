import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

// Go's subtests (`t.Run("adds", func(t *testing.T) { ... })`) were in no view: a test function's
// body was `{ ... }` whatever it ran (gin's tests run hundreds). Written for this test.
Deno.test("a Go test function's subtests are tests named by their titles, bodies elided", async () => {
  const text = [
    "package x",
    "",
    'import "testing"',
    "",
    "func TestAdd(t *testing.T) {",
    "\tdb := open(t)",
    '\tt.Run("adds", func(t *testing.T) {',
    "\t\tif add(1, 1) != 2 {",
    '\t\t\tt.Fatal("no")',
    "\t\t}",
    "\t})",
    "\tt.Run(",
    "\t\t`subtracts`,",
    "\t\tfunc(t *testing.T) {",
    "\t\t\tt.Parallel()",
    "\t\t},",
    "\t)",
    "\tfor _, tc := range cases {",
    "\t\ttc := tc",
    "\t\tt.Run(tc.name, func(t *testing.T) { check(t, tc) })",
    "\t}",
    "\tfor i := 0; i < 3; i++ {",
    "\t\tcheck(t, i)",
    "\t}",
    "}",
    "",
    "func BenchmarkAdd(b *testing.B) {",
    '\tb.Run("small", func(b *testing.B) {})',
    "}",
    "",
    "func helper(t *testing.T) {",
    "\tgo r.Run(ctx)",
    "\tcheck(t, 1)",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("x_test.go", text))!;
  assert.equal(
    view.text,
    [
      "package x",
      "",
      'import "testing"',
      "",
      "func TestAdd(t *testing.T) {",
      "\t...",
      '\tt.Run("adds", func(t *testing.T) { ... })',
      "\tt.Run(",
      "\t\t`subtracts`,",
      "\t\tfunc(t *testing.T) { ... },",
      "\t)",
      "\tfor _, tc := range cases {",
      "\t\t...",
      "\t\tt.Run(tc.name, func(t *testing.T) { ... })",
      "\t}",
      "\t...",
      "}",
      "",
      "func BenchmarkAdd(b *testing.B) {",
      '\tb.Run("small", func(b *testing.B) {})',
      "}",
      "",
      "func helper(t *testing.T) { ... }",
      "",
    ].join("\n"),
  );
  assert.equal(
    outlineText(view.symbols, "//"),
    [
      "func TestAdd(t *testing.T)  // function",
      '  t.Run("adds")  // test',
      "  t.Run(`subtracts`)  // test",
      "  t.Run(tc.name)  // test",
      "func BenchmarkAdd(b *testing.B)  // function",
      '  b.Run("small")  // test',
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.filter((s) => s.kind === "test").map((s) => s.qualifiedName), [
    "TestAdd.adds",
    "TestAdd.subtracts",
    "TestAdd.tc.name",
    "BenchmarkAdd.small",
  ]);
});

// A program's function that calls a `Run(x, func...)` (a worker group's) was read as one running
// subtests: its body showed that call alone, the rest left out with no marker, and the call a
// test (review20). Only a test's function runs subtests: named `Test...`, `Benchmark...`,
// `Fuzz...` (a testify suite's method too) or given a `*testing.T`. Written for this test.
Deno.test("a Go program's Run call with a function is no subtest", async () => {
  const text = [
    "package main",
    "",
    "func main() {",
    "\tcfg := load()",
    '\tgroup.Run("workers", func() { work(cfg) })',
    "\tlog.Println(cfg)",
    "}",
    "",
    "func (s *Suite) TestB() {",
    '\ts.Run("b", func() {})',
    "}",
    "",
    "func runAll(t *testing.T, cases []tc) {",
    "\tfor _, c := range cases {",
    "\t\tt.Run(c.name, func(t *testing.T) {})",
    "\t}",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("main.go", text))!;
  assert.ok(view.text.includes("func main() { ... }"), view.text);
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["main", "function"],
    ["Suite.TestB", "method"],
    ["Suite.TestB.b", "test"],
    ["runAll", "function"],
    ["runAll.c.name", "test"],
  ]);
});

// A subtest that runs subtests (`t.Run("math", func(t *testing.T) { t.Run("adds", ...) })`) showed
// `{ ... }`: the inner subtests were in no view (review20). It is a suite now, its body walked as a
// test function's is. Written for this test.
Deno.test("a Go subtest that runs subtests is a suite of them", async () => {
  const text = [
    "package x",
    "",
    "func TestMath(t *testing.T) {",
    '\tt.Run("math", func(t *testing.T) {',
    "\t\tdb := open(t)",
    '\t\tt.Run("adds", func(t *testing.T) {',
    "\t\t\tcheck(t, db)",
    "\t\t})",
    "\t\tfor _, tc := range cases {",
    "\t\t\tt.Run(tc.name, func(t *testing.T) {",
    '\t\t\t\tt.Run("deep", func(t *testing.T) { check(t, tc) })',
    "\t\t\t})",
    "\t\t}",
    "\t})",
    '\tt.Run("plain", func(t *testing.T) {',
    "\t\tcheck(t, 1)",
    "\t})",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("x_test.go", text))!;
  assert.equal(
    view.text,
    [
      "package x",
      "",
      "func TestMath(t *testing.T) {",
      '\tt.Run("math", func(t *testing.T) {',
      "\t\t...",
      '\t\tt.Run("adds", func(t *testing.T) { ... })',
      "\t\tfor _, tc := range cases {",
      "\t\t\tt.Run(tc.name, func(t *testing.T) {",
      '\t\t\t\tt.Run("deep", func(t *testing.T) { ... })',
      "\t\t\t})",
      "\t\t}",
      "\t})",
      '\tt.Run("plain", func(t *testing.T) { ... })',
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "function TestMath",
    "suite TestMath.math",
    "test TestMath.math.adds",
    "suite TestMath.math.tc.name",
    "test TestMath.math.tc.name.deep",
    "test TestMath.plain",
  ]);
});

// A test function's statements around its subtests (its table, its set-up, a check after) were
// left out with no trace, and a subtest given a named function (`t.Run("parses", testParse)`)
// was no test (review25's leftover). Written for this test.
Deno.test("a Go test function's other statements are one marker a run; a named function's subtest is a test", async () => {
  const text = [
    "package x",
    "",
    "func TestParse(t *testing.T) {",
    '\tname := "x"',
    "\tcases := []struct{ in, want string }{",
    '\t\t{"a", "b"},',
    "\t}",
    "\tfor _, tc := range cases {",
    "\t\tt.Run(tc.in, func(t *testing.T) { check(t, tc) })",
    "\t}",
    '\tt.Run("helper", helper)',
    "\tt.Run(name, tc.check)",
    '\tif name == "" {',
    "\t\tt.Skip()",
    "\t}",
    "}",
    "",
    "func TestSuite(t *testing.T) {",
    "\tsuite.Run(t, new(MySuite))",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("x_test.go", text))!;
  assert.equal(
    view.text,
    [
      "package x",
      "",
      "func TestParse(t *testing.T) {",
      "\t...",
      "\tfor _, tc := range cases {",
      "\t\tt.Run(tc.in, func(t *testing.T) { ... })",
      "\t}",
      '\tt.Run("helper", helper)',
      "\tt.Run(name, tc.check)",
      "\t...",
      "}",
      "",
      "func TestSuite(t *testing.T) { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.signature]), [
    ["TestParse", "function", "func TestParse(t *testing.T)"],
    ["TestParse.tc.in", "test", "t.Run(tc.in)"],
    ["TestParse.helper", "test", 't.Run("helper", helper)'],
    ["TestParse.name", "test", "t.Run(name, tc.check)"],
    ["TestSuite", "function", "func TestSuite(t *testing.T)"],
  ]);
});
