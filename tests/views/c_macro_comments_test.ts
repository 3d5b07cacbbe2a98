import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { blankDirectiveComments } from "../../grammars/_c_directives.ts";

// Macros whose bodies hold block comments between tokens, each followed by a function: the
// comments that tree-sitter-c ended a macro's value at (and then lost the function after it).
const MACROS = [
  "#define ONE(a) do {  \\\n    x = (a); /* why */ \\\n    y = 0;  \\\n} while (0)",
  "#define TWO(a) do { /* a\n  comment over lines */ \\\n    (a)++; \\\n} while (0)",
  "#define THREE 1 /* one */ + 2 /* two */",
  "  #  define FOUR(p) { /* indented directive */ \\\n  (p); }",
];

Deno.test("a C or C++ skeleton keeps the function after a macro whose body holds a comment", async () => {
  for (const path of ["a.c", "a.h", "a.cpp"]) {
    for (const macro of MACROS) {
      const text = `${macro}\n\n/* doc */\nint after(int p) {\n    return p + 1;\n}\n`;
      const out = (await renderCode(path, text))!.text;
      // The macro as the file has it, comments and all, then the function's signature.
      assert.equal(out, `${macro}\n\n/* doc */\nint after(int p) { ... }\n`, `${path}: ${macro}`);
    }
  }
});

Deno.test("only comments inside directives read as blanks; offsets and line breaks stay", () => {
  const text = [
    "#define A 1 /* a */",
    'const char *s = "#define /* in a string */";',
    "char c = '\"'; /* outside */",
    "/* a comment that holds",
    "#define B /* not a directive */",
    "*/",
    "// a line comment \\",
    "#define C /* continued comment line, not a directive */",
    "#define D \\",
    "  2 /* continued directive */",
    "",
  ].join("\n");
  const read = blankDirectiveComments(text)!;
  assert.equal(read.length, text.length);
  assert.deepEqual(read.split("\n").map((l) => l.length), text.split("\n").map((l) => l.length));
  const blanked = ["/* a */", "/* continued directive */"];
  for (const comment of blanked) assert.ok(!read.includes(comment), comment);
  for (const kept of ["/* in a string */", "/* outside */", "/* not a directive */"]) {
    assert.ok(read.includes(kept), kept);
  }
  assert.ok(read.includes("/* continued comment line, not a directive */"));
  assert.equal(blankDirectiveComments("int x; /* c */\n#define E 1\n"), undefined);
});
