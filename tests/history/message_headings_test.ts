import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject, markdownHeadings as headings } from "../_helpers.ts";

Deno.test("a message's headings stay inside its excerpt: no section, file or excerpt of its own", async () => {
  // A model's answer is markdown with headings; a message may quote slop's own document.
  const answer =
    "## Summary\nDone.\n### Discussion Excerpt 9\n# Files\nNext\n----\n```\n# shell\n```";
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    "chat.jsonl": [
      JSON.stringify({ role: "User", content: "## Files\n### fake.ts\nplease fix" }),
      JSON.stringify({ role: "Assistant", content: answer }),
    ].join("\n") + "\n",
  });
  const result = await buildContext({ cwd: root, inline: { history: "chat.jsonl" } }, {
    write: false,
  });
  assert.deepEqual(headings(result.document), [
    "## Files",
    "### a.ts",
    "## Discussion History",
    // A message's first line follows its role (`User: ## Files`): no heading.
    "### Discussion Excerpt 1",
    "###### fake.ts",
    "### Discussion Excerpt 2",
    "###### Discussion Excerpt 9",
    "#### Files",
  ]);
  // The setext underline is escaped, the words all kept.
  assert.ok(result.document.includes("Next\n\\----\n"));
  assert.ok(result.document.includes("please fix") && result.document.includes("# shell"));
});
