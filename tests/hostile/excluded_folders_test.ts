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

const VENV =
  "a Python virtual environment, a folder with a pyvenv.cfg: installed packages, not bundled";

for (const inGit of [true, false]) {
  Deno.test(`a Python virtual environment no .gitignore names is one row, skipped, whatever its name (${inGit ? "git" : "walk"})`, async () => {
    const root = await makeProject({
      "app.py": "print('app')\n",
      ".venv/pyvenv.cfg": "home = /usr/bin\n",
      ".venv/lib/python3.12/site-packages/pkg/__init__.py": "installed = True\n",
      "tools/env/pyvenv.cfg": "home = /usr/bin\n",
      "tools/env/bin/activate": "# activate\n",
      // A file named like a venv's marker outside a folder of its own, and a look-alike folder.
      "pyvenv.cfg": "not a venv of the project's folders\n",
      "venv_notes/readme.md": "# Notes\n",
    });
    if (inGit) await gitInit(root);
    const result = await buildContext({ cwd: root }, { write: false });
    assert.deepEqual(result.manifest.files.map((f) => [f.path, f.status, f.reason]), [
      [".venv", "skipped", VENV],
      ["app.py", "rendered", undefined],
      ["pyvenv.cfg", "rendered", undefined],
      ["tools/env", "skipped", VENV],
      ["venv_notes/readme.md", "rendered", undefined],
    ]);
    assert.doesNotMatch(result.document, /installed = True|# activate/);
  });
}
