import assert from "node:assert/strict";
import { join } from "node:path";
import {
  build,
  cacheStats,
  defaultPlugins,
  loadConfig,
  type SlopConfig,
  summaryViewMode,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, runCliShared, type Tree, V8_FLAGS } from "../_helpers.ts";
import { buildIn, entryFiles, marks } from "./_cache_helpers.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { buildContext } from "../../mod.ts";

const TREE: Tree = {
  "src/app.py": "import os\n\n\ndef main():\n    return os.getcwd()\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  "docs/guide.md": "# Guide\n\nInstall it.\n\n## Use\n\nRun it.\n",
  "config/settings.toml": 'name = "demo"\n[server]\nport = 8080\n',
  "notes.txt": "plain notes\n",
  "slop.config.ts": `export default {
  files: [
    "src/**", "docs/**", "config/**", "notes.txt",
    { path: "src/util.ts", view: "summary" },
    { path: "docs/guide.md", view: "custom", slices: [{ startLine: 1, endLine: 3, tag: "top" }] },
    { path: "notes.txt", view: "none" },
  ],
};
`,
};

Deno.test("a warm rebuild renders nothing; after one edit it renders exactly that file", async () => {
  const root = await makeProject(TREE);
  const state = join(root, ".state");
  const cold = await buildIn(root, state);
  assert.deepEqual(Object.values(marks(cold)), ["miss", "miss", "miss", "miss", "miss"]);
  const warm = await buildIn(root, state);
  assert.deepEqual(Object.values(marks(warm)), ["hit", "hit", "hit", "hit", "hit"]);
  assert.equal(warm.document, cold.document);
  assert.deepEqual(warm.manifest.blocks, cold.manifest.blocks);

  await Deno.writeTextFile(join(root, "src/app.py"), TREE["src/app.py"] + "\n\nX = 1\n");
  const edited = await buildIn(root, state);
  assert.deepEqual(marks(edited), {
    "config/settings.toml": "hit",
    "docs/guide.md": "hit",
    "notes.txt": "hit",
    "src/app.py": "miss",
    "src/util.ts": "hit",
  });
  // A fresh state dir without the cache, but with the same order memory (the file order is state).
  await Deno.mkdir(join(root, ".fresh", "order"), { recursive: true });
  await Deno.copyFile(
    join(state, "order", "context.json"),
    join(root, ".fresh", "order", "context.json"),
  );
  const fresh = await buildIn(root, join(root, ".fresh"), { cache: false });
  assert.equal(edited.document, fresh.document);
  assert.deepEqual(edited.manifest.blocks, fresh.manifest.blocks);
  assert.match(edited.document, /X = 1/);
});

Deno.test("the cache survives garbage, truncated and wrong-hash entries", async () => {
  const root = await makeProject(TREE);
  const state = join(root, ".state");
  const cold = await buildIn(root, state);
  const cache = join(state, "cache");
  // A cold build writes its entries into the project's pack, not one file each.
  assert.deepEqual(await entryFiles(cache), []);
  const stats = await cacheStats(cache);
  assert.equal(stats.packs.files, 1);
  assert.equal(
    stats.packs.entries,
    5 + cold.blocks.length + 1,
    "views, block counts and the secret scan's clean files",
  );
  // One edit: the few new entries go to entry files; the pack stays.
  await Deno.writeTextFile(join(root, "src/app.py"), "X = 1\n");
  const edited = await buildIn(root, state);
  const files = await entryFiles(cache);
  assert.ok(files.length >= 2, "the edited file's view and count");
  for (const [i, file] of files.entries()) {
    const bytes = await Deno.readFile(file);
    if (i % 3 === 0) await Deno.writeFile(file, crypto.getRandomValues(new Uint8Array(64)));
    else if (i % 3 === 1) await Deno.writeFile(file, bytes.subarray(0, bytes.length >> 1));
    else {
      const text = new TextDecoder().decode(bytes);
      const tail = text.slice(text.indexOf("\n") + 1);
      const changed = tail.replace(/\d/, (d) => String((Number(d) + 1) % 10));
      await Deno.writeTextFile(file, text.slice(0, text.indexOf("\n") + 1) + changed + " ");
    }
  }
  const survived = await buildIn(root, state);
  assert.equal(marks(survived)["src/app.py"], "miss");
  assert.equal(survived.document, edited.document);
  assert.deepEqual(survived.manifest.blocks, edited.manifest.blocks, "token counts recounted");
  const rewritten = await buildIn(root, state);
  assert.deepEqual(Object.values(marks(rewritten)), ["hit", "hit", "hit", "hit", "hit"]);
  assert.equal(rewritten.document, edited.document);
});

Deno.test("a build's pack serves the next build; a damaged pack costs only its damaged records", async () => {
  const root = await makeProject(TREE);
  const state = join(root, ".state");
  const cold = await buildIn(root, state);
  const packs = join(state, "cache", "packs");
  const [pack] = [...Deno.readDirSync(packs)].map((e) => join(packs, e.name));
  await Deno.writeFile(pack, crypto.getRandomValues(new Uint8Array(500)));
  const garbage = await buildIn(root, state);
  assert.deepEqual(Object.values(marks(garbage)), ["miss", "miss", "miss", "miss", "miss"]);
  assert.equal(garbage.document, cold.document);
  // The pack was rewritten: without entry files, it alone serves every view and count.
  for (const file of await entryFiles(join(state, "cache"))) await Deno.remove(file);
  const fromPack = await buildIn(root, state);
  assert.deepEqual(Object.values(marks(fromPack)), ["hit", "hit", "hit", "hit", "hit"]);
  assert.equal(fromPack.document, cold.document);
  // Flip one payload byte in the pack: that record fails its hash, the others still serve.
  const bytes = await Deno.readFile(pack);
  const needle = new TextEncoder().encode("os.getcwd()");
  const at = bytes.findIndex((_, i) => needle.every((b, j) => bytes[i + j] === b));
  assert.ok(at > 0);
  bytes[at] ^= 1;
  await Deno.writeFile(pack, bytes);
  const damaged = await buildIn(root, state);
  assert.deepEqual(marks(damaged)["src/app.py"], "miss");
  assert.equal(Object.values(marks(damaged)).filter((m) => m === "miss").length, 1);
  assert.equal(damaged.document, cold.document);
});

/** A view mode that counts its renders and takes its output from options and a key. */
function countingView(state: { renders: number; extra: string; version: string }): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "counted",
    version: state.version,
    render(file, ctx) {
      state.renders++;
      ctx.warn(`[plugin counted] rendered "${file.path}"`);
      return `${ctx.options.prefix ?? ""}${state.extra}:${file.text}`;
    },
    cacheKey: () => state.extra,
  };
}

async function buildInline(root: string, raw: SlopConfig) {
  const config = await loadConfig({ cwd: root, inline: raw, stateDir: join(root, ".state") });
  return await build(config, { builtins: defaultPlugins(), layer: speedLayer(), write: false });
}

Deno.test("the cache key follows plugin version, entry options and the cacheKey hook", async () => {
  const root = await makeProject({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  const state = { renders: 0, extra: "k1", version: "1" };
  const raw = (prefixForB = "") => ({
    files: ["*.txt", { path: "b.txt", options: { prefix: prefixForB } }],
    defaultView: "counted",
    plugins: [countingView(state)],
  });
  const first = await buildInline(root, raw());
  assert.equal(state.renders, 2);
  const second = await buildInline(root, raw());
  assert.equal(state.renders, 2, "nothing re-rendered");
  assert.equal(second.document, first.document);
  assert.deepEqual(second.warnings, first.warnings, "warnings are replayed from the cache");

  const optioned = await buildInline(root, raw(">"));
  assert.deepEqual(marks(optioned), { "a.txt": "hit", "b.txt": "miss" });
  assert.match(optioned.document, />k1:beta/);

  state.extra = "k2";
  const rekeyed = await buildInline(root, raw(">"));
  assert.deepEqual(marks(rekeyed), { "a.txt": "miss", "b.txt": "miss" });
  assert.match(rekeyed.document, /k2:alpha/);

  state.version = "2";
  const bumped = await buildInline(root, raw(">"));
  assert.deepEqual(marks(bumped), { "a.txt": "miss", "b.txt": "miss" });
  assert.equal(state.renders, 7);
});

Deno.test("a fallback's plugin version joins the entry; cacheable: false is never stored", async () => {
  const root = await makeProject({ "a.py": "def f():\n    pass\n" });
  // custom without slices falls back to summary: replacing summary must miss.
  const summary = (version: string): ViewModePlugin => ({
    kind: "view-mode",
    name: "slop:summary",
    version,
    render: (file) => `summary v${version} of ${file.path}`,
  });
  const raw = (version: string) => ({ defaultView: "custom", plugins: [summary(version)] });
  await buildInline(root, raw("1"));
  assert.deepEqual(marks(await buildInline(root, raw("1"))), { "a.py": "hit" });
  const replaced = await buildInline(root, raw("2"));
  assert.deepEqual(marks(replaced), { "a.py": "miss" });
  assert.match(replaced.document, /summary v2 of a\.py/);

  let renders = 0;
  const flaky: ViewModePlugin = {
    kind: "view-mode",
    name: "flaky",
    version: "1",
    render: () => ({ text: `try ${++renders}`, cacheable: false }),
  };
  const noStore = { defaultView: "flaky", plugins: [flaky] };
  await buildInline(root, noStore);
  const again = await buildInline(root, noStore);
  assert.deepEqual(marks(again), { "a.py": "miss" });
  assert.match(again.document, /try 2/);
});

Deno.test("slop build --no-cache reads and writes no cache; slop cache stats and clear", async () => {
  const root = await makeProject(TREE);
  const off = await runCliShared(["build", "--no-cache", "--json", "-q"], root);
  assert.equal(off.code, 0, off.stderr);
  assert.ok(JSON.parse(off.stdout).files.every((f: { cache: string }) => f.cache === "miss"));
  await assert.rejects(Deno.stat(join(root, ".slop", "cache")), Deno.errors.NotFound);

  await buildContext({ cwd: root }); // the cold build that fills the cache, in this process
  const warm = await runCliShared(["build", "--json", "-q"], root);
  assert.ok(JSON.parse(warm.stdout).files.every((f: { cache: string }) => f.cache === "hit"));
  assert.match((await runCliShared(["build"], root)).stdout, /\ncache: 5 of 5 rendered files from/);
  const offAgain = await runCliShared(["build", "--no-cache", "--json", "-q"], root);
  assert.ok(JSON.parse(offAgain.stdout).files.every((f: { cache: string }) => f.cache === "miss"));

  const stats = await runCliShared(["cache", "stats"], root);
  assert.equal(stats.code, 0, stats.stderr);
  const { packs } = await cacheStats(join(root, ".slop", "cache"));
  const entries = packs.entries;
  assert.ok(entries > 5);
  assert.match(
    stats.stdout,
    new RegExp(
      `\npacked entries: ${entries} in 1 pack file \\(.*\\)\nentry files besides the packs: `,
    ),
  );
  assert.match(stats.stdout, /last build: files 5\/5 hits \(100%\), token counts \d+\/\d+ hits/);
  const json = JSON.parse((await runCliShared(["cache", "stats", "--json"], root)).stdout);
  assert.deepEqual(json.lastBuild.files, { hits: 5, misses: 0 });

  const clear = await runCliShared(["cache", "clear"], root);
  assert.equal(clear.code, 0, clear.stderr);
  assert.match(clear.stdout, new RegExp(`removed ${entries} cache entries`));
  assert.match(
    (await runCliShared(["cache", "stats"], root)).stdout,
    /\nentry files besides the packs: 0 \(0 B\)\nlast build: none/,
  );
  const cold = await runCliShared(["build", "--json", "-q"], root);
  assert.ok(JSON.parse(cold.stdout).files.every((f: { cache: string }) => f.cache === "miss"));
});

Deno.test("concurrent builds in separate processes share one cache", async () => {
  const tree: Tree = { ...TREE };
  for (let i = 0; i < 40; i++) tree[`gen/m${i}.py`] = `def f${i}():\n    return ${i}\n`.repeat(20);
  tree["slop.config.ts"] = "export default {};\n";
  const root = await makeProject(tree);
  const runs = await Promise.all(
    [1, 2, 3].map(() => runCliShared(["build", "--stdout", "-q"], root)),
  );
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  assert.equal(runs[1].stdout, runs[0].stdout);
  assert.equal(runs[2].stdout, runs[0].stdout);
  const warm = await runCliShared(["build", "--json", "-q"], root);
  const files = JSON.parse(warm.stdout).files as Array<{ cache: string }>;
  assert.equal(files.length, Object.keys(tree).length, "every file, the config too");
  assert.ok(files.every((f) => f.cache === "hit"));
  const stats = await cacheStats(join(root, ".slop", "cache"));
  assert.equal(stats.tempFiles, 0);
});

Deno.test("a warm build loads no tokenizer; a build with one edit loads it", async () => {
  const root = await makeProject(TREE);
  await buildContext({ cwd: root }); // the cold build, in this process: the probes are the test
  const probe = async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        V8_FLAGS,
        `import { buildContext } from ${
          JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
        };
         import { loadedTables } from ${
          JSON.stringify(new URL("../../pipeline/count.ts", import.meta.url).href)
        };
         await buildContext({ cwd: ${JSON.stringify(root)} }, { workers: 1 });
         console.log(JSON.stringify(loadedTables()));`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  };
  assert.deepEqual(await probe(), []);
  await Deno.writeTextFile(join(root, "notes.txt"), "changed notes\n");
  await Deno.writeTextFile(join(root, "src/app.py"), "def other():\n    pass\n");
  assert.deepEqual(await probe(), ["o200k"]);
});

Deno.test("summaryViewMode() factory options join the cache key", async () => {
  const root = await makeProject({ "a.py": "def one():\n    pass\n\n\ndef two():\n    pass\n" });
  const raw = (maxNames: number) => ({
    defaultView: "summary",
    plugins: [summaryViewMode({ maxNames })],
  });
  const wide = await buildInline(root, raw(10));
  assert.deepEqual(marks(await buildInline(root, raw(10))), { "a.py": "hit" });
  const narrow = await buildInline(root, raw(1));
  assert.deepEqual(marks(narrow), { "a.py": "miss" });
  assert.notEqual(narrow.document, wide.document);
});
