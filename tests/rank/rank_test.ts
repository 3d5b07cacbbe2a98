import assert from "node:assert/strict";
import { rankFiles as rank, type RankInput, type RankOptions } from "../../pipeline/rank.ts";
import { definedNames } from "../../plugins/view_modes/code_views.ts";

/** Ranking as the CLI does: names from the code views' parse. */
function rankFiles(files: RankInput[], task: string, options: RankOptions = {}) {
  return rank(files, task, { definitions: definedNames, ...options });
}
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

const FILES: RankInput[] = [
  {
    path: "src/session.py",
    text: "class Session:\n    def request(self, method, url):\n        pass\n",
  },
  {
    path: "src/adapters.py",
    text:
      "class HTTPAdapter:\n    def send(self, request, timeout=None):\n        return self.pool\n",
  },
  { path: "src/models.py", text: "class Response:\n    def json(self):\n        pass\n" },
  { path: "docs/timeouts.md", text: "# Timeouts\n\nSet a timeout on every request.\n" },
  { path: "logo.png" },
  { path: "src/a.py", text: "" },
  { path: "src/b.py", text: "" },
];

/** BM25 alone: contents and path. */
const LEXICAL = { weights: { graph: 0, coChange: 0, pairs: 0 } };

Deno.test("ranking is the same bytes whatever the input order", async () => {
  const task = "HTTPAdapter.send ignores the timeout of a request";
  const expected = JSON.stringify(await rankFiles(FILES, task));
  for (let seed = 1; seed <= 20; seed++) {
    assert.equal(JSON.stringify(await rankFiles(shuffle(FILES, seed), task)), expected);
  }
});

Deno.test("BM25 puts the file whose contents match the task first", async () => {
  const ranked = await rankFiles(FILES, "Response.json fails on an empty body", LEXICAL);
  assert.equal(ranked[0].path, "src/models.py");
  assert.deepEqual(ranked[0].reasons.map((r) => r.detail).sort(), ["json", "response"]);
});

Deno.test("BM25 over paths puts the file whose path matches the task first", async () => {
  const files: RankInput[] = [
    { path: "lib/cookies.js", text: "module.exports = jar;\n" },
    { path: "lib/other.js", text: "const jar = 1;\n" },
  ];
  const ranked = await rankFiles(files, "cookies are lost", LEXICAL);
  assert.equal(ranked[0].path, "lib/cookies.js");
  assert.deepEqual(ranked[0].reasons, [{
    kind: "path",
    detail: "cookies",
    score: ranked[0].score,
  }]);
});

Deno.test("ties are sorted by path in code-unit order, files without text rank by path only", async () => {
  const ranked = await rankFiles(FILES, "nothing matches zzz");
  assert.ok(ranked.every((r) => r.score === 0 && r.reasons.length === 0));
  assert.deepEqual(ranked.map((r) => r.path), [...FILES.map((f) => f.path)].sort());
  const logo = await rankFiles(FILES, "the logo");
  assert.equal(logo[0].path, "logo.png");
});

Deno.test("every scoring file has reasons, whose scores add up to its score", async () => {
  // Five task terms: every matched term is listed (at most five a signal).
  const ranked = await rankFiles(FILES, "HTTPAdapter send timeout", LEXICAL);
  assert.ok(ranked.filter((r) => r.score > 0).length >= 2);
  for (const file of ranked.filter((r) => r.score > 0)) {
    assert.ok(file.reasons.length > 0, file.path);
    const sum = file.reasons.reduce((s, r) => s + r.score, 0);
    assert.ok(Math.abs(sum - file.score) < 1e-9, `${file.path}: ${sum} != ${file.score}`);
  }
  // More terms: the largest five of each signal, largest first.
  const many = await rankFiles(
    FILES,
    "HTTPAdapter send timeout request session pool self",
    LEXICAL,
  );
  const top = many[0];
  assert.ok(top.reasons.filter((r) => r.kind === "term").length === 5);
  for (let i = 1; i < top.reasons.length; i++) {
    assert.ok(top.reasons[i - 1].score >= top.reasons[i].score);
  }
});

Deno.test("weights scale their signal; a bad weight is an error that names it", async () => {
  const noPath = await rankFiles(FILES, "timeouts", { weights: { path: 0, lexical: 1 } });
  assert.ok(
    noPath.find((r) => r.path === "docs/timeouts.md")!.reasons.every((r) => r.kind !== "path"),
  );
  await assert.rejects(
    () => rankFiles(FILES, "x", { weights: { lexical: -1 } }),
    /Rank weight "lexical" must be a finite number >= 0, got -1/,
  );
});

Deno.test("a task's trailers, links and issue numbers match no file; rawTask counts them", async () => {
  const files: RankInput[] = [
    { path: "src/jar.py", text: "class CookieJar:\n    def clear(self):\n        pass\n" },
    { path: "src/hub.py", text: "# jane github com 2445\nclass Hub:\n    jane = 'github.com'\n" },
  ];
  const task = "Fix the cookie jar (#2445)\n\nSee https://github.com/o/r/pull/1\n" +
    "Co-authored-by: Jane Roe <jane@github.com>";
  const ranked = await rankFiles(files, task, LEXICAL);
  assert.deepEqual(ranked.map((r) => [r.path, r.score > 0]), [
    ["src/jar.py", true],
    ["src/hub.py", false],
  ]);
  const raw = await rankFiles(files, task, { ...LEXICAL, rawTask: true });
  const hub = raw.find((r) => r.path === "src/hub.py")!;
  assert.ok(hub.score > 0);
  assert.deepEqual(hub.reasons.map((r) => r.detail).sort(), ["2445", "com", "github", "jane"]);
});

Deno.test("a task pasted with its trailers and links ranks as the bare task, in the same bytes", async () => {
  const bare = "HTTPAdapter.send ignores the timeout of a request";
  const pasted = `${bare} (#7505)\n\nhttps://github.com/psf/requests/issues/7504\n\n` +
    "Co-authored-by: Someone <someone@users.noreply.github.com>\n";
  // A file that holds the pasted parts' words: they must not lift it.
  const files = [...FILES, { path: "src/hub.py", text: "github = 'users.noreply.github.com'\n" }];
  const expected = JSON.stringify(await rankFiles(files, bare));
  for (let seed = 1; seed <= 5; seed++) {
    assert.equal(JSON.stringify(await rankFiles(shuffle(files, seed), pasted)), expected);
  }
});

Deno.test("history: the task's words in the past messages of a file's commits rank it, with its reasons", async () => {
  const files: RankInput[] = [
    { path: "src/a.py", text: "def a():\n    pass\n" },
    { path: "src/b.py", text: "def b():\n    pass\n" },
    { path: "src/c.py", text: "def c():\n    pass\n" },
  ];
  const wide = Array.from({ length: 11 }, (_, i) => `w${i}.py`).concat(["src/c.py"]);
  const history = [
    { paths: ["src/b.py"], message: "Tweaks to the retry loop" },
    // More than 10 files: says nothing about any one of them.
    { paths: wide, message: "Tweaks everywhere" },
    {
      paths: ["src/a.py", "src/b.py"],
      message: "Bump version\n\nCo-authored-by: Tweaks <t@x.org>",
    },
  ];
  const ranked = await rankFiles(files, "Tweaks", { history });
  assert.equal(ranked[0].path, "src/b.py");
  assert.equal(ranked[0].score, 0.1);
  assert.deepEqual(ranked[0].reasons, [{ kind: "history", detail: "tweaks", score: 0.1 }]);
  // The trailer's words are not read, the wide commit is left out.
  assert.ok(ranked.slice(1).every((r) => r.score === 0 && !r.reasons.length));
  // A newer message weighs more; the same bytes whatever the input order; weight 0: none.
  const two = [{ paths: ["src/a.py"], message: "Tweaks" }, {
    paths: ["src/b.py"],
    message: "Tweaks",
  }];
  const newer = await rankFiles(files, "Tweaks", { history: two });
  assert.deepEqual(newer.map((r) => r.path), ["src/a.py", "src/b.py", "src/c.py"]);
  assert.ok(newer[0].score > newer[1].score && newer[1].score > 0);
  for (let seed = 1; seed <= 5; seed++) {
    const shuffled = await rankFiles(shuffle(files, seed), "Tweaks", { history: two });
    assert.equal(JSON.stringify(shuffled), JSON.stringify(newer));
  }
  const off = await rankFiles(files, "Tweaks", { history, weights: { history: 0 } });
  assert.ok(off.every((r) => r.score === 0));
});

Deno.test("a text's defined names are remembered by its language: the same text in a bash script and a Rakefile is parsed as each", async () => {
  const text = "#!/usr/bin/env bash\ndeploy_all() {\n  echo hi\n}\n";
  // Either order: the first parse's names are not handed to the other language.
  for (const [first, second] of [["bin/tool", "Rakefile"], ["tasks/Rakefile", "bin/deploy"]]) {
    const names = new Map<string, string[] | undefined>();
    for (const path of [first, second]) names.set(path, await definedNames(path, text + first));
    const bash = [...names.keys()].find((p) => p.startsWith("bin/"))!;
    const ruby = [...names.keys()].find((p) => p.endsWith("Rakefile"))!;
    assert.deepEqual(names.get(bash), ["deploy_all"], `${first} then ${second}`);
    assert.ok(!names.get(ruby)!.includes("deploy_all"), `${first} then ${second}`);
  }
});

Deno.test("the names of many files are asked for between one prepareDefinitions and its release", async () => {
  // The code views' threads start once for the whole ranking (the `prepare` hook holds them),
  // not again for each batch of files: a task build on 1,600 C files started a thread a batch.
  const files: RankInput[] = Array.from({ length: 40 }, (_, i) => ({
    path: `src/m${String(i).padStart(2, "0")}.py`,
    text: `def f${i}(x):\n    return x\n`,
  }));
  const events: string[] = [];
  await rank(files, "fix f3", {
    definitions: (path) => {
      events.push("ask");
      return Promise.resolve([path]);
    },
    prepareDefinitions: (prepared) => {
      events.push(`prepare ${prepared.length} ${prepared[0].chars}`);
      return () => events.push("release");
    },
  });
  assert.deepEqual(events, ["prepare 40 24", ...Array(40).fill("ask"), "release"]);
});

Deno.test("word pairs: a file with the task's neighbouring words together ranks above one with them apart", async () => {
  const files: RankInput[] = [
    // The same words as many times in texts as long: BM25 alone ties them (then path order).
    { path: "src/a.py", text: "pool = connection\n" },
    { path: "src/b.py", text: "x = connection pool\n" },
    { path: "src/c.py", text: "def other():\n    pass\n" },
  ];
  const task = "Close the connection pool";
  const alone = await rankFiles(files, task, LEXICAL);
  assert.deepEqual(alone.map((r) => r.path), ["src/a.py", "src/b.py", "src/c.py"]);
  assert.equal(alone[0].score, alone[1].score);
  const ranked = await rankFiles(files, task, { weights: { graph: 0, coChange: 0 } });
  assert.deepEqual(ranked.map((r) => r.path), ["src/b.py", "src/a.py", "src/c.py"]);
  const pair = ranked[0].reasons.find((r) => r.kind === "pair")!;
  assert.equal(pair.detail, "connection pool");
  assert.ok(Math.abs(pair.score - 0.1) < 1e-12, `${pair.score}`);
  assert.ok(Math.abs(ranked[0].score - (alone[0].score + 0.1)) < 1e-12);
  // The reasons still add up to the score; the same bytes whatever the input order.
  const sum = ranked[0].reasons.reduce((s, r) => s + r.score, 0);
  assert.ok(Math.abs(sum - ranked[0].score) < 1e-9);
  for (let seed = 1; seed <= 5; seed++) {
    const shuffled = await rankFiles(shuffle(files, seed), task, {
      weights: { graph: 0, coChange: 0 },
    });
    assert.equal(JSON.stringify(shuffled), JSON.stringify(ranked));
  }
  await assert.rejects(
    () => rankFiles(files, task, { weights: { pairs: -1 } }),
    /Rank weight "pairs" must be a finite number >= 0, got -1/,
  );
});

Deno.test("a task's words in other forms in a file (tests: test, parsing: parse) rank it, in the same bytes whatever the order", async () => {
  // Generated files of random words; one holds the task's words only in other forms, one the
  // same number of other words of the vocabulary.
  const random = prng(32);
  const vocabulary = ["buffer", "header", "stream", "socket", "render", "layout", "frame", "token"];
  const pick = () => vocabulary[Math.floor(random() * vocabulary.length)];
  const filler = (n: number) => Array.from({ length: n }, pick).join(" ");
  const files: RankInput[] = Array.from({ length: 30 }, (_, i) => ({
    path: `src/file${i}.txt`,
    text: `${filler(40)}\n`,
  }));
  files.push({ path: "src/forms.txt", text: `${filler(34)} test parse entry test\n` });
  files.push({ path: "src/other.txt", text: `${filler(34)} frame render stream layout\n` });
  const task = "Skip tests parsing entries";
  const ranked = await rankFiles(files, task);
  assert.equal(ranked[0].path, "src/forms.txt");
  assert.ok(ranked[0].score > 0);
  const terms = ranked[0].reasons.filter((r) => r.kind === "term").map((r) => r.detail).sort();
  assert.deepEqual(terms, ["entries", "parsing", "tests"]);
  assert.ok(!ranked.some((f) => f.path === "src/other.txt" && f.score > 0));
  const again = await rankFiles(shuffle(files, 5), task);
  assert.equal(JSON.stringify(again), JSON.stringify(ranked));
});
