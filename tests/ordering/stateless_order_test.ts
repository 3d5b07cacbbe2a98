import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import {
  ANCHOR_SPACING,
  isAnchor,
  type LogCommit,
  SEED_COMMITS,
  seedFromLog,
} from "../../pipeline/_git_history.ts";
import { type OrderEntry, sortBySeed } from "../../pipeline/order_state.ts";
import { git, makeProject, prng, tempDir } from "../_helpers.ts";
import { moved } from "../../bench/_prefix_sim.ts";

/** A generated first-parent history, newest first: random hashes, skewed file choice. */
function history(length: number, files: string[], seed: number): LogCommit[] {
  const rand = prng(seed);
  const hex = () => Math.floor(rand() * 2 ** 32).toString(16).padStart(8, "0");
  const commits: LogCommit[] = [];
  for (let i = 0; i < length; i++) {
    const paths = new Set<string>();
    const n = 1 + Math.floor(rand() * 4);
    // A few files change often, most rarely.
    for (let k = 0; k < n; k++) paths.add(files[Math.floor(files.length * rand() ** 3)]);
    commits.unshift({ hash: hex() + hex() + hex() + hex() + hex(), paths: [...paths] });
  }
  return commits;
}

/** The stateless order of `files` (sizes and contents as given) after `log`. */
function orderAfter(
  log: LogCommit[],
  sizes: Map<string, number>,
  content: Map<string, string>,
): string[] {
  const seed = seedFromLog(log)!;
  const entries: OrderEntry[] = [...sizes].map(([path, bytes]) => ({
    path,
    bytes,
    sha256: content.get(path)!,
    changes: seed.files.get(path)?.changes ?? 0,
    last: seed.files.get(path)?.last ?? 0,
  }));
  return sortBySeed(entries, seed.prior).map((e) => e.path);
}

Deno.test("stateless order: one more commit moves only the files it touched, until the anchor moves on", () => {
  const files = Array.from({ length: 80 }, (_, i) => `src/f${String(i).padStart(2, "0")}.ts`);
  const rand = prng(7);
  const sizes = new Map(files.map((f) => [f, 200 + Math.floor(rand() * 20000)]));
  const content = new Map(files.map((f) => [f, "v0"]));
  const full = history(600, files, 11);
  let movedUntouched = 0;
  let anchorMoves = 0;
  let steps = 0;
  // Replay the newest 200 commits one by one, each build seeing the history up to its commit.
  for (let i = 200; i > 0; i--) {
    const before = full.slice(i);
    const after = full.slice(i - 1);
    const commit = after[0];
    const touched = new Set(commit.paths);
    const o1 = orderAfter(before, sizes, content);
    for (const p of touched) {
      content.set(p, commit.hash);
      sizes.set(p, sizes.get(p)! + 7);
    }
    const o2 = orderAfter(after, sizes, content);
    const n = moved(o1, o2, (p) => !touched.has(p));
    steps++;
    if (seedFromLog(before)!.anchor !== seedFromLog(after)!.anchor) anchorMoves++;
    else {
      assert.equal(n, 0, `commit ${commit.hash.slice(0, 8)} moved ${n} untouched files`);
      // The touched files only go later, past files they were before (their count grew).
      assert.deepEqual(o2.filter((p) => !touched.has(p)), o1.filter((p) => !touched.has(p)));
    }
    movedUntouched += n;
  }
  // The anchor moves on about once in ANCHOR_SPACING commits.
  assert.ok(anchorMoves >= 1 && anchorMoves <= (3 * steps) / ANCHOR_SPACING, `${anchorMoves}`);
  // Counted: what the stateless order costs over 200 commits.
  assert.ok(movedUntouched < 2 * anchorMoves * files.length, `${movedUntouched}`);
});

Deno.test("stateless order: the window's anchor is picked by hash, at least SEED_COMMITS old, the same on every clone", () => {
  const files = ["a.ts", "b.ts", "c.ts"];
  const log = history(500, files, 3);
  const seed = seedFromLog(log)!;
  const at = log.findIndex((c) => c.hash === seed.anchor);
  assert.ok(at >= SEED_COMMITS, `${at}`);
  assert.ok(isAnchor(seed.anchor));
  assert.ok(log.slice(SEED_COMMITS, at).every((c) => !isAnchor(c.hash)));
  // Deterministic: the same history, the same seed.
  assert.deepEqual(seedFromLog(history(500, files, 3)), seed);
  // A young history: the window is all of it.
  const young = history(40, files, 3);
  assert.equal(seedFromLog(young)!.anchor, young.at(-1)!.hash);
});

function body(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${name} line ${i}`).join("\n") + "\n";
}

Deno.test("stateless order: a build with a new state dir after one more commit keeps every untouched file in place", async () => {
  const rand = prng(5);
  const names = Array.from({ length: 40 }, (_, i) => `m${String(i).padStart(2, "0")}.ts`);
  const tree: Record<string, string> = {};
  for (const n of names) tree[n] = body(n, 3 + Math.floor(rand() ** 2 * 150));
  const root = await makeProject(tree);
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  const edit = async (n: string, i: number) =>
    await Deno.writeTextFile(join(root, n), body(`${n} v${i}`, 3 + Math.floor(rand() ** 2 * 150)));
  for (let i = 0; i < 60; i++) {
    await edit(names[Math.floor(names.length * rand() ** 2)], i);
    await git(root, "commit", "-q", "-am", `c${i}`);
  }
  const stateless = async () =>
    await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  const order = (doc: string) => [...doc.matchAll(/^### (\S+)$/gm)].map((m) => m[1]);
  for (let i = 60; i < 68; i++) {
    const before = await stateless();
    const touched = [names[Math.floor(names.length * rand() ** 2)], names[i % names.length]];
    for (const n of touched) await edit(n, i);
    await git(root, "commit", "-q", "-am", `c${i}`);
    const after = await stateless();
    const rest = (doc: string) => order(doc).filter((p) => !touched.includes(p));
    assert.deepEqual(rest(after.document), rest(before.document), `commit c${i}`);
    // The document up to the first touched file (where it was, or where it went: a file that
    // grew a lot may go earlier) is the same bytes.
    const at = (r: typeof before) => r.blocks.findIndex((b) => touched.includes(b.source!));
    const first = before.blocks[Math.min(at(before), at(after))];
    assert.ok(first.offset > 0);
    assert.equal(
      after.document.slice(0, first.offset),
      before.document.slice(0, first.offset),
      `commit c${i}: prefix`,
    );
  }
});
