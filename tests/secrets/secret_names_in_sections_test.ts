// A file whose name holds a secret is left out of the sections that list files too (the
// screenshots' globs, the directory tree), as it is of the files: before, a screenshot was
// reported as left out and still listed, redacted, with a warning for each of its two mentions.
import assert from "node:assert/strict";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject } from "../_helpers.ts";
import { png } from "../_images.ts";

Deno.test("a screenshot or tree entry whose name holds a secret is left out of every section", async () => {
  const key = `AKIA${"Q".repeat(16)}`;
  const root = await makeProject({
    "a.py": "x = 1\n",
    "shots/ok.png": png(2, 2),
    [`shots/${key}.png`]: png(2, 2),
    [`notes/${key}.md`]: "hello\n",
  });
  const config = await loadConfig({
    cwd: root,
    inline: { files: ["a.py"], screenshots: ["shots/*.png"], tree: true },
  });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  assert.ok(!result.document.includes(key));
  assert.ok(!result.document.includes("REDACTED"), result.document);
  assert.match(result.document, /!\[ok\.png\]\(shots\/ok\.png\)/);
  assert.deepEqual(result.warnings.filter((w) => w.startsWith("Redacted")), []);
});
