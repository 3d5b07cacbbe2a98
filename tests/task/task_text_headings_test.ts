import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** The headings of a markdown document outside its code fences (CommonMark's fence rules). */
function headings(doc: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of doc.split("\n")) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
        open = undefined;
      }
    } else if (run) open = run[1];
    else if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line)) out.push(line.trim());
  }
  assert.equal(open, undefined, "every fence closes");
  return out;
}

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
