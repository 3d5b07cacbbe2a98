// The stat index after a warm build that read a few files anew: their records appended to a
// journal beside the index (`accel/_stat_journal.ts`), not every record written again; read back
// as the whole index would be; a journal cut short, damaged or of another base taken no further
// than its last good line, and the index then written whole.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileStat } from "../../pipeline/file_stat.ts";
import { tallyWork } from "../../pipeline/_work_count.ts";
import {
  loadStatIndex,
  RACY_MS,
  saveStatIndex,
  type StatIndex,
  type StatRecord,
  statSession,
} from "../../accel/stat_index.ts";
import { journalPath } from "../../accel/_stat_journal.ts";
import { tempDir } from "../_helpers.ts";

const FILES = 2_000;
const OLD = 1_700_000_000_000;

function record(n: number, over: Partial<StatRecord> = {}): StatRecord {
  return {
    dev: 2049,
    ino: 1000 + n,
    size: 10 * n,
    mtime: OLD + n,
    ctime: OLD,
    sha256: String(n).padStart(64, "0"),
    ...over,
  };
}

function infoOf(r: StatRecord) {
  return fileStat({
    dev: r.dev,
    ino: r.ino,
    size: r.size,
    mtime: new Date(r.mtime),
    ctime: new Date(r.ctime),
  } as Deno.FileInfo);
}

function pathOf(n: number): string {
  return `packages/pkg${n % 7}/mod_${n}.py`;
}

/** An index of `FILES` records written whole, as a cold build leaves it. */
async function written(): Promise<string> {
  const path = join(await tempDir(), "index.json");
  const files = new Map<string, StatRecord>();
  for (let n = 0; n < FILES; n++) files.set(pathOf(n), record(n));
  await saveStatIndex({ path, readStart: OLD + 100_000, files });
  return path;
}

/**
 * A build over the index at `path` and the files as `tree` has them: `edit` changed first (another
 * size and `hash`), `drop` removed; every other file looked up, and read anew (recorded) when its
 * record does not match. Returns the index it left, the files it read and the characters its save
 * wrote.
 */
async function warmBuild(
  path: string,
  tree: Map<number, StatRecord>,
  { edit = [] as number[], drop = [] as number[], hash = "f", previous = loadStatIndex(path) } = {},
): Promise<{ index: StatIndex; read: number; written: number }> {
  for (const n of edit) {
    const old = tree.get(n)!;
    tree.set(n, { ...old, size: old.size + 1, sha256: hash.repeat(64) });
  }
  for (const n of drop) tree.delete(n);
  const session = statSession(previous, path);
  let read = 0;
  for (const [n, now] of tree) {
    if (session.lookup(pathOf(n), infoOf(now))) continue;
    session.record(pathOf(n), infoOf(now), now.sha256);
    read++;
  }
  const index = session.result();
  const work = await tallyWork(() => saveStatIndex(index));
  return { index, read, written: work.get("stat index characters written") ?? 0 };
}

function treeOf(): Map<number, StatRecord> {
  return new Map(Array.from({ length: FILES }, (_, n) => [n, record(n)]));
}

function sameRecords(a: Map<string, StatRecord>, b: Map<string, StatRecord>, message: string) {
  assert.deepEqual(
    [...a].sort(([x], [y]) => (x < y ? -1 : 1)),
    [...b].sort(([x], [y]) => (x < y ? -1 : 1)),
    message,
  );
}

Deno.test("a warm build that read two files anew appends their records to the journal, read back as the whole index", async () => {
  const path = await written();
  const tree = treeOf();
  const base = await Deno.readTextFile(path);
  const first = await warmBuild(path, tree, { edit: [3, 1500] });
  assert.equal(first.read, 2);
  assert.ok(first.written > 0 && first.written < base.length / 100, `${first.written}`);
  assert.equal(await Deno.readTextFile(path), base, "the index itself is not written again");
  const second = await warmBuild(path, tree, { edit: [1500], drop: [7], hash: "e" });
  assert.equal(second.read, 1, "the first line's records taken");
  assert.ok(second.written < base.length / 100, `${second.written}`);
  assert.equal((await warmBuild(path, tree)).read, 0, "nothing read again");

  const back = loadStatIndex(path);
  sameRecords(back.files, second.index.files, "the journal's records on top of the base");
  assert.equal(back.files.get(pathOf(1500))?.sha256, "e".repeat(64), "the last line wins");
  assert.equal(back.files.has(pathOf(7)), false, "a path dropped");
  assert.equal(back.readStart, second.index.readStart);
  // The same records, as a whole write over the same tree gives them.
  const whole = join(await tempDir(), "whole.json");
  await saveStatIndex({
    path: whole,
    readStart: second.index.readStart,
    files: second.index.files,
  });
  sameRecords(loadStatIndex(whole).files, back.files, "whole write");
});

Deno.test("a journal cut short or damaged is taken up to its last good line, and the next save writes the index whole", async () => {
  const path = await written();
  const tree = treeOf();
  await warmBuild(path, tree, { edit: [10], hash: "a" });
  const good = await Deno.readTextFile(journalPath(path));
  await warmBuild(path, tree, { edit: [20], hash: "b" });
  const both = await Deno.readTextFile(journalPath(path));
  const second = both.slice(good.length);
  const damaged = [
    ["cut short", good + second.slice(0, second.length - 9)],
    ["a digit changed", good + second.replace(/"readStart":\d/, (m) => m.slice(0, -1) + "9")],
    ["its line break lost", good + second.slice(0, -1)],
  ];
  for (const [what, text] of damaged) {
    await Deno.writeTextFile(journalPath(path), text);
    const back = loadStatIndex(path);
    assert.equal(back.files.get(pathOf(10))?.sha256, "a".repeat(64), `${what}: the good line`);
    // The second line's file keeps the base's record: its fingerprint no longer matches the
    // file (another size), so a build reads it again; nothing is taken from the damage.
    assert.deepEqual(back.files.get(pathOf(20)), record(20), what);
    assert.equal(back.disk?.damaged, true, what);
  }
  const base = await Deno.readTextFile(path);
  const after = await warmBuild(path, tree, { edit: [30] });
  assert.equal(after.read, 2, "the damaged line's file read again, and the edited one");
  assert.ok(after.written >= base.length * 0.9, `written whole: ${after.written}`);
  await assert.rejects(Deno.stat(journalPath(path)), Deno.errors.NotFound);
  sameRecords(loadStatIndex(path).files, after.index.files, "after the whole write");
});

Deno.test("a journal line of another base is not read: the base was written whole since", async () => {
  const path = await written();
  await warmBuild(path, treeOf(), { edit: [10] });
  const line = await Deno.readTextFile(journalPath(path));
  // Another process writes the index whole (its journal is removed), then an old line returns.
  await saveStatIndex({ path, readStart: OLD + 200_000, files: loadStatIndex(path).files });
  await assert.rejects(Deno.stat(journalPath(path)), Deno.errors.NotFound);
  await Deno.writeTextFile(journalPath(path), line.replace(/"f{64}"/, `"${"9".repeat(64)}"`));
  const back = loadStatIndex(path);
  assert.equal(back.disk?.damaged, true);
  assert.equal(back.readStart, OLD + 200_000);
  assert.equal(back.files.get(pathOf(10))?.sha256, "f".repeat(64), "the base's own record");
  assert.equal(back.files.size, FILES);
});

Deno.test("a journal's record changed within its build's racy window is not taken", async () => {
  const path = await written();
  const previous = loadStatIndex(path);
  const session = statSession(previous, path);
  for (let n = 0; n < FILES; n++) session.lookup(pathOf(n), infoOf(record(n)));
  // Modified a moment before the build began reading: it may change again unseen.
  const racy = record(5, { mtime: Date.now() - RACY_MS / 2, sha256: "c".repeat(64) });
  session.record(pathOf(5), infoOf(racy), racy.sha256);
  const settled = record(6, { size: 1, sha256: "d".repeat(64) });
  session.record(pathOf(6), infoOf(settled), settled.sha256);
  const index = session.result();
  await saveStatIndex(index);
  assert.ok((await Deno.stat(journalPath(path))).size > 0);
  const back = loadStatIndex(path);
  assert.equal(back.files.has(pathOf(5)), false, "racy: read again");
  assert.equal(back.files.get(pathOf(6))?.sha256, "d".repeat(64));
  assert.equal(back.readStart, index.readStart);
});

Deno.test("many records read anew, or a journal past its share of the index, write the index whole", async () => {
  const path = await written();
  const tree = treeOf();
  const base = await Deno.readTextFile(path);
  const many = Array.from({ length: FILES / 4 }, (_, i) => i * 4);
  const whole = await warmBuild(path, tree, { edit: many });
  assert.ok(whole.written >= base.length * 0.9, `${whole.written}`);
  // A resident keeps the index it left and saves again from it: appended while the journal is
  // small, folded into the index once it passes a quarter of it.
  let { index } = whole;
  const sizes: number[] = [];
  for (let i = 0; i < 1000 && sizes.length < 2; i++) {
    const next = await warmBuild(path, tree, {
      edit: [100 + (i % 50)],
      hash: (i % 10).toString(),
      previous: index,
    });
    index = next.index;
    if (next.written > base.length / 2) sizes.push(i);
  }
  assert.equal(sizes.length, 2, "folded twice in 1,000 saves");
  assert.ok(sizes[0] > 50 && sizes[1] - sizes[0] > 50, `folded after saves ${sizes}`);
  sameRecords(loadStatIndex(path).files, index.files, "what the resident holds");
});

Deno.test("a journal that cannot be read (a folder in its place) is not taken, and the next save writes the index whole", async () => {
  const path = await written();
  const tree = treeOf();
  await Deno.mkdir(journalPath(path));
  const back = loadStatIndex(path);
  assert.equal(back.files.size, FILES);
  assert.equal(back.disk?.damaged, true);
  const base = await Deno.readTextFile(path);
  await Deno.remove(journalPath(path));
  const after = await warmBuild(path, tree, { edit: [1], previous: back });
  assert.ok(after.written >= base.length * 0.9, `written whole: ${after.written}`);
  const missing = loadStatIndex(path);
  assert.equal(missing.disk?.damaged, false, "no journal is no damage");
});
