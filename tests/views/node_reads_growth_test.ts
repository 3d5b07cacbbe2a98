import { parserFor } from "../../grammars/tree_sitter.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { assertLinear, SIZES } from "../scaling/_growth.ts";

// Work the walker's count does not see: the language rules read nodes' text and children on
// their own. A rule that reads a whole function's body for each of its statements (Go's subtest
// check) or a whole macro call for each item it declares (Rust) is quadratic in the file. Counted
// here as the characters and children web-tree-sitter hands out while a view is built.
const SHAPES: Array<[string, string, (i: number) => string, string, string]> = [
  [
    "a Go test function's statements around its subtests",
    "a_test.go",
    (i) => `\tx${i} := ${i}\n\t_ = x${i}\n\tt.Run("s${i}", func(t *testing.T) { _ = 1 })\n`,
    "package x\n\nfunc TestA(t *testing.T) {\n",
    "}\n",
  ],
  [
    "a Rust macro call's items",
    "a.rs",
    (i) => `    #[doc = "x"] pub struct S${i}(u8);\n`,
    "m! {\n",
    "}\n",
  ],
  [
    "a Rust macro call's functions and methods in cfg_if! branches, their bodies elided",
    "a.rs",
    (i) =>
      `        pub fn f${i}(x: u8) -> u8 {\n            x + ${i}\n        }\n        impl S${i} { fn g() { h(); } }\n`,
    "cfg_if! {\n    if #[cfg(unix)] {\n",
    "    } else {\n        fn z() {}\n    }\n}\n",
  ],
  [
    "Kotlin nested classes with their primary constructors on the next line",
    "A.kt",
    (i) => `  public class B${i}\n  internal constructor(val x: Int) : T {\n    fun f() = x\n  }\n`,
    "class A {\n",
    "}\n",
  ],
  [
    "a macro_rules! definition's rules, their expansions elided",
    "a.rs",
    (i) => `    (r${i} $x:expr) => {\n        f($x, ${i})\n    };\n`,
    "macro_rules! m {\n",
    "}\n",
  ],
];

/** Count what nodes hand out (characters of `text`, entries of `namedChildren`) while `work` runs. */
async function countReads(work: () => Promise<unknown>): Promise<number> {
  const parser = await parserFor("go");
  const proto = Object.getPrototypeOf(parser.parse("package x\n")!.rootNode);
  const text = Object.getOwnPropertyDescriptor(proto, "text")!;
  const children = Object.getOwnPropertyDescriptor(proto, "namedChildren")!;
  let reads = 0;
  Object.defineProperty(proto, "text", {
    ...text,
    get() {
      const value = text.get!.call(this) as string;
      reads += value.length;
      return value;
    },
  });
  Object.defineProperty(proto, "namedChildren", {
    ...children,
    get() {
      const value = children.get!.call(this) as unknown[];
      reads += value.length;
      return value;
    },
  });
  try {
    await work();
  } finally {
    Object.defineProperty(proto, "text", text);
    Object.defineProperty(proto, "namedChildren", children);
  }
  return reads;
}

Deno.test("the language rules read nodes in time linear in the file: Go subtests, Rust macro items and bodies", async () => {
  for (const [what, file, unit, head, tail] of SHAPES) {
    const reads: number[] = [];
    for (const size of SIZES) {
      let text = head;
      for (let i = 0; text.length < size; i++) text += unit(i);
      text += tail;
      reads.push(await countReads(() => renderCode(file, text, { maxWork: Infinity })));
    }
    assertLinear(what, reads);
  }
});
