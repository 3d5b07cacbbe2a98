import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { LFS_POINTER_REASON } from "../../pipeline/_lfs_pointer.ts";
import { gitInit, makeProject } from "../_helpers.ts";

const OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";
const pointer = (size: number, extra = "") =>
  `version https://git-lfs.github.com/spec/v1\n${extra}oid sha256:${OID}\nsize ${size}\n`;

Deno.test("Git LFS pointer files are skipped with the reason, not rendered as the file's content", async () => {
  const root = await makeProject({
    ".gitattributes": "*.png filter=lfs diff=lfs merge=lfs -text\n*.csv filter=lfs -text\n",
    "logo.png": pointer(48213),
    "data/train.csv": pointer(9_000_000_000, "ext-0-foo sha256:" + "a".repeat(64) + "\n"),
    "old.bin": pointer(7).replace("git-lfs.github.com", "hawser.github.com"),
    // Written with CRLF line ends (a checkout with core.autocrlf), or with no final line end.
    "crlf.png": pointer(512).replaceAll("\n", "\r\n"),
    "no_end.png": pointer(512).slice(0, -1),
    // Near misses: text that quotes a pointer, a pointer with no size, one with a short oid.
    "docs/lfs.md": "# How pointers look\n\n" + pointer(1),
    "no_size.txt": pointer(1).replace(/size 1\n$/, ""),
    "short_oid.txt": pointer(1).replace(OID, OID.slice(0, 40)),
  });
  await gitInit(root);
  for (const build of ["cold", "warm"]) {
    const result = await buildContext({ cwd: root }, { write: false });
    const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
    for (const path of ["logo.png", "data/train.csv", "old.bin", "crlf.png", "no_end.png"]) {
      assert.equal(rows.get(path)?.status, "skipped", `${build} ${path}`);
      assert.equal(rows.get(path)?.reason, LFS_POINTER_REASON, `${build} ${path}`);
      assert.doesNotMatch(result.document, new RegExp(`### ${path}`), `${build} ${path}`);
    }
    for (const path of ["docs/lfs.md", "no_size.txt", "short_oid.txt", ".gitattributes"]) {
      assert.equal(rows.get(path)?.status, "rendered", `${build} ${path}`);
    }
  }
  assert.equal(
    LFS_POINTER_REASON,
    `a Git LFS pointer, not the file's content: run "git lfs pull" to check the content out`,
  );
});
