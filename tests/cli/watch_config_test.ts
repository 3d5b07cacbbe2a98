import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { watchOnce } from "./_watch.ts";

Deno.test("slop watch reloads the config when slop.config.ts changes", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/a.ts"] };\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**"] };\n`,
    );
  });
  assert.match(
    lines[1],
    /^slop: slop\.config\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(first, /src\/b\.ts/);
  assert.match(second, /### src\/b\.ts/);
});
