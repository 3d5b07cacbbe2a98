import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { watchOnce } from "./_watch.ts";

Deno.test("slop watch picks up a file created while it runs (the file list is resolved again)", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(join(root, "src/c.ts"), "export const c = 3;\n");
  });
  assert.match(
    lines[1],
    /^slop: src\/c\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.match(second, /### src\/c\.ts\n\n```ts\nexport const c = 3;\n```/);
});

Deno.test("slop watch drops a file removed while it runs", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.remove(join(root, "src/b.ts"));
  });
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: built \.slop\/out\/context_002\.md in \d+ ms: /,
  );
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(second, /src\/b\.ts/);
});
