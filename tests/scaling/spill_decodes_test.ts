import assert from "node:assert/strict";
import { join } from "node:path";
import { build, type BuildResult, defaultPlugins, loadConfig } from "../../mod.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { precountServed } from "../../accel/precount.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
import { readIndexed, statSession } from "../../accel/stat_index.ts";
import { openSpill } from "../../accel/text_spill.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { makeProject, prng, type Tree } from "../_helpers.ts";

/**
 * A big tree's texts are kept in a spill file and decoded again where a stage reads them: each
 * decoded copy is garbage in the build's heap, which a big tree's collections pay for. What this
 * thread decodes is counted (never timed): the read stage reads none back (its stat index's look
 * at a file's text asks only for the endings a compiler writes), and texts handed to the scan's
 * and the early counts' workers are handed over as their bytes (the workers decode them).
 */
function tree(files: number): Tree {
  const random = prng(28);
  const out: Tree = { "slop.config.ts": `export default { files: ["src/**"] };\n` };
  for (let i = 0; i < files; i++) {
    // 10 KB each, a line of non-ASCII text in every tenth: a scan of over 1M characters, on
    // workers, which count the files shown whole next; more files than the spill remembers as
    // read last (a text read again at once is not decoded again).
    out[`src/m${i}.py`] = Array.from(
      { length: 300 },
      (_, k) =>
        k % 10 === 0
          ? `# é ü — ${i} ${k} and a comment line\n`
          : `value_${k} = ${Math.floor(random() * 1e9)} + ${i} * 7\n`,
    ).join("");
  }
  return out;
}

Deno.test("a spilled cold build decodes each text here at most about twice: none read back for the read stage, nor to hand it to a worker", async () => {
  const files = 160;
  const root = await makeProject(tree(files));
  const builtins = defaultPlugins();
  let builds = 0;
  const config = () => loadConfig({ cwd: root, stateDir: join(root, `.s${++builds}`) });
  const plain = await build(await config(), { builtins, workers: 2 });
  const layer = speedLayer({ spillAfter: 0 });
  let spilled: BuildResult | undefined;
  const work = await tallyWork(async () => {
    spilled = await build(await config(), { builtins, layer, workers: 2 });
  });
  // The document is made from the texts (read back) after the tally.
  assert.equal(spilled!.document, plain.document);
  // Counted from the texts' bytes on the workers: the same counts as one thread's.
  assert.ok(precountServed() > 0, "no block was counted early");
  assert.deepEqual(spilled!.manifest.blocks, plain.manifest.blocks);
  assert.deepEqual(spilled!.manifest.total, plain.manifest.total);
  const decoded = work.get("texts decoded") ?? 0;
  // 1.75 a file: the render, and this thread's share of the scan (3.3 when the read stage read
  // every text back, and texts were decoded to be sent to the workers). Up to 2 if this thread
  // scans them all (a worker slow to start), and a few it counts itself.
  assert.ok(decoded <= 2.6 * files, `${decoded} texts decoded for ${files} files`);
});

Deno.test("the read stage with the stat index reads back none of the texts it kept out of memory", async () => {
  // More files than a spill ever kept as read last (128 when a read stage's were kept).
  const root = await makeProject({
    ...tree(140),
    // Its text judged as read: compiled output named by the config (not recorded as read).
    "src/app.js": "var a = 1;\n".repeat(300) + "//# sourceMappingURL=app.js.map\n",
  });
  const config = await loadConfig({
    cwd: root,
    stateDir: join(root, ".s"),
    inline: { files: ["src/**"] },
  });
  const { targets } = await resolveTargets(config);
  const index = statSession(undefined, join(root, ".s", "index.json"));
  const spill = openSpill({ after: 0 });
  try {
    let sources: SourceFile[] = [];
    const work = await tallyWork(async () => {
      sources = await readIndexed(targets, config, {
        index,
        onRead: (file) => spill.spill(file, { recent: false }),
      });
    });
    assert.equal(sources.length, 141);
    assert.equal(spill.stats.written, 141);
    assert.equal(work.get("texts decoded") ?? 0, 0);
    // Every file read is recorded but the named compiled output.
    assert.deepEqual(
      [...index.result().files.keys()].sort(),
      sources.map((s) => s.path).filter((p) => !p.endsWith(".js")).sort(),
    );
  } finally {
    spill.close();
  }
});
