import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject } from "../_helpers.ts";
import { watchOnce, watchOnceWithStderr } from "./_watch.ts";

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

Deno.test("slop watch says to restart when a module the config imports is edited", async () => {
  const root = await makeProject({
    "slop.config.ts": `import { files } from "./conf/files.ts";\nexport default { files };\n`,
    "conf/files.ts": `export const files = ["src/**"];\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "conf/files.ts"), `export const files = ["src/a.ts"];\n`);
  });
  assert.match(lines[1], /^slop: conf\/files\.ts changed: built /);
  assert.match(
    stderr,
    /warning: "conf\/files\.ts" is imported by the config and Deno cannot load a module twice: restart slop watch to use the edit/,
  );
});

Deno.test("slop watch does not warn about an edited module the config does not import", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  });
  assert.match(lines[1], /^slop: src\/a\.ts changed: built /);
  assert.doesNotMatch(stderr, /restart slop watch/);
});
