import assert from "node:assert/strict";
import { join } from "node:path";
import { loadO200kRanks } from "../../deps.ts";
import { bpeCounter, buildBpeTable } from "../../pipeline/_bpe.ts";
import {
  decodeTable,
  readTableFile,
  readTablePayload,
  tableFile,
  writeTableFile,
} from "../../pipeline/_table_store.ts";
import { makeProject, runCli, tempDir } from "../_helpers.ts";

const FORMAT = "bpe-table/1 gpt-tokenizer@3.4.0";
const SAMPLE = "def main():\n    return héllo + 'wörld' // 42 🙂\n";

/** The o200k table, built once for the tests here (it is only read: written to files, counted with). */
let o200k: Promise<ReturnType<typeof buildBpeTable>> | undefined;
function o200kTable(): Promise<ReturnType<typeof buildBpeTable>> {
  o200k ??= loadO200kRanks().then(({ ranks, split }) => buildBpeTable(ranks, split));
  return o200k;
}

Deno.test("a stored BPE table reads back and counts the same; a damaged file reads as none", async () => {
  const dir = await tempDir();
  const table = await o200kTable();
  const path = tableFile(dir, "o200k", FORMAT);
  assert.notEqual(
    path,
    tableFile(dir, "o200k", "bpe-table/1 gpt-tokenizer@3.5.0"),
    "keyed by version",
  );
  assert.ok(writeTableFile(path, FORMAT, table));
  const back = (await readTableFile(path, FORMAT))!;
  assert.ok(back.slots.buffer instanceof SharedArrayBuffer, "shared with the counting workers");
  assert.equal(bpeCounter(back)(SAMPLE), bpeCounter(table)(SAMPLE));
  assert.equal(
    await readTableFile(path, "bpe-table/1 gpt-tokenizer@9.9.9"),
    undefined,
    "other format",
  );
  const bytes = await Deno.readFile(path);
  const flipped = bytes.slice();
  flipped[bytes.length - 100] ^= 1;
  await Deno.writeFile(path, flipped);
  assert.equal(await readTableFile(path, FORMAT), undefined, "a flipped byte fails the hash");
  await Deno.writeFile(path, bytes.subarray(0, bytes.length - 7));
  assert.equal(await readTableFile(path, FORMAT), undefined, "truncated");
  assert.equal(await readTableFile(join(dir, "none.bin"), FORMAT), undefined);
  assert.deepEqual([...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".tmp")), []);
});

Deno.test("a table read in the background is the same table, with the same checks", async () => {
  const dir = await tempDir();
  const table = await o200kTable();
  const path = tableFile(dir, "o200k", FORMAT);
  assert.ok(writeTableFile(path, FORMAT, table));
  const payload = (await readTablePayload(path, FORMAT))!;
  const back = decodeTable(payload)!;
  assert.ok(back.slots.buffer instanceof SharedArrayBuffer, "shared with the counting workers");
  assert.equal(
    back.pool.buffer,
    payload.buffer,
    "made of the payload, not a copy",
  );
  for (const key of ["slots", "offsets", "lengths", "pool"] as const) {
    assert.deepEqual([...back[key]], [...table[key]], key);
  }
  assert.deepEqual(back.pattern, table.pattern);
  assert.equal(bpeCounter(back)(SAMPLE), bpeCounter(table)(SAMPLE));
  assert.equal(await readTableFile(path, "bpe-table/1 gpt-tokenizer@9.9.9"), undefined);
  const bytes = await Deno.readFile(path);
  const flipped = bytes.slice();
  flipped[bytes.length - 100] ^= 1;
  await Deno.writeFile(path, flipped);
  assert.equal(await readTableFile(path, FORMAT), undefined, "a flipped byte fails the hash");
  await Deno.writeFile(path, bytes.subarray(0, bytes.length - 7));
  assert.equal(await readTableFile(path, FORMAT), undefined, "truncated");
  await Deno.writeFile(path, new TextEncoder().encode("no header line"));
  assert.equal(await readTableFile(path, FORMAT), undefined, "no header");
  assert.equal(await readTableFile(join(dir, "none.bin"), FORMAT), undefined, "missing");
});

Deno.test("builds share one table per machine; a damaged one is rebuilt and the output is the same", async () => {
  const root = await makeProject({ "a.py": SAMPLE, "b.md": "# Notes\n\nsome words\n" });
  const home = await tempDir();
  const env = { SLOP_CACHE_HOME: home };
  const first = await runCli(
    ["build", "--stdout", "--state-dir", await tempDir()],
    root,
    env,
  );
  assert.equal(first.code, 0, first.stderr);
  const stored = [...Deno.readDirSync(home)].map((e) => e.name);
  assert.equal(stored.length, 1);
  assert.match(stored[0], /^bpe-o200k-[0-9a-f]{16}\.bin$/);
  const path = join(home, stored[0]);
  const before = (await Deno.stat(path)).mtime;
  // A second project cache (cold) takes the table as it is.
  const second = await runCli(
    ["build", "--stdout", "--state-dir", await tempDir()],
    root,
    env,
  );
  assert.equal(second.stdout, first.stdout);
  assert.deepEqual((await Deno.stat(path)).mtime, before, "read, not written again");
  await Deno.writeFile(path, new TextEncoder().encode("garbage"));
  const third = await runCli(
    ["build", "--stdout", "--state-dir", await tempDir()],
    root,
    env,
  );
  assert.equal(third.code, 0, third.stderr);
  assert.equal(third.stdout, first.stdout);
  assert.ok((await Deno.stat(path)).size > 1_000_000, "rebuilt and stored again");
});
