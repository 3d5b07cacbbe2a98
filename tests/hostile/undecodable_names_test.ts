import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { git, makeProject } from "../_helpers.ts";

const REASON =
  "a name in the path is not valid UTF-8, so slop cannot open it: rename it to include it";

/**
 * Create files whose names hold bytes that are not UTF-8 (Deno's paths are strings and cannot
 * spell them): `bad\377.md`, and `dir\376/inner.txt` (a folder with such a name).
 */
async function plantUndecodable(root: string): Promise<void> {
  const out = await new Deno.Command("sh", {
    args: [
      "-c",
      `printf 'one\\n' > "$(printf 'bad\\377.md')" && mkdir "$(printf 'dir\\376')" && ` +
      `printf 'two\\n' > "$(printf 'dir\\376')/inner.txt"`,
    ],
    cwd: root,
  }).output();
  assert.ok(out.success, "the test could not create the files");
}

for (const mode of ["a folder without git", "a git work tree"]) {
  Deno.test(`in ${mode}, a file or folder whose name is not valid UTF-8 is listed as skipped, never silently missing`, async () => {
    const root = await makeProject({ "ok.md": "ok\n" });
    await plantUndecodable(root);
    if (mode === "a git work tree") {
      await git(root, "init", "-q");
      await git(root, "add", "-A");
    }
    const result = await buildContext({ cwd: root }, { write: false });
    const files = result.manifest.files;
    assert.equal(files.find((f) => f.path === "ok.md")?.status, "rendered");
    const odd = files.filter((f) => f.path !== "ok.md");
    // The file and the folder (or, as git lists it, the file inside it) are each a row.
    assert.equal(odd.length, 2, JSON.stringify(files));
    for (const row of odd) {
      assert.ok(row.path.includes("\uFFFD"), row.path);
      assert.equal(row.status, "skipped");
      assert.equal(row.reason, REASON);
    }
    assert.ok(odd.some((f) => f.path.startsWith("bad")));
    assert.ok(odd.some((f) => f.path.startsWith("dir")));
  });
}
