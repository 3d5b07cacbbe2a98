import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { watchOnce } from "./_watch.ts";

Deno.test("slop watch rebuilds after a change and prints the prefix reuse", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: ["src/**"],
  history: [{ role: "User", content: "keep going" }],
};
`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
  });
  assert.equal(lines[0], "slop: built .slop/out/context_001.md; watching for changes");
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: reused \d+ B of \d+ B \(\d+%\), 2 blocks; stable prefix changed$/,
  );
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  let same = 0;
  while (first[same] === second[same]) same++;
  assert.match(lines[1], new RegExp(`reused ${same} B`), "reuse is the common byte prefix");
});
