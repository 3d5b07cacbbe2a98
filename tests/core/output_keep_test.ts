import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { pruneOutputs } from "../../pipeline/emit.ts";
import { makeProject } from "../_helpers.ts";

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
  assert.deepEqual(pruneOutputs(dir, "context", 2), ["context_001.json", "context_001.md"]);
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
  assert.deepEqual(pruneOutputs(odd, "a.b", 1), ["a.b_001.md"]);
  assert.deepEqual(pruneOutputs(join(odd, "missing"), "a.b", 1), []);
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
