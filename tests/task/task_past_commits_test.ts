// Past commits like the task (pipeline/_rank_commits.ts): a commit whose message is worded as the
// task's (an earlier bump of the same tool) lends the files it changed a share, past the ranking's
// first 20 places, with a reason `slop rank --task` prints; the ranking stays deterministic.
import assert from "node:assert/strict";
import { commitLoans, COMMITS_MAX_FILES, COMMITS_TAIL_FROM } from "../../pipeline/_rank_commits.ts";
import { rankFiles, type RankInput } from "../../pipeline/rank.ts";
import { prng } from "../_helpers.ts";

function shuffle<T>(items: T[], seed: number): T[] {
  const random = prng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const TASK = "Update dependency com.example:lint-cli to v1.3.0";

/** 30 Kotlin files; the task's word `update` in each, fewer times the later the file. */
function files(): RankInput[] {
  return Array.from({ length: 30 }, (_, i) => {
    const name = `f${String(i).padStart(2, "0")}`;
    const body = Array.from({ length: 30 - i }, (_, k) => `  update(${k})`).join("\n");
    return { path: `src/${name}.kt`, text: `fun ${name}() {\n${body}\n}\n` };
  });
}

/** The earlier bump reformatted 12 files (more than 10: the history signal leaves it out). */
const SWEEP = ["src/f27.kt", "src/f24.kt", ...Array.from({ length: 10 }, (_, i) => `gen/g${i}.kt`)];

const HISTORY = [
  { paths: ["src/f29.kt"], message: "Fix the parser on empty input" },
  { paths: SWEEP, message: "Update dependency com.example:lint-cli to v1.2.0" },
  { paths: ["src/f28.kt"], message: "Add a flag" },
];

Deno.test("commitLoans: messages near the best one's lend their files, large commits at 10/files", () => {
  const terms = ["cli", "com", "dependency", "example", "lint", "update"];
  const loans = commitLoans(TASK, terms, HISTORY);
  assert.deepEqual([...loans.keys()].sort(), [...SWEEP].sort());
  const share = COMMITS_MAX_FILES / SWEEP.length;
  assert.deepEqual(loans.get("src/f27.kt"), {
    share,
    subject: "Update dependency com.example:lint-cli to v1.2.0",
    files: 12,
  });
  // No message matches: nothing lent; a message far below the best one's lends nothing either.
  assert.equal(commitLoans("zebra", ["zebra"], HISTORY).size, 0);
  const parser = "Fix the parser on empty input, add a flag";
  const weak = commitLoans(parser, ["add", "empty", "flag", "fix", "input", "parser"], HISTORY);
  assert.deepEqual([...weak.keys()], ["src/f29.kt"]);
  // The best message is no near duplicate of a longer task (under half its own text's score).
  const longer = `${TASK}; also reformat every module with the new rules`;
  const more = [...terms, "every", "module", "new", "reformat", "rules", "with"].sort();
  assert.equal(commitLoans(longer, more, HISTORY).size, 0);
});

Deno.test("past commits like the task reorder the ranking past its first 20 places, with a reason", async () => {
  const without = await rankFiles(files(), TASK, {
    history: HISTORY,
    weights: { pastCommits: 0 },
  });
  const ranked = await rankFiles(files(), TASK, { history: HISTORY });
  // The head is the task's own words' order, untouched.
  assert.deepEqual(
    ranked.slice(0, COMMITS_TAIL_FROM).map((r) => [r.path, r.score]),
    without.slice(0, COMMITS_TAIL_FROM).map((r) => [r.path, r.score]),
  );
  // The sweep's two files move up in the tail, never above the 20th file's score (f24 is held
  // at it).
  assert.deepEqual(
    without.slice(COMMITS_TAIL_FROM).map((r) => r.path),
    Array.from({ length: 10 }, (_, i) => `src/f${20 + i}.kt`),
  );
  const tail = ranked.slice(COMMITS_TAIL_FROM).map((r) => r.path);
  assert.deepEqual(tail, [24, 20, 21, 22, 23, 25, 27, 26, 28, 29].map((i) => `src/f${i}.kt`));
  const cap = ranked[COMMITS_TAIL_FROM - 1].score;
  for (let i = 1; i < ranked.length; i++) assert.ok(ranked[i].score <= ranked[i - 1].score);
  assert.equal(ranked[COMMITS_TAIL_FROM].score, cap);
  const f27 = ranked.find((r) => r.path === "src/f27.kt")!;
  const reason = f27.reasons.find((r) => r.kind === "commit");
  assert.ok(reason, JSON.stringify(f27.reasons));
  assert.equal(
    reason.detail,
    'like "Update dependency com.example:lint-cli to v1.2.0" (12 files)',
  );
  const base = without.find((r) => r.path === "src/f27.kt")!.score;
  assert.ok(Math.abs(f27.score - base - reason.score) < 1e-12);
  assert.ok(reason.score > 0 && reason.score <= 0.05 * COMMITS_MAX_FILES / SWEEP.length + 1e-12);
});

Deno.test("past commits: the same bytes whatever the order of the files", async () => {
  const expected = JSON.stringify(await rankFiles(files(), TASK, { history: HISTORY }));
  for (let seed = 1; seed <= 5; seed++) {
    const again = await rankFiles(shuffle(files(), seed), TASK, { history: HISTORY });
    assert.equal(JSON.stringify(again), expected);
  }
  await assert.rejects(
    () => rankFiles(files(), TASK, { weights: { pastCommits: -1 } }),
    /Rank weight "pastCommits" must be a finite number >= 0, got -1/,
  );
});
