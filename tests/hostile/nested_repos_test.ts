import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

const REASON = "a nested git repository, a submodule or a clone: its files are not part of " +
  'this one; name them by path in "files" to include them';

Deno.test("a nested git repository and a submodule are listed as skipped with the reason, not silently missing", async () => {
  const inner = await makeProject({ "in.md": "inner\n" });
  await gitInit(inner);
  const root = await makeProject({ "top.md": "top\n", "clone/in.md": "clone\n" });
  await gitInit(join(root, "clone"));
  await git(root, "init", "-q");
  await git(
    root,
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "-q",
    "add",
    inner,
    "vendor/sub",
  );

  const result = await buildContext({ cwd: root }, { write: false });
  const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
  assert.equal(rows.get("top.md")?.status, "rendered");
  for (const path of ["clone", "vendor/sub"]) {
    assert.equal(rows.get(path)?.status, "skipped", `${path}: ${JSON.stringify([...rows.keys()])}`);
    assert.equal(rows.get(path)?.reason, REASON);
  }
  // Nothing of theirs reaches the document, and the reason says how to include a file.
  assert.doesNotMatch(result.document, /inner|clone\n/);
  const named = await buildContext({
    cwd: root,
    inline: { files: ["top.md", "clone/in.md"] },
  }, { write: false });
  assert.equal(named.manifest.files.find((f) => f.path === "clone/in.md")?.status, "rendered");
});
