import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig } from "../../mod.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { startHashAhead } from "../../accel/hash_ahead.ts";
import type { WrittenDocument } from "../../accel/patch_write.ts";
import { documentHashes, type StreamedDocument } from "../../pipeline/document.ts";
import { fileStamp, tallyWork } from "../../pipeline/helpers.ts";
import { makeProject, tempDir } from "../_helpers.ts";
import { RACY_MS } from "../../accel/stat_index.ts";

const encoder = new TextEncoder();
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A document of these blocks' bytes. */
function documentOf(blocks: string[]): { document: StreamedDocument; hashes: string[] } {
  const bytes = blocks.map((b) => encoder.encode(b));
  return {
    document: {
      lengths: bytes.map((b) => b.length),
      *pieces(from = 0, to = bytes.length) {
        yield* bytes.slice(from, to);
      },
    },
    hashes: bytes.map(sha),
  };
}

/** The last document written, of these blocks, as its record says. */
async function lastDocument(dir: string, blocks: string[]): Promise<WrittenDocument> {
  const path = join(dir, "last.md");
  const { hashes, document } = documentOf(blocks);
  await Deno.writeTextFile(path, blocks.join(""));
  return { hashes, lengths: document.lengths, path, stamp: fileStamp(path)! };
}

const OLD = [
  "# a\n" + "a".repeat(3_000_000),
  "# b\nbee\n",
  "# c\n" + "c".repeat(1_500_000),
  "# d\n",
];

Deno.test("the document hashed on a worker from the last document's file has the hashes of the plain path", async () => {
  const dir = await tempDir();
  const last = await lastDocument(dir, OLD);
  // An edit moves its block to the end; a block of its own in the middle; one block the same.
  const blocks = [OLD[0], "# new\nnew\n", OLD[2], OLD[3], "# b\nbee, edited\n"];
  const { document, hashes } = documentOf(blocks);
  const total = document.lengths.reduce((n, l) => n + l, 0);
  for (const prefix of [0, 5, OLD[0].length, OLD[0].length + 3, 2_000_000 + OLD[0].length, total]) {
    const ahead = startHashAhead(document, hashes, last, prefix);
    assert.ok(ahead, "a last document to read");
    assert.deepEqual(await ahead.result(), documentHashes(document, prefix));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a document hashed on a worker while the last document changed, or stopped, gives no hashes", async () => {
  const dir = await tempDir();
  const last = await lastDocument(dir, OLD);
  const { document, hashes } = documentOf([OLD[0], OLD[2], "# e\n"]);
  const ahead = startHashAhead(document, hashes, last, 0)!;
  // Rewritten with other bytes of the same length before the answer is read: its stamp moves.
  Deno.writeTextFileSync(last.path, OLD.join("").replaceAll("a", "z"));
  assert.equal(await ahead.result(), undefined);
  // A file that is not the one recorded is not read at all.
  assert.equal(startHashAhead(document, hashes, last, 0), undefined);
  const again = startHashAhead(document, hashes, { ...last, stamp: fileStamp(last.path)! }, 0)!;
  again.stop();
  assert.equal(await again.result(), undefined);
  await Deno.remove(dir, { recursive: true });
});

/** A project of 30 Python files of about 3 KB, built with every text spilled (its blocks named). */
async function spilledBuilds(config: string, builds: number) {
  const files: Record<string, string> = { "slop.config.ts": config };
  for (let i = 0; i < 30; i++) {
    files[`src/m${i}.py`] = Array.from({ length: 100 }, (_, j) => `x${j} = "v ${i}"  # ${j}\n`)
      .join("");
  }
  const root = await makeProject(files);
  // Files changed within RACY_MS of a build's read are read again by the next (racily clean).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const loaded = await loadConfig({ cwd: root, stateDir: join(root, ".state") });
  const ahead: Array<number | undefined> = [];
  for (let n = 0; n < builds; n++) {
    if (n) await Deno.writeTextFile(join(root, "src/m3.py"), `y = ${n}  # edited\n`.repeat(80));
    let result: Awaited<ReturnType<typeof build>> | undefined;
    const layer = speedLayer({ spillAfter: 0 });
    const work = await tallyWork(async () => {
      result = await build(loaded, { builtins: defaultPlugins(), layer });
    });
    const bytes = await Deno.readFile(result!.output!.document);
    assert.equal(result!.manifest.total.sha256, sha(bytes));
    const prefix = result!.manifest.prefix.bytes;
    assert.equal(result!.manifest.prefix.sha256, sha(bytes.subarray(0, prefix)));
    ahead.push(work.get("document hashed ahead"));
  }
  await Deno.remove(root, { recursive: true });
  return ahead;
}

Deno.test("a warm build's manifest takes the document's hashes from the worker, the sha256 of the file it writes", async () => {
  const ahead = await spilledBuilds(
    `export default { files: ["src/**"], defaultView: "full" };\n`,
    4,
  );
  // The first build has no last document, the second's blocks are hashed as they are named.
  assert.deepEqual(ahead, [undefined, undefined, 1, 1]);
});

Deno.test("a warm build under a budget has the document hashes of the file it writes", async () => {
  await spilledBuilds(
    `export default { files: ["src/**"], defaultView: "full", budget: { tokens: 6000 } };\n`,
    4,
  );
});
