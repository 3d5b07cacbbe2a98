// Every summary writes a count of a thousand or more one way (`1,234 lines`): the kinds of file
// whose rows are made by different code (code, Markdown, text, YAML, JSON, CSV, XML, a notebook,
// a gettext catalog, test vectors, an Xcode project, a Godot scene), each with over 1,000 lines.
import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

const N = 1_200;
const many = (line: (i: number) => string) =>
  Array.from({ length: N }, (_, i) => line(i)).join("\n") + "\n";

const CASES: Array<[string, string]> = [
  ["src/a.ts", many((i) => `export function f${i}() {}`)],
  ["docs/a.md", "# Title\n\n" + many((i) => `Line ${i} of prose.`)],
  ["notes/a.txt", many((i) => `Line ${i} of prose.`)],
  ["conf/a.yaml", many((i) => `key${i}: ${i}`)],
  ["data/a.json", "[\n" + many((i) => `  ${i},`) + "  0\n]\n"],
  ["data/a.csv", "id,name\n" + many((i) => `${i},n${i}`)],
  ["data/a.xml", "<root>\n" + many((i) => `  <item id="${i}"/>`) + "</root>\n"],
  ["po/de.po", many((i) => `msgid "m${i}"\nmsgstr "t${i}"\n`)],
  ["test/a.rsp", "[SHA1]\n" + many((i) => `Msg = ${i}`)],
  ["App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n" + many((i) => `\tA${i} = B;`) + "}\n"],
  [
    "scenes/main.tscn",
    '[gd_scene format=3]\n\n[node name="Main" type="Node2D"]\n' + many((i) => `x${i} = ${i}`),
  ],
  [
    "book/a.ipynb",
    JSON.stringify(
      {
        cells: Array.from({ length: N }, (_, i) => ({
          cell_type: "code",
          source: [`x${i} = ${i}`],
          metadata: {},
          outputs: [],
          execution_count: null,
        })),
        metadata: { language_info: { name: "python" } },
        nbformat: 4,
        nbformat_minor: 5,
      },
      null,
      1,
    ),
  ],
];

Deno.test("summaries write counts of a thousand or more with a comma", () => {
  for (const [path, text] of CASES) {
    const out = summarize(path, text);
    const first = out.split("\n")[0];
    assert.match(first, /\d,\d{3} /, `${path}: ${first}`);
    assert.doesNotMatch(out, /(?<![\d.,])\d{4,} [a-z]/, `${path}:\n${out}`);
  }
});
