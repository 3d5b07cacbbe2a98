import assert from "node:assert/strict";
import { build, buildContext, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, markdownHeadings as headings } from "../_helpers.ts";
import { closeFences } from "../../plugins/sections/_render.ts";
import { renderHistory } from "../../plugins/sections/history.ts";

/** The history as the document shows it. */
async function historyOf(root: string, history: SlopConfig["history"]): Promise<string> {
  const config = await loadConfig({ cwd: root, inline: { files: ["a.ts"], history } });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  assert.deepEqual(result.warnings, []);
  return result.blocks.filter((b) => b.section === "history").map((b) => b.text).join("");
}

const EXPECTED = "## Discussion History\n\n" +
  "### Discussion Excerpt 1\n\nUnknown: what changed?\n\n---\n\n" +
  "### Discussion Excerpt 2\n\nAI: the parser\n\n";

Deno.test("a role-less history message renders as Unknown: from every history source", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "talk.jsonl": '{"content": "what changed?"}\n{"role": "AI", "content": "the parser"}\n',
    "talk.json": '[{"content": "what changed?"}, {"role": "AI", "content": "the parser"}]\n',
    "talk.toml": '[[entries]]\ncontent = "what changed?"\n\n[[entries]]\nrole = "AI"\n' +
      'content = "the parser"\n',
  });
  const inline = await historyOf(root, [
    { content: "what changed?" },
    { role: "AI", content: "the parser" },
  ]);
  assert.equal(inline, EXPECTED);
  for (const file of ["talk.jsonl", "talk.json", "talk.toml"]) {
    assert.equal(await historyOf(root, file), EXPECTED, file);
  }
});

Deno.test("a NUL a history file escapes (\\u0000) is U+FFFD in the document, from every source", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "talk.jsonl": '{"role": "AI", "content": "bytes a\\u0000b"}\n',
    "talk.json": '[{"role": "AI", "content": "bytes a\\u0000b"}]\n',
    "talk.toml": '[[entries]]\nrole = "AI"\ncontent = "bytes a\\u0000b"\n',
    ".beads/issues.jsonl": '{"id":"bd-1","title":"nul \\u0000 here","status":"open"}\n',
  });
  for (const file of ["talk.jsonl", "talk.json", "talk.toml"]) {
    const result = await buildContext({ cwd: root, inline: { history: file } }, { write: false });
    assert.ok(!result.document.includes("\0"), file);
    assert.ok(result.document.includes("AI: bytes a\uFFFDb\n"), file);
    assert.ok(result.document.includes("nul \uFFFD here"), "a Beads issue's title too");
  }
});

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
