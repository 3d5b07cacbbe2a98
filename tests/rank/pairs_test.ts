import assert from "node:assert/strict";
import { pairScores, taskPairs } from "../../pipeline/_rank_pairs.ts";
import { rankFiles } from "../../pipeline/rank.ts";

Deno.test("a task's pairs: neighbouring words, stop words and short words make none, each pair once", () => {
  assert.deepEqual(taskPairs("Close the connection pool in Session.get"), [
    "connection pool",
    "session get",
  ]);
  // Case, `_` and `-` do not matter; a pair across a stop word is no pair.
  assert.deepEqual(taskPairs("get_URL Get-Url then fix of id"), ["geturl geturl"]);
  assert.deepEqual(taskPairs("Tweaks"), []);
  assert.deepEqual(taskPairs("retry upload retry upload"), ["retry upload", "upload retry"]);
});

Deno.test("pair scores: a pair counts where its words stand together, by its idf, once a file", () => {
  const pairs = ["connection pool", "read timeout"];
  const [together, apart, both, none] = pairScores([
    "a ConnectionPool? no: connection_pool, connection pool, connection pool",
    "pool of connection",
    "connection pool\nread  timeout",
    undefined,
  ], pairs);
  assert.deepEqual(apart, { score: 0, pairs: [] });
  assert.deepEqual(none, { score: 0, pairs: [] });
  // In two of four texts: idf ln(1 + 2.5 / 2.5); in one: ln(1 + 3.5 / 1.5).
  const common = Math.log(2);
  const rare = Math.log(1 + 3.5 / 1.5);
  assert.deepEqual(together, { score: common, pairs: [["connection pool", common]] });
  assert.deepEqual(both.pairs, [["connection pool", common], ["read timeout", rare]]);
  assert.equal(both.score, common + rare);
  assert.deepEqual(pairScores(["a b"], []), [{ score: 0, pairs: [] }]);
});

Deno.test("the ranking finds the same pairs in its BM25 pass as pairScores alone", async () => {
  const texts = [
    "Connection Pool; connection_pool; get_url(Get-URL)",
    "readTimeout = read timeout // READ TIMEOUT",
    "pool connection, the connection. pool",
    "x".repeat(80) + " connection pool " + "é connection pool",
    "session.get() Session get_url get url",
  ];
  const task = "Fix the connection pool and the read timeout of Session.get get_url";
  const files = texts.map((text, i) => ({ path: `src/f${i}.py`, text }));
  const only = { lexical: 0, path: 0, graph: 0, coChange: 0, history: 0, pairs: 1 };
  const ranked = await rankFiles(files, task, { weights: only });
  const alone = pairScores(texts, taskPairs(task));
  const best = Math.max(...alone.map((s) => s.score));
  assert.ok(best > 0);
  for (const [i, s] of alone.entries()) {
    const r = ranked.find((x) => x.path === `src/f${i}.py`)!;
    assert.ok(Math.abs(r.score - s.score / best) < 1e-12, `${r.path}: ${r.score}`);
    assert.deepEqual(
      r.reasons.map((x) => x.detail).sort(),
      s.pairs.map(([p]) => p).sort(),
    );
  }
});
