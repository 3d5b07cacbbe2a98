import assert from "node:assert/strict";
import { build, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject } from "../_helpers.ts";

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
