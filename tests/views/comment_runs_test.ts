import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { SIZES } from "../scaling/_growth.ts";

// A run of comment lines above a declaration is its doc comment, kept with it: a million `//`
// lines above one C declaration were all kept in the skeleton, each an object of the walk (1.2 GB
// for a 3 MB file). A run keeps its first line and its last 200, with a line counting the others,
// in every grammar whose line comments are nodes of their own. Counted by characters kept.
const CASES: Array<[string, string, string]> = [
  ["a.c", "// c\n", "int f(int x);\n"],
  ["a.py", "# c\n", "def f(x):\n    return x\n"],
  ["a.rs", "/// c\n", "pub fn f() {}\n"],
  ["a.go", "// c\n", "func F() {}\n"],
  ["a.rb", "# c\n", "def f\nend\n"],
  ["a.java", "// c\n", "class A {}\n"],
  ["a.ts", "// c\n", "export function f(): void {}\n"],
];

Deno.test("a long run of comment lines above a declaration keeps its first and last 200 lines, whatever its length", async () => {
  for (const [file, line, declaration] of CASES) {
    const kept: number[] = [];
    for (const size of SIZES) {
      const lines = Math.floor(size / line.length);
      const view = await renderCode(file, line.repeat(lines) + declaration);
      const lead = line.split(" ")[0];
      const shown = view!.text.split("\n");
      assert.equal(shown[0], line.trimEnd(), file);
      assert.equal(
        shown[1],
        `${lead} ... (${(lines - 201).toLocaleString("en-US")} more comment lines)`,
        file,
      );
      assert.equal(shown.filter((l) => l === line.trimEnd()).length, 201, file);
      assert.ok(view!.text.includes(declaration.split("\n")[0]), file);
      kept.push(view!.text.length);
    }
    assert.ok(
      kept[1] - kept[0] <= 8,
      `${file}: the view grew from ${kept[0]} to ${kept[1]} characters`,
    );
  }
});

Deno.test("a long comment run goes whole with the declaration it documents, and a short one is kept whole", async () => {
  const text = "int g(void);\n" + "// c\n".repeat(400) + "int f(int x);\nint h(void);\n";
  const hidden = await renderCode("a.c", text, { mask: { g: "sig", h: "sig" }, rest: "hide" });
  assert.equal(hidden!.text, "int g(void);\nint h(void);\n");
  const short = "// c\n".repeat(201) + "int f(int x);\n";
  assert.equal((await renderCode("a.c", short))!.text, short);
  // A run of block comments, one a line, too.
  const blocks = "/* a */\n".repeat(300) + "int f(int x);\n";
  assert.match(
    (await renderCode("a.c", blocks))!.text,
    /^\/\* \.\.\. \(99 more comment lines\) \*\/$/m,
  );
});

Deno.test("a comment run's count line never makes the view longer than the lines it stands for, and ends its line as they do", async () => {
  // 202 lines of `//` lost one line of 3 characters for a count line of 30: the view outgrew the
  // file. A CRLF file's count line ended in a bare LF.
  for (const lines of [202, 203, 205, 212]) {
    const text = "//\n".repeat(lines) + "int f(int x);\n";
    const view = (await renderCode("a.c", text))!.text;
    assert.ok(view.length <= text.length, `${lines} lines: ${view.length} > ${text.length}`);
  }
  const crlf = "// c\r\n".repeat(300) + "int f(int x);\r\n";
  const view = (await renderCode("a.c", crlf))!.text;
  assert.match(view, /^\/\/ \.\.\. \(99 more comment lines\)\r$/m);
  assert.equal(
    view.split("\n").filter((l) => !l.endsWith("\r")).length,
    1,
    "only the end has no CR",
  );
});
