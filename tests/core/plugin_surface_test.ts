// A user's plugin does what a built-in does through the same public surface: everything here is
// imported from mod.ts, and the hook contexts carry the store, the file listing and the file order.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Block,
  buildContext,
  cacheKey,
  clearCache,
  isFileBlock,
  loadConfig,
  type OrderingPlugin,
  type SectionPlugin,
  type SlopConfig,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";
import { png } from "../_images.ts";

function body(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${name} line ${i}`).join("\n") + "\n";
}

/** The `volatility` rule written as a user would, from mod.ts and `ctx.fileOrder` only. */
function userVolatility(): OrderingPlugin {
  return {
    kind: "ordering",
    name: "slop:volatility",
    async order(blocks: Block[], ctx) {
      const paths = await ctx.fileOrder.next(blocks);
      if (!paths.length) return blocks;
      const slots = blocks.flatMap((b, i) => isFileBlock(b) ? [i] : []);
      const byPath = new Map(slots.map((i) => [blocks[i].source!, blocks[i]]));
      const out = [...blocks];
      paths.forEach((path, k) => (out[slots[k]] = byPath.get(path)!));
      return out;
    },
    commit: (placed, ctx) => ctx.fileOrder.save(placed),
  };
}

Deno.test("plugin surface: a user ordering rule on ctx.fileOrder orders and remembers as slop:volatility does", async () => {
  const tree = {
    "a.ts": body("a", 30),
    "b.ts": body("b", 50),
    "c.ts": body("c", 40),
    "d.ts": body("d", 20),
  };
  const builtin = await makeProject(tree);
  const user = await makeProject(tree);
  const states = { builtin: await tempDir(), user: await tempDir() };
  const config = (plugins: OrderingPlugin[]): SlopConfig => ({ files: ["*.ts"], plugins });
  const both = async () => {
    const a = await buildContext({ cwd: builtin, stateDir: states.builtin, inline: config([]) });
    const b = await buildContext({
      cwd: user,
      stateDir: states.user,
      inline: config([userVolatility()]),
    });
    assert.equal(b.document, a.document);
    return a.blocks.filter((x) => x.source).map((x) => x.source);
  };
  const first = await both();
  // Edits move the changed files after the kept prefix; both remember the same order.
  for (const [file, version] of [["b.ts", 2], ["c.ts", 2], ["b.ts", 3]] as const) {
    for (const root of [builtin, user]) {
      await Deno.writeTextFile(join(root, file), body(`${file} v${version}`, 35));
    }
    await both();
  }
  const last = await both();
  assert.notDeepEqual(last, first, "the edits changed the order");
  assert.deepEqual(last.slice(-2), ["c.ts", "b.ts"], "the edited files come last");
  const saved = (dir: string) => Deno.readTextFile(join(dir, "order", "context.json"));
  assert.equal(await saved(states.user), await saved(states.builtin));
});

/** A view mode that counts its renders of a content in `ctx.store`, keyed with `cacheKey`. */
function countingView(): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "counted",
    version: "1",
    async render(file, ctx) {
      const key = cacheKey(["counted", file.sha256]);
      const n = ((await ctx.store.get<{ n: number }>(key))?.n ?? 0) + 1;
      await ctx.store.set(key, { n });
      // Not kept in the view cache, so every build renders again.
      return { text: `render ${n}`, cacheable: false };
    },
  };
}

Deno.test("plugin surface: ctx.store keeps a view's values between builds in the cache folder", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  const stateDir = await tempDir();
  const inline = (enabled: boolean): SlopConfig => ({
    files: [{ path: "a.md", view: "counted" }],
    plugins: [countingView()],
    cache: { enabled },
  });
  const text = async (enabled = true) => {
    const r = await buildContext({ cwd: root, stateDir, inline: inline(enabled) }, {
      write: false,
    });
    return r.blocks.find((b) => b.source === "a.md")!.text;
  };
  assert.match(await text(), /render 1/);
  assert.match(await text(), /render 2/);
  assert.match(await text(false), /render 1/, "with the cache off the store never hits");
  assert.match(await text(), /render 3/, "nor writes");
  const config = await loadConfig({ cwd: root, stateDir, inline: inline(true) });
  await clearCache(config.cache.dir);
  assert.match(await text(), /render 1/, "slop cache clear empties it");
});

Deno.test("plugin surface: ctx.listFiles walks the root as slop:screenshots does, honouring .gitignore", async () => {
  const root = await makeProject({
    ".gitignore": "ignored/\n",
    "a.png": png(1, 1),
    "B.png": png(1, 1),
    "sub/c.png": png(1, 1),
    "ignored/d.png": png(1, 1),
    "node_modules/e.png": png(1, 1),
    "notes.md": "# Notes\n",
  });
  const listing: SectionPlugin = {
    kind: "section",
    name: "listing",
    async compose(_state, ctx) {
      const first = await ctx.listFiles();
      first.push("mutated.png"); // each call gets its own array
      const pngs = (await ctx.listFiles()).filter((p) => p.endsWith(".png"));
      const text = `## Screenshots\n\n${
        pngs.map((p) => `![${p.split("/").pop()}](${p})`).join("\n")
      }\n\n`;
      return [{ id: "listing", section: "listing", stability: "stable", text }];
    },
  };
  const r = await buildContext({
    cwd: root,
    stateDir: await tempDir(),
    inline: { files: ["notes.md"], screenshots: ["**/*.png"], plugins: [listing] },
  }, { write: false });
  const user = r.blocks.find((b) => b.id === "listing")!.text;
  const builtin = r.blocks.find((b) => b.id === "screenshots")!.text;
  assert.equal(user, builtin);
  assert.equal(user, "## Screenshots\n\n![B.png](B.png)\n![a.png](a.png)\n![c.png](sub/c.png)\n\n");
});

Deno.test("plugin surface: ctx.options holds the factory's options, an entry's options over them", async () => {
  // A view as the plugin guide writes one: the factory's options on `options`, read back from
  // `ctx.options`, so that one place holds them for the cache key and for the render.
  const echo = (options: Record<string, unknown>): ViewModePlugin => ({
    kind: "view-mode",
    name: "echo",
    version: "1",
    options,
    render: (_file, ctx) => JSON.stringify(ctx.options),
  });
  const root = await makeProject({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  const r = await buildContext({
    cwd: root,
    stateDir: await tempDir(),
    inline: {
      files: [
        { path: "*.txt", view: "echo" },
        { path: "b.txt", options: { fields: false } },
        { path: "c.txt", options: { extra: [1] } },
      ],
      plugins: [echo({ fields: true, comments: true })],
    },
  }, { write: false });
  const text = (path: string) => r.files.find((f) => f.path === path)!.text;
  assert.equal(text("a.txt"), '{"fields":true,"comments":true}');
  assert.equal(text("b.txt"), '{"fields":false,"comments":true}');
  assert.equal(text("c.txt"), '{"fields":true,"comments":true,"extra":[1]}');
  // Options that are not an object of keys stay the plugin's own: ctx.options is the entry's.
  const listed = await buildContext({
    cwd: root,
    stateDir: await tempDir(),
    inline: {
      files: [{ path: "a.txt", view: "echo", options: { fields: 1 } }],
      plugins: [{ ...echo({}), options: ["x"] }],
    },
  }, { write: false });
  assert.equal(listed.files.find((f) => f.path === "a.txt")!.text, '{"fields":1}');
});

Deno.test("plugin surface: an entry's option a config's view never reads is named in a warning, from the cache too", async () => {
  // A view that reads `markers` only: `markres` (a typo) changes nothing, and says so.
  const todo: ViewModePlugin = {
    kind: "view-mode",
    name: "todo",
    version: "1",
    extensions: [".md"],
    options: { markers: ["TODO"] },
    render: (file, ctx) => {
      const markers = ctx.options.markers as string[];
      return file.text.split("\n").filter((l) => markers.some((m) => l.includes(m))).join("\n");
    },
  };
  // One that spreads its options, one that clones them (as for a worker): both read them all.
  const spread: ViewModePlugin = {
    ...todo,
    name: "spread",
    render: (_file, ctx) => JSON.stringify({ ...ctx.options }),
  };
  const cloned: ViewModePlugin = {
    ...todo,
    name: "cloned",
    render: (_file, ctx) => JSON.stringify(structuredClone(ctx.options)),
  };
  const root = await makeProject({
    "a.md": "TODO a\nXXX b\n",
    "b.md": "b\n",
    "c.txt": "c\n",
    "d.md": "d\n",
  });
  const stateDir = await tempDir();
  const config = {
    files: [
      { path: "a.md", view: "todo", options: { markres: ["XXX"], markers: ["XXX"] } },
      { path: "b.md", view: "spread", options: { anything: 1 } },
      { path: "d.md", view: "cloned", options: { deep: { list: [1] } } },
      // Not a Markdown file: the view does not take it, and its fallback owes no option a read.
      { path: "c.txt", view: "todo", options: { markres: 1 } },
    ],
    plugins: [todo, spread, cloned],
  };
  const said =
    /^\[plugin todo\] Option "markres" of the entry for "a\.md" was never read by the view \(it read "markers"\)$/;
  for (const cache of ["miss", "hit"]) {
    const r = await buildContext({ cwd: root, stateDir, inline: config }, { write: false });
    assert.equal(r.files.find((f) => f.path === "a.md")!.text, "XXX b", cache);
    assert.equal(
      r.files.find((f) => f.path === "d.md")!.text,
      '{"markers":["TODO"],"deep":{"list":[1]}}',
      cache,
    );
    const warnings = r.warnings.filter((w) => w.includes("was never read"));
    assert.equal(warnings.length, 1, `${cache}: ${warnings.join("\n")}`);
    assert.match(warnings[0], said, cache);
  }
});
