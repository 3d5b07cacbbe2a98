import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { nestedMarkdown } from "../../plugins/sections/_render.ts";
import { htmlBlockStart } from "../../plugins/markdown_fences.ts";
import { tempDir } from "../_helpers.ts";

/** The level-3 headings a CommonMark reader finds: none inside a fence or an HTML block. */
function headings(doc: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  let html: RegExp | undefined;
  for (const line of doc.split("\n")) {
    if (html) {
      if (html.test(line)) html = undefined;
      continue;
    }
    const run = /^ {0,3}(`{3,}|~{3,})\s*\S*$/.exec(line);
    if (fence) {
      if (run && run[1][0] === fence[0] && run[1].length >= fence.length) fence = undefined;
      continue;
    }
    const block = htmlBlockStart(line);
    if (block && !block.closed) html = block.end;
    else if (run) fence = run[1];
    else if (/^### /.test(line)) out.push(line);
  }
  return out;
}

Deno.test("an unclosed HTML comment in a notebook's markdown cell leaves the next file's heading one", async () => {
  const root = await tempDir({ prefix: "slop_html_blocks_" });
  const cells = [
    { cell_type: "markdown", metadata: {}, source: "Intro\n<!-- never closed\n\nmore" },
    { cell_type: "markdown", metadata: {}, source: "<script>\nx = 1\n\n<pre>\n<?php" },
  ];
  const book = { cells, metadata: {}, nbformat: 4, nbformat_minor: 5 };
  await Deno.writeTextFile(join(root, "a.ipynb"), JSON.stringify(book));
  await Deno.writeTextFile(join(root, "b.py"), "x = 1\n");
  const built = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(headings(built.document), ["### a.ipynb", "### b.py"]);
  assert.match(built.document, /^\\<!-- never closed$/m);
  await Deno.remove(root, { recursive: true });
});

Deno.test("a task whose HTML comment never closes has it written as text, the headings kept", async () => {
  const root = await tempDir({ prefix: "slop_html_blocks_" });
  await Deno.writeTextFile(join(root, "a.py"), "def run():\n    pass\n");
  const task = "Fix run\n\n<!-- Describe the bug (the template was cut here)";
  const built = await buildContext({ cwd: root, task }, { write: false });
  assert.ok(headings(built.document).includes("### a.py"), built.document);
  // The task's block may come before others (an ordering rule): its comment must end in it.
  assert.match(built.document, /^\\<!-- Describe the bug/m);
  await Deno.remove(root, { recursive: true });
});

Deno.test("closed HTML blocks stay as written and a fence inside one is not closed", () => {
  assert.equal(nestedMarkdown("a\n<!-- note -->\n## b"), "a\n<!-- note -->\n##### b");
  // Inside the comment the backticks open no fence: no closing line is added after it.
  assert.equal(nestedMarkdown("<!--\n```\n-->\n## b"), "<!--\n```\n-->\n##### b");
  assert.equal(nestedMarkdown("<style>\n## x\n\n</style>"), "<style>\n## x\n\n</style>");
  assert.equal(nestedMarkdown("x\n<?php echo 1;\n\n## y"), "x\n\\<?php echo 1;\n\n##### y");
  assert.equal(
    nestedMarkdown("<![CDATA[ a ]]>\n<!DOCTYPE html"),
    "<![CDATA[ a ]]>\n\\<!DOCTYPE html",
  );
});
