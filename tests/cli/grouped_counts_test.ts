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
import { summaryText } from "../../cli/build.ts";
import { statsText } from "../../cli/stats.ts";
import { countedRedactions } from "../../cli/_output.ts";
import { build, defaultPlugins, loadConfig } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

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

Deno.test("the build summary's cache line and its count of more redactions group by thousands", async () => {
  // laravel/framework's warm build said `cache: 3341 of 3341 rendered files from the cache` under
  // `files: 3,341 rendered`. A build of one file, its lists made as long as such a project's.
  const root = await makeProject({ "a.py": "x = 1\n" });
  const config = await loadConfig({ cwd: root });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const [file] = result.files;
  result.files = Array.from(
    { length: 3_341 },
    (_, i) => ({ ...file, path: `f${i}.py`, cache: "hit" }),
  );
  result.warnings = Array.from(
    { length: 1_020 },
    (_, i) => `Redacted a secret in "f${i}.py" line 1 (password)`,
  );
  const text = summaryText(result);
  assert.match(text, /^files: 3,341 rendered, 0 skipped, 0 errors$/m);
  assert.match(text, /^cache: 3,341 of 3,341 rendered files from the cache$/m);
  assert.match(text, /^warning: \.\.\. and 1,000 more secrets redacted /m);
  for (const line of text.split("\n")) {
    assert.doesNotMatch(line.replace(/sha256 [0-9a-f]+/, ""), UNGROUPED, line);
  }
  const said: string[] = [];
  const counted = countedRedactions((line) => said.push(line));
  for (const warning of result.warnings) counted.onWarning(warning);
  counted.done();
  assert.deepEqual(said, ["1,020 secrets redacted (`slop build` names each one)"]);
});

Deno.test("slop stats and token_stats group their tokens and breakpoints by thousands", () => {
  // laravel/framework's table said `4346825` tokens beside `17.2 MB`.
  const tokens = { o200k: 4_346_825, cl100k: 4_277_666 };
  const text = statsText({
    bytes: 18_068_409,
    total: tokens,
    prefix: { bytes: 18_068_409, tokens, share: 1 },
    sections: [{ section: "files", stability: "stable", blocks: 3_342, bytes: 18_068_409, tokens }],
    files: [{
      path: "tests/ValidationValidatorTest.php",
      view: "full",
      status: "rendered",
      sourceBytes: 458_950,
      bytes: 458_990,
      tokens: { o200k: 122_980, cl100k: 120_710 },
      inPrefix: true,
    }],
    breakpoints: [4_517_102, 18_068_409],
  }, { from: ".slop/out/context_001.md" });
  assert.match(text, /^total {2,}17\.2 MB {2}4,346,825 {2}4,277,666$/m);
  assert.match(text, / {2}122,980 {2}120,710$/m);
  assert.match(text, /^cache breakpoints at bytes 4,517,102, 18,068,409$/m);
  for (const line of text.split("\n")) {
    assert.doesNotMatch(line.replace(/context_\d+/, ""), UNGROUPED, line);
  }
});

Deno.test("a budget that cannot be met says its counts grouped by thousands", async () => {
  // laravel/framework, `--focus src/Illuminate/Support/Str.php --budget 12000`: the warning said
  // `Token budget of 12000 cannot be met: the document has 19447 tokens` under
  // `budget: NOT MET, 19,447 o200k tokens for a budget of 12,000`.
  const root = await makeProject({
    "big.py": Array.from({ length: 400 }, (_, i) => `value_${i} = ${i} * 7\n`).join(""),
    "small.py": "x = 1\n",
  });
  const config = await loadConfig({ cwd: root, inline: { budget: { tokens: 1_000 } } });
  config.focus = ["big.py"];
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const unmet = result.warnings.find((w) => w.startsWith("Token budget of "));
  assert.ok(unmet, result.warnings.join("\n"));
  assert.match(
    unmet,
    /^Token budget of 1,000 cannot be met: the document has \d{1,3}(,\d{3})+ tokens /,
  );
  assert.doesNotMatch(unmet, UNGROUPED);
});
