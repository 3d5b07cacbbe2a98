import assert from "node:assert/strict";
import { join } from "node:path";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { fixture, raw, snapshotPath } from "../_helpers.ts";

const snapshots = snapshotPath(import.meta.url);

const SAMPLES = ["py", "js", "ts", "tsx", "go", "rs", "java", "c", "cpp"];

async function sample(ext: string): Promise<{ path: string; text: string }> {
  const path = join(fixture("views"), `sample.${ext}`);
  return { path, text: await Deno.readTextFile(path) };
}

for (const ext of SAMPLES) {
  Deno.test(`skeletonViewMode() golden: sample.${ext} byte-exact`, async (t) => {
    const { path, text } = await sample(ext);
    const view = await renderCode(path, text);
    assert.ok(view, `no grammar for .${ext}`);
    assert.equal(view.hasErrors, false);
    await t.assertSnapshot(view.text, { serializer: raw, path: snapshots });
  });

  Deno.test(`outlineViewMode() golden: sample.${ext} byte-exact`, async (t) => {
    const { path, text } = await sample(ext);
    const view = await renderCode(path, text);
    await t.assertSnapshot(outlineText(view!.symbols, ext === "py" ? "#" : "//"), {
      serializer: raw,
      path: snapshots,
    });
  });
}

Deno.test("skeletonViewMode() keeps multi-line signatures, decorators and docstrings under their class", async () => {
  const { path, text } = await sample("py");
  const out = (await renderCode(path, text))!.text;
  const signature = [
    "    async def reserve(",
    "        self,",
    "        sku: str,",
    "        quantity: int = 1,",
    "        *,",
    "        timeout: float | None = None,",
    "    ) -> Reservation:",
    '        """Reserve stock, waiting up to `timeout` seconds."""',
    "        ...",
  ].join("\n");
  assert.ok(out.includes(signature), out);
  assert.ok(out.includes("@dataclass(frozen=True)\nclass Reservation:\n"));
  assert.ok(!out.includes("await asyncio.sleep"), "bodies are elided");
  assert.ok(!out.includes("asyncio.run("), "module-level calls are dropped");
});

Deno.test("skeletonViewMode() never deduplicates: same-named methods in two classes and overloads all stay", async () => {
  const { path, text } = await sample("py");
  const out = (await renderCode(path, text))!.text;
  assert.equal(out.match(/def __repr__/g)?.length, 2);
  assert.equal(out.match(/def get\(/g)?.length, 3);
  assert.equal(out.match(/@overload/g)?.length, 2);
});

Deno.test("skeletonViewMode() keeps TypeScript fields, full return types and overload signatures", async () => {
  const { path, text } = await sample("ts");
  const out = (await renderCode(path, text))!.text;
  assert.ok(out.includes("  private readonly cache = new Map<string, T>();\n"));
  assert.ok(out.includes("  ): Promise<T | undefined> { ... }\n"));
  assert.ok(out.includes("  load(id: string): T;\n  load(ids: string[]): T[];\n"));
  assert.ok(out.includes("export interface User<T extends object = {}> {\n  id: string;\n"));
});

Deno.test("skeletonViewMode() renders what parsed of a file with syntax errors", async () => {
  const text =
    "def good(a, b):\n    return a\n\ndef broken(:\n    pass\n\nclass Fine:\n    def m(self):\n        return 1\n";
  const view = (await renderCode("x.py", text))!;
  assert.equal(view.hasErrors, true);
  assert.ok(view.text.includes("def good(a, b):\n    ...\n"), view.text);
  assert.ok(view.text.includes("class Fine:\n    def m(self):\n        ...\n"), view.text);
});

Deno.test("renderCode() returns undefined for a language without a grammar", async () => {
  assert.equal(await renderCode("notes.md", "# Title\n"), undefined);
});

Deno.test("renderCode() mask: def keeps the whole definition, sig the signature, hide omits, rest applies", async () => {
  const { path, text } = await sample("py");
  const view = (await renderCode(path, text, {
    mask: { "Store.get": "def", "Reservation": "sig", "Reservation.total": "hide" },
    rest: "hide",
  }))!;
  const out = view.text;
  assert.ok(out.includes("        return self._items.get(sku, default)\n"), out);
  assert.ok(out.includes("class Store(Generic[T]):\n"), "a listed member shows its container");
  assert.ok(!out.includes("def reserve"), "unlisted members follow rest: hide");
  assert.ok(out.includes("class Reservation:\n"));
  assert.ok(!out.includes("def total"));
  assert.ok(!out.includes("class Other"));
  assert.ok(!out.includes("import asyncio"), "imports follow rest");
  assert.ok(!out.includes("Inventory service"), "the module docstring follows rest");
  assert.ok(out.includes('    """A store of items.'), "a class docstring stays with its class");
});

Deno.test("skeletonViewMode() elides values longer than maxValueLines, except Python's __all__", async () => {
  const items = Array.from({ length: 15 }, (_, i) => `    "n${i}",\n`).join("");
  const text = `__all__ = [\n${items}]\nTABLE = [\n${items}]\nSHORT = [\n    1,\n]\n`;
  const out = (await renderCode("m.py", text))!.text;
  assert.ok(out.startsWith(`__all__ = [\n${items}]\n`), out);
  assert.ok(out.includes("TABLE = ...\n"));
  assert.ok(out.includes("SHORT = [\n    1,\n]\n"));
  const wide = (await renderCode("m.py", text, { maxValueLines: 20 }))!.text;
  assert.ok(wide.includes(`TABLE = [\n${items}]\n`));
});

Deno.test("skeletonViewMode() reads a C++ header named .h with the C++ grammar when C cannot parse it", async () => {
  const text = "namespace a {\nclass B {\npublic:\n  int f(int x) { return x; }\n};\n}\n";
  const view = (await renderCode("x.h", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(view.text, "namespace a {\nclass B {\npublic:\n  int f(int x) { ... }\n};\n}\n");
  const c = (await renderCode("y.h", "int f(int x) { return x; }\n"))!;
  assert.equal(c.text, "int f(int x) { ... }\n");
});

Deno.test("renderCode() mask: qualified names for Go methods, Rust impls, C++ namespaces and Java inner classes", async () => {
  const cases: Array<[string, string, string, string]> = [
    ["go", "Store.Get", "\tv, ok := s.items[id]\n", "func New["],
    ["rs", "Point.new", "        Point { x, y }\n", "pub fn clamp"],
    ["cpp", "geo.Box.area", "        return static_cast<double>(w_ * h_);\n", "T clamp("],
    ["java", "Store.Entry.Entry", "            this.key = key;\n", "public T find("],
  ];
  for (const [ext, name, body, hidden] of cases) {
    const { path, text } = await sample(ext);
    const view = (await renderCode(path, text, { mask: { [name]: "def" }, rest: "hide" }))!;
    assert.ok(view.symbols.some((s) => s.qualifiedName === name), `${ext}: no symbol ${name}`);
    assert.ok(view.text.includes(body), `${ext}: ${view.text}`);
    assert.ok(!view.text.includes(hidden), `${ext}: ${view.text}`);
  }
});

Deno.test("skeletonViewMode() keeps if/try blocks that hold definitions or imports, with their clauses", async () => {
  const text = [
    "try:",
    "    foo()",
    "except Exception:",
    "    pass",
    "",
    "try:",
    "    import x",
    "except ImportError:",
    "    x = None",
    "finally:",
    "    cleanup()",
    "",
    "if a:",
    "    b()",
    "else:",
    "    def f(): pass",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("m.py", text))!.text,
    "try:\n    import x\nexcept ImportError:\n    x = None\nfinally:\n    ...\n\nif a:\n    ...\nelse:\n    def f(): pass\n",
  );
});

Deno.test("renderCode() mask: hiding the last member leaves no blank line before the closing brace", async () => {
  const text = [
    "export class Shelf {",
    "  /** Put an item. */",
    "  put(x: number): void {",
    "    this.n += x;",
    "  }",
    "",
    "  /** Count items. */",
    "  count(): number {",
    "    return this.n;",
    "  }",
    "}",
    "",
  ].join("\n");
  const out = (await renderCode("shelf.ts", text, { mask: { "Shelf.put": "sig" }, rest: "hide" }))!
    .text;
  assert.equal(
    out,
    "export class Shelf {\n  /** Put an item. */\n  put(x: number): void { ... }\n}\n",
  );
});

Deno.test("renderCode() of a minified line marks where it left a statement out between two kept ones", async () => {
  const text = "var a=1;for(;;){x()}var b=function(){return 1};if(a){b()}class C{m(){return 1}}\n";
  assert.equal(
    (await renderCode("dist/app.min.js", text))!.text,
    "var a=1; ... var b=function(){ ... }; ... class C{m(){ ... }}\n",
  );
  // With blanks around what was left out, they close up to one, as in code written by hand.
  assert.equal(
    (await renderCode("a.js", "var a = 1; for (;;) {} var b = 2;\n"))!.text,
    "var a = 1; var b = 2;\n",
  );
});
