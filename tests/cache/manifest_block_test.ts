// A warm rebuild after a one-file edit counts that block against the last document's, found in
// the last manifest by id (`accel/_manifest_block.ts`): one block without parsing the manifest
// whole, the same place as the parsed manifest gives, whatever the paths hold.
import assert from "node:assert/strict";
import { join } from "node:path";
import { laidOut, manifestBlock } from "../../accel/_manifest_block.ts";
import { earlierBlocks } from "../../accel/count_diff.ts";
import { loadWritten } from "../../accel/patch_write.ts";
import { buildContext } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

// Paths that hold what JSON escapes, a path that begins another, and a path named in a warning.
const TREE: Record<string, string> = {
  'q"uote.py': "x = 1\n",
  "back\\slash.py": "y = 2\n",
  "ünï/cödé.py": "z = 3\n",
  "a.py": "a = 1\n",
  "a.py.bak.py": "b = 2\n",
  "tab\there.md": "# t\n",
  "slop.config.ts": `export default { files: ["**", "missing/a.py"] };\n`,
};

async function built(): Promise<
  { bytes: Uint8Array; manifest: { blocks: Array<{ id: string }> } }
> {
  const root = await makeProject(TREE);
  const state = await tempDir();
  await buildContext({ cwd: root, stateDir: state }); // written as slop build writes it
  const out = join(state, "out");
  const name = [...Deno.readDirSync(out)].map((e) => e.name).find((n) => n.endsWith(".json"))!;
  const bytes = await Deno.readFile(join(out, name));
  return { bytes, manifest: JSON.parse(new TextDecoder().decode(bytes)) };
}

Deno.test("manifestBlock() finds every block of a manifest as parsing it whole does", async () => {
  const { bytes, manifest } = await built();
  assert.ok(laidOut(bytes));
  assert.ok(manifest.blocks.length >= 7);
  for (const block of manifest.blocks as Array<Record<string, unknown>>) {
    const { offset, length, sha256 } = block;
    assert.deepEqual(
      manifestBlock(bytes, block.id as string),
      { offset, length, sha256 },
      `${block.id}`,
    );
  }
  assert.equal(manifestBlock(bytes, "files:none.py"), undefined);
  assert.equal(manifestBlock(bytes, "files:a"), undefined, "a prefix of an id is no id");
  // Not laid out as slop writes it: the caller parses it whole.
  assert.equal(laidOut(new TextEncoder().encode(JSON.stringify(manifest))), false);
});

Deno.test("the last document's block is found without parsing its manifest whole, for the first few", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 200; i++) tree[`src/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
  const root = await makeProject(tree);
  const state = await tempDir();
  await buildContext({ cwd: root, stateDir: state }); // in this process: its records are the test's input
  const record = [...Deno.readDirSync(join(state, "cache", "stat"))]
    .find((e) => e.name.endsWith(".doc.json"))!;
  const written = loadWritten(join(state, "cache", "stat", record.name))!;
  const manifestBytes = (await Deno.stat(written.path.replace(/\.md$/, ".json"))).size;
  // Count the characters JSON.parse is given while the blocks are looked up, and the characters
  // decoded from bytes (a text file read whole is decoded too).
  const parse = JSON.parse;
  const parsed: number[] = [];
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    parsed.push(text.length);
    return parse(text, reviver);
  };
  const decode = TextDecoder.prototype.decode;
  const readText = Deno.readTextFileSync;
  let decoded = 0;
  TextDecoder.prototype.decode = function (this: TextDecoder, ...args) {
    const text = decode.apply(this, args);
    decoded += text.length;
    return text;
  };
  Deno.readTextFileSync = (path) => {
    const text = readText(path);
    decoded += text.length;
    return text;
  };
  try {
    const earlier = earlierBlocks(written);
    const first = await earlier("files:src/m7.py");
    assert.ok(first?.text.includes("return 7"));
    assert.ok(Math.max(...parsed) < manifestBytes / 50, `parsed ${parsed} of ${manifestBytes}`);
    // The block's own object and its text, not the manifest: found in its bytes, undecoded.
    assert.ok(decoded < manifestBytes / 20, `decoded ${decoded} of ${manifestBytes}`);
    for (let i = 0; i < 8; i++) await earlier(`files:src/m${i}.py`);
    // Past a few lookups, the manifest is parsed once, whole.
    assert.ok(parsed.some((n) => n >= manifestBytes - 1), "parsed whole once many are asked");
    assert.ok((await earlier("files:src/m150.py"))?.text.includes("return 150"));
  } finally {
    JSON.parse = parse;
    TextDecoder.prototype.decode = decode;
    Deno.readTextFileSync = readText;
  }
});
