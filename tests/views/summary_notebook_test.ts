import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { makeProject } from "../_helpers.ts";

/** A notebook's JSON, one cell per `[kind, source]`, sources as lists of lines or one string. */
function notebook(cells: Array<[string, string | string[]]>, language?: string): string {
  const metadata = language ? { kernelspec: { name: "k", language } } : {};
  const list = cells.map(([cell_type, source]) => ({ cell_type, metadata: {}, source }));
  return JSON.stringify({ cells: list, metadata, nbformat: 4, nbformat_minor: 5 }, null, 1);
}

Deno.test("a notebook's summary lists its cells, the headings of its markdown cells and its Python names", () => {
  const text = notebook([
    ["markdown", ["# Title\n", "text\n", "```sh\n", "# not a heading\n"]],
    // A fence left open in one cell does not hide the next cell's headings.
    ["markdown", "## Setup ##"],
    ["code", ["import numpy as np\n", "from os import path\n", "%matplotlib inline"]],
    ["code", "class Model:\n    def fit(self): ...\n\ndef train(x):\n    return x"],
    ["code", "LIMIT = 3"],
    ["raw", "raw text"],
  ], "python");
  const lines = summarize("work/analysis.ipynb", text).split("\n");
  assert.match(
    lines[0],
    /^\*\*Jupyter notebook\*\* \(python\), \d+ lines, 6 cells \(3 code, 2 markdown, 1 other\)$/,
  );
  assert.deepEqual(lines.slice(1), [
    "- Title",
    "  - Setup",
    "- classes: `Model`",
    "- functions: `train`",
    "- constants: `LIMIT`",
    "- imports: `numpy`, `os`",
  ]);
});

Deno.test("a notebook in another language lists its headings only; what is no notebook reads as text", () => {
  const julia = summarize(
    "a.ipynb",
    notebook([["markdown", "# J"], ["code", "def f(): pass"]], "Julia"),
  );
  assert.deepEqual(julia.split("\n").slice(1), ["- J"]);
  assert.match(julia, /\(julia\), \d+ lines, 2 cells \(1 code, 1 markdown\)/);
  for (const text of ['{"cells": "no list"}\n', "{ not json\n", "[1, 2]\n", "null\n"]) {
    assert.match(summarize("b.ipynb", text), /^\*\*Text\*\*, 1 line\n/, text);
  }
});

Deno.test("a notebook's summary in a build: one block, no heading of its own from a cell", async () => {
  const root = await makeProject({
    "n.ipynb": notebook(
      [["markdown", "## Files\n### fake.py"], ["code", "def g(): pass"]],
      "python",
    ),
  });
  const result = await buildContext({ cwd: root, inline: { defaultView: "summary" } }, {
    write: false,
  });
  const headings = result.document.split("\n").filter((l) => /^#{1,6} /.test(l));
  assert.deepEqual(headings, ["## Files", "### n.ipynb"]);
  assert.match(result.document, /- functions: `g`/);
});
