// A warm build of a big tree keeps each cached render's text in the cache's pack and reads only
// its entry's head (the JSON line before the text). The pack's index already reads each record's
// first bytes with its record line: it keeps the head's line, and a warm build reads no record of
// the pack for a head of its own (one seek and read a file: 44,000 of each on the monorepo,
// bench/README.md, "A warm build's heads from the pack's index"). Counted, not timed.
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject } from "../_helpers.ts";
import { RACY_MS } from "../../accel/stat_index.ts";

/** `files` Python files of about 3 KB (a cached render under 1 KB is not kept in the pack). */
function tree(files: number): Record<string, string> {
  const out: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], defaultView: "full" };\n`,
  };
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

/** The work of a warm build of `files` files after a one-file edit (a tree that spills). */
async function warmEdit(files: number): Promise<Map<string, number>> {
  const files0 = tree(files);
  const roots = [await makeProject(files0), await makeProject(files0)];
  // Files changed within RACY_MS of a build's read are read again by the next (racily clean).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  // Every text spilled: the build keeps its cached renders' texts in the pack, as a big tree's.
  const layer = () => speedLayer({ spillAfter: 0 });
  const edit = (at: string, n: number) =>
    Deno.writeTextFile(join(at, "src/m3.py"), `y = ${n}  # edited\n`.repeat(80));
  await once(roots[0], layer());
  await edit(roots[0], 1);
  // The pack written anew by the first warm build is the one the next reads (stamped).
  await once(roots[0], layer());
  await edit(roots[0], 2);
  await edit(roots[1], 2);
  let document = "";
  const work = await tallyWork(async () => {
    document = await once(roots[0], layer());
  });
  assert.equal(document, await once(roots[1]), "the plain stages' bytes");
  return work;
}

Deno.test("a warm build reads no cached render's head from the pack: the pack's index kept it", async () => {
  const [small, large] = [await warmEdit(20), await warmEdit(80)];
  const counted = JSON.stringify({ small: [...small], large: [...large] });
  // Not a head a file: none read but the edited file's (its new render is not in the pack yet).
  for (const work of [small, large]) assert.ok((work.get("pack heads read") ?? 0) <= 1, counted);
  // And the pack's bytes read grow by less than a head (512 bytes) a file: the list of the files
  // found clean is read (an id a file), not each render's head.
  const read = (work: Map<string, number>) => work.get("pack bytes read") ?? 0;
  assert.ok(read(large) - read(small) < 60 * 200, counted);
});
