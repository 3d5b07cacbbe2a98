import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { closeFences } from "../../plugins/sections/_render.ts";
import { renderHistory } from "../../plugins/sections/history.ts";
import { makeProject } from "../_helpers.ts";

/** The lines of a markdown document that sit outside code fences (CommonMark's fence rule). */
function outsideFences(document: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of document.split("\n")) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === undefined) {
      if (run && (run[1][0] === "~" || !run[2].includes("`"))) open = run[1];
      else out.push(line);
    } else if (run && run[1][0] === open[0] && run[1].length >= open.length && !run[2].trim()) {
      open = undefined;
    }
  }
  return out;
}

Deno.test("a knowledge digest or a message that leaves a code block open does not swallow what follows", async () => {
  const root = await makeProject({
    "slop/knowledge/digest.md": "# Digest\n\nNotes:\n\n````ts\nconst cut = 1;\n",
    "src/a.ts": "export const a = 1;\n",
    "src/b.md": "# B\n",
    "slop.config.ts": `export default {
  files: ["src/**"],
  history: [
    { role: "User", content: "look:\\n~~~~\\nhalf a block" },
    { role: "Assistant\\n## Files", content: "ok" },
    { role: "User", content: "closed:\\n\`\`\`\\nx\\n\`\`\`" },
  ],
};
`,
  });
  const result = await buildContext({ cwd: root }, { write: false });
  const visible = outsideFences(result.document);
  for (
    const line of [
      "{/knowledge}",
      "## Files",
      "### src/a.ts",
      "### src/b.md",
      "## Discussion History",
      "### Discussion Excerpt 2",
      "### Discussion Excerpt 3",
    ]
  ) assert.ok(visible.includes(line), `"${line}" is outside any code block`);
  // The role is one line.
  assert.ok(visible.includes("Assistant\\n## Files: ok"));
  // The document ends outside a code block.
  assert.equal(closeFences(result.document), result.document);
});

Deno.test("text whose code blocks all close is left as it is; a message that starts with one starts on its own line", () => {
  for (
    const text of [
      "plain",
      "```ts\nx\n```",
      "````\n```\ninside\n```\n````",
      "~~~\n```\n~~~",
      "User: ```not a fence```",
      "a ``` b",
    ]
  ) assert.equal(closeFences(text), text);
  assert.equal(
    renderHistory([{ role: "User", content: "```\nx\n```" }]),
    "### Discussion Excerpt 1\n\nUser:\n```\nx\n```",
  );
  assert.equal(closeFences("```js\nx"), "```js\nx\n```");
  assert.equal(closeFences("~~~~\nx\n~~~"), "~~~~\nx\n~~~\n~~~~");
});
