import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// Brings zod's sources into the npm cache (the test reads them; nothing imports zod).
import "npm:zod@4.6.7/package.json" with { type: "json" };
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { tsDeclarations } from "./_ts_declarations.ts";

/** A package's folder in the npm cache. */
function packageDir(specifier: string): string {
  return dirname(fileURLToPath(import.meta.resolve(`${specifier}/package.json`)));
}

async function filesUnder(dir: string, keep: (path: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await filesUnder(path, keep));
    else if (entry.isFile && keep(path)) out.push(path);
  }
  return out.sort();
}

const ZOD = packageDir("npm:zod@4.6.7");
const TS_LIB = join(packageDir("npm:typescript@5.9.3"), "lib");

/**
 * Assert that the skeleton of each file records every declaration the compiler finds, by name and
 * line, in order, shows its header byte for byte, in order, and shows no line the file does not
 * have but for its markers.
 */
async function assertKeepsDeclarations(t: Deno.TestContext, root: string, files: string[]) {
  let total = 0;
  for (const path of files) {
    await t.step(path.slice(root.length + 1), async () => {
      const text = (await Deno.readTextFile(path)).replace(/\r\n?/g, "\n");
      const declarations = tsDeclarations(path, text);
      const view = (await renderCode(path, text))!;
      // A re-export (`export * from "./a"`) and an anonymous default export (the name `default`)
      // are symbols of the outline, no declarations.
      const declared = view.symbols.filter((s) =>
        s.kind !== "re-export" &&
        !(s.name === "default" && s.signature.startsWith("export default"))
      );
      assert.deepEqual(
        declared.map((s) => `${s.line} ${s.name}`),
        declarations.map((d) => `${d.line} ${d.name}`),
      );
      // Nothing else: every line is the file's, but for a marker of what was elided.
      const lines = new Set(text.split("\n"));
      for (const line of view.text.split("\n")) {
        if (!line || lines.has(line) || line.includes("{ ... }") || /\.\.\.[;,)]*$/.test(line)) {
          continue;
        }
        assert.fail(`line ${JSON.stringify(line)} is not in the file`);
      }
      let at = 0;
      for (const d of declarations) {
        const i = view.text.indexOf(d.header, at);
        assert.ok(i !== -1, `line ${d.line}: ${d.kind} ${JSON.stringify(d.header)} not kept`);
        at = i + 1;
      }
      total += declarations.length;
    });
  }
  return total;
}

Deno.test("skeletonViewMode() keeps every declaration the TypeScript compiler finds outside function bodies in zod's sources, exact and in order", async (t) => {
  const files = await filesUnder(
    join(ZOD, "src"),
    (p) => p.endsWith(".ts") && !p.includes("/tests/"),
  );
  assert.ok(files.length > 100, `only ${files.length} files`);
  const total = await assertKeepsDeclarations(t, ZOD, files);
  assert.ok(total > 4000, `only ${total} declarations`);
});

Deno.test("skeletonViewMode() keeps every declaration the TypeScript compiler finds in zod's compiled JavaScript, exact and in order", async (t) => {
  const files = await filesUnder(ZOD, (p) => p.endsWith(".js") && !p.includes("/src/"));
  assert.ok(files.length > 100, `only ${files.length} files`);
  const total = await assertKeepsDeclarations(t, ZOD, files);
  assert.ok(total > 1500, `only ${total} declarations`);
});

Deno.test("skeletonViewMode() keeps every declaration the TypeScript compiler finds in the typescript lib's .d.ts files, exact and in order", async (t) => {
  const files = await filesUnder(TS_LIB, (p) => p.endsWith(".d.ts"));
  assert.ok(files.length > 90, `only ${files.length} files`);
  const total = await assertKeepsDeclarations(t, TS_LIB, files);
  assert.ok(total > 20000, `only ${total} declarations`);
});

Deno.test("skeletonViewMode() keeps the methods of an object literal in a long module-level initializer (zod's ZodType)", async () => {
  const path = join(ZOD, "src/v4/classic/schemas.ts");
  const view = (await renderCode(path, await Deno.readTextFile(path)))!;
  const start = view.text.indexOf("export const ZodType: core.$constructor<ZodType> =");
  assert.ok(start !== -1);
  const lines = view.text.slice(start).split("\n");
  assert.deepEqual(lines.slice(1, 7), [
    '  "ZodType",',
    "  (inst, def) => { ... },",
    "  {",
    "    check(...chks) { ... },",
    "    with(...chks) { ... },",
    "    clone(def, params) { ... },",
  ]);
  const names = view.symbols.filter((s) => s.qualifiedName.startsWith("ZodType.")).map((s) =>
    s.name
  );
  assert.ok(names.includes("check") && names.includes("clone") && names.includes("safeParse"));
});

Deno.test("renderCode() a long value keeps its definitions and still elides its long data", async () => {
  const data = Array.from({ length: 20 }, (_, i) => `    "k${i}": ${i},`).join("\n");
  const text = [
    "export const api = make({",
    "  table: {",
    data,
    "  },",
    "  get(key: string) {",
    "    return key;",
    "  },",
    "});",
    "export const plain = {",
    data,
    "};",
    "",
  ].join("\n");
  const view = (await renderCode("a.ts", text))!;
  assert.equal(
    view.text,
    "export const api = make({\n  table: ...,\n  get(key: string) { ... },\n});\nexport const plain = ...;\n",
  );
  assert.deepEqual(view.symbols.map((s) => s.qualifiedName), ["api", "api.get", "plain"]);
});
