import assert from "node:assert/strict";
import {
  type AdvanceOptions,
  advanceOrder,
  type OrderFile,
  type OrderState,
} from "../../pipeline/order_state.ts";
import {
  advanceLive,
  liveFiles,
  type LiveOrder,
  liveOrder,
  liveState,
  reorderLive,
} from "../../accel/live_order.ts";
import { reorderState } from "../../pipeline/order_state.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject, prng } from "../_helpers.ts";
import { join } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { fileOrder } from "../../pipeline/order_memory.ts";
import { keptFileOrder } from "../../accel/kept_order.ts";
import { resident } from "../../accel/resident.ts";
import type { FileOrderOptions, PlacedBlock, RenderedFile } from "../../pipeline/types.ts";

const FOLDERS = ["src/", "test/", "docs/", ""];
const EXTENSIONS = [".ts", ".py", ".md", ""];

/** A tree of `count` files in a few pools (folders and extensions), of random sizes. */
function randomFiles(random: () => number, count: number): OrderFile[] {
  return Array.from({ length: count }, (_, i) => {
    const folder = FOLDERS[Math.floor(random() * FOLDERS.length)];
    const extension = EXTENSIONS[Math.floor(random() * EXTENSIONS.length)];
    return {
      path: `${folder}f${i}${extension}`,
      sha256: "v0",
      bytes: 1 + Math.floor(random() ** 3 * 20_000),
    };
  });
}

/** The next build's files: a few edited, some removed, some added, in a shuffled block order. */
function nextFiles(random: () => number, files: OrderFile[], step: number): OrderFile[] {
  const next: OrderFile[] = [];
  for (const f of files) {
    const r = random();
    if (r < 0.03) continue;
    if (r < 0.15) next.push({ ...f, sha256: `v${step}`, bytes: f.bytes + 7 });
    else if (r < 0.2) next.push({ ...f, bytes: f.bytes + 1 });
    else next.push(f);
  }
  if (random() < 0.5) next.push({ path: `src/new${step}.ts`, sha256: "v0", bytes: 500 });
  // Nothing changed at all in some builds: counts are not decayed then.
  if (random() < 0.2) return files.slice();
  return next.sort(() => random() - 0.5);
}

Deno.test("advanceLive() gives advanceOrder()'s order and numbers, build after build, for every option", () => {
  const options: AdvanceOptions[] = [
    {},
    { keepFirstChanged: true },
    { rate: "window" },
    { poolShare: 0 },
  ];
  for (const [n, option] of options.entries()) {
    const random = prng(17 + n);
    let files = randomFiles(random, 300);
    let plain: OrderState = advanceOrder(undefined, files).state;
    let live: LiveOrder = liveOrder(plain)!;
    for (let step = 1; step <= 30; step++) {
      files = nextFiles(random, files, step);
      const expected = advanceOrder(plain, files, undefined, option).state;
      const current = liveFiles(
        live,
        files.map((f) => f.path),
        files.map((f) => f.sha256),
        files.map((f) => f.bytes),
      )!;
      const next = advanceLive(live, current, option);
      assert.deepEqual(next.paths, expected.entries.map((e) => e.path), `step ${step}`);
      // The same numbers: the state written is the same bytes.
      assert.equal(JSON.stringify(liveState(next.live)), JSON.stringify(expected), `step ${step}`);
      // A later rule moved a file (as `pinned` does): the state saved is in the document's order.
      const placed = next.paths.slice();
      if (step % 3 === 0) placed.unshift(...placed.splice(placed.length - 1, 1));
      plain = reorderState(expected, placed);
      live = reorderLive(next.live, placed);
      assert.equal(JSON.stringify(liveState(live)), JSON.stringify(plain), `step ${step}`);
    }
  }
});

/** The plain step's work and the live one's for an edit of the 501st file of `files`' first order. */
async function editWork(files: OrderFile[]) {
  const first = advanceOrder(undefined, files).state;
  const edited = first.entries[500].path;
  const edit = files.map((
    f,
  ) => (f.path === edited ? { ...f, sha256: "v1", bytes: f.bytes + 9 } : f));
  const plain = await tallyWork(() => advanceOrder(first, edit));
  const live = liveOrder(first)!;
  const current = liveFiles(
    live,
    edit.map((f) => f.path),
    edit.map((f) => f.sha256),
    edit.map((f) => f.bytes),
  )!;
  let next: ReturnType<typeof advanceLive> | undefined;
  const work = await tallyWork(() => (next = advanceLive(live, current)));
  assert.deepEqual(next!.paths, advanceOrder(first, edit).state.entries.map((e) => e.path));
  return { plain, live: work };
}

Deno.test("advanceLive() makes one entry for a one-file edit and sorts the files after it from the last order", async () => {
  // 2,000 files of one kind in one folder (a change pool, as a monorepo's packages/*.py).
  const random = prng(5);
  const one = randomFiles(random, 2_000).map((f, i) => ({ ...f, path: `pkg/f${i}.py` }));
  const { plain, live } = await editWork(one);
  // The plain step makes every entry anew and sorts the 1,500 files after the edited one from
  // the block order (some n log n comparisons); the live one the edited file's entry, and finds
  // the others in order (one comparison each) and the edited file's place.
  assert.equal(plain.get("order entries"), 2_000);
  assert.ok(plain.get("order comparisons")! > 10_000, `${plain.get("order comparisons")}`);
  assert.equal(live.get("order entries"), 1);
  assert.ok(live.get("order comparisons")! <= 1_500 + 20, `${live.get("order comparisons")}`);
  // Files in other pools: the edit moves its pool's mean, and its files among the others.
  const mixed = await editWork(randomFiles(random, 2_000));
  assert.equal(mixed.live.get("order entries"), 1);
  const [before, after] = [mixed.plain, mixed.live].map((w) => w.get("order comparisons")!);
  assert.ok(after < before / 2, `${after} comparisons, ${before} in block order`);
});

Deno.test("a resident's file order reads the options a plain build's reads, and no others", async () => {
  // An ordering rule hands `next()` its own options object (`volatilityOrdering(options)`): a key
  // the plain step does not read (`poolShare`, an option of `advanceOrder()` alone) must not
  // change the resident's order either, or the build server's document is not `slop build`'s.
  const root = await makeProject({ "slop.config.ts": "export default {};\n" });
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".state") });
  const kept = resident();
  const random = prng(3);
  let files = randomFiles(random, 60);
  // The options change between builds too, as a config edited under a build server's.
  const choices = [{ keepFirstChanged: true, poolShare: 0 }, { rate: "window" }, {}];
  const rendered = (fs: OrderFile[]) =>
    fs.map((f): RenderedFile => ({
      path: f.path,
      view: "full",
      status: "rendered",
      sha256: f.sha256,
      bytes: f.bytes,
      text: `${f.sha256}\n`.repeat(Math.ceil(f.bytes / 4)),
      fenced: true,
      language: "",
    }));
  const blocksOf = (fs: RenderedFile[]) =>
    fs.map((f): PlacedBlock => ({
      id: `file:${f.path}`,
      section: "files",
      stability: "stable",
      text: f.text!,
      source: f.path,
      offset: 0,
      length: f.text!.length,
      sha256: "",
      tokens: 0,
    }));
  try {
    for (let step = 0; step < 12; step++) {
      files = step ? nextFiles(random, files, step) : files;
      const blocks = blocksOf(rendered(files));
      const options = choices[step % 3] as FileOrderOptions;
      const plain = await fileOrder(config, { source: "state", files: rendered(files) })
        .next(blocks, options);
      const order = keptFileOrder(config, { source: "state", files: rendered(files), kept });
      assert.deepEqual(await order.next(blocks, options), plain, `step ${step}`);
      const byPath = new Map(blocks.map((b) => [b.source, b]));
      await order.save(plain.map((p) => byPath.get(p)!));
    }
  } finally {
    await kept.close();
  }
});
