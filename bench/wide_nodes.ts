/**
 * The code engine on one wide input, once, in this process: a shape made to a size (one node of
 * thousands of children) or a file given by path. Prints the input's size, a hash of the whole
 * `CodeView` (the same on two checkouts: the same output) and its symbols; measure its CPU with
 * `/usr/bin/time`. Run it against another checkout of slop (`SLOP=/tmp/base`) to compare. See
 * bench/README.md, "Wide nodes: a parent or sibling asked of each child (twenty-second session,
 * wide33)".
 *
 * ```sh
 * /usr/bin/time -f "%U + %S s" deno run -A bench/wide_nodes.ts kotlin-error 147456
 * SLOP=/tmp/base /usr/bin/time -f "%U + %S s" deno run -A bench/wide_nodes.ts cpp-class 262144
 * /usr/bin/time -f "%U + %S s" deno run -A bench/wide_nodes.ts lib.dom.d.ts
 * ```
 *
 * @module
 */

const slop = Deno.env.get("SLOP") ?? new URL("..", import.meta.url).pathname;
const { renderCode } = await import(`${slop}/plugins/view_modes/_code.ts`);
const { sha256Hex } = await import(`${slop}/pipeline/helpers.ts`);

/** The shapes: a file name, the unit repeated, and what comes before and after the units. */
const SHAPES: Record<string, [string, (i: number) => string, string?, string?]> = {
  "kotlin-error": ["A.kt", () => "f(a < b, "],
  "kotlin-less": ["A.kt", () => "a<"],
  "cpp-class": [
    "a.cpp",
    (i) => `  int f${i}(int x) { return x; }\n public:\n`,
    "class A {\n",
    "};\n",
  ],
  "python-defs": ["a.py", (i) => `@dec\ndef f${i}(x):\n    return x\n`],
  "typescript-functions": [
    "a.ts",
    (i) => `/** d */\nexport function f${i}(x: number) { return x; }\n`,
  ],
  "java-enum": ["A.java", (i) => `  V${i}(${i}),\n`, "enum A {\n", "; }\n"],
  "go-struct": ["a.go", (i) => `\tF${i} int // c\n`, "package a\ntype S struct {\n", "}\n"],
  "csharp-class": [
    "A.cs",
    (i) => `  [Attr] public int F${i}() { return ${i}; }\n  // c\n`,
    "namespace N;\nclass A {\n",
    "}\n",
  ],
};

const [what, size] = Deno.args;
let path = what;
let text: string;
if (SHAPES[what]) {
  const [file, unit, head = "", tail = ""] = SHAPES[what];
  text = head;
  for (let i = 0; text.length < Number(size ?? 65536); i++) text += unit(i);
  text += tail;
  path = file;
} else {
  text = Deno.readTextFileSync(what);
}
const view = await renderCode(path, text, { maxWork: Infinity });
const hash = sha256Hex(JSON.stringify(view)).slice(0, 12);
console.log(`${what}: ${text.length} characters, view ${hash}, ${view?.symbols.length} symbols`);
