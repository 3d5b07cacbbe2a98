import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { sha256 } from "../../pipeline/read.ts";
import { makeProject } from "../_helpers.ts";

// Twelve files: more entries than a build writes as entry files beside a pack it keeps.
const TREE = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`src/m${i}.ts`, `export const m${i} = ${i};\n`]),
);
const HINT = ": the document is whole, but the next build renders and counts the files anew; " +
  "make room on its disk (or move what is in the way), or set cache.dir (or pass --state-dir) to " +
  "a folder you can write";

/** The document and the warnings naming the cache of a build of `root`. */
async function build(root: string) {
  const built = await buildContext({ cwd: root }, { write: false });
  const warnings = built.manifest.warnings.filter((w) => w.includes("cache"));
  assert.deepEqual(built.warnings.filter((w) => w.includes("cache")), warnings);
  return { document: built.document, warnings };
}

Deno.test("a cache pack that cannot be written (no folder for it, a folder in its place): one warning naming the folder and why, the same document", async () => {
  const expected = (await build(await makeProject(TREE))).document;
  // A file where the packs folder should be: the pack is never started.
  const noFolder = await makeProject({ ...TREE, ".slop/cache/packs": "mine\n" });
  const first = await build(noFolder);
  assert.equal(first.document, expected);
  assert.deepEqual(first.warnings, [
    `Cannot save the cache in ".slop/cache" (not a directory)${HINT}`,
  ]);
  assert.equal(await Deno.readTextFile(`${noFolder}/.slop/cache/packs`), "mine\n");
  // A folder in the place of the pack: written whole to its temp file, then it cannot be renamed.
  const inPlace = await makeProject(TREE);
  const pack = `${inPlace}/.slop/cache/packs/${sha256(`${await Deno.realPath(inPlace)}\0`)}`;
  await Deno.mkdir(`${pack}/mine`, { recursive: true });
  const second = await build(inPlace);
  assert.equal(second.document, expected);
  assert.deepEqual(second.warnings, [
    `Cannot save the cache in ".slop/cache" (a folder is in the place of one of its files)${HINT}`,
  ]);
  // The temp file is removed: the folder holds what it held.
  assert.deepEqual([...Deno.readDirSync(`${inPlace}/.slop/cache/packs`)].map((e) => e.name), [
    pack.split("/").at(-1),
  ]);
  // A cache that can be written: no warning.
  assert.deepEqual((await build(await makeProject(TREE))).warnings, []);
});
