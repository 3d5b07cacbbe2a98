import assert from "node:assert/strict";
import { join } from "node:path";
import { renderCode, type RenderCodeOptions } from "../../plugins/view_modes/_code.ts";
import { codePool, LARGE_FILE } from "../../plugins/view_modes/_code_pool.ts";
import {
  compiledModules,
  grammarUrls,
  modulesNow,
  parserFor,
  warmUp,
} from "../../grammars/tree_sitter.ts";
import "../../grammars/parser.ts";
import { languageFor } from "../../grammars/languages.ts";
import { tempDir } from "../_helpers.ts";
import { isClockError } from "../../pipeline/helpers.ts";

const FIXTURES = new URL("../fixtures/views/", import.meta.url);
const PIPELINE = new URL("../../pipeline/", import.meta.url);
const CODE_URL = new URL("../../plugins/view_modes/_code.ts", import.meta.url).href;

interface Case {
  path: string;
  text: string;
}

/**
 * The view fixtures (twenty languages) and the first 20 of slop's own pipeline modules (156 KB):
 * real files, the same on every machine. The first 40 modules of python3's library, read here
 * before, made the tests depend on the machine and rendered 1 MB four times.
 */
async function realFiles(): Promise<Case[]> {
  const cases: Case[] = [];
  for await (const item of Deno.readDir(FIXTURES)) {
    const path = join(FIXTURES.pathname, item.name);
    cases.push({ path, text: await Deno.readTextFile(path) });
  }
  const names: string[] = [];
  for await (const item of Deno.readDir(PIPELINE)) {
    if (item.isFile && item.name.endsWith(".ts")) names.push(item.name);
  }
  for (const name of names.sort().slice(0, 20)) {
    const path = join(PIPELINE.pathname, name);
    cases.push({ path, text: await Deno.readTextFile(path) });
  }
  return cases.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * A Python file of at least `chars` characters that parses in milliseconds: a function, then one
 * string literal of padding lines. What a pool does with a large file depends on its size only.
 */
function largePython(chars: number): string {
  return `def f(x):\n    return x\n\nS = """${"padding\n".repeat(Math.ceil(chars / 8))}"""\n`;
}

/** Each case's rendering on this thread, by options and path: the tests compare with the same one. */
const rendered = new Map<string, ReturnType<typeof renderCode>>();

/**
 * Render every case on this thread, one after the other: the reference. A case rendered before with
 * the same options (in this test or another) is not rendered again: this thread's rendering is the
 * reference the pool's must equal, whichever test asks.
 */
async function reference(cases: Case[], options?: RenderCodeOptions) {
  const out = [];
  for (const c of cases) {
    const key = `${JSON.stringify(options ?? {})}\0${c.path}\0${c.text}`;
    if (!rendered.has(key)) rendered.set(key, renderCode(c.path, c.text, options));
    out.push(await rendered.get(key)!);
  }
  return out;
}

/** A worker script in `dir` that loads at once and answers every file with a marker instead of a rendering. */
/** Once a worker of `pool` has loaded (polled for up to 60 s: a loaded machine starts it late). */
async function loadedWorker(pool: { loaded: number }): Promise<void> {
  for (let i = 0; i < 6000 && !pool.loaded; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(pool.loaded, 1, "a worker loaded");
}

async function markerWorker(dir: string): Promise<string> {
  const path = join(dir, "marker_worker.js");
  await Deno.writeTextFile(
    path,
    `self.onmessage = (event) => event.data.id === undefined || self.postMessage({
  id: event.data.id,
  view: { text: "worker", symbols: [], hasErrors: false },
});
self.postMessage({ ready: true });
`,
  );
  return path;
}

Deno.test("codePool() renders real files byte-identical to this thread, with workers taking part", async () => {
  const cases = await realFiles();
  const pool = codePool({ threads: 2, minChars: 0 });
  for (const options of [{}, { rest: "hide" as const, mask: { "Foo.bar": "def" as const } }]) {
    const expected = await reference(cases, options);
    const actual = await Promise.all(cases.map((c) => pool.render(c.path, c.text, options)));
    actual.forEach((view, i) => assert.deepEqual(view, expected[i], cases[i].path));
  }
  assert.ok(pool.rendered.workers > 0, "a worker rendered files");
  assert.equal(pool.rendered.workers + pool.rendered.thisThread, cases.length * 2);
  assert.equal(pool.workers, 0, "idle workers are stopped");
});

Deno.test("codePool() renders on this thread when its worker cannot start", async () => {
  const dir = await tempDir();
  try {
    const broken = join(dir, "broken_worker.js");
    await Deno.writeTextFile(broken, `throw new Error("cannot start");\n`);
    const cases = (await realFiles()).slice(0, 12);
    const pool = codePool({ threads: 2, minChars: 0, workerUrl: new URL(`file://${broken}`) });
    const actual = await Promise.all(cases.map((c) => pool.render(c.path, c.text)));
    assert.deepEqual(actual, await reference(cases));
    assert.equal(pool.rendered.workers, 0);
    assert.equal(pool.rendered.thisThread, cases.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codePool() times a file from when a worker takes it, not from when it was queued", async () => {
  const dir = await tempDir();
  try {
    // A worker that takes 150 ms per file, one file at a time: ten files wait up to 1.5 s in all.
    const cases = (await realFiles()).filter((c) => c.text.length < 8000).slice(0, 10);
    const slow = join(dir, "slow_worker.js");
    await Deno.writeTextFile(
      slow,
      `import { renderCode } from ${JSON.stringify(CODE_URL)};
// Each file's grammar loaded before the worker says it is ready (a load is not a file's work, and
// took over the 1 s limit on a loaded machine): a file then takes 150 ms and its parse.
const warm = async () => {
  for (const [path, text] of ${JSON.stringify(cases.map((c) => [c.path, c.text]))}) {
    await renderCode(path, text);
  }
};
let chain = warm();
self.onmessage = (event) => {
  if (!("id" in event.data)) return; // where the grammars are: not a file
  const { id, path, text, options } = event.data;
  chain = chain.then(async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    self.postMessage({ id, view: await renderCode(path, text, options) });
  });
};
chain.then(() => self.postMessage({ ready: true }));
`,
    );
    const pool = codePool({
      threads: 2,
      minChars: 0,
      timeoutMs: 1000,
      workerUrl: `file://${slow}`,
    });
    const actual = await Promise.all(cases.map((c) => pool.render(c.path, c.text)));
    assert.deepEqual(actual, await reference(cases));
    assert.ok(pool.rendered.workers > 0, "the slow worker answered");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codePool() fails a file that takes longer than timeoutMs on a worker, naming the limit", async () => {
  const dir = await tempDir();
  try {
    const silent = join(dir, "silent_worker.js");
    await Deno.writeTextFile(
      silent,
      `self.onmessage = () => {};\nself.postMessage({ ready: true });\n`,
    );
    const pool = codePool({
      threads: 2,
      minChars: 0,
      timeoutMs: 100,
      workerUrl: `file://${silent}`,
    });
    // A clock's doing, not the file's: it fails the build rather than render the file otherwise.
    await assert.rejects(pool.render("a.py", "def f():\n    pass\n"), (error) => {
      assert.ok(isClockError(error));
      assert.match(String(error), /No result within 100 ms/);
      return true;
    });
    assert.equal(pool.workers, 0, "the stuck worker is stopped");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codePool() keeps a large file from a worker that has not loaded yet", async () => {
  const dir = await tempDir();
  try {
    // A worker that loads in 10 s and fails any file it was given: only this thread may render.
    const late = join(dir, "late_worker.js");
    await Deno.writeTextFile(
      late,
      `self.onmessage = (event) => self.postMessage({ id: event.data.id, error: "given to a worker" });
setTimeout(() => self.postMessage({ ready: true }), 10000);
`,
    );
    const cases = [
      { path: "a.py", text: largePython(300 * 1024) },
      { path: "b.py", text: largePython(400 * 1024) },
    ];
    assert.ok(cases.every((c) => c.text.length >= 256 * 1024));
    const pool = codePool({ threads: 2, minChars: 0, workerUrl: `file://${late}` });
    const actual = await Promise.all(cases.map((c) => pool.render(c.path, c.text)));
    assert.deepEqual(actual, await reference(cases));
    assert.equal(pool.rendered.thisThread, 2);
    assert.equal(pool.workers, 0, "the worker is stopped once the files are rendered");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codePool().prepare() starts the workers, renders byte-identical and holds them until released", async () => {
  const cases = await realFiles();
  const pool = codePool({ threads: 2, minChars: 1000 });
  const release = pool.prepare(cases.map((c) => ({ path: c.path, chars: c.text.length })));
  assert.equal(pool.workers, 1, "the worker starts before the files come");
  const expected = await reference(cases);
  const actual = await Promise.all(cases.map((c) => pool.render(c.path, c.text)));
  actual.forEach((view, i) => assert.deepEqual(view, expected[i], cases[i].path));
  assert.ok(pool.rendered.workers > 0, "a worker rendered files");
  assert.equal(pool.workers, 1, "an idle worker stays while the build is not done");
  release();
  assert.equal(pool.workers, 0, "released: the idle worker is stopped");
  release(); // a second call does nothing
  assert.equal(pool.workers, 0);
});

Deno.test("codePool().prepare() holds its worker while batches come for longer than the hold, and lets it go once idle", async () => {
  // A budget's step renders come in batches for minutes: a hold that ran out while files still
  // came stopped the worker after each batch, and the next batch started (and loaded) another.
  const dir = await tempDir();
  try {
    const cases = (await realFiles()).slice(0, 12);
    const holdMs = 200;
    const workerUrl = new URL(`file://${await markerWorker(dir)}`);
    const pool = codePool({ threads: 2, minChars: 0, workerUrl, holdMs });
    const release = pool.prepare(cases.map((c) => ({ path: c.path, chars: c.text.length })));
    await loadedWorker(pool);
    // Batch after batch, with no gap a timer could run in, for three holds' time.
    let batches = 0;
    for (const start = performance.now(); performance.now() - start < 3 * holdMs; batches++) {
      await Promise.all(cases.map((c) => pool.render(c.path, c.text)));
      assert.equal(pool.workers, 1, `the worker is held after batch ${batches + 1}`);
    }
    assert.ok(pool.rendered.workers >= batches, "the worker rendered in the batches");
    // Idle now: the hold runs out by itself (waited for, up to 60 s on a loaded machine).
    for (let i = 0; i < 6000 && pool.workers; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(pool.workers, 0, "idle for the hold: the worker is stopped");
    release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a worker started by prepare() takes the largest file of the burst, not the first to come", async () => {
  const dir = await tempDir();
  try {
    const marker = await markerWorker(dir);
    const small = { path: "a.py", text: "def f(x):\n    return x\n" };
    const large = { path: "b.py", text: `x = 1\n${"# padding\n".repeat(30_000)}` };
    assert.ok(large.text.length >= 256 * 1024, "a file as large holds the worker alone");
    const pool = codePool({ threads: 2, minChars: 0, workerUrl: `file://${marker}` });
    const release = pool.prepare(
      [small, large].map((c) => ({ path: c.path, chars: c.text.length })),
    );
    // The worker has loaded before the files come.
    await loadedWorker(pool);
    const [first, second] = await Promise.all(
      [small, large].map((c) => pool.render(c.path, c.text)),
    );
    release();
    assert.equal(second?.text, "worker", "the worker took the largest file");
    assert.deepEqual(first, await renderCode(small.path, small.text), "this thread took the other");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a worker holds at most one file waiting behind the one it renders", async () => {
  const dir = await tempDir();
  try {
    // Answers each file with a marker, 1.5 s after it came: this thread renders the rest meanwhile.
    const slow = join(dir, "slow_marker_worker.js");
    await Deno.writeTextFile(
      slow,
      `self.onmessage = (event) => event.data.id === undefined || setTimeout(() => self.postMessage({
  id: event.data.id,
  view: { text: "worker", symbols: [], hasErrors: false },
}), 1500);
self.postMessage({ ready: true });
`,
    );
    const pool = codePool({ threads: 2, minChars: 0, workerUrl: `file://${slow}` });
    const files = Array.from({ length: 10 }, (_, i) => ({
      path: `m${i}.py`,
      text: `def f${i}(x):\n    return x${"  ".repeat(i)}\n`,
    }));
    const views = await Promise.all(files.map((f) => pool.render(f.path, f.text)));
    assert.equal(
      views.filter((v) => v?.text === "worker").length,
      2,
      "two files went to the worker",
    );
    assert.equal(pool.rendered.workers, 2);
    assert.equal(pool.rendered.thisThread, 8, "this thread rendered the rest, not a backlog");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codePool().prepare() starts no worker for fewer characters than minChars or files without a grammar", () => {
  const pool = codePool({ threads: 2, minChars: 1000 });
  const small = pool.prepare([{ path: "a.py", chars: 999 }]);
  assert.equal(pool.workers, 0);
  const other = pool.prepare([{ path: "notes.md", chars: 100_000 }]);
  assert.equal(pool.workers, 0, "no grammar, no worker");
  small();
  other();
  const single = codePool({ threads: 1, minChars: 0 });
  single.prepare([{ path: "a.py", chars: 100_000 }])();
  assert.equal(single.workers, 0, "threads: 1 never starts a worker");
});

Deno.test("a code worker instantiates the .wasm modules this thread compiled instead of reading its own", async () => {
  const cases = (await realFiles()).filter((c) => /\.(py|ts)$/.test(c.path)).slice(0, 6);
  const grammars = [...new Set(cases.map((c) => languageFor(c.path)!.grammar))];
  for (const grammar of grammars) await parserFor(grammar);
  const modules = await compiledModules();
  assert.ok(modules.runtime instanceof WebAssembly.Module, "the runtime's module is kept");
  for (const grammar of grammars) {
    assert.ok(modules.grammars[grammar] instanceof WebAssembly.Module);
  }
  const urls = (await grammarUrls())!;
  // Every grammar's URL points nowhere: the worker can only render with the modules it is given.
  const nowhere = Object.fromEntries(
    Object.keys(urls.wasm).map((g) => [g, "file:///nowhere.wasm"]),
  );
  const worker = new Worker(new URL("../../plugins/view_modes/_code_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const answers = new Map<number, { view?: unknown; error?: string }>();
    const done = new Promise<void>((resolve) => {
      worker.onmessage = (event) => {
        if (event.data.ready) return;
        answers.set(event.data.id, event.data);
        if (answers.size === cases.length) resolve();
      };
    });
    worker.postMessage({ urls: { ...urls, wasm: nowhere }, modules });
    cases.forEach((c, id) => worker.postMessage({ id, path: c.path, text: c.text, options: {} }));
    await done;
    const expected = await reference(cases);
    cases.forEach((c, id) => assert.deepEqual(answers.get(id), { id, view: expected[id] }, c.path));
  } finally {
    worker.terminate();
  }
});

Deno.test("a code worker's static imports never reach deps.ts (it loads the runtime from the URLs it is given)", async () => {
  const root = new URL("../../", import.meta.url);
  const seen = new Set<string>();
  const visit = async (url: URL) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    const text = await Deno.readTextFile(url);
    // Value imports only: `import type` is erased, dynamic `import()` loads only when called.
    for (const m of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+"(\.[^"]+)"/gms)) {
      await visit(new URL(m[1], url));
    }
  };
  await visit(new URL("plugins/view_modes/_code_worker.ts", root));
  const files = [...seen].map((href) => href.slice(root.href.length)).sort();
  assert.ok(files.includes("plugins/view_modes/_code.ts"), files.join(", "));
  assert.ok(files.includes("grammars/tree_sitter.ts"), files.join(", "));
  assert.ok(!files.includes("deps.ts"), files.join(", "));
  assert.ok(!files.includes("grammars/parser.ts"), files.join(", "));
});

Deno.test("with two large files in a burst, this thread renders the largest and the worker that took the other stops", async () => {
  const dir = await tempDir();
  try {
    const marker = await markerWorker(dir);
    const small = { path: "a.py", text: "def f(x):\n    return x\n" };
    const largest = { path: "big.py", text: largePython(1_400_000) };
    const large = { path: "large.py", text: largePython(1_300_000) };
    assert.ok(large.text.length >= LARGE_FILE && largest.text.length > large.text.length);
    const pool = codePool({ threads: 2, minChars: 0, workerUrl: `file://${marker}` });
    const files = [small, large, largest];
    const release = pool.prepare(files.map((c) => ({ path: c.path, chars: c.text.length })));
    await loadedWorker(pool);
    const views = await Promise.all(files.map((c) => pool.render(c.path, c.text)));
    assert.equal(views[1]?.text, "worker", "the worker took the other large file");
    assert.deepEqual(
      views[2],
      await renderCode(largest.path, largest.text),
      "this thread kept the largest",
    );
    assert.equal(
      pool.workers,
      0,
      "the worker with a large tree stopped though the build holds the pool",
    );
    release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a code worker counts the characters it has parsed in the counter it is given", async () => {
  const cases = (await realFiles()).slice(0, 3);
  const progress = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL("../../plugins/view_modes/_code_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const answered = new Promise<void>((resolve) => {
      let n = 0;
      worker.onmessage = (event) => {
        if (!event.data.ready && ++n === cases.length) resolve();
      };
    });
    worker.postMessage({ urls: await grammarUrls(), modules: await compiledModules(), progress });
    cases.forEach((c, id) => worker.postMessage({ id, path: c.path, text: c.text, options: {} }));
    await answered;
    const chars = cases.reduce((sum, c) => sum + c.text.length, 0);
    assert.equal(Atomics.load(progress, 0), chars);
  } finally {
    worker.terminate();
  }
});

Deno.test("modulesNow() compiles the runtime's and the asked grammars' modules once, and the parsers use them", async () => {
  const first = modulesNow(["go", "java"])!;
  assert.ok(first.modules.runtime instanceof WebAssembly.Module);
  assert.ok(first.modules.grammars.go instanceof WebAssembly.Module);
  assert.ok(first.modules.grammars.java instanceof WebAssembly.Module);
  assert.match(first.urls.wasm.go, /^file:.*tree-sitter-go\.wasm$/);
  const again = modulesNow(["java"])!;
  assert.equal(
    again.modules.runtime,
    first.modules.runtime,
    "the runtime's module is compiled once",
  );
  assert.equal(again.modules.grammars.java, first.modules.grammars.java, "a grammar's too");
  await parserFor("java");
  const loaded = await compiledModules();
  assert.equal(loaded.runtime, first.modules.runtime, "the runtime loaded from the same module");
  assert.equal(loaded.grammars.java, first.modules.grammars.java, "the parser loaded from it");
});

Deno.test("a worker started by prepare() is sent the runtime's and the prepared grammars' modules in its first message", async () => {
  const dir = await tempDir();
  const report = join(dir, "first_message.json");
  const path = join(dir, "report_worker.js");
  await Deno.writeTextFile(
    path,
    `let first = true;
self.onmessage = (event) => {
  if (!first) return;
  first = false;
  const modules = event.data.modules ?? {};
  // Written aside and renamed into place: the test never reads it half written.
  Deno.writeTextFileSync(${JSON.stringify(report + ".tmp")}, JSON.stringify({
    runtime: modules.runtime instanceof WebAssembly.Module,
    grammars: Object.keys(modules.grammars ?? {}).filter((g) => modules.grammars[g] instanceof WebAssembly.Module).sort(),
    asked: event.data.grammars,
  }));
  Deno.renameSync(${JSON.stringify(report + ".tmp")}, ${JSON.stringify(report)});
};
self.postMessage({ ready: true });
`,
  );
  const pool = codePool({ threads: 2, minChars: 10, workerUrl: `file://${path}` });
  const release = pool.prepare([{ path: "a.rs", chars: 100 }, { path: "b.c", chars: 100 }]);
  try {
    let seen;
    // Polled for up to 60 s: a loaded machine starts the worker late.
    for (let i = 0; i < 6000 && !seen; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen = await Deno.readTextFile(report).then(JSON.parse, () => undefined);
    }
    assert.equal(seen.runtime, true);
    assert.ok(seen.grammars.includes("c") && seen.grammars.includes("rust"), seen.grammars);
    assert.deepEqual([...seen.asked].sort(), ["c", "rust"]);
  } finally {
    release();
  }
});

Deno.test("warmUp() leaves the parser parsing as a fresh one does", async () => {
  const parser = await parserFor("typescript");
  warmUp(parser);
  warmUp(parser); // once per thread: the second call does nothing
  const fresh = new (parser.constructor as new () => typeof parser)();
  fresh.setLanguage(parser.language);
  const text = await Deno.readTextFile(new URL("../../grammars/tree_sitter.ts", import.meta.url));
  const warm = parser.parse(text)!;
  const cold = fresh.parse(text)!;
  try {
    assert.equal(warm.rootNode.toString(), cold.rootNode.toString());
    assert.equal(warm.rootNode.hasError, false);
  } finally {
    warm.delete();
    cold.delete();
    fresh.delete();
  }
});

Deno.test("a process whose code pool holds a prepare it never released exits on its own", async () => {
  // The hold is far longer than the limit: a hold that keeps the process alive fails the test.
  const pool = new URL("../../plugins/view_modes/_code_pool.ts", import.meta.url).href;
  const script = [
    `import { codePool } from ${JSON.stringify(pool)};`,
    `const pool = codePool({ threads: 1, holdMs: 3_600_000 });`,
    `pool.prepare([{ path: "a.py", chars: 20 }]);`,
    `pool.prepare([{ path: "b.py", chars: 20 }]);`,
    `const view = await pool.render("a.py", "def f(x):\\n    return x\\n");`,
    `console.log(view?.text.trim());`,
  ].join("\n");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), 60_000));
  const output = child.output();
  const ended = await Promise.race([output, limit]);
  clearTimeout(timer);
  if (ended === "late") {
    child.kill("SIGKILL");
    await output;
    assert.fail("the process did not exit within 60 s");
  }
  assert.equal(ended.code, 0, new TextDecoder().decode(ended.stderr));
  assert.equal(new TextDecoder().decode(ended.stdout).trim(), "def f(x):\n    ...");
});
