// What a one-file-edit warm build does for each file it did not change, counted (`tallyWork`) and
// weighed in bytes, not timed: on a 44,040-file monorepo that work is most of a warm rebuild
// (bench/README.md, "The warm rebuild's cost per unchanged file").
//
// Two pieces of it are of the tree's size for no cause in the files: the pack's index file held
// each cached render's head (the same 54-byte line for every file of a full view) in hex, and
// its reader decoded it for each record; and the view cache's key made each file's merged entry
// canonical JSON, though every file the same config entries match has the same values, and
// parsed each render's head, the same line for every file of a full view.
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { readStampedIndex } from "../../pipeline/_cache_pack.ts";
import { makeProject } from "../_helpers.ts";
import { RACY_MS } from "../../accel/stat_index.ts";

const CONFIG = `export default { files: ["src/**"], defaultView: "full" };\n`;

/**
 * `files` Python modules of about 3 KB, ASCII, every fifth one line (a cached render under 512
 * bytes is read whole from the pack, not as a head the pack's index file keeps).
 */
function tree(files: number): Record<string, string> {
  const out: Record<string, string> = { "slop.config.ts": CONFIG };
  for (let i = 0; i < files; i++) {
    if (i % 5 === 4) {
      out[`src/p${i % 7}/m${i}.py`] = `x = ${i}\n`;
      continue;
    }
    out[`src/p${i % 7}/m${i}.py`] = Array.from(
      { length: 100 },
      (_, j) => `x${j} = "v ${i}"  # ${j}\n`,
    )
      .join("");
  }
  return out;
}

/** A build of the project at `at` with the speed layer, every text kept in the cache's pack. */
async function once(at: string): Promise<void> {
  const layer = speedLayer({ spillAfter: 0 });
  await build(await loadConfig({ cwd: at }), { builtins: defaultPlugins(), layer });
}

/** The stamped pack of the project at `at` and its index file's path. */
function packOf(at: string): { pack: string; stamp: string } {
  const cache = join(at, ".slop", "cache");
  const [name] = [...Deno.readDirSync(join(cache, "packs"))].map((e) => e.name);
  return { pack: join(cache, "packs", name), stamp: join(cache, "pack-stamps", name) };
}

/** A tree of `files` built three times, one file edited, then built again with its work counted. */
async function warmEdit(files: number): Promise<{ work: Map<string, number>; at: string }> {
  const at = await makeProject(tree(files));
  // Files changed within RACY_MS of a build's read are read again by the next (racily clean).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  // The first build writes the pack, the second names its blocks and writes the pack anew, the
  // third saves the index file of the pack it read: the fourth reads it, as every later one.
  for (let i = 0; i < 3; i++) await once(at);
  await Deno.writeTextFile(join(at, "src/p3/m3.py"), "edited = 1\n".repeat(80));
  const work = await tallyWork(() => once(at));
  // A warm build: the unchanged files are not read (their renders come from the cache).
  assert.equal(work.get("files read"), 1, JSON.stringify([...work]));
  return { work, at };
}

Deno.test("a warm build makes its merged entries' values canonical and parses its renders' shared head once, not once a file", async () => {
  for (const files of [60, 240]) {
    const { work } = await warmEdit(files);
    const counted = JSON.stringify([...work]);
    // One config entry matches every file: one canonical JSON for all their merged entries.
    assert.equal(work.get("entry values made canonical"), 1, counted);
    // Every unchanged file's cached render has the same head, one view of it in the pack's index
    // file: parsed once (the edited file's render is new, and its head is parsed too).
    assert.ok((work.get("entry heads parsed") ?? 0) <= 2, counted);
  }
});

Deno.test("a pack's index file holds a head shared by many records once, and its reader decodes it once", async () => {
  const sizes: number[] = [];
  for (const files of [60, 240]) {
    const { work, at } = await warmEdit(files);
    const { pack, stamp } = packOf(at);
    using file = Deno.openSync(pack);
    const records = readStampedIndex(file, stamp);
    assert.ok(records, "the pack's index file is taken");
    const heads = [...records.values()].flatMap((r) => r.head ? [r.head] : []);
    assert.ok(heads.length >= files, `${heads.length} heads`);
    // The same view of the same bytes, not a copy each.
    assert.ok(new Set(heads).size <= 2, `${new Set(heads).size} head views`);
    // Every file's render has the same head: one decoded (and the edited file's, appended).
    assert.ok((work.get("pack index heads decoded") ?? Infinity) <= 2, JSON.stringify([...work]));
    sizes.push(Deno.statSync(`${stamp}.index`).size);
  }
  // Each file added costs its two records' rows (the render's and the count's: two sha256s,
  // numbers, the head named by its number), not its render's head again in hex (108 digits).
  const perFile = (sizes[1] - sizes[0]) / 180;
  assert.ok(perFile < 330, `${perFile} index file bytes a file`);
});
