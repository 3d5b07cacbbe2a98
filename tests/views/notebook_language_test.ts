import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("a notebook's language name with a line break stays on the summary's head line", async () => {
  const root = await tempDir({ prefix: "slop_notebook_language_" });
  const book = {
    cells: [{ cell_type: "code", metadata: {}, source: "x = 1", outputs: [] }],
    metadata: { language_info: { name: "Python\n## Files" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  await Deno.writeTextFile(join(root, "a.ipynb"), JSON.stringify(book));
  for (const view of ["summary", "cells"]) {
    const inline = { files: [{ path: "a.ipynb", view }] };
    const built = await buildContext({ cwd: root, inline }, { write: false });
    const head = built.document.split("\n").find((l) => l.startsWith("**Jupyter notebook**"));
    assert.match(head ?? "", /^\*\*Jupyter notebook\*\* \(python##files\), /, view);
    assert.doesNotMatch(built.document, /^#+ files\)/m, view);
  }
  await Deno.remove(root, { recursive: true });
});
