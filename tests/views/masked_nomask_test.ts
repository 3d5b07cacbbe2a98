import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

const SOURCE =
  "def add(a, b):\n    return a + b\n\n\nclass Calc:\n    def mul(self, a, b):\n        return a * b\n";

Deno.test("masked view without a mask falls back to summary with a note, not an empty block", async () => {
  const root = await makeProject({ "src/calc.py": SOURCE });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "src/calc.py", view: "masked" }] },
  }, { write: false });
  const file = result.files[0];
  assert.equal(file.view, "summary");
  assert.deepEqual(file.notes, ["masked view without a mask: fell back to summary"]);
  assert.match(result.document, /### src\/calc\.py\n\n\*\*Python\*\*, 7 lines\n/);
});

Deno.test('masked view without a mask but rest: "sig" still shows every signature', async () => {
  const root = await makeProject({ "src/calc.py": SOURCE });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "src/calc.py", view: "masked", options: { rest: "sig" } }] },
  }, { write: false });
  assert.equal(result.files[0].view, "masked");
  assert.match(result.document, /def add\(a, b\):/);
  assert.match(result.document, /def mul\(self, a, b\):/);
});
