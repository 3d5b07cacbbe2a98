// A text whose first character after its byte order mark is U+FEFF again (a mark added twice, a
// mark at the start of a line) keeps that character: a build that reads the cache, the speed
// layer's and a resident process's give the bytes of a cold build. (The caches decoded their
// stored text with a decoder that drops a leading U+FEFF: a warm build lost it, and the document
// and the files' order changed.)
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { makeProject } from "../_helpers.ts";

const BOM = "\ufeff";

Deno.test("a text that starts with U+FEFF after its mark is the same bytes cold, warm, with the speed layer and resident", async () => {
  const tree = {
    "twice.md": `${BOM}${BOM}= Name =\n\ntext\n`,
    "twice.py": `${BOM}${BOM}def f():\n    return 1\n`,
    "line.txt": `a\n${BOM}b\n`,
    "only.txt": `${BOM}${BOM}`,
    "plain.txt": "x\n",
  };
  const documents: string[] = [];
  const kept = resident();
  for (const view of ["full", "outline", "summary"]) {
    const root = await makeProject(tree);
    for (let i = 0; i < 4; i++) {
      const config = await loadConfig({ cwd: root, inline: { defaultView: view } });
      const layer = i < 2 ? undefined : speedLayer({ resident: i === 3 ? kept : undefined });
      const result = await build(config, { builtins: defaultPlugins(), write: false, layer });
      documents.push(result.document);
      assert.equal(result.document, documents[documents.length - 1 - i], `${view}, build ${i}`);
    }
    const cold = documents[documents.length - 4];
    if (view === "full") {
      assert.ok(cold.includes(`\`\`\`markdown\n${BOM}= Name =`), "the second mark is text");
      assert.ok(cold.includes(`a\n${BOM}b\n`));
    }
  }
  await kept.close();
});
