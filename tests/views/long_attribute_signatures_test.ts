import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A method's long attributes came first in its signature, and the cut at 240 characters took the
// method's name (App-vNext/Polly's `[UnconditionalSuppressMessage("Trimming", "IL2026: ...")]`
// before `AddFallback`, symfony/demo's three `#[Route(...)]` before `index`). Written for this
// test.
const LONG = "x".repeat(250);

Deno.test("a signature's long attributes are cut to their first argument, and its name stays", async () => {
  const cases: [string, string, string, string][] = [
    [
      "A.cs",
      `class A {\n    [Suppress("Trimming", "${LONG}", Justification = "kept")]\n    public static int AddFallback(int a) { return a; }\n}\n`,
      "AddFallback",
      '[Suppress("Trimming", ...)] public static int AddFallback(int a)',
    ],
    [
      "a.php",
      `<?php\nclass B {\n    #[Route('/', name: 'index', defaults: ['x' => '${LONG}'])]\n    #[Route('/rss.xml', name: 'rss', defaults: ['x' => '${LONG}'])]\n    public function index(int $page): Response { return $page; }\n}\n`,
      "index",
      "#[Route('/', ...)] #[Route('/rss.xml', ...)] public function index(int $page): Response",
    ],
    [
      "C.java",
      `class C {\n  @Deprecated(since = "${LONG}", forRemoval = true)\n  public int count(int a) { return a; }\n}\n`,
      "count",
      "@Deprecated(...) public int count(int a)",
    ],
  ];
  for (const [path, text, name, signature] of cases) {
    const view = (await renderCode(path, text))!;
    const symbol = view.symbols.find((s) => s.name === name);
    assert.equal(symbol?.signature, signature, path);
  }
});

Deno.test("a long signature whose name comes early is cut at its end as before", async () => {
  const text = `class A {\n    public int Sum(${
    Array.from({ length: 40 }, (_, i) => `int a${i}`).join(", ")
  }) { return 0; }\n}\n`;
  const sum = (await renderCode("A.cs", text))!.symbols.find((s) => s.name === "Sum")!;
  assert.equal(sum.signature.length, 240);
  assert.ok(sum.signature.startsWith("public int Sum(int a0, int a1,"), sum.signature);
  assert.ok(sum.signature.endsWith("..."), sum.signature);
});

Deno.test("many short attributes before a name keep their first and last words whole", async () => {
  const annotations = Array.from({ length: 12 }, (_, i) => `@Setting${i}(value = ${i})`).join("\n");
  const text = `${annotations}\npublic class HashBench {\n  int x;\n}\n`;
  const symbol = (await renderCode("HashBench.java", text))!.symbols[0];
  assert.equal(
    symbol.signature,
    "@Setting0(value = 0) @Setting1(value = 1) ... @Setting9(value = 9) @Setting10(value = 10) @Setting11(value = 11) public class HashBench",
  );
});

// A type parameter list one a line with a trailing comma (honojs/hono's `class Hono<\n  E ...,\n>`)
// read `CurrentPath extends string = BasePath, >` in the outline. Written for this test.
Deno.test("a type parameter list's trailing comma is dropped from a signature, an operator kept", async () => {
  const text = [
    "export class Hono<",
    "  E extends Env = Env,",
    "  P extends string = '/',",
    "> {",
    "  route<",
    "    S extends string,",
    "  >(path: S, n = 1 >= 0): void {}",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("hono.ts", text))!;
  assert.deepEqual(view.symbols.map((s) => s.signature), [
    "class Hono<E extends Env = Env, P extends string = '/'>",
    "route<S extends string>(path: S, n = 1 >= 0): void",
  ]);
  const rust = (await renderCode("a.rs", "pub fn f<\n    T: Clone,\n>(t: T) {}\n"))!;
  assert.equal(rust.symbols[0].signature, "pub fn f<T: Clone>(t: T)");
  // A TSX arrow's type parameters need their comma (`<T>(` would open an element): an arrow's
  // list, after no name, keeps it.
  const tsx = "export const id = <\n  T,\n>(value: T): T => value;\n";
  assert.equal(
    (await renderCode("a.tsx", tsx))!.symbols[0].signature,
    "id = < T, >(value: T): T =>",
  );
});

Deno.test("a C typedef named after a long body keeps its name, its body's first and last words", async () => {
  const names = Array.from({ length: 30 }, (_, i) => `REPL_STATE_NUMBER_${i}`).join(", ");
  const symbol = (await renderCode("a.h", `typedef enum { ${names} } repl_state;\n`))!.symbols
    .find((s) => s.kind === "enum")!;
  assert.equal(
    symbol.signature,
    "typedef enum { REPL_STATE_NUMBER_0, ... REPL_STATE_NUMBER_26, REPL_STATE_NUMBER_27, REPL_STATE_NUMBER_28, REPL_STATE_NUMBER_29 } repl_state",
  );
});

// The name written in an attribute before it (a message that mentions the method, `nameof(X)`)
// was taken for the name: the cut kept the attribute and took the name. Written for this test.
Deno.test("a long lead's cut finds the name outside the attributes' strings and arguments", async () => {
  const words = "words ".repeat(20);
  const text = `class A {\n    [Obsolete("${words}then it says Compute here")]\n` +
    `    [Display(Name = nameof(Compute), Description = "${words}")]\n` +
    `    public static int Compute(int a) { return a; }\n}\n`;
  const view = (await renderCode("A.cs", text))!;
  const signature = view.symbols.find((s) => s.name === "Compute")!.signature;
  assert.match(signature, /public static int Compute\(int a\)$/);
  assert.ok(signature.length <= 240, signature);
});
