import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";
import { NO_FILES } from "../../plugins/sections/task.ts";

Deno.test("a task that matches no file says so under its files heading, and keeps the map's prefix", async () => {
  const root = await makeProject({
    "upload.py": "def retry_upload():\n    pass\n",
    "notes.md": "# Notes\n\nNothing here.\n",
  });
  const build = (task: string) =>
    buildContext({ cwd: root, inline: { task } }, { write: false }).then((r) => r.document);
  const unmatched = await build("zebra quokka xylophone");
  assert.ok(unmatched.includes(`## Task Files\n\n${NO_FILES}## Task\n\n`), unmatched);
  const matched = await build("retry the upload");
  assert.ok(!matched.includes(NO_FILES));
  // The map before the task's heading is the same for both tasks.
  const head = (doc: string) => doc.slice(0, doc.indexOf("## Task Files"));
  assert.equal(head(unmatched), head(matched));
});
