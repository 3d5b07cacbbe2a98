// `slop check`'s "all differences": a block counts as moved only when it left its place among the
// unchanged blocks, not when a block before it moved, came or went (all those after it shift).
import assert from "node:assert/strict";
import { diffLock, type Lock, type LockLine } from "../../mod.ts";
import { prng } from "../_helpers.ts";

function lockOf(lines: Array<[id: string, text: string]>): Lock {
  const blocks: LockLine[] = lines.map(([id, text]) => ({
    id,
    sha256: `${text}`.padEnd(64, "0"),
    bytes: text.length,
    tokens: text.length,
  }));
  const joined = blocks.map((b) => b.sha256).join("");
  return {
    lines: blocks,
    total: { sha256: joined.slice(0, 64), bytes: joined.length, tokens: joined.length },
    generation: 1,
  };
}

const FILES = Array.from(
  { length: 90 },
  (_, i) => [`files:src/m${i}.py`, `v${i}`] as [string, string],
);

Deno.test("an edited file placed last is one change, and the 86 blocks after its old place are not moved", () => {
  const pinned = lockOf(FILES);
  const edited: Array<[string, string]> = FILES.filter((_, i) => i !== 3);
  edited.push([FILES[3][0], "v3 edited"]);
  const diff = diffLock(pinned, lockOf(edited))!;
  assert.equal(diff.kind, "changed");
  assert.equal(diff.after!.index, 89);
  assert.deepEqual(diff.counts, { changed: 1, added: 0, removed: 0, moved: 0 });
});

Deno.test("a block moved, added or removed near the start counts once; the rest only shift", () => {
  const moved = [FILES[0], FILES[1], ...FILES.slice(3), FILES[2]];
  assert.deepEqual(diffLock(lockOf(FILES), lockOf(moved))!.counts, {
    changed: 0,
    added: 0,
    removed: 0,
    moved: 1,
  });
  const added: Array<[string, string]> = [FILES[0], ["files:src/new.py", "new"], ...FILES.slice(1)];
  assert.deepEqual(diffLock(lockOf(FILES), lockOf(added))!.counts, {
    changed: 0,
    added: 1,
    removed: 0,
    moved: 0,
  });
  const removed = FILES.filter((_, i) => i !== 1);
  assert.deepEqual(diffLock(lockOf(FILES), lockOf(removed))!.counts, {
    changed: 0,
    added: 0,
    removed: 1,
    moved: 0,
  });
  // Two blocks swapped: one of them moved.
  const swapped = [FILES[1], FILES[0], ...FILES.slice(2)];
  assert.equal(diffLock(lockOf(FILES), lockOf(swapped))!.counts.moved, 1);
  // The order reversed: all but one moved.
  assert.equal(diffLock(lockOf(FILES), lockOf([...FILES].reverse()))!.counts.moved, 89);
});

Deno.test("the moved count is the fewest blocks whose moves give the new order (seeded shuffles of a few blocks)", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const random = prng(seed);
    const order = FILES.map((f) => f);
    // Take k blocks out and put each back at a random place: at most k moved.
    const k = 1 + Math.floor(random() * 5);
    for (let j = 0; j < k; j++) {
      const [block] = order.splice(Math.floor(random() * order.length), 1);
      order.splice(Math.floor(random() * (order.length + 1)), 0, block);
    }
    const { moved } = diffLock(lockOf(FILES), lockOf(order))?.counts ?? { moved: 0 };
    assert.ok(moved <= k, `seed ${seed}: ${moved} moved by ${k} moves`);
    // And no fewer than the blocks out of order could be: none moved only when nothing is.
    const same = order.every((f, i) => f === FILES[i]);
    assert.equal(moved === 0, same, `seed ${seed}`);
  }
});
