import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, writeAtomic } from "../../mod.ts";
import { manifestJsonWithOutput, publish } from "../../pipeline/emit.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { prepareBuild } from "../../pipeline/build.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, runCli, tempDir } from "../_helpers.ts";
import { writeJsonAtomicSync } from "../../pipeline/_json_stream.ts";

const manifest = () => ({}) as never;

Deno.test("publish() numbers outputs monotonically and never reuses a deleted number", async () => {
  const dir = await tempDir();
  const a = await publish("one", { dir, namespace: "context", manifestFor: manifest, root: dir });
  const b = await publish("two", { dir, namespace: "context", manifestFor: manifest, root: dir });
  assert.deepEqual([a.number, b.number], [1, 2]);
  assert.equal(await Deno.readTextFile(join(dir, "context_001.md")), "one");
  await Deno.remove(b.document);
  const c = await publish("three", { dir, namespace: "context", manifestFor: manifest, root: dir });
  assert.equal(c.number, 3);
  assert.equal(await Deno.readTextFile(join(dir, "context_001.md")), "one", "never overwritten");
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(names, [
    ".context.last",
    "context_001.json",
    "context_001.md",
    "context_002.json",
    "context_003.json",
    "context_003.md",
  ]);
});

Deno.test("publish() passes over a mark or an output numbered past what it counts exactly (it looped forever)", async () => {
  for (
    const [mark, file] of [["99999999999999999999", ""], ["7", "context_100000000000000000000.md"]]
  ) {
    const dir = await tempDir();
    await Deno.writeTextFile(join(dir, ".context.last"), mark);
    if (file) await Deno.writeTextFile(join(dir, file), "stray");
    const a = await publish("one", { dir, namespace: "context", manifestFor: manifest, root: dir });
    const b = await publish("two", { dir, namespace: "context", manifestFor: manifest, root: dir });
    assert.deepEqual([a.number, b.number], file ? [8, 9] : [1, 2]);
  }
});

Deno.test("publish() gives concurrent builds distinct numbers and leaves no temp files", async () => {
  const dir = await tempDir();
  const results = await Promise.all(
    Array.from(
      { length: 12 },
      (_, i) => publish(`doc ${i}`, { dir, namespace: "ctx", manifestFor: manifest, root: dir }),
    ),
  );
  const numbers = results.map((r) => r.number).sort((a, b) => a - b);
  assert.deepEqual(numbers, Array.from({ length: 12 }, (_, i) => i + 1));
  for (const r of results) {
    const text = await Deno.readTextFile(r.document);
    assert.match(text, /^doc \d+$/);
  }
  const leftovers = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".tmp"));
  assert.deepEqual(leftovers, []);
});

Deno.test("slop build run as 4 processes at once writes 4 distinct complete outputs", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n", "b.md": "# b\n" });
  const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(["build", "-q"], root)));
  assert.deepEqual(runs.map((r) => r.code), [0, 0, 0, 0]);
  const out = join(root, ".slop", "out");
  const docs = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) => n.endsWith(".md"))
    .sort();
  assert.deepEqual(docs, ["context_001.md", "context_002.md", "context_003.md", "context_004.md"]);
  const texts = new Set(docs.map((d) => Deno.readTextFileSync(join(out, d))));
  assert.equal(texts.size, 1, "every build wrote the same complete document");
  for (const d of docs) {
    const m = JSON.parse(Deno.readTextFileSync(join(out, d.replace(".md", ".json"))));
    assert.equal(m.output, `.slop/out/${d}`);
  }
});

Deno.test("build() writes a manifest beside the document with the same prefix hash each run", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const first = await buildContext({ cwd: root });
  const second = await buildContext({ cwd: root });
  assert.equal(first.output?.number, 1);
  assert.equal(second.output?.number, 2);
  const m1 = JSON.parse(await Deno.readTextFile(first.output!.manifest));
  const m2 = JSON.parse(await Deno.readTextFile(second.output!.manifest));
  assert.equal(m1.prefix.sha256, m2.prefix.sha256);
  assert.equal(m1.output, ".slop/out/context_001.md");
  assert.equal(await Deno.readTextFile(first.output!.document), first.document);
});

Deno.test("a build's manifest file is the JSON of its manifest, byte for byte, prepared ahead or not", async () => {
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    'b "q".md': "# B\n",
    "slop.config.ts": `export default { output: { dir: "out \\"x\\"/é" } };\n`,
  });
  const built = await buildContext({ cwd: root });
  const prepared = await prepareBuild(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
  });
  await Deno.writeTextFile(join(root, "a.ts"), "export const a = 2;\n"); // after the prepare
  const finished = await prepared.finish();
  // Prepared not to be written, then written all the same.
  const unwritten = await prepareBuild(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    write: false,
  });
  const late = await unwritten.finish({ write: true });
  for (const result of [built, finished, late]) {
    const text = await Deno.readTextFile(result.output!.manifest);
    assert.equal(text, JSON.stringify(result.manifest, null, 2) + "\n");
    assert.match(result.manifest.output!, /^out "x"\/é\/context_00\d\.md$/);
  }
  assert.equal(finished.output?.number, 2);
  assert.equal(late.output?.number, 3);
});

Deno.test("manifestJsonWithOutput() adds the output after the version, or gives up on another layout", () => {
  const manifest = { version: 1, files: [{ path: "a" }], prefix: { bytes: 0 } };
  const json = JSON.stringify(manifest, null, 2);
  const { version, ...rest } = manifest;
  const output = 'out/"ctx"\n.md';
  assert.equal(
    manifestJsonWithOutput(json, output),
    JSON.stringify({ version, output, ...rest }, null, 2) + "\n",
  );
  assert.equal(manifestJsonWithOutput(JSON.stringify(manifest), output), undefined);
  assert.equal(manifestJsonWithOutput('{\n  "version": 1\n}', output), undefined);
});

Deno.test("writeAtomic() fails with a sentence naming the file, keeps the error's kind and leaves no temp file", async () => {
  const dir = await tempDir();
  const target = join(dir, "context.json");
  await Deno.mkdir(target); // a folder where the file should go
  const error = await writeAtomic(target, "{}\n").then(() => undefined, (e) => e);
  assert.ok(error instanceof Deno.errors.IsADirectory, String(error));
  assert.equal(error.message, `Cannot write "${target}": is a directory`);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["context.json"]);

  const missing = join(dir, "no", "such", "folder", "x.json");
  const gone = await writeAtomic(missing, "x").then(() => undefined, (e) => e);
  assert.ok(gone instanceof Deno.errors.NotFound, String(gone));
  assert.equal(gone.message, `Cannot write "${missing}": no such file or directory`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a manifest written in pieces has JSON.stringify's bytes, whatever its members", async () => {
  const dir = await tempDir();
  const values: unknown[] = [
    {
      version: 1,
      files: [
        { path: 'a\n"b\u2028', notes: ["x"], cache: undefined, nested: { a: [], b: {}, c: [[1]] } },
        { path: "ü/ß.py", f: () => 1, at: new Date(0), n: null },
      ],
      blocks: [],
      secrets: [1, undefined, () => 2, [2, [3, {}]]],
      empty: {},
    },
    {},
    [],
    [{ a: [{ b: 1 }] }],
    "one",
    7,
    null,
  ];
  // Over a million characters: written in more than one piece.
  const files = Array.from({ length: 12_000 }, (_, i) => ({ path: `src/m${i}.py`, bytes: i }));
  values.push({ version: 1, files, blocks: files.map((f) => ({ id: `files:${f.path}` })) });
  for (const [i, value] of values.entries()) {
    const path = join(dir, `m${i}.json`);
    writeJsonAtomicSync(path, value);
    assert.equal(Deno.readTextFileSync(path), JSON.stringify(value, null, 2) + "\n", `value ${i}`);
  }
  assert.deepEqual([...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".tmp")), []);
  assert.throws(
    () => writeJsonAtomicSync(join(dir, "no/such/folder/m.json"), {}),
    /Cannot write ".*no\/such\/folder\/m\.json"/,
  );
});
