import assert from "node:assert/strict";
import { join } from "node:path";
import { build, type BuildResult, defaultPlugins, loadConfig } from "../../mod.ts";
import { makeProject, tempDir, type Tree } from "../_helpers.ts";
import { type Resident, resident } from "../../accel/resident.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { differenceServed } from "../../accel/count_diff.ts";
import { derivedMemo } from "../../accel/derived_memo.ts";
import { takeParts, textParts } from "../../pipeline/block_parts.ts";
import { renderFileBlock } from "../../plugins/sections/_render.ts";
import type { RenderedFile } from "../../pipeline/types.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { textBacking } from "../../pipeline/lazy_text.ts";
import { tallyWork } from "../../pipeline/helpers.ts";

const SECRET = "sk-or-v1-" + "a1b2c3d4".repeat(8);

const TREE: Tree = {
  "src/env.txt": `OPENROUTER=${SECRET}\n`,
  "src/app.py": "import os\n\n\ndef main():\n    return os.getcwd()\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  "src/blob.txt": `data:image/png;base64,${"QUJD".repeat(400)}\n`,
  "docs/guide.md": "# Guide\n\nInstall it.\n",
  "slop.config.ts": `export default {
  files: ["src/**", "docs/**", { path: "src/util.ts", view: "summary" }],
};
`,
};

/**
 * A build without a resident or cache, from the same order memory as `state` (once `kept` has
 * written it: a resident build commits its order after it returns).
 */
async function freshBuild(root: string, state: string, kept: Resident): Promise<BuildResult> {
  await kept.settled();
  const fresh = await tempDir({ dir: root, prefix: ".fresh" });
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  await Deno.copyFile(join(state, "order", "context.json"), join(fresh, "order", "context.json"));
  const config = await loadConfig({ cwd: root, stateDir: fresh, reload: true });
  config.cache.enabled = false;
  return await build(config, { builtins: defaultPlugins(), write: false });
}

function assertSame(a: BuildResult, b: BuildResult): void {
  assert.equal(a.document, b.document);
  assert.deepEqual(a.manifest.blocks, b.manifest.blocks);
  assert.deepEqual(a.manifest.prefix, b.manifest.prefix);
  assert.deepEqual(a.manifest.total, b.manifest.total);
  const unmarked = (r: BuildResult) => r.manifest.files.map(({ cache: _, ...f }) => f);
  assert.deepEqual(unmarked(a), unmarked(b));
}

/** A project of `TREE` with a state dir, a resident, the built-in plugins and its config. */
async function residentProject(aged?: string) {
  const root = aged ?? await makeProject(TREE);
  const state = join(root, ".state");
  const config = await loadConfig({ cwd: root, stateDir: state });
  return { root, state, kept: resident(), builtins: defaultPlugins(), config };
}

/**
 * Projects of the tests that wait out the racy window (files changed less than RACY_MS before a
 * build's read are looked at again anyway), written together and waited for once.
 */
let aged: Promise<string[]> | undefined;
function agedRoots(): Promise<string[]> {
  aged ??= (async () => {
    const roots = [await makeProject(TREE), await makeProject(TREE)];
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
    return roots;
  })();
  return aged;
}
// Started as the module loads, so the wait runs while the tests before the first that asks do.
agedRoots();

/**
 * Counts the renders the resident's memo gives back: an entry used (the memo holds a render by
 * path, and marks it used when its key is the file's), with `onGiven` told of each.
 */
function countGiven(
  kept: ReturnType<typeof resident>,
  onGiven?: (given: RenderedFile) => void,
): { given: number } {
  const count = { given: 0 };
  const use = kept.rendered.use!.bind(kept.rendered);
  kept.rendered.use = (entry) => {
    const used = use(entry);
    if (used) count.given++;
    if (used) onGiven?.(entry.value.file);
    return used;
  };
  return count;
}

Deno.test("builds with a resident (slop watch) give the same bytes as fresh builds, edit after edit", async () => {
  const project = await residentProject();
  const { root, state, kept, builtins } = project;
  let config = project.config;
  const rebuild = async () => {
    const result = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
    assertSame(result, await freshBuild(root, state, kept));
    assert.doesNotMatch(result.document, new RegExp(SECRET));
    assert.deepEqual(result.manifest.secrets?.map((s) => s.path), ["src/env.txt"]);
    return result;
  };
  const first = await rebuild();
  assert.match(first.document, /\[data:image\/png;base64, 1200 bytes/);

  // A modification of a listed file: the file list is kept, the file is read and rendered.
  await Deno.writeTextFile(join(root, "src/app.py"), TREE["src/app.py"] + "X = 1\n");
  kept.changed(["src/app.py"], false);
  const edited = await rebuild();
  assert.match(edited.document, /X = 1/);
  assert.equal(edited.files.find((f) => f.path === "src/app.py")?.cache, "miss");
  assert.equal(edited.files.find((f) => f.path === "docs/guide.md")?.cache, "hit");

  // A new file: the file list is resolved again.
  await Deno.writeTextFile(join(root, "src/new.py"), "NEW = 2\n");
  kept.changed(["src/new.py"], true);
  const added = await rebuild();
  assert.match(added.document, /NEW = 2/);

  // The same text again (an edit undone): the earlier build's memos give the earlier bytes.
  await Deno.writeTextFile(join(root, "src/app.py"), TREE["src/app.py"] as string);
  kept.changed(["src/app.py"], false);
  const undone = await rebuild();
  assert.doesNotMatch(undone.document, /X = 1/);

  // A new config (another view and tokenizer-free format change): memos keyed by their inputs.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["src/**", "docs/**"], defaultView: "summary" };\n`,
  );
  config = await loadConfig({ cwd: root, stateDir: state, reload: true });
  const reconfigured = await rebuild();
  assert.match(reconfigured.document, /\*\*Python\*\*/);

  // A removed file, reported as a removal: it leaves the document.
  await Deno.remove(join(root, "src/new.py"));
  kept.changed(["src/new.py"], true);
  const removed = await rebuild();
  assert.doesNotMatch(removed.document, /src\/new\.py/);
});

Deno.test("a resident rebuild of a large document writes the file a fresh build writes", async () => {
  const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
  const root = await makeProject({
    "big/a.txt": line.repeat(15_000),
    "big/b.txt": line.repeat(15_000).toUpperCase(),
    "small.txt": "small\n",
    "slop.config.ts": `export default { files: ["big/*.txt", "small.txt"] };\n`,
  });
  const state = join(root, ".state");
  const kept = resident();
  const builtins = defaultPlugins();
  const config = await loadConfig({ cwd: root, stateDir: state });
  const first = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  const out = join(state, "out");
  for (const [i, text] of ["small, edited\n", "small\n", "x".repeat(3000) + "\n"].entries()) {
    await Deno.writeTextFile(join(root, "small.txt"), text);
    kept.changed(["small.txt"], false);
    const next = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
    const written = await Deno.readTextFile(next.output!.document);
    assert.equal(written, next.document, `rebuild ${i + 1}`);
    assertSame(next, await freshBuild(root, state, kept));
  }
  assert.equal(await Deno.readTextFile(first.output!.document), first.document);
  // The draft of a next document (a hidden copy of the last one) is removed when the process stops.
  const hidden = async () => {
    const names: string[] = [];
    for await (const e of Deno.readDir(out)) if (e.name.endsWith(".tmp")) names.push(e.name);
    return names;
  };
  await kept.lastDocument();
  assert.equal((await hidden()).length, 1);
  await kept.close();
  assert.deepEqual(await hidden(), []);
  await Deno.remove(root, { recursive: true }); // 7 MB of outputs
});

Deno.test("a resident build writes its cache after it returns: once settled, a new process's build finds it", async () => {
  const { root, state, kept, builtins, config } = await residentProject();
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  await Deno.writeTextFile(join(root, "docs/guide.md"), "# Guide\n\nInstall it twice.\n");
  kept.changed(["docs/guide.md"], false);
  const edited = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  await kept.close();
  const again = await build(await loadConfig({ cwd: root, stateDir: state, reload: true }), {
    builtins: defaultPlugins(),
    write: false,
  });
  assert.equal(again.document, edited.document);
  assert.deepEqual(again.files.map((f) => f.cache), again.files.map(() => "hit"));
});

Deno.test("a resident rebuild looks at every file again after anything but modifications", async () => {
  // Past the racy window: files changed less than RACY_MS before a build's read are looked at again.
  const { root, state, kept, builtins, config } = await residentProject((await agedRoots())[0]);
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  // Told of one modification: that file is read again.
  await Deno.writeTextFile(join(root, "src/app.py"), "APP = 1\n");
  kept.changed(["src/app.py"], false);
  const edited = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  assert.match(edited.document, /APP = 1/);
  assertSame(edited, await freshBuild(root, state, kept));
  // A modification nobody reported is not looked at (the watcher reports every one)...
  await Deno.writeTextFile(join(root, "docs/guide.md"), "# Guide\n\nRead it.\n");
  kept.changed(["src/app.py"], false);
  assert.doesNotMatch(
    (await build(config, { builtins, layer: speedLayer({ resident: kept }) })).document,
    /Read it\./,
  );
  // ...but after a file is created, every file is looked at.
  await Deno.writeTextFile(join(root, "src/app.py"), "APP = 2\n");
  await Deno.writeTextFile(join(root, "src/other.py"), "OTHER = 3\n");
  kept.changed(["src/other.py"], true);
  const added = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  assert.match(added.document, /Read it\./);
  assert.match(added.document, /OTHER = 3/);
  assertSame(added, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a resident rebuild counts an edited block against its last text in memory; same bytes as a fresh build", async () => {
  const line = "def f(x):\n    return x + 1\n";
  const root = await makeProject({
    "big.py": line.repeat(2000),
    "slop.config.ts": `export default { files: ["big.py"] };\n`,
  });
  const state = join(root, ".state");
  const kept = resident();
  const builtins = defaultPlugins();
  const config = await loadConfig({ cwd: root, stateDir: state });
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  // The last document is not read back: the count comes from the memo even without it.
  for await (const e of Deno.readDir(join(state, "out"))) {
    if (e.name.endsWith(".md")) await Deno.remove(join(state, "out", e.name));
  }
  const served = differenceServed();
  await Deno.writeTextFile(join(root, "big.py"), line.repeat(1000) + "X = 2\n" + line.repeat(1000));
  kept.changed(["big.py"], false);
  const edited = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  assert.equal(differenceServed(), served + 1);
  assertSame(edited, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a block a resident process rendered before is read by its parts in the next build too", () => {
  const text = "let x = 1; // é\n".repeat(2000);
  const fileOf = (): RenderedFile => ({
    path: "a.ts",
    text,
    fenced: true,
    status: "rendered",
    language: "ts",
    view: "full",
    sha256: "",
    bytes: 0,
  });
  const memo = derivedMemo();
  memo.turn();
  const before = renderFileBlock(fileOf(), memo);
  // The next build: a new file object with the same text (as the view memo gives it).
  memo.turn();
  const file = fileOf();
  const block = { text: renderFileBlock(file, memo) };
  assert.equal(block.text, before);
  // Read part by part: V8 would copy a joined text read whole into one flat string.
  assert.equal(takeParts(block, file), true);
  assert.equal(textParts(block)[1], text);
});

Deno.test("a resident hands sections its memo of values made from texts: made once while builds use them, made again without a resident", async () => {
  const made = globalThis as { slopDerivedMade?: number };
  const root = await makeProject({
    "a.py": "A = 1\n",
    "slop.config.ts": `export default {
  files: ["a.py"],
  plugins: [{
    kind: "section",
    name: "made",
    compose(_state, ctx) {
      const g = globalThis;
      ctx.derived("a text", "made", () => (g.slopDerivedMade = (g.slopDerivedMade ?? 0) + 1));
      return [];
    },
  }],
};
`,
  });
  const config = await loadConfig({ cwd: root });
  const builds = async (layer: ReturnType<typeof speedLayer>, n: number) => {
    made.slopDerivedMade = 0;
    for (let i = 0; i < n; i++) {
      await build(config, { builtins: defaultPlugins(), layer, write: false });
    }
    return made.slopDerivedMade;
  };
  const kept = resident();
  try {
    assert.equal(await builds(speedLayer({ resident: kept }), 3), 1);
    assert.equal(await builds(speedLayer(), 3), 3);
  } finally {
    await kept.close();
    delete made.slopDerivedMade;
  }
  // Two generations: a value neither this build nor the last one used is made again.
  const memo = derivedMemo();
  let count = 0;
  memo.derived("t", "s", () => ++count);
  memo.turn();
  memo.turn();
  memo.derived("t", "s", () => ++count);
  memo.turn();
  assert.equal(memo.derived("t", "s", () => ++count), 2);
});

Deno.test("a resident gives a file rendered before again, as the cache has it, with its warnings, while nothing it depends on changed", async () => {
  const root = await makeProject({
    "src/store.py": "class Store:\n    def get(self):\n        return 1\n",
    "src/other.py": "X = 1\n",
    "slop.config.ts": `export default {
  files: ["src/other.py", { path: "src/store.py", view: "masked", mask: { "Store.gone": "def" } }],
};
`,
  });
  const state = join(root, ".state");
  const kept = resident();
  const renders = countGiven(kept);
  const builtins = defaultPlugins();
  const config = await loadConfig({ cwd: root, stateDir: state });
  const warning = /Mask names no symbol "Store\.gone" in "src\/store\.py"/;
  const results: BuildResult[] = [];
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(join(root, "src/other.py"), `X = ${i}\n`);
    kept.changed(["src/other.py"], false);
    results.push(await build(config, { builtins, layer: speedLayer({ resident: kept }) }));
  }
  // Rendered (and stored in the cache), then given again by the resident, as the cache has it:
  // reported as taken from the cache, as a build without a resident would.
  assert.deepEqual(results.map((r) => r.files.find((f) => f.path === "src/store.py")?.cache), [
    "miss",
    "hit",
    "hit",
  ]);
  assert.equal(renders.given, 2);
  for (const result of results) assert.ok(result.warnings.some((w) => warning.test(w)));
  assertSame(results[2], await freshBuild(root, state, kept));
  assert.match(results[2].document, /X = 2/);

  // Another entry for the file (a config loaded again): rendered for it, not given again.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["src/**"], defaultView: "skeleton" };\n`,
  );
  const reloaded = await loadConfig({ cwd: root, stateDir: state, reload: true });
  const next = await build(reloaded, { builtins, layer: speedLayer({ resident: kept }) });
  assert.equal(renders.given, 2);
  assert.match(next.document, /def get\(self\):\n {8}\.\.\./);
  assert.ok(!next.warnings.some((w) => warning.test(w)));
});

Deno.test("resident builds told only that anything may have changed (a build server) give the same bytes as fresh builds", async () => {
  const { root, state, kept, builtins, config } = await residentProject((await agedRoots())[1]);
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  const rebuild = async () => {
    kept.changed([], true);
    const result = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
    assertSame(result, await freshBuild(root, state, kept));
    return result;
  };
  await Deno.writeTextFile(join(root, "src/app.py"), "APP = 1\n");
  assert.match((await rebuild()).document, /APP = 1/);
  await Deno.writeTextFile(join(root, "src/other.py"), "OTHER = 3\n");
  assert.match((await rebuild()).document, /OTHER = 3/);
  await Deno.remove(join(root, "docs/guide.md"));
  assert.doesNotMatch((await rebuild()).document, /Install it/);
  await kept.close();
});

Deno.test("a resident build takes the order it wrote from memory only while the file is the one it wrote", async () => {
  const { root, state, kept, builtins, config } = await residentProject();
  await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  await kept.settled();
  const path = join(state, "order", "context.json");
  assert.equal(kept.orders.size, 1);
  // Another process writes another order (the files' order reversed), as slop writes it: a new
  // file renamed into place (rewritten in place with the same size within the same millisecond, a
  // file's inode, size and time could not tell). The next build follows it.
  const written = JSON.parse(await Deno.readTextFile(path));
  written.files.reverse();
  await Deno.writeTextFile(`${path}.other`, JSON.stringify(written) + "\n");
  await Deno.rename(`${path}.other`, path);
  kept.changed(["src/app.py"], false);
  const next = await build(config, { builtins, layer: speedLayer({ resident: kept }) });
  const fresh = await freshBuild(root, state, kept);
  assertSame(next, fresh);
  const order = (r: BuildResult) => r.blocks.filter((b) => b.source).map((b) => b.source);
  assert.deepEqual(order(next), written.files.map((f: { path: string }) => f.path));
  await kept.close();
});

Deno.test("a resident's list of files found clean holds for the secret rules it was made with only", async () => {
  const root = await makeProject({
    "a.txt": "order ACME-12345678 shipped\n",
    "b.txt": "nothing here\n",
    "slop.config.ts": `export default { files: ["*.txt"] };\n`,
  });
  const state = join(root, ".state");
  const kept = resident();
  const builtins = defaultPlugins();
  const config = await loadConfig({ cwd: root, stateDir: state });
  assert.match(
    (await build(config, { builtins, layer: speedLayer({ resident: kept }) })).document,
    /ACME-12345678/,
  );
  // A rule added (a config reloaded): a file found clean under the old rules is scanned again.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["*.txt"], secrets: { rules: { acme: "ACME-[0-9]{8}" } } };\n`,
  );
  const reloaded = await loadConfig({ cwd: root, stateDir: state, reload: true });
  kept.changed(["slop.config.ts"], true);
  const next = await build(reloaded, { builtins, layer: speedLayer({ resident: kept }) });
  assert.doesNotMatch(next.document, /ACME-12345678/);
  assert.deepEqual(next.manifest.secrets?.map((s) => s.path), ["a.txt"]);
  await kept.close();
});

Deno.test("a resident with a quiet time starts the work a build left after it, or when asked", async () => {
  const kept = resident({ quietMs: 60_000 });
  const done: string[] = [];
  kept.defer(() => Promise.resolve(void done.push("cache")));
  kept.keepDocument(undefined);
  kept.release();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(done.join(), "", "nothing runs during the quiet time");
  // A server waits for the work without hurrying it; the next build asks for it.
  const waited = kept.settled({ hurry: false }).then(() => done.push("waited"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(done.join(), "");
  await kept.settled();
  await waited;
  assert.equal(done.join(), "cache,waited");
  // Asked for once, work queued before the next build returns does not wait either.
  kept.defer(() => Promise.resolve(void done.push("more")));
  await kept.settled({ hurry: false });
  assert.equal(done.join(), "cache,waited,more");
  // The next build returns: its work waits again, and close() does not.
  kept.defer(() => Promise.resolve(void done.push("last")));
  kept.release();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(done.includes("last"), false);
  await kept.close();
  assert.equal(done.join(), "cache,waited,more,last");
});

/**
 * The characters of texts a resident's memos hold in memory after `builds` (each a build of the
 * project with `spillAfter`), counted from what the memos were given: the rendered files, their
 * views' outputs and the file blocks (a text kept in a spill counts nothing).
 */
async function residentHeld(spillAfter: number | false) {
  const tree: Tree = { "slop.config.ts": `export default { files: ["src/**"] };\n` };
  let chars = 0;
  for (let i = 0; i < 24; i++) {
    // 2-3 KB each, over the spill's 1,024 characters; full views and skeletons.
    const text = Array.from(
      { length: 40 + i },
      (_, k) => `def f${i}_${k}(x):\n    return x + ${k}\n`,
    )
      .join("");
    tree[`src/m${i}.${i % 3 ? "py" : "txt"}`] = text;
    chars += text.length;
  }
  const root = await makeProject(tree);
  const state = join(root, ".state");
  const kept = resident();
  // What the memos are given: the rendered files and their outputs, and the files' blocks.
  const texts: Array<{ text?: string }> = [];
  const setRendered = kept.rendered.set.bind(kept.rendered);
  kept.rendered.set = (
    key,
    value,
  ) => (texts.push(value.file, value.output), setRendered(key, value));
  const setBlock = kept.blocks.set.bind(kept.blocks);
  kept.blocks.set = (
    key,
    value,
  ) => (key.startsWith("files:") && texts.push(value), setBlock(key, value));
  const held = (target: { text?: string }) => (textBacking(target) ? 0 : target.text?.length ?? 0);
  const builtins = defaultPlugins();
  const config = await loadConfig({ cwd: root, stateDir: state });
  const layer = speedLayer({ resident: kept, spillAfter });
  const results: BuildResult[] = [];
  for (const edit of ["", "Y = 1\n"]) {
    await Deno.writeTextFile(join(root, "src/m1.py"), tree["src/m1.py"] + edit);
    kept.changed(["src/m1.py"], false);
    results.push(await build(config, { builtins, layer }));
  }
  // The same bytes as a fresh build (read before the resident ends: its texts go with it).
  assertSame(results[1], await freshBuild(root, state, kept));
  const cached = results[1].files.filter((f) => f.cache === "hit").length;
  const document = results[1].document;
  await kept.close();
  return {
    chars,
    held: texts.reduce((n, t) => n + held(t), 0),
    texts: texts.length,
    cached,
    document,
  };
}

Deno.test("a resident over a tree past the spill's threshold keeps its renders' texts in the spill: its memos hold records, its builds the same bytes", async () => {
  const spilled = await residentHeld(0);
  // The rendered files, outputs and blocks of 24 files, and of the edited file again.
  assert.ok(spilled.texts >= 2 * 24, `only ${spilled.texts} texts given to the memos`);
  assert.equal(spilled.held, 0, `the memos hold ${spilled.held} characters of texts`);
  assert.match(spilled.document, /Y = 1/);
  // The second build took its unchanged files from the memos (not rendered again).
  assert.equal(spilled.cached, 23);
  // Without the spill, the same memos hold every text (the count is not blind).
  const inMemory = await residentHeld(false);
  assert.ok(inMemory.held >= spilled.chars, `${inMemory.held} of ${spilled.chars} characters`);
  assert.equal(inMemory.document, spilled.document);
});

Deno.test("a resident rebuild after a one-file edit looks each block up in the block memo once; same bytes as a fresh build", async () => {
  const { root, state, kept, builtins, config } = await residentProject();
  const layer = () => speedLayer({ resident: kept });
  await build(config, { builtins, layer: layer() });
  // Every look of the block memo, counted from here on.
  let looks = 0;
  const get = kept.blocks.get;
  kept.blocks.get = (id) => {
    looks++;
    return get(id);
  };
  await Deno.writeTextFile(join(root, "src/app.py"), "import os\n\n\ndef main():\n    return 2\n");
  kept.changed(["src/app.py"], false);
  const edited = await build(config, { builtins, layer: layer() });
  // The order and the count stages ask for every block: the memo is looked at once a block, and
  // three times more for the edited file's block, which it did not know (the count's look, its
  // count by difference against the last text, its placing). Before, three times every block.
  const blocks = edited.manifest.blocks.length;
  assert.ok(looks <= blocks + 3, `${looks} looks of the block memo for ${blocks} blocks`);
  assert.ok(looks >= blocks - 1, `${looks} looks for ${blocks} blocks: the count is not blind`);
  assertSame(edited, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a config loaded again leaves a resident one generation of memos: renders of the same values given again, the others let go as the build ends", async () => {
  const tree = pythonModules(24);
  const root = await makeProject(tree);
  const state = join(root, ".state");
  const kept = resident();
  const renders = countGiven(kept);
  const builtins = defaultPlugins();
  const layer = speedLayer({ resident: kept, spillAfter: 0 });
  const load = () => loadConfig({ cwd: root, stateDir: state, reload: true });
  const first = await build(await load(), { builtins, layer });
  const once = kept.held();
  assert.equal(once.rendered, 24);
  // The same file loaded again (a new config object, the same values): every render given again.
  const again = await build(await load(), { builtins, layer });
  assert.deepEqual(kept.held(), once);
  assert.equal(renders.given, 24);
  assert.equal(again.document, first.document);
  // Another entry whose files render the same texts: rendered anew, the blocks known by reading
  // their texts once, then kept with the new texts (the first build's spill file let go).
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: [{ path: "src/**", maxBytes: 1048576 }] };\n`,
  );
  const same = await load();
  assert.equal((await build(same, { builtins, layer })).document, first.document);
  assert.deepEqual(kept.held(), once);
  // The next build reads no text back to know its blocks (48 decoded when the memo kept the
  // first build's texts: each look read the old text and the new).
  const rebuilt = await tallyWork(() => build(same, { builtins, layer }));
  assert.equal(rebuilt.get("texts decoded") ?? 0, 0);
  // Other values (another view): the renders of the full view are let go as the build ends.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["src/**"], defaultView: "skeleton" };\n`,
  );
  let other: BuildResult | undefined;
  const work = await tallyWork(async () => other = await build(await load(), { builtins, layer }));
  assert.equal(renders.given, 48);
  // No look of the block memo reads the old text and the new one back (their lengths differ):
  // 86 texts decoded (137 when each look read both).
  const decoded = work.get("texts decoded") ?? 0;
  assert.ok(decoded <= 4 * 24, `${decoded} texts decoded for 24 files`);
  assert.deepEqual(kept.held(), once);
  assert.match(other!.document, /def f0_0\(x\):\n {4}\.\.\./);
  assertSame(other!, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a resident's cold build moves its kept renders' texts to the cache's pack once written: its spill file is removed, its rebuilds the same bytes", async () => {
  const tree: Tree = { "slop.config.ts": `export default { files: ["src/**"] };\n` };
  for (let i = 0; i < 24; i++) {
    // 2-3 KB each, over the spill's 1,024 characters; a third of them not ASCII.
    const word = i % 3 === 0 ? "café" : "cafe";
    tree[`src/m${i}.py`] = Array.from(
      { length: 40 + i },
      (_, k) => `def f${i}_${k}(x):\n    return "${word}" + x * ${k}\n`,
    ).join("");
  }
  const root = await makeProject(tree);
  const state = join(root, ".state");
  const kept = resident();
  const renders = countGiven(kept);
  const builtins = defaultPlugins();
  const layer = speedLayer({ resident: kept, spillAfter: 0 });
  const config = await loadConfig({ cwd: root, stateDir: state });
  await build(config, { builtins, layer });
  // While the cold build's cache writes wait, its renders read their texts from its spill file.
  const before = kept.spills();
  assert.equal(before.files, 1);
  assert.ok(before.bytes > 24 * 2000, `${before.bytes} bytes spilled`);
  // Written: the renders read them from the pack, and the spill file is closed and removed.
  await kept.settled();
  assert.deepEqual(kept.spills(), { files: 0, bytes: 0 });
  // The kept renders are given again, read from the pack: the same bytes as a fresh build.
  await Deno.writeTextFile(join(root, "src/m5.py"), "def g():\n    return 5\n", { append: true });
  kept.changed(["src/m5.py"], false);
  const given: RenderedFile[] = [];
  const use = kept.rendered.use!;
  kept.rendered.use = (entry) => {
    const used = use(entry);
    if (used) given.push(entry.value.file);
    return used;
  };
  const edited = await build(config, { builtins, layer });
  assert.equal(renders.given, 23);
  // Their texts, read from the pack (the spill file is gone), are the files'.
  for (const file of given) {
    assert.ok(textBacking(file), file.path);
    assert.equal(file.text, await Deno.readTextFile(join(root, file.path)));
  }
  assertSame(edited, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a config loaded again that renders every file anew leaves a resident no spill file once its cache is written, past the spill's threshold or not", async () => {
  const tree: Tree = { "slop.config.ts": `export default { files: ["src/**"] };\n` };
  for (let i = 0; i < 24; i++) {
    tree[`src/m${i}.py`] = Array.from(
      { length: 40 + i },
      (_, k) => `def f${i}_${k}(x):\n    return x * ${k}\n`,
    ).join("");
  }
  const root = await makeProject(tree);
  // Past the racy window (files changed just before a build's read are read again): the stat
  // index takes them unread, and the reload's views read them as they render.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  const state = join(root, ".state");
  const kept = resident();
  const builtins = defaultPlugins();
  // About half of the texts' characters stay in memory, the others are spilled.
  const layer = speedLayer({ resident: kept, spillAfter: 30_000 });
  const load = () => loadConfig({ cwd: root, stateDir: state, reload: true });
  const first = await build(await load(), { builtins, layer });
  await kept.settled();
  assert.deepEqual(kept.spills(), { files: 0, bytes: 0 });
  // Another entry: every file rendered anew, the renders kept with their texts in a new spill
  // (past the threshold) or in memory (before it), then moved to the pack rewritten for them.
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: [{ path: "src/**", maxBytes: 1048576 }] };\n`,
  );
  const reloaded = await build(await load(), { builtins, layer });
  assert.equal(reloaded.document, first.document);
  assert.equal(kept.spills().files, 1);
  await kept.settled();
  // A render kept in memory whose file was spilled later (the blocks the memo keeps held that
  // record, and its spill file with it) left one here.
  assert.deepEqual(kept.spills(), { files: 0, bytes: 0 });
  await kept.close();
});

Deno.test("a resident rebuild after a one-file edit reads no list of files found clean, copies each kept render once, and keeps one memo entry a render; same bytes as a fresh build", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  // Every text kept out of memory: the kept renders are lazy records, as on a big tree.
  const layer = () => speedLayer({ resident: kept, spillAfter: 0 });
  await build(config, { builtins, layer: layer() });
  let edited: BuildResult | undefined;
  for (const edit of [1, 2]) {
    await Deno.writeTextFile(join(root, "src/m0.py"), `x = ${edit}\n`, { append: true });
    kept.changed(["src/m0.py"], false);
    const work = await tallyWork(async () =>
      edited = await build(config, { builtins, layer: layer() })
    );
    // The list the last build read or stored is kept as a set: not decoded again (8 ids before).
    assert.equal(work.get("clean ids read") ?? 0, 0);
    // Each source and placed block copied once for the build, the kept renders given as they are
    // (at most 26: 41 when the build copied its compact records again).
    const copies = work.get("lazy copies") ?? 0;
    assert.ok(copies <= 3 * 8 + 2, `${copies} lazy copies for 8 files`);
  }
  // One entry a render kept, whatever the number of builds that used it (twice before: the last
  // build's map and this one's), and the edited file's last render.
  await kept.settled();
  assert.ok(kept.held().rendered <= 8 + 1, `${kept.held().rendered} renders held for 8 files`);
  assertSame(edited!, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a resident rebuild gives an unchanged file's kept render as the same record, left as it was; one rendered ahead is a copy", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  // Every text kept out of memory: the kept renders are lazy records, as on a big tree.
  const layer = () => speedLayer({ resident: kept, spillAfter: 0 });
  // A record's fields as a build reads them (a lazy text's length, not its text).
  const fields = (file: RenderedFile) =>
    JSON.stringify({ ...file, text: textBacking(file)?.length ?? file.text });
  let last = await build(config, { builtins, layer: layer() });
  let edited: BuildResult | undefined;
  for (const edit of [1, 2]) {
    await Deno.writeTextFile(join(root, "src/m0.py"), `x = ${edit}\n`, { append: true });
    kept.changed(["src/m0.py"], false);
    const before = last.files.map(fields);
    const work = await tallyWork(async () =>
      edited = await build(config, { builtins, layer: layer() })
    );
    // The 7 unchanged files: the records the last build had (a copy each before), as they were.
    const same = edited!.files.filter((file, i) => file === last.files[i]);
    if (edit === 2) assert.equal(same.length, 7);
    for (const file of same) {
      assert.equal(fields(file), before[last.files.indexOf(file)], file.path);
    }
    // Each source and placed block copied once, the kept renders not: 19 copies (26 before).
    const copies = work.get("lazy copies") ?? 0;
    assert.ok(copies <= 2 * 8 + 3, `${copies} lazy copies for 8 files`);
    last = edited!;
  }
  assertSame(edited!, await freshBuild(root, state, kept));
  // A build told a render was made ahead for it takes a copy told as a miss: the memo's record,
  // which the next build takes, stays a hit.
  const ahead = await build(config, {
    builtins,
    layer: speedLayer({ resident: kept, spillAfter: 0, renderedAhead: () => true }),
  });
  assert.ok(ahead.files.every((file, i) => file !== last.files[i] && file.cache !== "hit"));
  assert.ok(last.files.slice(1).every((file) => file.cache === "hit"));
  // The edited file's record in `last` is its build's own (the memo keeps a copy).
  const again = await build(config, { builtins, layer: layer() });
  assert.equal(again.files.filter((file, i) => file === last.files[i]).length, 7);
  await kept.close();
});

Deno.test("a resident rebuild gives an unchanged file's block as the same record: the edited file's block alone is made, no content key", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  // Every text kept out of memory (lazy blocks, as on a big tree), and texts held (plain blocks).
  for (const spillAfter of [0, Infinity]) {
    const layer = () => speedLayer({ resident: kept, spillAfter });
    await build(config, { builtins, layer: layer() });
    let edited: BuildResult | undefined;
    for (const edit of [1, 2, 3]) {
      // The last build's order written (as a server's quiet time lets it be): the next one advances it.
      await kept.settled();
      await Deno.writeTextFile(join(root, "src/m3.py"), `x = ${edit}\n`, { append: true });
      kept.changed(["src/m3.py"], false);
      const work = await tallyWork(async () =>
        edited = await build(config, { builtins, layer: layer() })
      );
      // The edited file's block (8 before: every file's, each build); the first rebuild's files
      // are the memo's records, copies of the ones the build before rendered.
      const made = work.get("file blocks");
      if (edit > 1) assert.equal(made, 1, `spillAfter ${spillAfter}, edit ${edit}`);
      // No content key made again for the order: the 7 unchanged files' are kept by record (7 made
      // before), the edited file's is made with its block's length by `orderFiles()`.
      if (edit > 1) assert.equal(work.get("content keys") ?? 0, 0, `edit ${edit}`);
      // Nor a map of the files by path: an unchanged block's record holds its key and length.
      if (edit > 1) assert.equal(work.get("order files by path") ?? 0, 0, `edit ${edit}`);
    }
    assertSame(edited!, await freshBuild(root, state, kept));
  }
  await kept.close();
});

Deno.test("a resident rebuild after a one-file edit places the blocks before the edited one as before and serializes the edited file's manifest entries alone; the manifest written is JSON.stringify's", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  const layer = () => speedLayer({ resident: kept });
  await build(config, { builtins, layer: layer() });
  let edited: BuildResult | undefined;
  for (const edit of [1, 2, 3]) {
    await kept.settled();
    await Deno.writeTextFile(join(root, "src/m3.py"), `x = ${edit}\n`, { append: true });
    kept.changed(["src/m3.py"], false);
    const work = await tallyWork(async () =>
      edited = await build(config, { builtins, layer: layer() })
    );
    // From the second edit on (the first rebuild's files are the memo's copies of the first
    // build's, and the edited file moves last), the 7 other files' blocks are placed as before
    // and given again; 3 entries serialized: the edited file's, its block's and the section
    // heading's (a block each build makes anew). Before: 17, every file's and block's.
    if (edit > 1) {
      assert.equal(work.get("blocks placed again"), 7, `edit ${edit}`);
      assert.equal(work.get("manifest entries"), 3, `edit ${edit}`);
    }
    const written = await Deno.readTextFile(edited!.output!.manifest);
    assert.equal(written, JSON.stringify(edited!.manifest, null, 2) + "\n");
  }
  assertSame(edited!, await freshBuild(root, state, kept));
  await kept.close();
});

Deno.test("a resident rebuild after a one-file edit looks up by id only the edited file's block, and keeps each render by its path; same bytes as a fresh build", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  // The ids of the files' blocks the block memo is asked for, and the keys renders are kept by.
  const looked: string[] = [];
  const get = kept.blocks.get.bind(kept.blocks);
  kept.blocks.get = (id) => (id.startsWith("files:") && looked.push(id), get(id));
  const keys = new Set<string>();
  const set = kept.rendered.set.bind(kept.rendered);
  kept.rendered.set = (key, value) => (keys.add(key), set(key, value));
  // Every text kept out of memory (lazy blocks, as on a big tree), and texts held (plain blocks).
  for (const spillAfter of [0, Infinity]) {
    const layer = () => speedLayer({ resident: kept, spillAfter });
    await build(config, { builtins, layer: layer() });
    let edited: BuildResult | undefined;
    for (const edit of [1, 2, 3]) {
      await kept.settled();
      await Deno.writeTextFile(join(root, "src/m3.py"), `y = ${edit}\n`, { append: true });
      kept.changed(["src/m3.py"], false);
      looked.length = 0;
      edited = await build(config, { builtins, layer: layer() });
      // From the second rebuild on, an unchanged file's block is the last build's record: the
      // memo's entry is found by it. The edited file's block alone is looked up by its id (the
      // order's and the count's looks, its count by difference, its placing). Before: every
      // file's block by id, each build (8 and more).
      if (edit > 1) {
        assert.ok(
          looked.every((id) => id === "files:src/m3.py") && looked.length <= 4,
          `spillAfter ${spillAfter}, edit ${edit}: ${looked.join(", ")}`,
        );
      }
    }
    assert.ok(kept.held().rendered <= 8, `${kept.held().rendered} renders held for 8 files`);
    assertSame(edited!, await freshBuild(root, state, kept));
  }
  // One render kept a path, by the path (before: a key text made for each file at each build).
  assert.deepEqual([...keys].sort(), Array.from({ length: 8 }, (_, i) => `src/m${i}.py`).sort());
  await kept.close();
});

Deno.test("a resident's first rebuild after a build from the cache makes the edited file's block and entries alone; same bytes as a fresh build", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(8);
  // Another process's build writes the cache: the resident's first build finds every render there.
  const before = resident();
  await build(config, { builtins, layer: speedLayer({ resident: before }) });
  await before.close();
  const layer = () => speedLayer({ resident: kept });
  const first = await build(config, { builtins, layer: layer() });
  assert.ok(first.manifest.files.every((f) => f.cache === "hit"));
  await kept.settled();
  await Deno.writeTextFile(join(root, "src/m3.py"), "y = 1\n", { append: true });
  kept.changed(["src/m3.py"], false);
  let edited: BuildResult | undefined;
  const work = await tallyWork(async () =>
    edited = await build(config, { builtins, layer: layer() })
  );
  // The first build took the records its memo keeps (a cache hit given as kept): the edited
  // file's block alone is made; the 4 blocks before it are placed as before, and 6 entries made
  // (the edited file's and its block's, the section heading's, and the 3 blocks' after it, which
  // move up as it moves last). Before: 8 blocks, 0 placed again, 17 entries: the memo's records
  // were copies of the first build's.
  assert.equal(work.get("file blocks"), 1);
  assert.equal(work.get("blocks placed again"), 4);
  assert.equal(work.get("manifest entries"), 6);
  assertSame(edited!, await freshBuild(root, state, kept));
  await kept.close();
});

/**
 * A project of `count` Python modules ({@linkcode pythonModules}), its state dir, a resident to
 * keep builds' memos and the config a build of it loads.
 */
async function modulesProject(count: number) {
  const root = await makeProject(pythonModules(count));
  const state = join(root, ".state");
  const config = await loadConfig({ cwd: root, stateDir: state });
  return { root, state, kept: resident(), builtins: defaultPlugins(), config };
}

/** A project of `count` Python modules under `src/`, 2-3 KB each (over the spill's 1,024 characters). */
function pythonModules(count: number): Tree {
  const tree: Tree = { "slop.config.ts": `export default { files: ["src/**"] };\n` };
  for (let i = 0; i < count; i++) {
    tree[`src/m${i}.py`] = Array.from(
      { length: 40 + i },
      (_, k) => `def f${i}_${k}(x):\n    return x + ${k}\n`,
    ).join("");
  }
  return tree;
}

Deno.test("a resident rebuild after a one-file edit makes the file order's entry of the edited file only; the order a plain build makes from the same memory", async () => {
  const { root, state, kept, builtins, config } = await modulesProject(24);
  const layer = () => speedLayer({ resident: kept });
  await build(config, { builtins, layer: layer() });
  for (const edit of [1, 2, 3]) {
    await kept.settled();
    // The order memory before the edit's build, for a plain build to start from.
    const before = await Deno.readTextFile(join(state, "order", "context.json"));
    await Deno.writeTextFile(join(root, `src/m${edit * 5}.py`), `x = ${edit}\n`, { append: true });
    kept.changed([`src/m${edit * 5}.py`], false);
    let edited: BuildResult | undefined;
    const work = await tallyWork(async () =>
      edited = await build(config, { builtins, layer: layer() })
    );
    // One entry made (24 before: every file's, its count decayed); the files after the edited
    // one found in their last order, with one comparison each and the edited file's place.
    assert.equal(work.get("order entries"), 1);
    assert.ok(work.get("order comparisons")! <= 24 + 5, `${work.get("order comparisons")}`);
    const plainState = await tempDir({ dir: root, prefix: ".plain" });
    await Deno.mkdir(join(plainState, "order"), { recursive: true });
    await Deno.writeTextFile(join(plainState, "order", "context.json"), before);
    const plainConfig = await loadConfig({ cwd: root, stateDir: plainState, reload: true });
    plainConfig.cache.enabled = false;
    const plain = await build(plainConfig, { builtins, write: false });
    assertSame(edited!, plain);
    // And the memory it wrote is the plain build's, byte for byte.
    await kept.settled();
    assert.equal(
      await Deno.readTextFile(join(state, "order", "context.json")),
      await Deno.readTextFile(join(plainState, "order", "context.json")),
    );
  }
  await kept.close();
});
