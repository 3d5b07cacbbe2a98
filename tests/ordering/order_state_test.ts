import assert from "node:assert/strict";
import {
  advanceOrder,
  changePool,
  changeProbability,
  FULL_WEIGHT,
  type OrderEntry,
  type OrderFile,
  type OrderState,
  sortBySizeAndVolatility,
} from "../../pipeline/order_state.ts";
import { keptOrderFiles } from "../../accel/kept_order.ts";
import { orderBlocks } from "../../pipeline/order.ts";
import { createRegistry } from "../../pipeline/registry.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { derivedMemo } from "../../accel/derived_memo.ts";
import type { BlockMemo } from "../../accel/resident.ts";
import type { Block, OrderContext, OrderingPlugin, RenderedFile } from "../../pipeline/types.ts";

const file = (path: string, bytes: number, v = 1): OrderFile => ({
  path,
  bytes,
  sha256: `${path}@${v}`,
});
const paths = (s: OrderState) => s.entries.map((e) => e.path);

Deno.test("advanceOrder() with no state and no git orders by size, largest first, ties by path", () => {
  const step = advanceOrder(undefined, [file("b", 10), file("a", 10), file("big", 500)]);
  assert.deepEqual(paths(step.state), ["big", "a", "b"]);
});

Deno.test("advanceOrder() seeded from git puts often-changed files after rarely changed ones", () => {
  const seed = new Map([["hot.ts", { changes: 20, last: 0 }], ["cold.ts", {
    changes: 1,
    last: -50,
  }]]);
  const step = advanceOrder(undefined, [file("hot.ts", 1000), file("cold.ts", 1000)], seed, {
    seedWeight: FULL_WEIGHT,
  });
  assert.deepEqual(paths(step.state), ["cold.ts", "hot.ts"]);
});

Deno.test("advanceOrder() keeps the previous order up to the first modified file and re-sorts the rest", () => {
  const first = advanceOrder(undefined, [
    file("a", 400),
    file("b", 300),
    file("c", 200),
    file("d", 100),
  ]).state;
  assert.deepEqual(paths(first), ["a", "b", "c", "d"]);
  // b changes: a stays, b moves behind the unchanged c and d (it is now likelier to change).
  const step = advanceOrder(first, [
    file("a", 400),
    file("b", 300, 2),
    file("c", 200),
    file("d", 100),
  ]);
  assert.equal(step.breakAt, 1);
  assert.deepEqual(step.changed, ["b"]);
  assert.deepEqual(paths(step.state), ["a", "c", "d", "b"]);
  assert.equal(step.state.generation, 1);
  assert.equal(step.state.entries.find((e) => e.path === "b")!.last, 1);
});

Deno.test("advanceOrder() appends a new file without touching the previous order", () => {
  const first = advanceOrder(undefined, [file("a", 400), file("b", 300)]).state;
  const step = advanceOrder(first, [file("a", 400), file("b", 300), file("new", 9000)]);
  assert.equal(step.breakAt, 2, "no file of the previous order changed");
  assert.deepEqual(paths(step.state), ["a", "b", "new"]);
});

Deno.test("advanceOrder() breaks at a deleted file", () => {
  const first = advanceOrder(undefined, [file("a", 400), file("b", 300), file("c", 200)]).state;
  const step = advanceOrder(first, [file("a", 400), file("c", 200)]);
  assert.equal(step.breakAt, 1);
  assert.deepEqual(step.deleted, ["b"]);
  assert.deepEqual(paths(step.state), ["a", "c"]);
});

Deno.test("advanceOrder() decays counts only in builds where something changed", () => {
  const first = advanceOrder(undefined, [file("a", 10), file("b", 10)]).state;
  const changed = advanceOrder(first, [file("a", 10, 2), file("b", 10)]).state;
  const same = advanceOrder(changed, [file("a", 10, 2), file("b", 10)]).state;
  assert.deepEqual(same, changed, "an unchanged build leaves the state as it was");
  const again = advanceOrder(same, [file("a", 10, 3), file("b", 10)]).state;
  const a = again.entries.find((e) => e.path === "a")!;
  assert.ok(a.changes > 1.9 && a.changes < 2, `decayed count ${a.changes}`);
});

Deno.test("changeProbability() learns fast in a young history and is capped", () => {
  assert.equal(changeProbability(1, 1), 0.95, "changed in the one build seen");
  assert.ok(changeProbability(1, FULL_WEIGHT) < 0.05);
  assert.ok(changeProbability(0, 10) < changeProbability(1, 10));
});

Deno.test("advanceOrder() with keepFirstChanged keeps the edited file in place", () => {
  const first = advanceOrder(undefined, [file("a", 400), file("b", 300), file("c", 200)]).state;
  const step = advanceOrder(first, [file("a", 400, 2), file("b", 300), file("c", 200)], undefined, {
    keepFirstChanged: true,
  });
  assert.deepEqual(paths(step.state), ["a", "b", "c"]);
});

Deno.test("keptOrderFiles() takes a block's length from a resident's block memo only while its text is the same", () => {
  const text = "### a.py\n\n```python\nA = 1\n```\n\n";
  const block = {
    id: "files:a.py",
    section: "files",
    stability: "stable" as const,
    source: "a.py",
    text,
  };
  const rendered: RenderedFile = {
    path: "a.py",
    view: "full",
    status: "rendered",
    sha256: "",
    bytes: 6,
    text: "A = 1\n",
    fenced: true,
    language: "python",
  };
  const remembered = new Map<string, BlockMemo>();
  const memo = { get: (id: string) => remembered.get(id), set: () => {} };
  const kept = { blocks: memo, derived: derivedMemo().derived };
  const memoOf = (text: string, length: number) => ({
    text,
    length,
    sha256: "",
    tokens: 0,
    tokenizer: "o200k",
  });
  // Another text under the same id (the file was edited): measured.
  remembered.set(block.id, memoOf(text.replace("1", "22"), 999));
  assert.equal(
    keptOrderFiles([block], [rendered], kept)[0].bytes,
    new TextEncoder().encode(text).length,
  );
  // The same text: the length kept with it (a made-up one here, to tell where it came from).
  remembered.set(block.id, memoOf(text, 999));
  assert.equal(keptOrderFiles([block], [rendered], kept)[0].bytes, 999);
});

Deno.test("advanceOrder() pools a file's count with its kind's in its top folder: an unchanged file among often-changed ones sorts after one among files that never change", () => {
  const entry = (path: string, changes: number): OrderEntry => ({
    path,
    sha256: `${path}@1`,
    bytes: 1000,
    changes,
    last: 0,
  });
  // Two files that never changed, the same size: `a/` is a folder whose other files change
  // often, `b/` one whose files never do. Path order alone would put a/quiet.ts first.
  const previous: OrderState = {
    generation: 10,
    weight: FULL_WEIGHT,
    entries: [
      entry("top.md", 0),
      entry("a/quiet.ts", 0),
      entry("b/quiet.ts", 0),
      entry("b/other.ts", 0),
      entry("a/busy1.ts", 6),
      entry("a/busy2.ts", 6),
    ],
  };
  // top.md changes: every file after it is sorted again.
  const now = previous.entries.map((e) => file(e.path, e.bytes, e.path === "top.md" ? 2 : 1));
  const pooled = paths(advanceOrder(previous, now).state);
  assert.ok(
    pooled.indexOf("b/quiet.ts") < pooled.indexOf("a/quiet.ts"),
    `pooled: ${pooled.join(", ")}`,
  );
  const alone = paths(advanceOrder(previous, now, undefined, { poolShare: 0 }).state);
  assert.ok(alone.indexOf("a/quiet.ts") < alone.indexOf("b/quiet.ts"), `alone: ${alone}`);
  // The kept prefix is untouched by the pooling: only the files after the break move.
  const later = advanceOrder(previous, previous.entries.map((e) => file(e.path, e.bytes)));
  assert.deepEqual(paths(later.state), paths(previous), "nothing changed, nothing moves");
});

Deno.test("sortBySizeAndVolatility() pools with the means of the population it is given, by top folder and extension", () => {
  assert.equal(changePool("test/http.ts"), "test/*.ts");
  assert.equal(changePool("test/deep/x.TS"), "test/*.ts");
  assert.equal(changePool("readme.md"), "*.md");
  assert.equal(changePool("src/.gitignore"), "src/*", "a dot file has no extension");
  assert.equal(changePool("Makefile"), "*");
  const entry = (path: string, changes: number): OrderEntry => ({
    path,
    sha256: "",
    bytes: 100,
    changes,
    last: 0,
  });
  const sorted = [entry("x/a.ts", 0), entry("y/b.ts", 0)];
  // Alone, the two tie (path order); with a population where `x/*.ts` is hot, `y/b.ts` goes
  // first. A hot file of another kind in `y/` is no part of `y/b.ts`'s pool.
  assert.deepEqual(sortBySizeAndVolatility(sorted).map((e) => e.path), ["x/a.ts", "y/b.ts"]);
  const population = [...sorted, entry("x/hot.ts", 20), entry("y/notes.md", 40)];
  assert.deepEqual(
    sortBySizeAndVolatility(sorted, FULL_WEIGHT, { population }).map((e) => e.path),
    ["y/b.ts", "x/a.ts"],
  );
  assert.deepEqual(
    sortBySizeAndVolatility(sorted, FULL_WEIGHT, { population, poolShare: 0 })
      .map((e) => e.path),
    ["x/a.ts", "y/b.ts"],
    "a share of 0 is the file's own count",
  );
});

Deno.test("orderBlocks() checks the blocks a rule moved, and refuses a rule that drops, adds or repeats one", async () => {
  const blocks: Block[] = Array.from({ length: 1000 }, (_, i) => ({
    id: `files:f${i}.py`,
    section: "files",
    stability: "stable" as const,
    text: `${i}\n`,
  }));
  const ctx = {} as OrderContext;
  const ordering = (order: (blocks: Block[]) => Block[]): OrderingPlugin => ({
    kind: "ordering",
    name: "test:rule",
    order,
  });
  const registry = createRegistry([
    ordering((b) => b),
    // A one-file edit's move: the edited file's block to the end.
    ordering((b) => [...b.slice(0, 10), ...b.slice(11), b[10]]),
  ]);
  const work = await tallyWork(async () => {
    const out = await orderBlocks(blocks, registry, ctx);
    assert.deepEqual(out.map((b) => b.id).slice(-2), ["files:f999.py", "files:f10.py"]);
  });
  // The rule that moved none needs no set; the other, the 990 places from the moved block's on
  // (2,000 before: a set of every block's id for each rule).
  assert.equal(work.get("order check"), 990);
  const refused = async (order: (blocks: Block[]) => Block[], message: RegExp) =>
    await assert.rejects(orderBlocks(blocks, createRegistry([ordering(order)]), ctx), message);
  await refused((b) => [b[0], ...b.slice(0, -1)], /unknown block "files:f0.py"/);
  await refused(
    (b) => [...b.slice(0, -1), { ...b[0], id: "files:new.py" }],
    /unknown block "files:new.py"/,
  );
  await refused((b) => b.slice(1), /returned 999 blocks for 1000/);
  await refused((b) => b.slice(-1), /returned 1 block for 1000: rules may only reorder$/);
});
