import assert from "node:assert/strict";
import { join } from "node:path";
import { heldMarks } from "./_held_marks.ts";
import { build } from "../../pipeline/build.ts";
import { loadConfig } from "../../pipeline/config.ts";
import type { Stages } from "../../pipeline/stages.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { tempDir } from "../_helpers.ts";

/**
 * What a build holds per file besides the texts, by counting the heap's bytes after a full
 * collection at each stage's end (`_held.ts`, in its own process): never by timing. Two trees of
 * tiny files (a line each) are built, 250 and 2,250 files; the difference of what each holds,
 * divided by the 2,000 files between them, is the bytes a file costs, without what a build holds
 * whatever its size (modules, tables, plugins). Twice as many files gave 30-130 bytes a file less
 * (a map's slots and the like, shared by more files) and cost a fifth more CPU; 800 bytes more
 * held a file fail the bound at either size (bench/README.md, twenty-sixth session, suite37).
 * Bytecode is not flushed (`--no-flush-bytecode`), so the collector's timing does not move the
 * measure.
 */
async function tree(files: number, lines = 1): Promise<string> {
  const root = await tempDir({ prefix: "slop_records_" });
  for (let i = 0; i < files; i++) {
    const dir = join(root, "src", `p${Math.floor(i / 100)}`);
    if (i % 100 === 0) await Deno.mkdir(dir, { recursive: true });
    const text = Array.from({ length: lines }, (_, k) => `x${i}_${k} = ${i * lines + k}\n`);
    await Deno.writeTextFile(join(dir, `m${i}.${i % 2 ? "py" : "ts"}`), text.join(""));
  }
  const config = `export default ${JSON.stringify({ files: ["src/**"] })};\n`;
  await Deno.writeTextFile(join(root, "slop.config.ts"), config);
  return root;
}

type Marks = Array<{ stage: string; bytes: number }>;

/**
 * The heap held at each mark of a build of `root`, less the first; its state (cache, stat index)
 * in `stateDir`, so a second build there is warm.
 */
function held(root: string, how: "plain" | "layer" | "spill", stateDir: string): Promise<Marks> {
  return heldMarks(root, how, { keepBytecode: true, stateDir });
}

/**
 * The 250- and 2,250-file trees, written once for the layer's and the plain stages' tests: a
 * build only reads them, and each test keeps its builds' state in folders of its own. Removed
 * with the module's other temp folders.
 */
let twoTrees: Promise<{ small: string; large: string }> | undefined;
function sharedTrees(): Promise<{ small: string; large: string }> {
  twoTrees ??= (async () => {
    const [small, large] = await Promise.all([tree(250), tree(2250)]);
    return { small, large };
  })();
  return twoTrees;
}

/**
 * The bound, in bytes a file. What a build keeps to its end for each file — its target, source,
 * rendered file, block and placed block, its manifest rows, its stat index and cache records,
 * with their paths and sha256 strings — came to 3.4 KB at the most (a warm build's end) once the
 * `lstat` results (a `Deno.FileInfo` with four `Date`s), the view keys' maps, the manifest's JSON
 * and the pack's index lines were let go; it was 4.3 KB before. 3.8 KB leaves room for a field or
 * two more, not for one more record a file: the per-file index the big trees need is far below it
 * (bench/README.md, "Monorepo scale").
 */
const BYTES_PER_FILE = 3800;

for (const how of ["layer", "plain"] as const) {
  Deno.test(`a ${how} build holds under ${BYTES_PER_FILE} bytes of records a file at every stage's end, cold and warm`, async () => {
    const { small, large } = await sharedTrees();
    const [smallState, largeState] = [await tempDir(), await tempDir()];
    for (const build of ["cold", "warm"]) {
      // The second build of each tree is warm: its state (cache, stat index) is the first's. The
      // two trees' builds are processes of their own, run side by side.
      const [a, b] = await Promise.all([
        held(small, how, smallState),
        held(large, how, largeState),
      ]);
      const perFile = b.map((m, i) => ({ stage: m.stage, bytes: (m.bytes - a[i].bytes) / 2000 }));
      for (const { stage, bytes } of perFile) {
        assert.ok(
          bytes <= BYTES_PER_FILE,
          `${how} ${build}: "${stage}" holds ${bytes.toFixed(0)} bytes a file`,
        );
      }
      // The measure sees the records (it is not blind): they are held at the end of the build.
      const emit = perFile.find((m) => m.stage === "emit")!;
      assert.ok(
        emit.bytes >= 1000,
        `${how} ${build}: "emit" holds only ${emit.bytes} bytes a file`,
      );
    }
  });
}

/**
 * The bound, in bytes a file, when every text is kept in the spill file (a big tree's build past
 * its first 64M characters: `accel/text_spill.ts`), each source, rendered file, block and placed
 * block with a lazy `text`. Turning an object's `text` field into the lazy accessor made V8 keep
 * that object's properties in a dictionary (450-830 bytes each, four a file): up to 5.1 KB a
 * file on this tree (cold, at the count stage's end). Now each lazy record is a copy that gets
 * the accessor as a new property (`lazyCopy` in `pipeline/lazy_text.ts`), in a shape shared by
 * all. A warm build that leaves a kept text unread in the pack also keeps, for each, the size and
 * crc32 it checks when the document reads it (about 140 bytes a file): 3.58 KB -> 3.72-3.75 KB at
 * the count stage's end alone, 3.85 KB in a loaded suite. Hence 200 bytes over the other builds'.
 * Since the pack's index keeps each cached render's first line (at most 256 bytes, so that a warm
 * build reads no head from the pack: `pipeline/_cache_pack.ts`), a warm build holds 3.80-3.89 KB a
 * file at the count stage's end on a quiet machine and 4.08 KB was seen in a loaded suite: the
 * bound has that line's 256 bytes more.
 */
const SPILLED_BYTES_PER_FILE = BYTES_PER_FILE + 200 + 256;

Deno.test(`a build that spills its texts holds under ${SPILLED_BYTES_PER_FILE} bytes of records a file, cold and warm`, async () => {
  // Files of 1.4 KB (spilled: texts under 1K characters stay in memory); the texts read last that
  // the spill remembers are as many in both trees, so the difference is the records.
  const [small, large] = await Promise.all([tree(300, 80), tree(2300, 80)]);
  const [smallState, largeState] = [await tempDir(), await tempDir()];
  try {
    for (const build of ["cold", "warm"]) {
      const [a, b] = await Promise.all([
        held(small, "spill", smallState),
        held(large, "spill", largeState),
      ]);
      const perFile = b.map((m, i) => ({ stage: m.stage, bytes: (m.bytes - a[i].bytes) / 2000 }));
      for (const { stage, bytes } of perFile) {
        assert.ok(
          bytes <= SPILLED_BYTES_PER_FILE,
          `spill ${build}: "${stage}" holds ${bytes.toFixed(0)} bytes a file`,
        );
      }
      const emit = perFile.find((m) => m.stage === "emit")!;
      assert.ok(emit.bytes >= 1000, `spill ${build}: "emit" holds only ${emit.bytes} bytes a file`);
    }
  } finally {
    await Deno.remove(small, { recursive: true });
    await Deno.remove(large, { recursive: true });
  }
});

/**
 * Functions held a file, counted: a warm build leaves unchanged files unread, each with a `load`
 * that reads it when a stage needs its text. Each was a function made for its file, with its
 * scope and the late scan's wrapper (about 500 bytes a file with the cache's read-backs: 50 MB on
 * 100,000 files); they share one now (`unreadLoader` in `accel/stat_index.ts`), so the count is 1
 * whatever the tree's size.
 */
Deno.test("a warm build's unread files share one load function, not one a file", async () => {
  const root = await tree(300);
  try {
    // Files older than the stat index's racy window are trusted unread (`RACY_MS`).
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
    const loads: Array<SourceFile["load"]> = [];
    for (const round of ["cold", "warm"]) {
      const speed = speedLayer();
      const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
      await build(config, {
        builtins: defaultPlugins(),
        write: false,
        layer: {
          ...speed,
          wrap: (stages, run) => {
            const wrapped = speed.wrap(stages, run);
            const read: Stages["read"] = async (targets) => {
              const sources = await wrapped.read(targets);
              if (round === "warm") loads.push(...sources.map((s) => s.load));
              return sources;
            };
            return { ...wrapped, read };
          },
        },
      });
    }
    assert.ok(loads.length >= 300 && loads.every((load) => load), "every file unread");
    assert.equal(new Set(loads).size, 1, `one load function for ${loads.length} files`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * Bytes a lazy text's backing holds (with its marks), counted in a process of its own
 * (`_held_backings.ts`): a warm build of a big tree keeps one a file, in the pack or the spill.
 * Each was made by `Object.create` and eight fields set one by one, and V8 kept four of them in a
 * property array of their own: 160 bytes a text kept in a pack, 178-182 a spilled one. Made as one
 * literal whose prototype is set after, they are 136 and 165 bytes on this machine (the middle of
 * three rounds; the first round measures 134 and 164).
 */
const BACKING_BYTES = { packed: 140, spilled: 168 };

Deno.test(`a lazy text's backing holds under ${BACKING_BYTES.packed} bytes kept in a pack, ${BACKING_BYTES.spilled} spilled`, async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc,--max-semi-space-size=4,--no-turbofan",
      new URL("./_held_backings.ts", import.meta.url).pathname,
      "2000",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const held: typeof BACKING_BYTES = JSON.parse(new TextDecoder().decode(out.stdout));
  for (const kind of ["packed", "spilled"] as const) {
    assert.ok(
      held[kind] <= BACKING_BYTES[kind],
      `a ${kind} text's backing holds ${held[kind].toFixed(0)} bytes`,
    );
    // The measure sees the backings (it is not blind).
    assert.ok(held[kind] >= 60, `a ${kind} text's backing holds only ${held[kind]} bytes`);
  }
});
