import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { pruneOutputs } from "../../pipeline/emit.ts";
import { makeProject } from "../_helpers.ts";
import { resident } from "../../accel/resident.ts";
import { speedLayer } from "../../accel/speed_layer.ts";

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

async function buildIn(root: string, output: SlopConfig["output"], format?: "xml") {
  const config = await loadConfig({
    cwd: root,
    inline: { files: ["a.ts"], output: { ...output, ...(format ? { format } : {}) } },
  });
  return await build(config, { builtins: defaultPlugins() });
}

Deno.test("output.keep removes the oldest numbered outputs after a publish and never reuses a number", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const out = join(root, ".slop/out");
  for (let i = 1; i <= 5; i++) {
    const result = await buildIn(root, { keep: 3 }, i === 4 ? "xml" : undefined);
    assert.equal(result.output?.number, i);
  }
  assert.deepEqual(names(out).filter((n) => !n.startsWith(".")), [
    "context_003.json",
    "context_003.md",
    "context_004.json",
    "context_004.xml",
    "context_005.json",
    "context_005.md",
  ]);
  // Every output deleted by hand: the mark keeps the count.
  for (const name of names(out)) if (name.startsWith("context_")) Deno.removeSync(join(out, name));
  assert.equal((await buildIn(root, { keep: 3 })).output?.number, 6);
  // Without the mark too, the highest output left (never pruned) keeps the count.
  Deno.removeSync(join(out, ".context.last"));
  assert.equal((await buildIn(root, { keep: 1 })).output?.number, 7);
  assert.deepEqual(names(out).filter((n) => !n.startsWith(".")), [
    "context_007.json",
    "context_007.md",
  ]);
});

Deno.test("a resident's build (the build server, slop watch) removes its old outputs after it returns; a build of its own before", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const out = join(root, ".slop/out");
  const docs = () => names(out).filter((n) => n.endsWith(".md"));
  const config = await loadConfig({ cwd: root, inline: { files: ["a.ts"], output: { keep: 1 } } });
  const builtins = defaultPlugins();
  // The work a build leaves waits a minute unless asked for (`settled()`).
  const kept = resident({ quietMs: 60_000 });
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  assert.deepEqual(docs(), ["context_001.md", "context_002.md"]);
  await kept.settled();
  assert.deepEqual(docs(), ["context_002.md"]);
  await build(config, { builtins, layer: speedLayer() });
  assert.deepEqual(docs(), ["context_003.md"]);
  await kept.close();
});

Deno.test("output.keep defaults to 20 and false keeps every output", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const out = join(root, ".slop/out");
  for (let i = 1; i <= 22; i++) await buildIn(root, {});
  const docs = names(out).filter((n) => n.endsWith(".md"));
  assert.equal(docs.length, 20);
  assert.equal(docs[0], "context_003.md");
  await buildIn(root, { keep: false });
  await buildIn(root, { keep: false });
  assert.equal(names(out).filter((n) => n.endsWith(".md")).length, 22);
});

Deno.test("pruneOutputs() touches only outputs of its namespace, by number", async () => {
  const dir = await makeProject({
    "context_001.md": "1",
    "context_001.json": "{}",
    "context_002.doc.json": "2",
    "context_002.json": "{}",
    "context_1000.md": "1000",
    "context_001.md.bak": "a copy of the user's",
    "contextual_001.md": "another namespace",
    "other_001.md": "another namespace",
    "notes.md": "notes",
    ".context.last": "1000\n",
  });
  assert.deepEqual(pruneOutputs(dir, "context", { keep: 2 }), [
    "context_001.json",
    "context_001.md",
  ]);
  assert.deepEqual(names(dir), [
    ".context.last",
    "context_001.md.bak",
    "context_002.doc.json",
    "context_002.json",
    "context_1000.md",
    "contextual_001.md",
    "notes.md",
    "other_001.md",
  ]);
  // A namespace with pattern characters is taken literally.
  const odd = await makeProject({ "a.b_001.md": "x", "axb_001.md": "y", "a.b_002.md": "z" });
  assert.deepEqual(pruneOutputs(odd, "a.b", { keep: 1 }), ["a.b_001.md"]);
  assert.deepEqual(pruneOutputs(join(odd, "missing"), "a.b", { keep: 1 }), []);
});

Deno.test("output.keep must be a whole number of at least 1 or false, named in the error", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  for (const keep of [0, -1, 1.5, "3", true, null]) {
    await assert.rejects(
      () => loadConfig({ cwd: root, inline: { output: { keep } } as unknown as SlopConfig }),
      /"output\.keep" must be a whole number of outputs to keep \(at least 1\), or false to keep every output, got/,
      String(keep),
    );
  }
  const config = await loadConfig({ cwd: root, inline: { output: { keep: 1 } } });
  assert.equal(config.output.keep, 1);
  assert.equal((await loadConfig({ cwd: root })).output.keep, 20);
});

Deno.test("output.keepBytes removes the oldest outputs past a total size, but never the newest two", async () => {
  // Each build's document and manifest take well over 2 KB together (a 3 KB file in full view).
  const root = await makeProject({ "a.ts": `export const a = "${"x".repeat(3000)}";\n` });
  const out = join(root, ".slop/out");
  const numbers = () =>
    names(out).filter((n) => n.endsWith(".md")).map((n) => Number(n.slice(8, 11)));
  for (let i = 1; i <= 4; i++) await buildIn(root, { keepBytes: 2048 });
  assert.deepEqual(numbers(), [3, 4]);
  // Room for four outputs of about 4 KB each: the newest four of six stay (`keep` still holds).
  const size = [...Deno.readDirSync(out)].filter((e) => e.name.startsWith("context_004."))
    .reduce((sum, e) => sum + Deno.statSync(join(out, e.name)).size, 0);
  for (let i = 5; i <= 6; i++) await buildIn(root, { keepBytes: size * 4 + 100 });
  assert.deepEqual(numbers(), [3, 4, 5, 6]);
  await buildIn(root, { keepBytes: size * 4 + 100, keep: 3 });
  assert.deepEqual(numbers(), [5, 6, 7]);
  // With keep: 1 the newest alone stays; with false there is no limit on bytes.
  await buildIn(root, { keepBytes: 1, keep: 1 });
  assert.deepEqual(numbers(), [8]);
  for (let i = 9; i <= 11; i++) await buildIn(root, { keepBytes: false });
  assert.deepEqual(numbers(), [8, 9, 10, 11]);
});

Deno.test("pruneOutputs() keeps the newest outputs whose bytes fit, without gaps", async () => {
  const dir = await makeProject({
    "context_001.md": "1".repeat(10),
    "context_002.md": "2".repeat(500),
    "context_003.md": "3".repeat(10),
    "context_004.md": "4".repeat(10),
    "context_005.md": "5".repeat(10),
  });
  // 5 and 4 always stay; 3 fits in 35 bytes with them; 2 does not, so 2 and 1 go although 1 fits.
  assert.deepEqual(pruneOutputs(dir, "context", { keepBytes: 35 }), [
    "context_001.md",
    "context_002.md",
  ]);
  assert.deepEqual(pruneOutputs(dir, "context", { keepBytes: 1 }), ["context_003.md"]);
  assert.deepEqual(pruneOutputs(dir, "context", { keepBytes: 1, keep: 1 }), ["context_004.md"]);
});

Deno.test("output.keepBytes must be a whole number of at least 1 or false, named in the error", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  for (const keepBytes of [0, -5, 2.5, "1GB", true, null]) {
    await assert.rejects(
      () => loadConfig({ cwd: root, inline: { output: { keepBytes } } as unknown as SlopConfig }),
      /"output\.keepBytes" must be a whole number of bytes \(at least 1\), or false for no limit, got/,
      String(keepBytes),
    );
  }
  assert.equal((await loadConfig({ cwd: root })).output.keepBytes, 1024 ** 3);
  const config = await loadConfig({ cwd: root, inline: { output: { keepBytes: false } } });
  assert.equal(config.output.keepBytes, false);
});
