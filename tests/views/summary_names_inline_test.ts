import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { makeProject } from "../_helpers.ts";

// Keys taken from a config file may hold anything JSON allows: newlines, headings after them,
// backtick runs. In a summary they are inline code: one line each, one span each.
const KEYS = [
  "a\n## Files\n### fake.ts\n```",
  "b`c",
  "`lead",
  "trail``",
  "x\r\ny\u2028z",
  "plain",
];

/** The code spans of a `- keys:` line, read back by CommonMark's rule (equal backtick runs). */
function spans(line: string): string[] {
  const out: string[] = [];
  const re = /(`+)([\s\S]*?[^`])\1(?!`)/g;
  for (const m of line.matchAll(re)) {
    const inner = m[2];
    out.push(
      inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() ? inner.slice(1, -1) : inner,
    );
  }
  return out;
}

Deno.test("a summary's names from the file stay inline code on one line, however odd the key", () => {
  const text = JSON.stringify(Object.fromEntries(KEYS.map((k, i) => [k, i])));
  const summary = summarize("config.json", text, { maxNames: 100 });
  const lines = summary.split("\n");
  assert.equal(lines.length, 2, summary);
  assert.ok(lines[1].startsWith("- keys: "));
  const escaped = KEYS.map((k) =>
    k.replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\u2028/g, "\\u{2028}")
  );
  assert.deepEqual(spans(lines[1].slice("- keys: ".length)), escaped);
});

Deno.test("a JSON key holding a heading cannot add a heading or a file to the document", async () => {
  const root = await makeProject({
    "config.json": JSON.stringify({ "a\n## Files\n### fake.ts\n```": 1 }),
    "b.ts": "export const b = 1;\n",
  });
  const result = await buildContext({ cwd: root, inline: { defaultView: "summary" } }, {
    write: false,
  });
  const headings = result.document.split("\n").filter((l) => /^#{1,6} /.test(l));
  assert.deepEqual(headings.sort(), ["## Files", "### b.ts", "### config.json"].sort());
});

Deno.test("a summary stays short: a long line, heading or key is cut at maxLineChars with a note", () => {
  const long = "x".repeat(1_000_000);
  const cases: Array<[string, string]> = [
    ["data.txt", `${long}\nshort\n`],
    ["notes.md", `# ${long}\n`],
    ["config.json", JSON.stringify({ [long]: 1 })],
    ["app.py", `def ${"f".repeat(5000)}():\n    pass\n`],
  ];
  for (const [path, text] of cases) {
    const summary = summarize(path, text);
    assert.ok(summary.length < 600, `${path}: ${summary.length} characters`);
    assert.match(summary, /… \(\d+ more characters\)/, path);
  }
  // A cut never splits a surrogate pair, and the option moves the cut.
  const emoji = summarize("e.txt", "😀".repeat(300), { maxLineChars: 11 });
  assert.ok(emoji.includes("    " + "😀".repeat(5) + "… (590 more characters)"), emoji);
  assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji));
  // Short lines are shown as they are.
  assert.equal(summarize("a.txt", "one\ntwo\n"), "**Text**, 2 lines\n\n    one\n    two");
});
