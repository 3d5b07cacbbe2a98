import assert from "node:assert/strict";
import { parserFor } from "../../grammars/tree_sitter.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { assertLinear, SIZES } from "../scaling/_growth.ts";
import { countNodeSteps } from "./_node_walks.ts";

// Wide nodes: a file of thousands of items, a class of thousands of members, text the parser
// reads as one error node of thousands of children. A step that asks tree-sitter for a child's
// parent or sibling costs a scan of the children before it (see `_node_walks.ts`): asked for each
// child, the square of the width (a 144 KB Kotlin file of `f(a < b, ` took 70 s in the skeleton
// view). Counted here as the steps web-tree-sitter takes for the views' node reads.
const SHAPES: Array<[string, string, (i: number) => string, string?, string?]> = [
  ["Kotlin text read as one error node", "A.kt", () => "f(a < b, "],
  ["Kotlin annotated functions", "A.kt", (i) => `@Ann fun f${i}(x: Int) = x\n`],
  [
    "a Kotlin class's properties and methods",
    "A.kt",
    (i) => `  // c\n  @Ann val p${i}: Int = ${i}\n  fun g${i}() { h() }\n`,
    "class A {\n",
    "}\n",
  ],
  [
    "a Java class's methods and fields",
    "A.java",
    (i) => `  /** d */\n  @Ann public int f${i}() { return ${i}; }\n  int x${i};\n`,
    "class A {\n",
    "}\n",
  ],
  ["a Java enum's constants", "A.java", (i) => `  V${i}(${i}),\n`, "enum A {\n", "; }\n"],
  [
    "a C# class's methods",
    "A.cs",
    (i) => `  [Attr] public int F${i}() { return ${i}; }\n  // c\n`,
    "namespace N;\nclass A {\n",
    "}\n",
  ],
  ["C# top-level statements", "A.cs", (i) => `Console.WriteLine(${i});\n`],
  [
    "TypeScript documented exported functions",
    "a.ts",
    (i) => `/** d */\nexport function f${i}(x: number) { return x; }\n`,
  ],
  [
    "a TypeScript class's decorated methods",
    "a.ts",
    (i) => `  @dec() m${i}(): void { g(); }\n`,
    "class A {\n",
    "}\n",
  ],
  [
    "a TypeScript object's members",
    "a.ts",
    (i) => `  k${i}: () => ${i},\n`,
    "export const o = {\n",
    "};\n",
  ],
  ["a TypeScript call's arguments", "a.ts", (i) => `  x${i},\n`, "f(\n", ");\n"],
  ["Python decorated functions", "a.py", (i) => `@dec\ndef f${i}(x):\n    return x\n`],
  [
    "a Python class's methods",
    "a.py",
    (i) => `    # c\n    def m${i}(self):\n        pass\n`,
    "class A:\n",
  ],
  [
    "Go documented functions",
    "a.go",
    (i) => `// F${i} does\nfunc F${i}(x int) int { return x }\n`,
    "package a\n",
  ],
  [
    "a Go struct's fields",
    "a.go",
    (i) => `\tF${i} int // c\n`,
    "package a\ntype S struct {\n",
    "}\n",
  ],
  ["C++ declarations after a macro word", "a.cpp", (i) => `EXPORT_API int f${i}(int x);\n`],
  [
    "a C++ class's methods and labels",
    "a.cpp",
    (i) => `  int f${i}(int x) { return x; }\n public:\n`,
    "class A {\n",
    "};\n",
  ],
  ["PHP functions", "a.php", (i) => `function f${i}($x) { return $x; }\n`, "<?php\n"],
  [
    "a PHP returned array's keys",
    "a.php",
    (i) => `  'k${i}' => ${i},\n`,
    "<?php\nreturn [\n",
    "];\n",
  ],
  ["a Ruby seeds file", "a.rb", (i) => `User.create!(name: "u${i}")\n`],
  ["PowerShell functions", "a.ps1", (i) => `function F${i} { param($x) $x }\n`],
  [
    "a PowerShell class's methods",
    "a.ps1",
    (i) => `  [int] M${i}() { return 1 }\n`,
    "class A {\n",
    "}\n",
  ],
  [
    "Lua locals of a returned module",
    "a.lua",
    (i) => `local x${i} = ${i}\n`,
    "local M = {}\n",
    "return M\n",
  ],
  [
    "Haskell signatures and bindings",
    "A.hs",
    (i) => `f${i} :: Int -> Int\nf${i} x = x\n`,
    "module A where\n",
  ],
];

Deno.test("the code views read wide nodes in steps linear in their width, in every grammar", async () => {
  // Every shape measured, then the ones that grew too fast named together.
  const failed: string[] = [];
  for (const [what, file, unit, head = "", tail = ""] of SHAPES) {
    const steps: number[] = [];
    for (const size of SIZES) {
      let text = head;
      for (let i = 0; text.length < size; i++) text += unit(i);
      text += tail;
      steps.push(await countNodeSteps(() => renderCode(file, text, { maxWork: Infinity })));
    }
    try {
      assertLinear(what, steps);
    } catch (error) {
      failed.push((error as Error).message);
    }
  }
  assert.deepEqual(failed, []);
});

Deno.test("the count of node steps sees a sibling asked of each child of a wide node", async () => {
  // A sixteenth of the sizes above, 16x apart as they are: a step asked of each child costs the
  // square of the width, so it grows about 256x whatever the first size, and the walk at 64 KB
  // (7,000 children) cost most of this file's CPU.
  const sizes = SIZES.map((size) => size / 16);
  const parser = await parserFor("kotlin");
  const steps: number[] = [];
  for (const size of sizes) {
    const tree = parser.parse("f(a < b, ".repeat(size / 9))!;
    steps.push(
      await countNodeSteps(() => {
        for (const child of tree.rootNode.namedChildren) void child?.previousSibling;
        return Promise.resolve();
      }),
    );
    tree.delete();
  }
  assert.throws(() => assertLinear("previousSibling of each child", steps, sizes), /work grew/);
});
