import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// Brings zod's sources into the npm cache (the test reads them; nothing imports zod).
import "npm:zod@4.6.7/package.json" with { type: "json" };
import { languageFor } from "../../grammars/languages.ts";
import { type CodeSymbol, renderCode } from "../../plugins/view_modes/_code.ts";
import { pythonStdlib } from "../cache/_cache_helpers.ts";

type Mask = Record<string, "def" | "sig" | "hide">;

async function masked(path: string, text: string, mask: Mask): Promise<string> {
  return (await renderCode(path, text, { mask, rest: "hide" }))!.text;
}

// Generated cases: members on one line and on their own lines, with every separator a language
// puts between members (`;` after a TS field or a C field, `,` between Rust fields and variants,
// `:` after a C++ access label).
const CASES: Array<{ path: string; text: string; masks: Array<[Mask, string]> }> = [
  {
    path: "a.ts",
    text: [
      "export class Circle {",
      "  radius = 1;",
      "  static unit = new Circle();",
      "  area(): number {",
      "    return 3.14 * this.radius ** 2;",
      "  }",
      '  toString() { return "circle"; }',
      "}",
      "export interface Shape { kind: string; area(): number; sides?: number }",
      "export class Pair { a = 1; b = 2; sum() { return this.a + this.b; } }",
      "",
    ].join("\n"),
    masks: [
      [
        { "Circle.area": "def" },
        "export class Circle {\n  area(): number {\n    return 3.14 * this.radius ** 2;\n  }\n}\n",
      ],
      [{ "Shape.area": "def" }, "export interface Shape { area(): number; }\n"],
      [{ "Pair.sum": "sig" }, "export class Pair { sum() { ... } }\n"],
    ],
  },
  {
    path: "a.c",
    text: [
      "struct point { int x; int y; };",
      "struct size {",
      "  int w;",
      "  int h;",
      "};",
      "int area(struct point p) { return p.x * p.y; }",
      "",
    ].join("\n"),
    masks: [
      [{ "point.y": "def" }, "struct point { int y; };\n"],
      [{ "size.h": "def" }, "struct size {\n  int h;\n};\n"],
      [{ area: "def" }, "int area(struct point p) { return p.x * p.y; }\n"],
    ],
  },
  {
    path: "a.cpp",
    text: [
      "namespace geo {",
      "class Shape {",
      " public:",
      "  virtual double area() const = 0;",
      " private:",
      "  int sides;",
      "};",
      "}",
      "",
    ].join("\n"),
    masks: [
      [
        { "geo.Shape.sides": "def" },
        "namespace geo {\nclass Shape {\n private:\n  int sides;\n};\n}\n",
      ],
      [
        { "geo.Shape.area": "def" },
        "namespace geo {\nclass Shape {\n public:\n  virtual double area() const = 0;\n};\n}\n",
      ],
    ],
  },
  {
    path: "a.rs",
    text: [
      "pub struct Point { pub x: i32, pub y: i32 }",
      "pub enum Dir { Up, Down, Left, Right }",
      "pub struct Size {",
      "    pub w: u32,",
      "    pub h: u32,",
      "}",
      "",
    ].join("\n"),
    masks: [
      [{ "Point.y": "def" }, "pub struct Point { pub y: i32 }\n"],
      [{ "Dir.Left": "def" }, "pub enum Dir { Left, }\n"],
      [{ "Size.w": "def" }, "pub struct Size {\n    pub w: u32,\n}\n"],
    ],
  },
  {
    path: "a.go",
    text: "package geo\n\ntype Point struct { X int; Y int }\n",
    masks: [[{ "Point.Y": "def" }, "type Point struct { Y int }\n"]],
  },
  {
    path: "A.java",
    text: [
      "enum Color { RED, GREEN, BLUE; int code() { return 0; } }",
      "class Box { int w; int h; int area() { return w * h; } }",
      "",
    ].join("\n"),
    masks: [
      [{ "Color.GREEN": "def" }, "enum Color { GREEN, }\n"],
      [{ "Box.area": "def" }, "class Box { int area() { return w * h; } }\n"],
    ],
  },
  {
    path: "a.py",
    text:
      "class A:\n    x = 1; y = 2\n    def f(self): return self.x\n    def g(self): return self.y\n",
    masks: [[{ "A.g": "def" }, "class A:\n    def g(self): return self.y\n"]],
  },
];

Deno.test("maskedViewMode() a hidden member leaves no separator behind, in every language", async () => {
  for (const { path, text, masks } of CASES) {
    for (const [mask, expected] of masks) {
      assert.equal(await masked(path, text, mask), expected, `${path} ${JSON.stringify(mask)}`);
    }
  }
});

Deno.test("maskedViewMode() hide inside a def container leaves the member out, and sig inside it elides the body", async () => {
  const ts = CASES[0].text;
  assert.equal(
    await masked("a.ts", ts, { Circle: "def", "Circle.area": "hide", "Circle.radius": "hide" }),
    'export class Circle {\n  static unit = new Circle();\n  toString() { return "circle"; }\n}\n',
  );
  assert.equal(
    await masked("a.ts", ts, { Circle: "def", "Circle.area": "sig" }),
    "export class Circle {\n  radius = 1;\n  static unit = new Circle();\n  area(): number { ... }\n" +
      '  toString() { return "circle"; }\n}\n',
  );
  assert.equal(
    await masked("a.cpp", CASES[2].text, { "geo.Shape": "def", "geo.Shape.area": "hide" }),
    "namespace geo {\nclass Shape {\n private:\n  int sides;\n};\n}\n",
  );
  const py = [
    "class A:",
    '    """Doc."""',
    "    # about f",
    "    def f(self):",
    "        return 1",
    "",
    "    # a note on the class",
    "",
    "    def g(self):",
    "        return 2",
    "",
  ].join("\n");
  assert.equal(
    await masked("a.py", py, { A: "def", "A.f": "hide" }),
    'class A:\n    """Doc."""\n\n    # a note on the class\n\n    def g(self):\n        return 2\n',
  );
  assert.equal(
    await masked("a.py", py, { A: "def", "A.f": "hide", "A.g": "hide" }),
    'class A:\n    """Doc."""\n    ...\n',
  );
});

Deno.test("maskedViewMode() a container under sig says its body was elided, as the skeleton marks a body", async () => {
  const cases: Array<[string, string, string, string]> = [
    [
      "a.ts",
      "export class Box<T> {\n  value: T;\n  get(): T { return this.value; }\n}\n",
      "Box",
      "export class Box<T> { ... }\n",
    ],
    ["a.ts", "interface I {\n  a: number;\n}\n", "I", "interface I { ... }\n"],
    ["a.ts", "namespace N {\n  export const a = 1;\n}\n", "N", "namespace N { ... }\n"],
    ["a.c", "struct size {\n  int w;\n};\n", "size", "struct size { ... };\n"],
    ["a.cpp", "class S {\n public:\n  int a;\n};\n", "S", "class S { ... };\n"],
    ["a.cpp", "namespace n {\nint f();\n}\n", "n", "namespace n { ... }\n"],
    [
      "a.rs",
      "pub struct P {\n    pub x: i32,\n}\nimpl P {\n    pub fn x(&self) -> i32 { 0 }\n}\n",
      "P",
      "pub struct P { ... }\nimpl P { ... }\n",
    ],
    ["a.go", "package p\n\ntype S interface {\n\tA() int\n}\n", "S", "type S interface { ... }\n"],
    ["A.java", "class Box {\n  int w;\n}\n", "Box", "class Box { ... }\n"],
    ["a.py", "class A:\n    x = 1\n", "A", "class A:\n    ...\n"],
  ];
  for (const [path, text, name, expected] of cases) {
    assert.equal(await masked(path, text, { [name]: "sig" }), expected, `${path} ${name}`);
  }
  // A body that is empty in the file stays as the file writes it.
  assert.equal(await masked("a.ts", "export class E {}\n", { E: "sig" }), "export class E {}\n");
  assert.equal(
    (await renderCode("a.ts", "export class E {\n}\n"))!.text,
    "export class E {\n}\n",
  );
});

/**
 * Up to `count` members (symbols on their own lines inside a container) with a name no other
 * symbol has.
 */
function members(symbols: CodeSymbol[], count: number): CodeSymbol[] {
  const seen = new Map<string, number>();
  const lines = new Map<string, number>();
  for (const s of symbols) {
    seen.set(s.qualifiedName, (seen.get(s.qualifiedName) ?? 0) + 1);
    lines.set(s.qualifiedName, s.line);
  }
  const parentLine = (q: string) => lines.get(q.slice(0, q.lastIndexOf("."))) ?? Infinity;
  const unique = symbols.filter((s) =>
    s.depth > 0 && seen.get(s.qualifiedName) === 1 && s.line > parentLine(s.qualifiedName)
  );
  const step = Math.max(1, Math.floor(unique.length / count));
  return unique.filter((_, i) => i % step === 0).slice(0, count);
}

/**
 * For members of a real file: `def` alone, `hide` inside its `def` container and its container
 * under `sig` leave no line the file does not have, but for the body marker.
 */
async function assertExactMasks(path: string, text: string): Promise<number> {
  const spec = languageFor(path)!;
  const lines = new Set(text.split("\n"));
  const view = (await renderCode(path, text))!;
  const checked = members(view.symbols, 8);
  const assertLines = (out: string, label: string) => {
    for (const line of out.split("\n")) {
      if (!line || lines.has(line) || line.includes(spec.bodyMarker)) continue;
      assert.fail(`${label}: line ${JSON.stringify(line)} is not in the file`);
    }
  };
  for (const member of checked) {
    const q = member.qualifiedName;
    const parent = q.slice(0, q.lastIndexOf("."));
    const alone = await masked(path, text, { [q]: "def" });
    assertLines(alone, `${q} def`);
    const whole = await masked(path, text, { [parent]: "def" });
    const without = await masked(path, text, { [parent]: "def", [q]: "hide" });
    assertLines(without, `${q} hidden in ${parent}`);
    assert.ok(without.length < whole.length, `${q} hidden in ${parent} is left out`);
    const sig = await masked(path, text, { [parent]: "sig" });
    assertLines(sig, `${parent} sig`);
  }
  return checked.length;
}

function packageDir(specifier: string): string {
  return dirname(fileURLToPath(import.meta.resolve(`${specifier}/package.json`)));
}

Deno.test("maskedViewMode() leaves no residue on real TypeScript, C and Python files", async (t) => {
  const zod = packageDir("npm:zod@4.6.7");
  const files = [
    join(zod, "src/v3/ZodError.ts"),
    join(zod, "src/v4/core/doc.ts"),
    join(zod, "src/v4/core/core.ts"),
    join(packageDir("npm:tree-sitter-python@0.25.0"), "src/scanner.c"),
    join(packageDir("npm:tree-sitter-rust@0.24.0"), "src/scanner.c"),
    join(packageDir("npm:tree-sitter-cpp@0.23.4"), "src/scanner.c"),
  ];
  const lib = await pythonStdlib();
  if (lib) files.push(join(lib, "contextlib.py"), join(lib, "dataclasses.py"));
  else console.log("skipped the Python files: no python3 on PATH");
  let checked = 0;
  for (const path of files) {
    await t.step(path.split("/").slice(-2).join("/"), async () => {
      const text = (await Deno.readTextFile(path)).replace(/\r\n?/g, "\n");
      checked += await assertExactMasks(path, text);
    });
  }
  assert.ok(checked >= 30, `only ${checked} members checked`);
});
