import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig } from "../../mod.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { draftsDropped } from "../../accel/draft_ahead.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject, runCli } from "../_helpers.ts";

const LINE = "the quick brown fox jumps over the lazy dog 0123456789\n";

/** A project whose document is past a megabyte (the least `writePatched()` copies). */
function project() {
  return makeProject({
    "big/a.txt": LINE.repeat(12_000),
    "big/b.txt": LINE.repeat(12_000).toUpperCase(),
    "small.txt": "small\n",
    "slop.config.ts": `export default { files: ["big/*.txt", "small.txt"] };\n`,
  });
}

/** The hidden files left in a state folder's output folder (drafts, temp documents). */
function hiddenIn(state: string): string[] {
  return [...Deno.readDirSync(join(state, "out"))].map((e) => e.name)
    .filter((name) => name.endsWith(".tmp"));
}

Deno.test("a build that copies the last document while it runs writes the bytes of one that copies it at emit, from the copy", async () => {
  const root = await project();
  const drafted = await loadConfig({ cwd: root, stateDir: join(root, ".drafted") });
  const plain = await loadConfig({ cwd: root, stateDir: join(root, ".plain") });
  for (const text of ["small\n", "small, edited\n", "s\n", "x".repeat(3000) + "\n"]) {
    await Deno.writeTextFile(join(root, "small.txt"), text);
    let ahead: Awaited<ReturnType<typeof build>> | undefined;
    const work = await tallyWork(async () => {
      ahead = await build(drafted, {
        builtins: defaultPlugins(),
        layer: speedLayer({ draftAhead: true }),
      });
    });
    const atEmit = await tallyWork(() =>
      build(plain, { builtins: defaultPlugins(), layer: speedLayer() })
    );
    await draftsDropped();
    const bytes = await Deno.readFile(ahead!.output!.document);
    const others = (await build(plain, { builtins: defaultPlugins(), layer: speedLayer() }))
      .output!;
    assert.deepEqual(bytes, await Deno.readFile(others.document));
    assert.equal(new TextDecoder().decode(bytes), ahead!.document);
    if (text === "small\n") continue; // the first build: no last document
    // The copy made while the build ran was patched: none made at the emit stage.
    assert.equal(work.get("draft patched"), 1);
    assert.equal(work.get("last document copied at emit"), undefined);
    assert.equal(atEmit.get("last document copied at emit"), 1);
    assert.deepEqual(hiddenIn(drafted.stateDir), []);
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("a copy of the last document that a build does not use is removed", async () => {
  const root = await project();
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".state") });
  const layer = () => speedLayer({ draftAhead: true });
  await build(config, { builtins: defaultPlugins(), layer: layer() });
  // Not written: the copy made for its emit goes.
  await Deno.writeTextFile(join(root, "small.txt"), "small, edited\n");
  const dry = await tallyWork(() =>
    build(config, { builtins: defaultPlugins(), layer: layer(), write: false })
  );
  await draftsDropped();
  assert.equal(dry.get("last document drafted"), 1);
  assert.equal(dry.get("draft patched"), undefined);
  assert.deepEqual(hiddenIn(config.stateDir), []);
  // Its first block changed: too little shared to patch, the copy goes.
  await Deno.writeTextFile(join(root, "big/a.txt"), "first\n" + LINE.repeat(12_000));
  const changed = await tallyWork(() =>
    build(config, { builtins: defaultPlugins(), layer: layer() })
  );
  await draftsDropped();
  assert.equal(changed.get("last document drafted"), 1);
  assert.equal(changed.get("draft patched"), undefined);
  assert.deepEqual(hiddenIn(config.stateDir), []);
  await Deno.remove(root, { recursive: true });
});

Deno.test("slop build leaves no copy of the last document in its output folder when the copy goes unused", async () => {
  const root = await project();
  const state = join(root, ".state");
  const first = await runCli(["build", "-q", "--no-server", "--state-dir", state], root);
  assert.equal(first.code, 0, first.stderr);
  // Its first block changed: the copy made while it ran is not patched, and the process
  // exits as the command returns (the command waits for the copy to be removed first).
  await Deno.writeTextFile(join(root, "big/a.txt"), "first\n" + LINE.repeat(12_000));
  const second = await runCli(["build", "-q", "--no-server", "--state-dir", state], root);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(hiddenIn(state), []);
  assert.equal(
    [...Deno.readDirSync(join(state, "out"))].filter((e) => e.name.endsWith(".md")).length,
    2,
  );
  await Deno.remove(root, { recursive: true });
});
