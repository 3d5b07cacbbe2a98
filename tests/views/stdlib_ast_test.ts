import assert from "node:assert/strict";
import { join } from "node:path";
import { pythonDefs, recallOf } from "../../bench/_recall.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { pythonStdlib } from "../cache/_cache_helpers.ts";

const FILES = ["abc.py", "contextlib.py", "dataclasses.py", "functools.py", "typing.py", "enum.py"];

Deno.test("skeletonViewMode() keeps every def and class Python's ast finds in real stdlib files, exact and in order", async (t) => {
  const lib = await pythonStdlib();
  if (!lib) {
    console.log("skipped: no python3 on PATH");
    return;
  }
  const paths = FILES.map((f) => join(lib, f));
  const defs = (await pythonDefs(paths))!;
  for (const path of paths) {
    await t.step(path.slice(lib.length + 1), async () => {
      const text = (await Deno.readTextFile(path)).replace(/\r\n?/g, "\n");
      const view = (await renderCode(path, text))!;
      const recall = recallOf(view.text, defs[path]);
      assert.ok(recall.total > 5, `ast found only ${recall.total} definitions`);
      assert.deepEqual(recall.missed, []);
      assert.equal(recall.exact, recall.total);
      assert.ok(view.text.length < text.length * 0.8, "bodies are elided");
    });
  }
});
