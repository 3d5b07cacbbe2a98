// A warm rebuild after a one-file edit counts that block against the last document's, found in
// the last manifest by id (`accel/_manifest_block.ts`): one block without parsing the manifest
// whole, the same place as the parsed manifest gives, whatever the paths hold.
import assert from "node:assert/strict";
import { join } from "node:path";
import { manifestBlockIn } from "../../accel/_manifest_block.ts";
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
  { path: string; manifest: { blocks: Array<{ id: string }> } }
> {
  const root = await makeProject(TREE);
  const state = await tempDir();
  await buildContext({ cwd: root, stateDir: state }); // written as slop build writes it
  const out = join(state, "out");
  const name = [...Deno.readDirSync(out)].map((e) => e.name).find((n) => n.endsWith(".json"))!;
  const path = join(out, name);
  return { path, manifest: JSON.parse(await Deno.readTextFile(path)) };
}

Deno.test("manifestBlockIn() finds every block of a manifest as parsing it whole does", async () => {
  const { path, manifest } = await built();
  const search = manifestBlockIn(path);
  assert.ok(search.laidOut);
  assert.ok(manifest.blocks.length >= 7);
  for (const block of manifest.blocks as Array<Record<string, unknown>>) {
    const { offset, length, sha256 } = block;
    assert.deepEqual(
      search.block(block.id as string),
      { offset, length, sha256 },
      `${block.id}`,
    );
  }
  assert.equal(search.block("files:none.py"), undefined);
  assert.equal(search.block("files:a"), undefined, "a prefix of an id is no id");
  // Not laid out as slop writes it: the caller parses it whole.
  const flat = join(await tempDir(), "flat.json");
  await Deno.writeTextFile(flat, JSON.stringify(manifest));
  assert.equal(manifestBlockIn(flat).laidOut, false);
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

Deno.test("manifestBlockIn() finds a block in a manifest file read in pieces, its id line across any piece's end", async () => {
  // 12,000 blocks with long ids (about 7 MB of JSON, most of it id lines): each megabyte's end
  // falls inside an id line more often than not.
  const blocks = Array.from({ length: 12_000 }, (_, i) => ({
    id: `files:src/${"d".repeat(300 + (i % 97))}/m${i}.py`,
    section: "files",
    offset: i * 100,
    length: 100,
    sha256: String(i).padStart(64, "0"),
    tokens: 20,
  }));
  const manifest = {
    version: 1,
    blocks,
    breakpoints: [{ id: "files:src/late.py", end: 5, tokens: 1, ttl: "5m" }],
  };
  const text = JSON.stringify(manifest, null, 2); // ASCII: a character is a byte
  const path = join(await tempDir(), "context.json");
  await Deno.writeTextFile(path, text);
  const search = manifestBlockIn(path);
  assert.ok(search.laidOut);
  const across: string[] = [];
  for (let end = 1024 * 1024; end < text.length; end += 1024 * 1024) {
    const line = text.lastIndexOf('\n      "id": "', end);
    const id = JSON.parse(text.slice(line + 13, text.indexOf(",\n", line + 13)));
    if (line + id.length + 17 > end) across.push(id);
  }
  assert.ok(across.length >= 3, `${across.length} id lines across a megabyte's end`);
  const byId = new Map(blocks.map((b) => [b.id, b]));
  for (const id of [blocks[0].id, ...across, blocks.at(-1)!.id]) {
    const { offset, length, sha256 } = byId.get(id)!;
    assert.deepEqual(search.block(id), { offset, length, sha256 }, id.slice(-12));
  }
  assert.equal(search.block("files:src/none.py"), undefined);
  assert.equal(search.block("files:src/late.py"), undefined, "a breakpoint is no block");
  assert.equal(manifestBlockIn(join(path, "none")).laidOut, false);
});
