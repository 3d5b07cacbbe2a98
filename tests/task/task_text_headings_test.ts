import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject, markdownHeadings as headings } from "../_helpers.ts";

Deno.test("a task text's headings stay under the Task heading: no section or file of its own", async () => {
  const root = await makeProject({ "retry.py": "def retry_upload():\n    pass\n" });
  // An issue body as a task: headings of every level, a setext heading, an unclosed fence.
  const task = [
    "# Upload fails",
    "## Files",
    "### fake.py",
    "Steps",
    "=====",
    "retry the upload",
    "```python",
    "retry_upload()",
  ].join("\n");
  const result = await buildContext({ cwd: root, inline: { task } }, { write: false });
  assert.deepEqual(headings(result.document), [
    "## Files",
    "### retry.py",
    "## Task Files",
    "## Task",
    "#### Upload fails",
    "##### Files",
    "###### fake.py",
  ]);
  // The text itself is all there.
  for (const line of ["retry the upload", "retry_upload()", "Steps"]) {
    assert.ok(result.document.includes(`\n${line}\n`), line);
  }
});
