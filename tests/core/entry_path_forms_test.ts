import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { normalizeEntryPath } from "../../pipeline/helpers.ts";
import { makeProject } from "../_helpers.ts";

const TREE = { "src/a.py": "x = 1\n", "b.md": "# b\n" };

// One file, however its path is spelled in "files" or on the command line, is one block under
// its one path: a second spelling must neither add a copy nor show an odd path.
const SPELLINGS = [
  "src/a.py",
  "./src/a.py",
  "src//a.py",
  "src/./a.py",
  "src\\a.py",
  "lib/../src/a.py",
];

Deno.test("every spelling of a file's path in files or build paths names the file under its one path", async () => {
  const root = await makeProject(TREE);
  for (const spelling of [...SPELLINGS, join(root, "src/a.py"), join(root, "src//x/../a.py")]) {
    const inFiles = await buildContext({ cwd: root, inline: { files: ["src/**", spelling] } }, {
      write: false,
    });
    assert.deepEqual(inFiles.manifest.files.map((f) => f.path), ["src/a.py"], spelling);
    assert.deepEqual(inFiles.manifest.warnings, [], spelling);
    const asPath = await buildContext({ cwd: root, paths: [spelling] }, { write: false });
    assert.deepEqual(
      asPath.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path),
      ["src/a.py"],
      spelling,
    );
  }
});

Deno.test("the build path . or ./ is the whole project", async () => {
  const root = await makeProject(TREE);
  for (const dot of [".", "./", ".//"]) {
    const result = await buildContext({ cwd: root, paths: [dot] }, { write: false });
    assert.deepEqual(result.manifest.files.map((f) => f.path).sort(), ["b.md", "src/a.py"], dot);
    assert.deepEqual(result.manifest.warnings, [], dot);
  }
});

Deno.test("normalizeEntryPath keeps globs, a trailing slash and a path that leaves the root", () => {
  assert.equal(normalizeEntryPath("src/**/"), "src/**/");
  assert.equal(normalizeEntryPath("./src//*.ts"), "src/*.ts");
  assert.equal(normalizeEntryPath("../x"), "../x");
  assert.equal(normalizeEntryPath("a/../../b"), "../b");
  assert.equal(normalizeEntryPath("/tmp//a/../b/"), "/tmp/b/");
  assert.equal(normalizeEntryPath("docs/"), "docs/");
});
