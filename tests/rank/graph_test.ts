import assert from "node:assert/strict";
import {
  type RankedFile,
  rankFiles as rank,
  type RankInput,
  type RankOptions,
} from "../../pipeline/rank.ts";
import { isClockError, tallyWork } from "../../pipeline/helpers.ts";
import type { Store, ViewModePlugin } from "../../pipeline/types.ts";
import { definedNames } from "../../plugins/view_modes/code_views.ts";
import { skeletonViewMode } from "../../plugins/view_modes/skeleton.ts";
import { rankNames } from "../../pipeline/task.ts";

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

/** A store in memory counting its writes; `corrupt`: what every read gives instead. */
function memoryStore(corrupt?: unknown): Store & { values: Map<string, string>; sets: number } {
  const values = new Map<string, string>();
  return {
    values,
    sets: 0,
    get<T>(key: string) {
      const held = values.get(key);
      return Promise.resolve((corrupt ?? (held && JSON.parse(held))) as T | undefined);
    },
    set(key: string, value: unknown) {
      this.sets++;
      values.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  };
}

let instances = 0;
/** `definedNames` of a new instance of its module: nothing this process found is remembered. */
async function freshDefinedNames(): Promise<typeof definedNames> {
  const url = new URL(
    `../../plugins/view_modes/_defined_names.ts?instance=${++instances}`,
    import.meta.url,
  );
  return (await import(url.href)).definedNames;
}

/** Parser steps and tree nodes `work` counted (0: it parsed nothing). */
async function parsing(work: () => Promise<unknown>): Promise<number> {
  return (await tallyWork(work)).get("code") ?? 0;
}

/** A Python module with `n` functions named after `tag`. */
function pyModule(tag: string, n: number): string {
  let text = `class ${tag}Store:\n    def keep(self): ...\n`;
  for (let i = 0; i < n; i++) text += `def ${tag}_step_${i}(x):\n    return x + ${i}\n`;
  return text;
}

Deno.test("names kept in the build's cache are read back by a later process without a parse", async () => {
  const store = memoryStore();
  const text = pyModule("kept", 3);
  // Told before each parse (the caller then gets the threads ready), never for a stored file.
  let told = 0;
  const ask = { store, parsing: () => told++ };
  let first: string[] | undefined;
  assert.ok(await parsing(async () => first = await definedNames("a.py", text, ask)) > 0);
  assert.deepEqual(first, ["keep", "keptStore", "kept_step_0", "kept_step_1", "kept_step_2"]);
  assert.deepEqual([store.sets, told], [1, 1]);
  // The next build's process: the same names, read from the store, no parse.
  const later = await freshDefinedNames();
  let again: string[] | undefined;
  assert.equal(await parsing(async () => again = await later("b/a.py", text, ask)), 0);
  assert.deepEqual(again, first);
  assert.equal(told, 1);
  // Another language or another view version is another entry: parsed again.
  const other = await freshDefinedNames();
  assert.ok(await parsing(() => other("a.py", text, { store, version: "9" })) > 0);
  assert.equal(store.sets, 2);
});

Deno.test("a parse stopped by its clock fails the ranking with a ClockError, and nothing is kept", async () => {
  const store = memoryStore();
  const text = pyModule("late", 3);
  // No names would rank the files otherwise than a faster machine would: the build stops.
  await assert.rejects(
    () => definedNames("late.py", text, { store, maxParseMs: -1 }),
    (error) => isClockError(error),
  );
  assert.equal(store.sets, 0);
  // The next process parses it again, in time this once, and keeps what it finds.
  const later = await freshDefinedNames();
  assert.deepEqual(await later("late.py", text, { store }), [
    "keep",
    "lateStore",
    "late_step_0",
    "late_step_1",
    "late_step_2",
  ]);
  assert.equal(store.sets, 1);
});

Deno.test("a corrupt entry in the build's cache is ignored and the file parsed again", async () => {
  const text = pyModule("odd", 2);
  for (const corrupt of [{ names: ["x"] }, ["zeta", "alpha"], [3], "oddStore", [["a"]]]) {
    const store = memoryStore(corrupt);
    const fresh = await freshDefinedNames();
    let names: string[] | undefined;
    assert.ok(await parsing(async () => names = await fresh("a.py", text, { store })) > 0);
    assert.deepEqual(names, ["keep", "oddStore", "odd_step_0", "odd_step_1"]);
    assert.equal(store.sets, 1);
  }
});

Deno.test("rankNames() gets the skeleton's threads ready again for each ranking that parses", async () => {
  const real = skeletonViewMode();
  let prepared = 0;
  const counted: ViewModePlugin = {
    ...real,
    prepare: (files) => {
      prepared++;
      return real.prepare!(files);
    },
  };
  // One set of options, two rankings of texts no other test parses (names are kept by text).
  const options = rankNames(counted, undefined);
  for (const name of ["ReadyFirstJar", "ReadySecondJar"]) {
    const files = [{ path: "src/jar.py", text: `class ${name}:\n    def fill(self): ...\n` }];
    const ranked = await rank(files, "fill the jar", options);
    assert.equal(ranked.length, 1);
  }
  assert.equal(prepared, 2);
});
