import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { gitInit, makeProject } from "../_helpers.ts";

// A file named by its path on the command line (`slop build debug.log`) is built even when git
// ignores it, as the same literal path in "files" is; a folder's path still means the files git
// lists under it, and a path that is no file still warns.
for (const git of [true, false]) {
  Deno.test(`a build path that names an ignored file builds it (${git ? "git" : "no git"})`, async () => {
    const root = await makeProject({
      ".gitignore": "*.log\nlogs/*\n!logs/keep.txt\n",
      "debug.log": "ignored but named\n",
      "logs/skip.txt": "ignored\n",
      "logs/keep.txt": "kept\n",
      "src/a.ts": "export const a = 1;\n",
    });
    if (git) await gitInit(root);
    const paths = (given: string[]) =>
      buildContext({ cwd: root, paths: given }, { write: false }).then((r) => ({
        rendered: r.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path),
        warnings: r.manifest.warnings,
      }));
    const inFiles = await buildContext({ cwd: root, inline: { files: ["debug.log"] } }, {
      write: false,
    });
    assert.deepEqual(inFiles.manifest.files.map((f) => f.path), ["debug.log"]);

    assert.deepEqual(await paths(["debug.log"]), { rendered: ["debug.log"], warnings: [] });
    assert.deepEqual(await paths(["logs"]), { rendered: ["logs/keep.txt"], warnings: [] });
    assert.deepEqual(await paths(["logs/skip.txt", "src"]), {
      rendered: ["logs/skip.txt", "src/a.ts"],
      warnings: [],
    });
    const missing = await paths(["nothere.log"]);
    assert.deepEqual(missing.rendered, []);
    assert.deepEqual(missing.warnings, ['No file matches the path "nothere.log"']);
  });
}
