/**
 * Pieces of a warm rebuild after a one-file edit, timed alone on a state folder a build left: the
 * stat index loaded, and saved after one record is made anew (on a copy of the index, so the state
 * folder is untouched), and the edited file's earlier block looked up in the last manifest
 * (`earlierBlocks` of `accel/count_diff.ts`, as the count stage does to count it by difference).
 * `--repo DIR` times another checkout's modules on the same state (main's, for a pair). Prints the
 * median and the least ms of each piece over the rounds.
 *
 * ```sh
 * deno run -A bench/warm_state_pieces.ts STATE_DIR BLOCK_ID [--rounds 7] [--repo DIR]
 * deno run -A bench/warm_state_pieces.ts /tmp/warm46/st-b files:packages/pkg07/json/decoder.py
 * ```
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { rounds: { type: "string", default: "7" }, repo: { type: "string" } },
});
const [state, blockId] = positionals;
if (!state || !blockId) {
  console.error("usage: warm_state_pieces.ts STATE_DIR BLOCK_ID [--rounds 7] [--repo DIR]");
  Deno.exit(2);
}
const repo = resolve(values.repo ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const stats = await import(join(repo, "accel/stat_index.ts"));
const diff = await import(join(repo, "accel/count_diff.ts"));
const patch = await import(join(repo, "accel/patch_write.ts"));
const { fileStat } = await import(join(repo, "pipeline/file_stat.ts"));

const statDir = join(state, "cache", "stat");
const name = [...Deno.readDirSync(statDir)].map((e) => e.name)
  .find((n) => /^[0-9a-f]{64}\.json$/.test(n));
if (!name) throw new Error(`No stat index in "${statDir}"`);
const indexPath = join(statDir, name);
const scratch = await Deno.makeTempDir({ prefix: "warm_state_pieces_" });
const times: Record<"load" | "save" | "lookup", number[]> = { load: [], save: [], lookup: [] };

for (let round = 0; round < Number(values.rounds); round++) {
  const copy = join(scratch, "index.json");
  Deno.copyFileSync(indexPath, copy);
  await Deno.copyFile(`${indexPath}.journal`, `${copy}.journal`).catch(() => {});
  let start = performance.now();
  const index = stats.loadStatIndex(copy);
  times.load.push(performance.now() - start);
  const session = stats.statSession(index, copy);
  let first = true;
  for (const [path, r] of index.files) {
    const info = fileStat(
      {
        dev: r.dev,
        ino: r.ino,
        size: r.size + (first ? 1 : 0),
        mtime: new Date(r.mtime),
        ctime: new Date(r.ctime),
      } as Deno.FileInfo,
    );
    if (first) session.record(path, info, "f".repeat(64));
    else session.lookup(path, info);
    first = false;
  }
  const left = session.result();
  start = performance.now();
  await stats.saveStatIndex(left);
  times.save.push(performance.now() - start);
  await Deno.remove(`${copy}.journal`).catch(() => {});
  const written = patch.loadWritten(indexPath.replace(/\.json$/, ".doc.json"));
  start = performance.now();
  const earlier = await diff.earlierBlocks(written)(blockId);
  times.lookup.push(performance.now() - start);
  if (!earlier) throw new Error(`No block "${blockId}" in the last document of "${state}"`);
}
await Deno.remove(scratch, { recursive: true });

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(
  `${repo}: ` +
    Object.entries(times).map(([piece, ms]) =>
      `${piece} median ${median(ms).toFixed(1)} ms, least ${Math.min(...ms).toFixed(1)} ms`
    ).join("; "),
);
