import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// Each language: a file whose last item is kept, then a comment that ends the file.
const FILES: [string, string, string][] = [
  ["a.py", "def f():\n    return 1\n", "# vim: set ts=4"],
  ["a.js", "export function f() {\n  return 1;\n}\n", "// end of module"],
  ["a.ts", "export const f = (): number => 1;\n", "/* footer */"],
  ["a.go", "package m\n\nfunc F() int {\n\treturn 1\n}\n", "// EOF"],
  ["a.rs", "pub fn f() -> u8 {\n    1\n}\n", "// more later"],
  ["a.java", "class A {\n  void f() { g(); }\n}\n", "// end of A"],
  ["a.c", "int f(void) {\n  return 1;\n}\n", "/* Local Variables: */"],
  ["a.cpp", "int f() {\n  return 1;\n}\n", "// namespace end"],
  ["a.rb", "def f\n  1\nend\n", "# frozen"],
  ["a.php", "<?php\nfunction f() {\n  return 1;\n}\n", "// end"],
  ["a.cs", "class A {\n  void F() { G(); }\n}\n", "// end"],
  ["a.kt", "fun f(): Int {\n  return 1\n}\n", "// end"],
  ["a.scala", "object A {\n  def f: Int = {\n    1\n  }\n}\n", "// end"],
  ["a.lua", "local function f()\n  return 1\nend\n", "-- end"],
  ["a.ex", "defmodule A do\n  def f, do: 1\nend\n", "# end"],
  ["a.hs", "module A where\n\nf :: Int\nf = 1\n", "-- end"],
  ["a.sh", "f() {\n  echo 1\n}\n", "# vim: ft=sh"],
  ["a.ps1", "function Get-A {\n  1\n}\n", "# end"],
  ["a.zig", "pub fn f() u8 {\n    return 1;\n}\n", "// end"],
];

Deno.test("a comment that ends a file stays after a kept item, in every language", async () => {
  for (const [path, code, comment] of FILES) {
    const out = (await renderCode(path, `${code}\n${comment}\n`))!.text;
    assert.ok(out.trimEnd().endsWith(comment), `${path}:\n${out}`);
  }
});

Deno.test("a comment that ends a class body stays after its last kept member", async () => {
  const out =
    (await renderCode("a.py", "class A:\n    def g(self):\n        pass\n    # more later\n"))!
      .text;
  assert.equal(out, "class A:\n    def g(self):\n        pass\n    # more later\n");
});

Deno.test("a comment that ends a file goes with a left-out item before it", async () => {
  const out = (await renderCode("a.py", "import os\n\nprint(os.name)\n# printed\n"))!.text;
  assert.equal(out.includes("# printed"), false, out);
  const js = (await renderCode("a.js", "import a from 'a';\nconsole.log(a);\n// logged\n"))!.text;
  assert.equal(js.includes("// logged"), false, js);
});

Deno.test("more than maxValueLines lines of comments that end a file go, as a long value does: a ... stands for them", async () => {
  const aside = [
    "/*",
    ...Array.from({ length: 12 }, (_, i) => `func TestOld${i}(t *testing.T) {}`),
    "*/",
  ];
  const text = ["package x", "", "func F() {}", "", ...aside, ""].join("\n");
  const out = (await renderCode("a_test.go", text))!.text;
  assert.equal(out, "package x\n\nfunc F() {}\n\n...\n");
  // A run of line comments too, in a class's body as in a file's.
  const lines = Array.from({ length: 13 }, (_, i) => `    # old_${i} = ${i}`);
  const py = ["class A:", "    def f(self):", "        pass", "", ...lines, "", "B = 1", ""];
  assert.equal(
    (await renderCode("a.py", py.join("\n")))!.text,
    "class A:\n    def f(self):\n        pass\n\n    ...\n\nB = 1\n",
  );
  const short = ["package x", "", "func F() {}", "", ...aside.slice(0, 4), "*/", ""].join("\n");
  assert.ok(
    (await renderCode("a_test.go", short))!.text.endsWith("TestOld2(t *testing.T) {}\n*/\n"),
  );
});

// A comment a blank line parts from a file's last item, when that item is left out (a modeline
// after `if __name__ == "__main__":`, a license footer after a script's call), went with the item
// (review28's leftover): it is the file's, as one after a kept item is. One right below the item
// still goes with it. Written for this test.
Deno.test("a comment a blank line parts from a left-out last item stays; one right below it goes", async () => {
  const py = [
    "def main():",
    "    return 1",
    "",
    'if __name__ == "__main__":',
    "    main()",
    "# runs main",
    "",
    "# vim: set ts=4 sw=4",
    "",
  ].join("\n");
  const out = (await renderCode("a.py", py))!.text;
  assert.equal(out, "def main():\n    ...\n\n# vim: set ts=4 sw=4\n");
  const js = "import a from 'a';\nconsole.log(a);\n// logged\n\n// License: MIT\n";
  assert.equal((await renderCode("a.js", js))!.text, "import a from 'a';\n\n// License: MIT\n");
  const sh = 'f() {\n  echo 1\n}\n\nf "$@"\n\n# vim: ft=sh\n';
  assert.ok((await renderCode("a.sh", sh))!.text.endsWith("\n# vim: ft=sh\n"));
  const rb = "def f\n  1\nend\n\nputs f\n\n# frozen\n";
  assert.ok((await renderCode("a.rb", rb))!.text.endsWith("\n# frozen\n"));
});

Deno.test("more than maxValueLines lines of comments a blank line parts from a left-out last item are one ...", async () => {
  const lines = Array.from({ length: 13 }, (_, i) => `# old_${i} = ${i}`);
  const py = ["def f():", "    pass", "", "print(f())", "", ...lines, ""].join("\n");
  assert.equal((await renderCode("a.py", py))!.text, "def f():\n    pass\n\n...\n");
});
