import assert from "node:assert/strict";
import { join } from "node:path";
import { moduleText } from "../../bench/modules.ts";
import { assertUnedited } from "../../bench/_monorepo.ts";
import { git, gitInit, tempDir } from "../_helpers.ts";
import { heldMarks } from "./_held_marks.ts";

/**
 * What a build holds at the end of each stage, less what it held before reading any file, by
 * counting the heap's bytes after a full collection (`_held.ts`, in its own process): never by
 * timing. The project: 400 files of about 25 KB (generated modules, eight to a file), 10 MB of
 * text, so that the texts dwarf the per-file records. One tree for every way of building it, each
 * build's state in a folder of its own.
 */
async function heldByStage(how: "plain" | "layer" | "spill"): Promise<{
  held: Array<{ stage: string; bytes: number; external: number; loose: number }>;
  files: number;
  textBytes: number;
}> {
  const { root, files, textBytes } = await project();
  const held = await heldMarks(root, how, { stateDir: await tempDir() });
  return { held, files, textBytes };
}

/** The 400-file project, written once for every build of this file (removed with its module). */
let written: Promise<{ root: string; files: number; textBytes: number }> | undefined;
function project(): Promise<{ root: string; files: number; textBytes: number }> {
  written ??= (async () => {
    const root = await tempDir({ prefix: "slop_held_" });
    let textBytes = 0;
    const files = 400;
    for (let i = 0; i < files; i++) {
      const text = Array.from({ length: 8 }, (_, k) => moduleText(i * 8 + k, files * 8)).join(
        "\n",
      );
      const dir = join(root, "src", `p${Math.floor(i / 50)}`);
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(join(dir, `m${i}.${i % 2 ? "py" : "ts"}`), text);
      textBytes += text.length;
    }
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default ${JSON.stringify({ files: ["src/**"] })};\n`,
    );
    return { root, files, textBytes };
  })();
  return written;
}

/** Both ways a build runs: the plain stages (the library's `build()`) and with the speed layer. */
const HOWS = ["plain", "layer"] as const;
const measured = new Map<string, ReturnType<typeof heldByStage>>();
const measure = (how: "plain" | "layer" | "spill") => {
  if (!measured.has(how)) measured.set(how, heldByStage(how));
  return measured.get(how)!;
};

Deno.test("a build holds at most three times the project's text at the end of any stage", async () => {
  // Today's build keeps every file's text (read, then shared with its rendered block) until the
  // document is written, and a block's joined string is flattened into a second copy (by the
  // order stage, or counting on one thread): about 2.4 times the text from then on. Three times
  // is the bound nothing may cross (a third copy of the texts).
  await Promise.all(HOWS.map(measure)); // both builds side by side
  for (const how of HOWS) {
    const { held, textBytes } = await measure(how);
    for (const { stage, bytes } of held) {
      assert.ok(
        bytes <= 3 * textBytes,
        `${how}: "${stage}" holds ${bytes} bytes, over three times the ${textBytes} bytes of text`,
      );
    }
    // The texts are held at the end of reading: the measure sees them (it is not blind).
    const read = held.find((m) => m.stage === "read")!;
    assert.ok(read.bytes >= textBytes / 2, `${how}: "read" holds only ${read.bytes} bytes`);
  }
});

Deno.test("the read stage keeps each file's text, not its raw bytes beside it", async () => {
  // The bytes a file was decoded from were held to the secret scan: a second copy of the
  // project, outside the heap (array buffers), as large as the texts (a 695 MB tree held 695 MB
  // of them at the read stage's end). Once hashed and decoded nothing reads them. What may be
  // held outside the heap then is not the files': the token counter's table (5 MB for o200k),
  // read in the background from the read stage's end, whole or in part by the time it ends.
  const table = 6 * 1024 * 1024;
  for (const how of HOWS) {
    const { held, textBytes } = await measure(how);
    const read = held.find((m) => m.stage === "read")!;
    assert.ok(
      read.external <= table + textBytes / 10,
      `${how}: "read" holds ${read.external} bytes outside the heap for ${textBytes} bytes of text`,
    );
    // The texts themselves are there (the measure is not blind).
    assert.ok(read.bytes >= textBytes / 2, `${how}: "read" holds only ${read.bytes} bytes`);
  }
});

Deno.test("a big tree's build holds per-file records, never the texts", async () => {
  // Past its first 64M characters of texts, `slop build` keeps each text in a spill file from the
  // moment it is read (or rendered) and reads it again where a stage uses it
  // (`accel/text_spill.ts`); here it spills from the first text (`spillAfter: 0`). At the end of
  // every stage it holds its records (about 9 KB a file here, on 22 KB files; on tiny files
  // `records_held_test.ts` bounds them at 3.8 KB) and no text (what is held outside the heap is
  // bounded by the test above: the token table). Holding the texts again, or half of them, at
  // any stage's end fails this (they are 8.9M characters here; the bound is 5.7 MB).
  const { held, files, textBytes } = await measure("spill");
  const largest = textBytes / files * 2;
  for (const { stage, bytes } of held) {
    assert.ok(
      bytes <= files * 8192 + 8 * largest + (2 << 20),
      `spill: "${stage}" holds ${bytes} bytes for ${files} files, ${textBytes} bytes of text`,
    );
  }
  // The plain stages (the library's `build()`) still hold the texts: the measure sees them.
  const plain = (await measure("plain")).held.find((m) => m.stage === "count")!;
  assert.ok(plain.bytes >= textBytes / 2, `plain: "count" holds only ${plain.bytes} bytes`);
});

Deno.test("a big tree's build leaves no texts' garbage behind at any stage's end", async () => {
  // A spilling build decodes each text again where a stage reads it back, and the string each
  // file was read as is garbage once written to the spill: copies of the tree that V8 would let
  // pile up (its heap grows to several times what it holds before it collects on its own), so
  // the spill asks for a full collection every 128M characters let go and at each stage's end
  // (`accel/text_spill.ts`). What the mark's own collection frees in the old generation is what
  // was left: without the spill's collections, 10-20 MB here (one to two copies of the 8.9M
  // characters of text).
  const { held, textBytes } = await measure("spill");
  for (const { stage, loose } of held.slice(held.findIndex((m) => m.stage === "read"))) {
    assert.ok(
      loose <= textBytes / 4,
      `spill: "${stage}" left ${loose} bytes of garbage for ${textBytes} bytes of text`,
    );
  }
});

Deno.test("a bench tree that differs from its commit is refused, naming the file: its builds would measure another tree", async () => {
  const root = await tempDir({ prefix: "slop_bench_tree_" });
  try {
    for (let i = 0; i < 3; i++) {
      await Deno.writeTextFile(join(root, `mod_${i}.py`), moduleText(i, 3));
    }
    await gitInit(root);
    await assertUnedited(root);
    // A warm build's edit left in place (a bench stopped by a signal, or running beside).
    await Deno.writeTextFile(join(root, "mod_1.py"), "# slop edit\n", { append: true });
    await assert.rejects(() => assertUnedited(root), /differs from its commit \("mod_1\.py"\)/);
    await git(root, "checkout", "--", ".");
    await Deno.writeTextFile(join(root, "new.py"), "x = 1\n");
    await assert.rejects(() => assertUnedited(root), /\("new\.py"\)/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
