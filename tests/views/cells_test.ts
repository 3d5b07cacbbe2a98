// A Jupyter notebook the config gives no view of is shown as its cells (`cells`): markdown as it
// is, code fenced in the notebook's language, then its outputs: short text kept, errors as their
// name and message, images and other rich outputs as one line. Not its JSON.
import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { chooseView } from "../../pipeline/transform.ts";
import type { ResolvedConfig, SourceFile } from "../../pipeline/types.ts";
import { makeProject } from "../_helpers.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk".repeat(400);

/** A notebook as Jupyter writes it: sources and texts as lists of lines, one-space indent. */
const NOTEBOOK = JSON.stringify(
  {
    cells: [
      {
        cell_type: "markdown",
        metadata: {},
        source: ["# Loading data\n", "\n", "First `pandas`."],
      },
      {
        cell_type: "code",
        execution_count: 1,
        metadata: {},
        outputs: [
          { name: "stdout", output_type: "stream", text: ["loading\n", "done"] },
          { name: "stdout", output_type: "stream", text: [" in 2 s\n"] },
          { name: "stderr", output_type: "stream", text: ["\u001b[31mslow\u001b[0m\n"] },
        ],
        // Saved on Windows: line ends `\r\n` inside the JSON strings.
        source: ["import pandas as pd\r\n", "df = pd.read_csv('a.csv')"],
      },
      {
        cell_type: "code",
        execution_count: 2,
        metadata: {},
        outputs: [{
          data: {
            "image/png": PNG,
            "text/plain": ["<Figure size 432x288 with 1 Axes>"],
          },
          execution_count: 2,
          metadata: {},
          output_type: "execute_result",
        }, {
          data: { "text/html": ["<table>\n", "<tr><td>1</td></tr>\n", "</table>"] },
          metadata: {},
          output_type: "display_data",
        }],
        source: "df.plot()",
      },
      {
        cell_type: "code",
        execution_count: 3,
        metadata: {},
        outputs: [{
          ename: "NameError",
          evalue: "name 'x' is not defined",
          output_type: "error",
          traceback: ["\u001b[0;31m---------\u001b[0m", "\u001b[0;31mNameError\u001b[0m: ..."],
        }],
        source: ["x + 1"],
      },
      // A long output: its first lines, the rest counted.
      {
        cell_type: "code",
        execution_count: 4,
        metadata: {},
        outputs: [{
          name: "stdout",
          output_type: "stream",
          text: Array.from({ length: 50 }, (_, i) => `row ${i}\n`),
        }],
        source: ["for i in range(50):\n", "    print('row', i)"],
      },
      // A fence left open in a cell does not swallow the next one; a progress bar shows its end.
      { cell_type: "markdown", metadata: {}, source: ["```python\n", "x = 1"] },
      {
        cell_type: "code",
        execution_count: 5,
        metadata: {},
        outputs: [{ name: "stdout", output_type: "stream", text: ["10%\r50%\r100%\n"] }],
        source: ["print('```')"],
      },
      { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: [] },
      { cell_type: "raw", metadata: {}, source: ["raw text"] },
    ],
    metadata: {
      kernelspec: { display_name: "Python 3", language: "python", name: "python3" },
      language_info: { name: "python" },
    },
    nbformat: 4,
    nbformat_minor: 4,
  },
  null,
  1,
) + "\n";

const CELLS = [
  "### work/load.ipynb",
  "",
  "**Jupyter notebook** (python), 9 cells (6 code, 2 markdown, 1 other)",
  "",
  "#### Loading data",
  "",
  "First `pandas`.",
  "",
  "```python",
  "import pandas as pd",
  "df = pd.read_csv('a.csv')",
  "```",
  "",
  "Output:",
  "",
  "```",
  "loading",
  "done in 2 s",
  "slow",
  "```",
  "",
  "```python",
  "df.plot()",
  "```",
  "",
  "Output:",
  "",
  "```",
  "<Figure size 432x288 with 1 Axes>",
  "(image/png output, 23 KB, not shown)",
  "(text/html output, 36 bytes, not shown)",
  "```",
  "",
  "```python",
  "x + 1",
  "```",
  "",
  "Output:",
  "",
  "```",
  "NameError: name 'x' is not defined",
  "```",
  "",
  "```python",
  "for i in range(50):",
  "    print('row', i)",
  "```",
  "",
  "Output:",
  "",
  "```",
  ...Array.from({ length: 20 }, (_, i) => `row ${i}`),
  "… (30 more lines, 209 bytes, not shown)",
  "```",
  "",
  "```python",
  "x = 1",
  "```",
  "",
  "````python",
  "print('```')",
  "````",
  "",
  "Output:",
  "",
  "```",
  "100%",
  "```",
  "",
  "```",
  "raw text",
  "```",
  "",
].join("\n");

Deno.test("a notebook is shown as its cells and short outputs, not its JSON, by default", async () => {
  const root = await makeProject({ "work/load.ipynb": NOTEBOOK });
  const result = await buildContext({ cwd: root }, { write: false });
  const row = result.manifest.files.find((f) => f.path === "work/load.ipynb")!;
  assert.equal(row.view, "cells");
  const block = result.document.slice(result.document.indexOf("### work/load.ipynb"));
  assert.equal(block.slice(0, CELLS.length), CELLS);
  assert.ok(!result.document.includes("iVBORw0KGgo"));
  // Twice, the same bytes.
  const again = await buildContext({ cwd: root, inline: { cache: { enabled: false } } }, {
    write: false,
  });
  assert.equal(again.document, result.document);
});

Deno.test("a notebook's entry may ask for its JSON; a file that is no notebook falls back to summary", async () => {
  const root = await makeProject({
    "raw/a.ipynb": NOTEBOOK,
    "broken.ipynb": NOTEBOOK.slice(0, 400),
    "old.ipynb": JSON.stringify({ metadata: {}, nbformat: 3 }),
  });
  const result = await buildContext({
    cwd: root,
    inline: { files: ["**", { path: "raw/**", view: "full" }] },
  }, { write: false });
  const view = new Map(result.manifest.files.map((f) => [f.path, f]));
  assert.equal(view.get("raw/a.ipynb")!.view, "full");
  assert.ok(result.document.includes('"nbformat_minor": 4'));
  for (const path of ["broken.ipynb", "old.ipynb"]) {
    const row = view.get(path)!;
    assert.equal(row.view, "summary", path);
    assert.equal(
      row.notes?.[0],
      `cells cannot read "${path}": not a notebook (JSON with a "cells" list): fell back to summary`,
    );
  }
});

Deno.test("the notebook default: only where the file would be shown full, its entry naming no view", () => {
  const config = { defaultView: "full", focus: [] } as unknown as ResolvedConfig;
  const file = (path: string, view?: string) =>
    ({ path, size: 10, entry: { path: "**", ...(view ? { view } : {}) } }) as SourceFile;
  assert.equal(chooseView(file("a/B.IPYNB"), config, false), "cells");
  assert.equal(chooseView(file("a.ipynb", "full"), config, false), "full");
  assert.equal(chooseView(file("a.ipynb", "summary"), config, false), "summary");
  // A focus notebook is read as its cells too; its entry may still ask for its JSON.
  assert.equal(chooseView(file("a.ipynb"), config, true), "cells");
  assert.equal(chooseView(file("a.ipynb", "full"), config, true), "full");
  assert.equal(chooseView(file("a.py"), config, true), "full");
  assert.equal(chooseView(file("a.ipynb.json"), config, false), "full");
  const skeletons = { ...config, defaultView: "skeleton" } as ResolvedConfig;
  assert.equal(chooseView(file("a.ipynb"), skeletons, false), "skeleton");
});

Deno.test("a secret in a notebook's source and output stays redacted in its cells", async () => {
  const key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const book = JSON.parse(NOTEBOOK);
  book.cells[1].source = [`token = "${key}"\n`, "print(token)"];
  book.cells[1].outputs = [{ name: "stdout", output_type: "stream", text: [`${key}\n`] }];
  const root = await makeProject({ "s.ipynb": JSON.stringify(book, null, 1) });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.equal(result.manifest.files.find((f) => f.path === "s.ipynb")!.view, "cells");
  assert.ok(!result.document.includes(key));
  assert.match(result.document, /```python\ntoken = "\[REDACTED:[a-z-]+\]"\nprint\(token\)\n```/);
  assert.match(result.document, /Output:\n\n```\n\[REDACTED:[a-z-]+\]\n```/);
});

Deno.test("a budget steps a notebook's cells down to its summary", async () => {
  const root = await makeProject({ "load.ipynb": NOTEBOOK, "a.md": "# A\n\nsmall\n" });
  const full = await buildContext({ cwd: root }, { write: false });
  const total = full.manifest.total.tokens;
  const result = await buildContext({ cwd: root, inline: { budget: { tokens: total - 1 } } }, {
    write: false,
  });
  const budget = result.manifest.budget!;
  assert.deepEqual(budget.steppedDown, [{ path: "load.ipynb", from: "cells", to: "summary" }]);
  // The code views, which take no notebook, are not asked: the budget's note is the only one.
  const row = result.manifest.files.find((f) => f.path === "load.ipynb")!;
  assert.deepEqual(row.notes, ["stepped down from cells to summary to fit the token budget"]);
  assert.match(
    result.document,
    /### load\.ipynb\n\n\*\*Jupyter notebook\*\* \(python\), \d+ lines/,
  );
});

Deno.test("the cells view's bounds are options of its entry; a bound that is no whole number is an error naming it", async () => {
  const root = await makeProject({ "a/load.ipynb": NOTEBOOK, "b/load.ipynb": NOTEBOOK });
  const files = [
    { path: "a/**", view: "cells", options: { maxOutputLines: 2 } },
    { path: "b/**", view: "cells", options: { maxOutputBytes: "2k" } },
  ];
  const result = await buildContext({ cwd: root, inline: { files } }, { write: false });
  assert.match(
    result.document,
    /```\nrow 0\nrow 1\n… \(48 more lines, 327 bytes, not shown\)\n```/,
  );
  const b = result.manifest.files.find((f) => f.path === "b/load.ipynb")!;
  assert.equal(b.status, "error");
  assert.match(
    b.reason!,
    /\[plugin slop:cells\] Invalid option "maxOutputBytes" for "b\/load\.ipynb": expected a whole number of 0 or more, got "2k"/,
  );
});

/** An nbformat 3 notebook: cells under `worksheets`, a code cell's `input`, `pyout` and `pyerr`. */
const FORMAT3 = JSON.stringify(
  {
    metadata: { name: "" },
    nbformat: 3,
    nbformat_minor: 0,
    worksheets: [{
      cells: [
        { cell_type: "heading", level: 2, metadata: {}, source: ["Loading data"] },
        { cell_type: "markdown", metadata: {}, source: ["First `pandas`."] },
        {
          cell_type: "code",
          collapsed: false,
          input: ["import pandas as pd\n", "pd.DataFrame()"],
          language: "python",
          metadata: {},
          outputs: [
            { output_type: "stream", stream: "stdout", text: ["loading\n"] },
            {
              html: ["<table></table>"],
              metadata: {},
              output_type: "pyout",
              prompt_number: 1,
              text: ["Empty DataFrame"],
            },
            { output_type: "display_data", png: PNG.slice(0, 100), metadata: {} },
            { ename: "NameError", evalue: "name 'x' is not defined", output_type: "pyerr" },
          ],
          prompt_number: 1,
        },
      ],
      metadata: {},
    }],
  },
  null,
  1,
) + "\n";

Deno.test("an nbformat 3 notebook (worksheets, input, pyout) is shown as its cells, and summarized as a notebook", async () => {
  const root = await makeProject({ "old.ipynb": FORMAT3 });
  const result = await buildContext({ cwd: root }, { write: false });
  const row = result.manifest.files.find((f) => f.path === "old.ipynb")!;
  assert.equal(row.view, "cells");
  const block = result.document.slice(result.document.indexOf("### old.ipynb"));
  assert.ok(
    block.startsWith([
      "### old.ipynb",
      "",
      "**Jupyter notebook** (python), 3 cells (1 code, 2 markdown)",
      "",
      "##### Loading data",
      "",
      "First `pandas`.",
      "",
      "```python",
      "import pandas as pd",
      "pd.DataFrame()",
      "```",
      "",
      "Output:",
      "",
      "```",
      "loading",
      "Empty DataFrame",
      "(text/html output, 15 bytes, not shown)",
      "(image/png output, 100 bytes, not shown)",
      "NameError: name 'x' is not defined",
      "```",
      "",
    ].join("\n")),
    block,
  );
  const summary = await buildContext({ cwd: root, inline: { defaultView: "summary" } }, {
    write: false,
  });
  assert.match(
    summary.document,
    /\*\*Jupyter notebook\*\* \(python\), \d+ lines, 3 cells \(1 code, 2 markdown\)\n- Loading data\n- imports: `pandas`/,
  );
});

Deno.test("a focus notebook is shown as its cells", async () => {
  const root = await makeProject({ "work/load.ipynb": NOTEBOOK, "a.md": "# A\n" });
  const result = await buildContext({ cwd: root, focus: ["work/load.ipynb"] }, { write: false });
  assert.equal(result.manifest.files.find((f) => f.path === "work/load.ipynb")!.view, "cells");
  assert.ok(result.document.includes(CELLS));
});
