import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { gitInit, makeProject } from "../_helpers.ts";

const REASON = 'a folder slop leaves out of every build (".git", "node_modules", ".slop"): its ' +
  "files are not bundled";

Deno.test("files git tracks in a node_modules or .slop folder are listed as that folder, skipped with the reason, not silently missing", async () => {
  const root = await makeProject({
    "src/a.ts": "a\n",
    // Test fixtures committed inside node_modules folders, as vite's are.
    "fixtures/glob/node_modules/pkg/index.js": "fixture\n",
    "fixtures/glob/node_modules/pkg/package.json": "{}\n",
    "node_modules/dep/deep/node_modules/x/i.js": "x\n",
    "docs/.slop/out/context_001.md": "an old output someone committed\n",
  });
  await gitInit(root);
  const result = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(
    result.manifest.files.map((f) => [f.path, f.status, f.reason]),
    [
      ["docs/.slop", "skipped", REASON],
      ["fixtures/glob/node_modules", "skipped", REASON],
      ["node_modules", "skipped", REASON],
      ["src/a.ts", "rendered", undefined],
    ],
  );
  assert.doesNotMatch(result.document, /fixture|committed/);
});

Deno.test("outside git, a node_modules folder no .gitignore leaves out is one row, skipped with the reason; .git is not listed", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "node_modules/dep/index.js": "dep\n",
    "web/node_modules/x/i.js": "x\n",
    "ignored/node_modules/y/i.js": "y\n",
    ".gitignore": "ignored/\n",
    "sub/.git/config": "[core]\n",
  });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(result.manifest.files.map((f) => [f.path, f.status, f.reason]), [
    [".gitignore", "rendered", undefined],
    ["a.ts", "rendered", undefined],
    ["node_modules", "skipped", REASON],
    ["web/node_modules", "skipped", REASON],
  ]);
});
