import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { markdownHeadings } from "../../plugins/view_modes/_markdown_headings.ts";

/** The heading lines of a markdown file's summary, without the list markers. */
function listed(text: string): string[] {
  return summarize("README.md", text, { maxNames: 100 }).split("\n").slice(1)
    .map((line) => line.trim().replace(/^- /, ""));
}

Deno.test("a # line inside a fenced code block is no heading: every fence char, length and indent", () => {
  for (const char of ["`", "~"]) {
    for (const length of [3, 4, 7]) {
      for (const indent of ["", " ", "  ", "   "]) {
        const fence = char.repeat(length);
        // A shorter run of the same char, or a run of the other char, does not close the fence.
        const inner = [char.repeat(length - 1), (char === "`" ? "~" : "`").repeat(length + 1)];
        const text = [
          "# Real",
          `${indent}${fence}sh`,
          "# a shell comment",
          ...inner,
          "## still code",
          `${indent}${fence}${char} `,
          "## After",
          "",
        ].join("\n");
        assert.deepEqual(listed(text), ["Real", "After"], JSON.stringify(text));
      }
    }
  }
});

Deno.test("what is no fence leaves the headings after it alone", () => {
  // Four spaces: an indented code line, not a fence. A backtick in a backtick fence's info string:
  // inline code, not a fence.
  for (const opener of ["    ```", "``` a`b", "``", "~~"]) {
    const text = `# One\n${opener}\n## Two\n`;
    assert.deepEqual(listed(text), ["One", "Two"], opener);
  }
});

Deno.test("an unclosed fence runs to the end of the file", () => {
  assert.deepEqual(listed("# One\n~~~~\n# two\n~~~\n# three\n"), ["One"]);
});

Deno.test("HTML comments, raw HTML blocks and front matter hold no headings", () => {
  const text = [
    "---",
    "# yaml comment",
    "title: x",
    "---",
    "# Title",
    "<!--",
    "# commented out",
    "-->",
    "<!-- one line --> text",
    "## Kept",
    "<pre>",
    "# preformatted",
    "</pre>",
    "<script type=x>",
    "# js",
    "</script>",
    "   ### Indented up to three spaces",
    "## C ##",
    "",
  ].join("\n");
  assert.deepEqual(markdownHeadings(text), [
    [1, "Title"],
    [2, "Kept"],
    [3, "Indented up to three spaces"],
    [2, "C"],
  ]);
  // A TOML front matter block too; a `---` later in the file is a rule, not front matter.
  assert.deepEqual(listed("+++\n# t = 1\n+++\n# A\n---\n# B\n"), ["A", "B"]);
});

Deno.test("CRLF markdown reads the same fences", () => {
  const text = "# A\r\n```\r\n# b\r\n```\r\n# C\r\n";
  assert.deepEqual(markdownHeadings(text), [[1, "A"], [1, "C"]]);
});

Deno.test("fence lines open and close in turn over a long file", () => {
  // 200,000 alternating fence lines and # lines: one pass, no rescans.
  const text = "```\n# x\n".repeat(100_000);
  const headings = markdownHeadings(text);
  // Every other fence closes the one before, so the # lines after a close are headings.
  assert.equal(headings.length, 50_000);
});

Deno.test("setext headings (a paragraph over a line of = or -) are headings, a thematic break is none", () => {
  // (an older README's and a notebook's `Title` / `=====`: the summary of
  // CamDavidsonPilon's Bayesian Methods for Hackers' chapters listed none of their titles)
  const text = [
    "Probabilistic Programming",
    "=====",
    "and Bayesian Methods",
    "========",
    "",
    "Intro text.",
    "",
    "A title on",
    "two lines",
    "---------",
    "",
    "- a list item",
    "---",
    "",
    "> a quote",
    "---",
    "",
    "    indented code",
    "---",
    "",
    "| a | b |",
    "|---|---|",
    "",
    "***",
    "Under a break",
    "-",
    "",
    "---",
    "",
    "### Usage",
  ].join("\n");
  assert.deepEqual(markdownHeadings(text), [
    [1, "Probabilistic Programming"],
    [1, "and Bayesian Methods"],
    [2, "A title on two lines"],
    [2, "Under a break"],
    [3, "Usage"],
  ]);
  // inside a fence, a setext underline is code
  assert.deepEqual(markdownHeadings("```\nx\n---\n```\n"), []);
  assert.deepEqual(listed("Title\r\n=====\r\n\r\nBody\r\n"), ["Title"]);
});
