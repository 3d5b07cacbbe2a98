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
  return out;
}

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
