import assert from "node:assert/strict";
import {
  type RankedFile,
  rankFiles as rank,
  type RankInput,
  type RankOptions,
} from "../../pipeline/rank.ts";
import { definedNames } from "../../plugins/view_modes/code_views.ts";

/** Ranking as the CLI does: names from the code views' parse. */
function rankFiles(files: RankInput[], task: string, options: RankOptions = {}) {
  return rank(files, task, { definitions: definedNames, ...options });
}

// `words.py` says "cookie jar" over and over; only `store.py` defines `CookieJar`.
const FILES: RankInput[] = [
  {
    path: "src/store.py",
    text: "class CookieJar:\n    def update_cookies(self, response):\n        self.items = []\n",
  },
  {
    path: "src/words.py",
    text: "# A cookie jar keeps cookies; the cookie jar rules: jar, cookie, jar.\n" +
      "JARS = ['cookie', 'jar', 'cookies']\n",
  },
  {
    path: "src/session.py",
    text: "from .store import CookieJar\n\nclass Session:\n    def __init__(self):\n" +
      "        self.jar = CookieJar()\n        self.jar.update_cookies(None)\n",
  },
  { path: "src/other.py", text: "def unrelated():\n    return 42\n" },
];

const TASK = "CookieJar.update_cookies loses the domain";
const NAMED = "CookieJar loses the domain";

Deno.test("a file defining a name the task names outranks one that only mentions similar words", async () => {
  const lexical = await rankFiles(FILES, NAMED, { weights: { graph: 0 } });
  const withGraph = await rankFiles(FILES, NAMED);
  const score = (list: RankedFile[], path: string) => list.find((f) => f.path === path)!.score;
  assert.ok(score(withGraph, "src/store.py") > score(withGraph, "src/words.py"));
  // The graph widens the definer's lead over the file of similar words, and says why.
  assert.ok(
    score(withGraph, "src/store.py") - score(withGraph, "src/words.py") >
      score(lexical, "src/store.py") - score(lexical, "src/words.py") + 0.1,
  );
  const store = withGraph.find((f) => f.path === "src/store.py")!;
  const named = store.reasons.find((r) => r.kind === "graph" && r.detail.startsWith("the task"));
  assert.ok(named, JSON.stringify(store));
  assert.equal(named.detail, "the task names CookieJar");
  assert.deepEqual(
    withGraph.find((f) => f.path === "src/words.py")!.reasons.filter((r) => r.kind === "graph"),
    [],
  );
});

Deno.test("a file using what the task's file defines gets graph rank from it, and names it", async () => {
  const ranked = await rankFiles(FILES, TASK);
  const session = ranked.find((f) => f.path === "src/session.py")!;
  const other = ranked.find((f) => f.path === "src/other.py")!;
  assert.ok(session.score > other.score);
  const lent = session.reasons.find((r) =>
    r.kind === "graph" && r.detail.startsWith("linked from")
  );
  assert.ok(lent, JSON.stringify(session.reasons));
  assert.match(lent.detail, /^linked from src\/store\.py \((CookieJar|update_cookies)\)$/);
  // Nothing links to other.py and the task does not point at it.
  assert.deepEqual(other.reasons.filter((r) => r.kind === "graph"), []);
});

Deno.test("a task that points nowhere gives no graph score", async () => {
  const ranked = await rankFiles(FILES, "zzz qqq");
  assert.ok(ranked.every((f) => f.score === 0 && f.reasons.length === 0));
});

Deno.test("a file the task names by its file name is seeded", async () => {
  const ranked = await rankFiles(FILES, "other.py returns the wrong number");
  assert.equal(ranked[0].path, "src/other.py");
  assert.ok(ranked[0].reasons.some((r) => r.kind === "graph" && r.detail.includes("src/other.py")));
});
