// A one-file-edit warm build of a tree that spills (a big tree's builds) does work of the size of
// the edit, beyond one pass over the document for its hashes: counted (`tallyWork`), not timed.
// The texts offered to the spill before its threshold used to stay in memory, and a warm build
// decoded each of them from the cache's pack and hashed it twice (its block's sha256, its content
// key for the file order): on the monorepo, 3,580 texts of 67 MB a build (bench/README.md, "A
// warm build without the build server: cached renders under the spill's threshold").
//
// Such a build keeps each cached render's text in the cache's pack and reads only its entry's head
// (the JSON line before the text). The pack's index already reads each record's first bytes with
// its record line: it keeps the head's line, and a warm build reads no record of the pack for a
// head of its own (one seek and read a file: 44,000 of each on the monorepo, bench/README.md, "A
// warm build's heads from the pack's index").
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject } from "../_helpers.ts";
import { RACY_MS } from "../../accel/stat_index.ts";

const CONFIG = `export default { files: ["src/**"], defaultView: "full" };\n`;

/** `files` Python files of about 4 KB (texts under 1 KB stay in memory), every third not ASCII. */
function tree(files: number): Record<string, string> {
  const out: Record<string, string> = { "slop.config.ts": CONFIG };
  const words = ["plain", "é ü ß — ‘quoted’", "日本語のテキスト", "emoji 🙂🚀 pairs"];
  for (let i = 0; i < files; i++) {
    const word = i % 3 ? words[0] : words[1 + (i / 3) % 3];
    out[`src/m${i}.py`] = Array.from(
      { length: 120 },
      (_, j) => `x${j} = "${word} ${i}"  # line ${j}\n`,
    ).join("");
  }
  return out;
}

/** `files` Python files of about 3 KB, ASCII (a cached render under 1 KB is not kept in the pack). */
function asciiTree(files: number): Record<string, string> {
  const out: Record<string, string> = { "slop.config.ts": CONFIG };
  for (let i = 0; i < files; i++) {
    out[`src/m${i}.py`] = Array.from({ length: 100 }, (_, j) => `x${j} = "v ${i}"  # ${j}\n`)
      .join("");
  }
  return out;
}

/** The document a build of the project at `at` writes (with the speed `layer`, or the plain stages). */
async function once(at: string, layer?: ReturnType<typeof speedLayer>): Promise<string> {
  const result = await build(await loadConfig({ cwd: at }), { builtins: defaultPlugins(), layer });
  return await Deno.readTextFile(result.output!.document);
}

/** How {@linkcode warmEdit} builds and edits. */
interface WarmEditOptions {
  /** The spill's threshold in characters, given the tree's (0: every text spilled). */
  spillAfter: (chars: number) => number;
  /** The name the edited file's lines assign (`é` makes the edit not ASCII). */
  name: string;
}

/**
 * The work of a warm build of the tree `files0` after a one-file edit, with the document's bytes
 * (checked against the plain stages' document of the same edit).
 */
async function warmEdit(
  files0: Record<string, string>,
  options: WarmEditOptions,
): Promise<{ work: Map<string, number>; bytes: number }> {
  const roots = [await makeProject(files0), await makeProject(files0)];
  // Files changed within RACY_MS of a build's read are read again by the next (racily clean).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const chars = Object.values(files0).reduce((n, text) => n + text.length, 0);
  const layer = () => speedLayer({ spillAfter: options.spillAfter(chars) });
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `${options.name} = ${n}  # edited\n`.repeat(80));
  await once(roots[0], layer());
  await edit(roots[0], 1);
  // The first warm build names the blocks of the cached renders it keeps in the pack, and the
  // pack it writes anew is the one the next reads (stamped).
  await once(roots[0], layer());
  await edit(roots[0], 2);
  await edit(roots[1], 2);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(roots[0], layer());
  });
  assert.equal(document, await once(roots[1]), "the plain stages' bytes");
  return { work, bytes: new TextEncoder().encode(document).length };
}

Deno.test("a one-file-edit warm build of a spilling tree decodes no unchanged text and hashes the document once, under the spill's threshold too", async () => {
  for (const files of [24, 96]) {
    // The spill's threshold at half the tree: the build spills, its first texts stay in memory.
    const options = { spillAfter: (chars: number) => Math.floor(chars / 2), name: "é" };
    const { work, bytes } = await warmEdit(tree(files), options);
    const counted = JSON.stringify([...work, ["document bytes", bytes]]);
    // The edited file's text is read back by the scan, its render and its count.
    assert.ok((work.get("texts decoded") ?? 0) <= 3, counted);
    // No decoded copy let go: no full collection asked for.
    assert.equal(work.get("collections") ?? 0, 0, counted);
    // One pass over the document for its hashes, and the edit's few KB (its file, its render,
    // its block, its records): not the texts under the threshold again, twice.
    const beyond = (work.get("bytes hashed") ?? 0) - bytes;
    assert.ok(beyond <= 32 * 1024, `${beyond} bytes hashed beyond the document: ${counted}`);
  }
});

Deno.test("a warm build reads no cached render's head from the pack: the pack's index kept it", async () => {
  // Every text spilled: the build keeps its cached renders' texts in the pack, as a big tree's.
  const options = { spillAfter: () => 0, name: "y" };
  const [small, large] = [
    (await warmEdit(asciiTree(20), options)).work,
    (await warmEdit(asciiTree(80), options)).work,
  ];
  const counted = JSON.stringify({ small: [...small], large: [...large] });
  // Not a head a file: none read but the edited file's (its new render is not in the pack yet).
  for (const work of [small, large]) assert.ok((work.get("pack heads read") ?? 0) <= 1, counted);
  // And the pack's bytes read grow by less than a head (512 bytes) a file: the list of the files
  // found clean is read (an id a file), not each render's head.
  const read = (work: Map<string, number>) => work.get("pack bytes read") ?? 0;
  assert.ok(read(large) - read(small) < 60 * 200, counted);
});

Deno.test("a warm build takes the pack's index from its index file: no read of the pack for it", async () => {
  // The build before it read the pack's records from the pack (a seek and a read each: 88,000
  // on the monorepo, bench/README.md, "A warm rebuild of the monorepo") and saved them beside
  // the pack's stamp; that build's append of the edited file's records followed them there.
  const options = { spillAfter: () => 0, name: "y" };
  for (const files of [20, 80]) {
    const { work } = await warmEdit(asciiTree(files), options);
    const counted = JSON.stringify([...work]);
    assert.equal(work.get("pack index reads") ?? 0, 0, counted);
    // Each file's render and count records, and the list of the files found clean.
    assert.ok((work.get("pack index file rows") ?? 0) >= 2 * files, counted);
  }
});
