// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
import assert from "node:assert/strict";
import { buildFiles, renderView } from "../../../mod.ts";
import { todoViewMode } from "./plugins/todo_view.ts";
import { todosSection } from "./plugins/todos_section.ts";
import { sectionFirstOrdering } from "./plugins/section_first.ts";

Deno.test("the todo view keeps the marked lines, an entry's markers over the factory's", async () => {
  const text = "# Notes\n\n- XXX: ship\n- TODO: tests\n";
  assert.equal((await renderView(todoViewMode(), "notes.md", text)).text, "4: - TODO: tests");
  const xxx = await renderView(todoViewMode(), "notes.md", text, { options: { markers: ["XXX"] } });
  assert.equal(xxx.text, "3: - XXX: ship");
});

Deno.test("the todos section lists the marked lines before the files", async () => {
  const result = await buildFiles({ "src/a.ts": "// TODO: more tests\nexport const a = 1;\n" }, {
    plugins: [todosSection(), sectionFirstOrdering({ section: "todos" })],
  });
  assert.equal(result.blocks[0].text, "## Open TODOs\n\n- src/a.ts:1: // TODO: more tests\n\n");
  assert.equal(result.blocks[1].id, "files");
});
