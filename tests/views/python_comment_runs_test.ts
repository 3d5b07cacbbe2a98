import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { COMMENT_RUN_LIMIT, costliestCommentRun } from "../../grammars/python_comment_runs.ts";
import { makeProject, tempDir } from "../_helpers.ts";

/** A class whose body opens with `n` comment lines (commented-out code) before its method. */
function commentedClass(n: number): string {
  const lines = ["import os", "", "class Store:"];
  for (let i = 0; i < n; i++) {
    lines.push(`    # old_value_${i} = compute(${i})  # kept for reference`);
  }
  lines.push("    def get(self, key):", "        return key", "");
  return lines.join("\n");
}

Deno.test("costliestCommentRun() finds a run inside a block and ignores top-level runs", () => {
  assert.deepEqual(costliestCommentRun("class A:\n    # a\n    # b\n    x = 1\n"), {
    line: 2,
    comments: 2,
    chars: 16,
  });
  // Blank lines continue a run; a run between two top-level lines is not the scanner's problem.
  assert.deepEqual(costliestCommentRun("def f():\n    x = 1\n# a\n\n# b\ny = 2\n"), {
    line: 3,
    comments: 2,
    chars: 9,
  });
  assert.equal(costliestCommentRun("# a\n# b\n\nx = 1\n# c\n"), undefined);
  assert.equal(costliestCommentRun("def f():\n    return 1\n"), undefined);
  // The costliest of two runs.
  const two = "class A:\n    # a\n    x = 1\n    # b\n    # c\n    # d\n    y = 2\n";
  assert.equal(costliestCommentRun(two)?.line, 4);
});

Deno.test("costliestCommentRun() stays far below its limit on the Python standard library's largest runs", () => {
  // dataclasses.py's 129-line comment block (about 5 KB) is the stdlib's costliest: 0.65 M.
  const block = Array.from({ length: 129 }, (_, i) => `    # ${"x".repeat(32)} ${i}`).join("\n");
  const run = costliestCommentRun(`class A:\n${block}\n    x = 1\n`)!;
  assert.ok(run.comments * run.chars * 50 < COMMENT_RUN_LIMIT);
});

Deno.test("skeleton falls back to summary, naming the line, for a block with a huge run of comment lines", async () => {
  // 20,000 such lines took tree-sitter-python minutes to parse; refused before parsing.
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["*.py"], defaultView: "skeleton" };\n`,
    "big.py": commentedClass(20_000),
    "small.py": commentedClass(50),
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  const byPath = Object.fromEntries(result.manifest.files.map((f) => [f.path, f]));
  assert.equal(byPath["big.py"].view, "summary");
  assert.match(
    byPath["big.py"].notes?.join("\n") ?? "",
    /skeleton cannot parse "big\.py": 20000 comment lines in a row inside a block from line 4 .*: fell back to summary/,
  );
  assert.equal(byPath["small.py"].view, "skeleton");
  assert.ok(result.document.includes("    def get(self, key):\n        ...\n"));
});
