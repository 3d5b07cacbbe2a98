import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

function prose(title: string, n: number): string {
  const paragraphs = Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} of ${title} says something long enough to cost tokens in full.`,
  );
  return `# ${title}\n\n${paragraphs.join("\n\n")}\n`;
}

Deno.test("a budget that steps files down reports each section warning once", async () => {
  const root = await makeProject({
    "a.md": prose("A", 40),
    "b.md": prose("B", 38),
    "chat.jsonl": '{"role":"user","content":"hello"}\nnot json\n',
  });
  const inline = { files: ["*.md"], history: "chat.jsonl" };
  const plain = await buildContext({ cwd: root, inline }, { write: false });
  const historyWarnings = plain.manifest.warnings.filter((w) => w.includes("chat.jsonl"));
  assert.deepEqual(historyWarnings, ['Skipped "chat.jsonl" line 2: not valid JSON']);

  const tokens = plain.manifest.total.tokens - 200;
  const fitted = await buildContext({ cwd: root, inline: { ...inline, budget: { tokens } } }, {
    write: false,
  });
  assert.ok(fitted.manifest.budget!.steppedDown.length >= 1);
  assert.deepEqual(
    fitted.manifest.warnings.filter((w) => w.includes("chat.jsonl")),
    historyWarnings,
  );
});
