/**
 * Counts a person reads are grouped by thousands wherever slop prints them: the build summary
 * said `306,984 o200k tokens` while `slop check`, `slop explain` and the pull request's
 * annotation said `306984` of the same prefix.
 *
 * @module
 */

import assert from "node:assert/strict";
import { checkReport } from "../../cli/check.ts";
import { explainText } from "../../cli/explain.ts";
import { annotationLines } from "../../ci/_annotations.ts";
import type { Lock, LockDiff } from "../../pipeline/lock.ts";
import type { PrefixCheck } from "../../pipeline/pin.ts";

/** A run of four or more digits with no separator: an ungrouped count (hashes are hex words). */
const UNGROUPED = /(?<![\w.#])\d{4,}(?![\w])/;

const lock = (tokens: number, bytes: number): Lock => ({
  lines: [{ id: "files:src/a.ts", sha256: "a".repeat(64), bytes, tokens }],
  total: { sha256: "b".repeat(64), bytes, tokens },
  generation: 1,
});

const diff: LockDiff = {
  index: 0,
  kind: "changed",
  id: "files:src/a.ts",
  section: "files",
  file: "src/a.ts",
  offset: 327_963,
  before: { sha256: "c".repeat(64), bytes: 51_900, index: 0 },
  after: { sha256: "d".repeat(64), bytes: 53_100, index: 0 },
  invalidatedTokens: 12_345,
  pinnedTokens: 306_984,
  counts: { changed: 1, added: 0, removed: 0, moved: 0 },
};

Deno.test("slop check's report groups its counts by thousands, matched or drifted", () => {
  const pinned = lock(306_984, 1_262_379);
  const matched = { current: pinned, compared: pinned, pinned, tokenizer: "o200k" };
  const match = checkReport(matched as unknown as PrefixCheck, "slop.lock");
  assert.match(match, /306,984 o200k tokens/);
  assert.doesNotMatch(match, UNGROUPED);
  const drifted = checkReport({ ...matched, diff } as unknown as PrefixCheck, "slop.lock");
  assert.match(drifted, /byte offset: 327,963 of 1,262,379 pinned bytes/);
  assert.match(drifted, /51,900 -> 53,100 bytes/);
  assert.match(drifted, /invalidated: 12,345 of 306,984 o200k prefix tokens/);
  assert.doesNotMatch(drifted, UNGROUPED);
});

Deno.test("slop explain groups its token counts and byte offsets by thousands", () => {
  const text = explainText({
    builds: [1, 2],
    bytes: 366_826,
    totalBytes: 368_369,
    tokens: 105_031,
    totalTokens: 105_443,
    stablePrefixSame: false,
    ended: { id: "files:src/a.ts", section: "files", file: "src/a.ts", kind: "changed", at: 4_096 },
  });
  assert.match(text, /105,031 of 105,443 o200k tokens/);
  assert.match(text, /4,096 bytes into the block/);
  assert.doesNotMatch(text, UNGROUPED);
});

Deno.test("the pull request's annotation of a drift groups its token counts by thousands", () => {
  const [line] = annotationLines(
    { status: "drift", lock: "slop.lock", diff, tokenizer: "o200k", update: "slop check --update" },
    { cwd: "/repo" },
  );
  assert.match(line, /12,345 of its 306,984 o200k tokens/);
  assert.doesNotMatch(line.split("::").at(-1)!, UNGROUPED);
});
