import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, prepareBuild, speedLayer } from "../../mod.ts";
import { fixture, makeProject, tempDir } from "../_helpers.ts";

const PROJECT = {
  "slop.config.ts": `export default { files: ["src/**"] };\n`,
  "src/a.py": "def a():\n    return 1\n",
  "src/b.ts": "export const b = 2;\n",
};

/** Two projects of `PROJECT`: one built, the other's build prepared. */
async function builtAndPrepared() {
  const built = await makeProject(PROJECT);
  const prepared = await makeProject(PROJECT);
  const options = { builtins: defaultPlugins(), layer: speedLayer() };
  const one = await build(await loadConfig({ cwd: built }), options);
  const ready = await prepareBuild(await loadConfig({ cwd: prepared }), options);
  return { built, prepared, one, ready };
}

Deno.test("prepareBuild() then finish() writes the bytes build() writes, once", async () => {
  const { built, prepared, one, ready } = await builtAndPrepared();
  // Nothing is published before it is finished: the document waits in a hidden temp file.
  // The state dir's .gitignore is written first (see `pipeline/state_dir.ts`).
  assert.deepEqual([...Deno.readDirSync(join(prepared, ".slop"))].map((e) => e.name).sort(), [
    ".gitignore",
    "cache",
    "out",
  ]);
  const waiting = [...Deno.readDirSync(join(prepared, ".slop/out"))].map((e) => e.name);
  assert.equal(waiting.length, 1);
  assert.match(waiting[0], /^\.context\..*\.tmp$/);
  assert.deepEqual(ready.files.map((f) => f.path), ["src/a.py", "src/b.ts"]);
  const two = await ready.finish();
  assert.equal(one.document, two.document);
  for (const name of ["context_001.md", "context_001.json"]) {
    assert.equal(
      await Deno.readTextFile(join(prepared, ".slop/out", name)),
      await Deno.readTextFile(join(built, ".slop/out", name)),
    );
  }
  await assert.rejects(() => ready.finish(), /A prepared build is finished once/);
  const names = [...Deno.readDirSync(join(prepared, ".slop/out"))].map((e) => e.name).sort();
  assert.deepEqual(names, [".context.last", "context_001.json", "context_001.md"]);
});

Deno.test("a prepared build finished without writing gives the document and writes nothing", async () => {
  const root = fixture("basic");
  const config = await loadConfig({ cwd: root, stateDir: await tempDir() });
  const ready = await prepareBuild(config, { builtins: defaultPlugins(), layer: speedLayer() });
  const result = await ready.finish({ write: false, record: false });
  assert.equal(result.output, undefined);
  assert.equal(
    result.document,
    (await build(config, { builtins: defaultPlugins(), layer: speedLayer(), write: false }))
      .document,
  );
  assert.equal([...Deno.readDirSync(config.stateDir)].some((e) => e.name === "out"), false);
});

Deno.test("a prepared build that is discarded leaves nothing in the output folder", async () => {
  const root = await makeProject(PROJECT);
  const config = await loadConfig({ cwd: root });
  await build(config, { builtins: defaultPlugins(), layer: speedLayer() });
  const before = [...Deno.readDirSync(join(root, ".slop/out"))].map((e) => e.name).sort();
  await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
  const ready = await prepareBuild(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    layer: speedLayer(),
  });
  assert.equal(Deno.readDirSync(join(root, ".slop/out")).toArray().length, before.length + 1);
  ready.discard();
  ready.discard();
  const after = [...Deno.readDirSync(join(root, ".slop/out"))].map((e) => e.name).sort();
  assert.deepEqual(after, before);
  await assert.rejects(() => ready.finish(), /A prepared build is finished once/);
});

Deno.test("a prepared build whose document written ahead is gone writes it when finished", async () => {
  const { prepared, one, ready } = await builtAndPrepared();
  // Another build's publication took it for a killed build's (an hour old) and removed it.
  for (const entry of Deno.readDirSync(join(prepared, ".slop/out"))) {
    await Deno.remove(join(prepared, ".slop/out", entry.name));
  }
  const two = await ready.finish();
  assert.equal(await Deno.readTextFile(two.output!.document), one.document);
  const names = [...Deno.readDirSync(join(prepared, ".slop/out"))].map((e) => e.name).sort();
  assert.deepEqual(names, [".context.last", "context_001.json", "context_001.md"]);
});
