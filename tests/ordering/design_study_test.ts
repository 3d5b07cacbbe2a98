// The design study (`bench/prefix_design_study.ts`) re-sorts the files after the break itself; its
// baseline must be the order the memory really gives, or every design is measured against
// something slop does not ship.
import assert from "node:assert/strict";
import type { LogCommit } from "../../pipeline/_git_history.ts";
import { type Capture, memory, replayOrder, type SimBlock } from "../../bench/prefix_block_sim.ts";
import { designed } from "../../bench/prefix_design_study.ts";
import { prng } from "../_helpers.ts";

/** A generated capture: 40 commits of 30 files, a few hot, most cold, some added and deleted. */
function generatedCapture(seed: number): Capture {
  const rand = prng(seed);
  const texts: Record<string, string> = { heading: "# files\n" };
  const content = new Map<string, string>();
  for (let i = 0; i < 30; i++) {
    content.set(`src/f${i}.ts`, "x".repeat(50 + Math.floor(rand() * 4000)));
  }
  const commits: Capture["commits"] = [];
  const log: LogCommit[] = [];
  for (let c = 0; c < 40; c++) {
    const paths = new Set<string>();
    const n = 1 + Math.floor(rand() * (rand() < 0.1 ? 12 : 3));
    for (let k = 0; k < n; k++) paths.add(`src/f${Math.floor(30 * rand() ** 3)}.ts`);
    if (rand() < 0.1) paths.add(`src/new${c}.ts`);
    for (const p of paths) {
      const text = content.get(p);
      if (text !== undefined && rand() < 0.05) content.delete(p);
      else content.set(p, `edit ${c}\n${(text ?? "").slice(0, 3000)}`);
    }
    const hash = `${c}`.padStart(40, "0");
    log.unshift({ hash, paths: [...paths] });
    const blocks: SimBlock[] = [{ id: "files", sha256: "heading", length: 8 }];
    for (const [path, text] of content) {
      const sha256 = `${path}@${text.length}:${text.slice(0, 8)}`;
      texts[sha256] = text;
      blocks.push({ id: `files:${path}`, source: path, sha256, length: text.length });
    }
    commits.push({ hash, blocks });
  }
  return { commits, log, texts };
}

Deno.test("the design study's baseline replays the memory's order share for share", () => {
  for (const seed of [1, 2, 3]) {
    const data = generatedCapture(seed);
    const shipped = replayOrder(data, memory());
    assert.deepEqual(replayOrder(data, designed({})), shipped);
    assert.ok(shipped.some((s) => s > 0 && s < 1), "the history breaks some prefixes");
  }
});

Deno.test("a design of the study changes the order where it should", () => {
  const data = generatedCapture(4);
  const shipped = replayOrder(data, memory());
  const recency = replayOrder(data, designed({ recency: { a: 0.9, h: 1 } }));
  assert.notDeepEqual(recency, shipped);
  // Deterministic: the same capture gives the same shares.
  assert.deepEqual(replayOrder(data, designed({ recency: { a: 0.9, h: 1 } })), recency);
});
