import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

/** Whether `text` holds half of a surrogate pair alone (what a cut between its halves leaves). */
function loneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

// Names and signatures are cut to a length in UTF-16 units (120 for a test's title, 240 for a
// signature): a cut between an emoji's two halves left half of it, which UTF-8 cannot encode (a
// build writes U+FFFD there). Titles of emoji at every offset cross the cut at both parities.
Deno.test("a symbol's name or signature cut to its length keeps no half of an emoji", async () => {
  for (const lead of ["", "a"]) {
    const title = lead + "🚀".repeat(140);
    const cases: Array<[string, string]> = [
      ["test/a.bats", `@test "${title}" {\n  run true\n}\n`],
      ["spec/a_spec.rb", `describe "${title}" do\n  it "x" do\n    1\n  end\nend\n`],
      ["src/a.test.ts", `test("${title}", () => {\n  expect(1).toBe(1);\n});\n`],
      ["src/a.py", `def f(${"é🚀".repeat(80)}=1):\n    return 1\n`],
    ];
    for (const [path, text] of cases) {
      const view = (await renderCode(path, text))!;
      assert.ok(view.symbols.length > 0, path);
      for (const symbol of view.symbols) {
        assert.ok(!loneSurrogate(symbol.name), `${path} (${lead.length}): ${symbol.name}`);
        assert.ok(!loneSurrogate(symbol.signature ?? ""), `${path} (${lead.length}) signature`);
        assert.ok(!loneSurrogate(symbol.qualifiedName), `${path} (${lead.length}) qualified name`);
      }
      assert.ok(!loneSurrogate(view.text), `${path} (${lead.length}) text`);
    }
  }
});
