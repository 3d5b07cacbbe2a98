import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject, prng } from "../_helpers.ts";
import { structure } from "./_well_formed.ts";

/** Lines that start blocks of their own in markdown: fences, headings, lists, quotes, HTML. */
const HOSTILE_LINES = [
  "```",
  "```js",
  "````",
  "~~~",
  "~~~~~ py",
  "## Files",
  "### src/fake.ts",
  "# Title",
  "   ## indented",
  "===",
  "---",
  "-",
  "- item",
  "1. first",
  "2) second",
  "> quote",
  "<div>",
  "<!-- open",
  "plain text",
  "",
];

/** A seeded markdown text of hostile lines, some of them as headings (`# ```js`). */
function hostileMarkdown(seed: number): string {
  const random = prng(seed);
  const pick = () => HOSTILE_LINES[Math.floor(random() * HOSTILE_LINES.length)];
  return Array.from({ length: 12 }, () => {
    const line = pick();
    return random() < 0.4 ? `${"#".repeat(1 + Math.floor(random() * 6))} ${line}` : line;
  }).join("\n") + "\n";
}

/** A view of one's own that hands the file's text back as markdown, as a model's summary may. */
const passThrough = {
  kind: "view-mode" as const,
  name: "pass",
  version: "1",
  render: (file: { text: string }) => ({ text: file.text, fenced: false }),
};

Deno.test("unfenced view output (a summary, a model's or a plugin's markdown) stays inside its file's block", async () => {
  for (let seed = 1; seed <= 20; seed++) {
    const root = await makeProject({
      "a.md": hostileMarkdown(seed),
      "b.md": hostileMarkdown(seed + 1000),
      "z.ts": "export const z = 1;\n",
    });
    for (const files of [[{ path: "*.md", view: "summary" }], [{ path: "*.md", view: "pass" }]]) {
      const result = await buildContext({
        cwd: root,
        inline: { files: [...files, "z.ts"], plugins: [passThrough] },
      }, { write: false });
      const { headings, open } = structure(result.document);
      const label = `seed ${seed}, view ${files[0].view}`;
      // Only slop's own headings: the section, then one per file.
      assert.deepEqual(
        headings.filter((h) => !h.startsWith("## Files")).sort(),
        ["### a.md", "### b.md", "### z.ts"],
        `${label}:\n${result.document}`,
      );
      assert.equal(headings.filter((h) => h.startsWith("## Files")).length, 1, label);
      assert.ok(!open, `${label}: a fence is left open`);
      // A list item that starts with a fence opens a code block inside the list.
      if (files[0].view === "summary") {
        assert.doesNotMatch(result.document, /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:`{3}|~{3})/m, label);
      }
      assert.match(result.document, /### z\.ts\n\n```ts\nexport const z = 1;\n```\n/, label);
    }
  }
});
