import assert from "node:assert/strict";
import { join } from "node:path";
import { countTokens } from "../../mod.ts";
import { referenceCounter } from "../../pipeline/tokens.ts";
import {
  countMany,
  countTexts,
  countThreads,
  prestartCounting,
  setParallelCountChars,
} from "../../pipeline/count.ts";
import { splitForCounting } from "../../pipeline/_count_cuts.ts";
import { openCache } from "../../pipeline/cache.ts";
import { countKnown } from "../../accel/count_known.ts";
import { sha256 } from "../../pipeline/read.ts";
import { bpeCounter, type BpeTable } from "../../pipeline/_bpe.ts";
import { makeProject, tempDir, V8_FLAGS } from "../_helpers.ts";
import { buildIn, pythonStdlib } from "./_cache_helpers.ts";

const STDLIB = await pythonStdlib();
const skip = !STDLIB;
if (skip) console.warn("count_test: no python3 standard library: real-data tests skipped");

/** Real files: a few packages of the Python standard library plus its largest module. */
async function stdlibSample(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const folder of ["json", "email"]) {
    for await (const item of Deno.readDir(join(STDLIB!, folder))) {
      if (item.isFile && item.name.endsWith(".py")) {
        out[`${folder}/${item.name}`] = await Deno.readTextFile(join(STDLIB!, folder, item.name));
      }
    }
  }
  out["pydoc_data/topics.py"] = await Deno.readTextFile(join(STDLIB!, "pydoc_data/topics.py"));
  return out;
}

Deno.test({
  name: "splitForCounting() pieces add up to the count of the whole on real files",
  ignore: skip,
  async fn() {
    const sample = await stdlibSample();
    const big = Object.values(sample).filter((t) => t.length > 20_000);
    assert.ok(big.length >= 5);
    let cuts = 0;
    for (const text of big) {
      const pieces = splitForCounting(text, 1_000);
      assert.equal(pieces.join(""), text);
      cuts += pieces.length - 1;
      const gpt = await referenceCounter();
      let sum = 0;
      for (const piece of pieces) sum += gpt(piece);
      assert.equal(sum, gpt(text));
    }
    assert.ok(cuts > 50, `cuts: ${cuts}`);
    // Places where a cut would change the count are never chosen.
    assert.deepEqual(splitForCounting("a)\n/b\n c\nd", 1), ["a)\n/b\n c\n", "d"]);
  },
});

Deno.test({
  name: "countTexts() in parallel gives the same counts as one thread",
  ignore: skip,
  async fn() {
    const texts = Object.values(await stdlibSample());
    assert.ok(texts.reduce((n, t) => n + t.length, 0) > 300_000, "enough to use workers");
    const one = await countTexts(texts, { workers: 1 });
    const two = await countTexts(texts, { workers: 2 });
    assert.deepEqual(two, one);
    const reference: number[] = [];
    const gpt = await referenceCounter();
    for (const text of texts) reference.push(gpt(text));
    assert.deepEqual(one, reference, "gpt-tokenizer's counts");
  },
});

Deno.test("countTexts() counts what gpt-tokenizer counts, o200k and cl100k, on any script", async () => {
  const texts = [
    "",
    " ",
    "\n\n\n",
    "Hello, world! It's 2026; we'll see.\n",
    "def __init__(self, *args, **kwargs):\n    super().__init__()\n",
    "Ünïcödé naïveté — “quotes” … 😀👍🏽 🇫🇷 e\u0301 \u200b\u00a0nbsp",
    "漢字とかな、한국어 텍스트, العربية, עברית, हिन्दी, ไทย, Ελληνικά, русский",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1234567890123",
    "<|endoftext|> <|im_start|>user\n</s>  \t\t  \r\n  x",
    'const x = a?.b ?? c; // comment\n/* block */ /// <reference path="a" />\n',
    // Long pieces take the heap merge: emoji runs, long words, base64, repeated characters.
    "😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚☺️☺🙂🤗🤩🤔".repeat(40),
    "Supercalifragilisticexpialidocious".repeat(12),
    "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkwYWJjZGVmZ2hpams=".repeat(9),
    "=".repeat(500) + "-".repeat(333) + "ab".repeat(200),
    "ـ".repeat(300) + "漢字".repeat(150),
  ];
  for (const tokenizer of ["o200k", "cl100k"] as const) {
    const counted = await countTexts(texts, { workers: 1, tokenizer });
    const reference: number[] = [];
    const gpt = await referenceCounter(tokenizer);
    for (const text of texts) reference.push(gpt(text));
    assert.deepEqual(counted, reference, tokenizer);
  }
});

Deno.test("one counter counts long pieces of growing and shrinking sizes as gpt-tokenizer does", async () => {
  // Each text is one pre-split piece merged on the heap; the counter reuses its merge arrays
  // (kept up to LONG_KEPT, 16 kB: 4 kB grown and kept, then pieces of 17 kB and more, made
  // for one piece each). As small as that allows: gpt-tokenizer's merge is quadratic.
  const texts = [70, 1000, 100, 8600, 200, 4300, 66, 9000].map((n, i) =>
    ["=", "😀", "-+", "ـ"][i % 4].repeat(n)
  );
  const counted = await countTexts(texts, { workers: 1 });
  const gpt = await referenceCounter();
  assert.deepEqual(counted, texts.map((text) => gpt(text)));
});

Deno.test("countThreads() counts under a megabyte on this thread alone (a worker starts cold)", () => {
  assert.equal(countThreads(600_000, 2), 1, "zod's skeleton blocks");
  assert.equal(countThreads(3_700_000, 2), 2, "the Python stdlib's");
  assert.equal(countThreads(3_700_000, 1), 1);
  const before = setParallelCountChars(1000);
  try {
    assert.equal(countThreads(600_000, 3), 3);
  } finally {
    setParallelCountChars(before);
  }
});

Deno.test("countMany() counts each distinct text once and caches by text and tokenizer", async () => {
  const cache = openCache(join(await tempDir(), "cache"));
  const first = await countMany(["hello world", "hello world", ""], { cache, workers: 1 });
  assert.deepEqual([first.hits, first.misses], [0, 2]);
  assert.deepEqual([...first.counts.values()].sort(), [0, 2]);
  const again = await countMany(["hello world"], { cache, workers: 1 });
  assert.deepEqual([again.hits, again.misses], [1, 0]);
  const cl = await countMany(["hello world"], { cache, workers: 1, tokenizer: "cl100k" });
  assert.deepEqual([cl.hits, cl.misses], [0, 1], "another tokenizer is another key");
});

Deno.test("countKnown() takes the caller's count of a text the cache holds and a known count of one it lacks, with countMany()'s hits and misses", async () => {
  const dir = join(await tempDir(), "cache");
  const first = openCache(dir, { pack: "project" });
  await countMany(["hello world"], { cache: first, workers: 1 });
  await first.flush();
  // The next build's cache: the count is a record of its pack.
  const cache = openCache(dir, { pack: "project" });
  const texts = ["hello world", "new text here", "third one"];
  const read: string[] = [];
  const get = cache.get.bind(cache);
  cache.get = <T>(key: string) => (read.push(key), get<T>(key));
  const asked: number[] = [];
  const found = await countKnown(texts, {
    cache,
    workers: 1,
    // A made-up count for the cached text: taken (its entry kept as read), the cache not read.
    counted: (hash) => hash === sha256("hello world") ? 99 : undefined,
    known: (index, text) => {
      asked.push(index);
      return Promise.resolve(text() === "new text here" ? 7 : undefined);
    },
  });
  assert.deepEqual(texts.map((t) => found.counts.get(sha256(t))), [99, 7, 2]);
  assert.deepEqual([found.hits, found.misses], [1, 2]);
  assert.deepEqual(asked.sort(), [1, 2], "asked only for the texts the cache lacks");
  assert.equal(read.length, 2, "the cache is read for the two texts it lacks only");
  // Stored as found: a plain count takes them from the cache.
  const again = await countMany(texts, { cache, workers: 1 });
  assert.deepEqual([again.hits, again.misses], [3, 0]);
  assert.deepEqual(texts.map((t) => again.counts.get(sha256(t))), [2, 7, 2]);
});

Deno.test({
  name: "a build with parallel counting writes the same bytes and counts as a one-thread build",
  ignore: skip,
  async fn() {
    const sample = await stdlibSample();
    const root = await makeProject({ ...sample, "slop.config.ts": "export default {};\n" });
    const states = await tempDir();
    const one = await buildIn(root, join(states, "one"), { workers: 1, cache: false });
    const two = await buildIn(root, join(states, "two"), { workers: 2 });
    assert.equal(two.document, one.document);
    assert.deepEqual(two.manifest.blocks, one.manifest.blocks);
    assert.deepEqual(two.manifest.total, one.manifest.total);
    for (const block of two.blocks.slice(0, 12)) {
      assert.equal(block.tokens, await countTokens(block.text), block.id);
    }
    const outOne = await Deno.readFile(one.output!.document);
    const outTwo = await Deno.readFile(two.output!.document);
    assert.deepEqual(outTwo, outOne);
  },
});

Deno.test({
  name:
    "countTexts() counts the same whichever thread takes which piece, with workers started early",
  ignore: skip,
  async fn() {
    const texts = Object.values(await stdlibSample());
    const one = await countTexts(texts, { workers: 1 });
    // Started before counting (as during a build's transform): the pieces are shared with them.
    prestartCounting(1 << 30, 2);
    assert.deepEqual(await countTexts(texts, { workers: 2 }), one);
    prestartCounting(1 << 30, 3);
    assert.deepEqual(await countTexts(texts, { workers: 3 }), one, "two workers and this thread");
    // Started, then not needed: a small count ends them.
    prestartCounting(1 << 30, 2);
    assert.deepEqual(await countTexts(["hello world"], { workers: 2 }), [2]);
    for (let run = 0; run < 3; run++) {
      assert.deepEqual(await countTexts(texts, { workers: 2 }), one, `run ${run}`);
    }
  },
});

Deno.test({
  name: "a skeleton build that starts its count workers during the transform counts as one thread",
  ignore: skip,
  async fn() {
    // Two copies of the sample: more skeleton text than one thread counts alone.
    const sample = await stdlibSample();
    const files: Record<string, string> = {
      "slop.config.ts": 'export default { defaultView: "skeleton" };\n',
    };
    for (const [path, text] of Object.entries(sample)) {
      files[`a/${path}`] = files[`b/${path}`] = text;
    }
    const root = await makeProject(files);
    const states = await tempDir();
    const one = await buildIn(root, join(states, "one"), { workers: 1, cache: false });
    // A smaller project than the default limit needs: workers from 256K characters.
    const before = setParallelCountChars(256 * 1024);
    const two = await buildIn(root, join(states, "two"), { workers: 2 }).finally(() =>
      setParallelCountChars(before)
    );
    assert.ok(one.document.length > 256 * 1024, `skeleton text: ${one.document.length}`);
    assert.equal(two.document, one.document);
    assert.deepEqual(two.manifest.blocks, one.manifest.blocks);
    assert.deepEqual(two.manifest.total, one.manifest.total);
  },
});

Deno.test("count workers started early and never used end, so the process can exit", async () => {
  const script = [
    `import { prestartCounting, releaseCounting } from ${
      JSON.stringify(new URL("../../pipeline/count.ts", import.meta.url).href)
    };`,
    "prestartCounting(1 << 30, 2);",
    "releaseCounting();",
    'console.log("released");',
  ].join("\n");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, "--ext=ts", script],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  });
  const { code, stdout, stderr } = await child.output();
  assert.equal(
    new TextDecoder().decode(stdout).trim(),
    "released",
    new TextDecoder().decode(stderr),
  );
  assert.equal(code, 0, "exited by itself");
});

/** The o200k table, as the table worker hands it over (made once for the tests here). */
let o200k: Promise<BpeTable> | undefined;
function o200kTable(): Promise<BpeTable> {
  o200k ??= new Promise<BpeTable>((resolve) => {
    const w = new Worker(new URL("../../pipeline/_table_worker.ts", import.meta.url).href, {
      type: "module",
    });
    w.onmessage = (event) => {
      w.terminate();
      resolve(event.data.table);
    };
    w.postMessage({ tokenizer: "o200k" });
  });
  return o200k;
}

/** A counting worker, as `countMany` starts one. */
function countWorker(): Worker {
  return new Worker(new URL("../../pipeline/_count_worker.ts", import.meta.url).href, {
    type: "module",
  });
}

Deno.test("the counting worker takes texts from a shared index and leaves the ones taken", async () => {
  const table = await o200kTable();
  const worker = countWorker();
  try {
    const texts = ["hello world", "def f(x):\n    return x * 2\n", "", "naïve café", "a b c"];
    const next = new Int32Array(new SharedArrayBuffer(4));
    const counts = new Int32Array(new SharedArrayBuffer(4 * texts.length)).fill(-1);
    // Another thread took the first two.
    next[0] = 2;
    const reply = await new Promise<{ done?: boolean; error?: string }>((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.postMessage({ table, texts, next, counts });
    });
    assert.ok(reply.done, reply.error);
    const gpt = await referenceCounter();
    assert.deepEqual([...counts], [-1, -1, ...texts.slice(2).map(gpt)]);
    assert.ok(next[0] > texts.length, "every text taken");
  } finally {
    worker.terminate();
  }
});

Deno.test("the table worker hands over a table that counts like gpt-tokenizer", async () => {
  const worker = new Worker(new URL("../../pipeline/_table_worker.ts", import.meta.url).href, {
    type: "module",
  });
  try {
    const reply = await new Promise<{ table?: BpeTable; error?: string }>((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
      worker.postMessage({ tokenizer: "cl100k" });
    });
    assert.ok(reply.table, reply.error);
    const text = "Ünïcödé — 漢字 and code: const x = a?.b ?? c;\n";
    assert.equal(bpeCounter(reply.table)(text), (await referenceCounter("cl100k"))(text));
  } finally {
    worker.terminate();
  }
});

Deno.test("the counting worker counts with a table it is handed", async () => {
  const table = await o200kTable();
  const worker = countWorker();
  try {
    const texts = ["hello world", "def f(x):\n    return x * 2\n", ""];
    const next = new Int32Array(new SharedArrayBuffer(4));
    const counts = new Int32Array(new SharedArrayBuffer(4 * texts.length)).fill(-1);
    const reply = await new Promise<{ done?: boolean; error?: string }>((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.postMessage({ table, texts, next, counts });
    });
    assert.ok(reply.done, reply.error);
    const gpt = await referenceCounter();
    assert.deepEqual([...counts], texts.map(gpt));
  } finally {
    worker.terminate();
  }
});
