import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig, type ViewModePlugin } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { cacheVersion, createRegistry, registerUserPlugins } from "../../pipeline/registry.ts";
import { makeProject, REPO, runCli } from "../_helpers.ts";

/** A view plugin as a user writes one: the factory's options go on `options`. */
function shout(render: (text: string) => string, options?: unknown): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "shout",
    version: "1",
    ...(options === undefined ? {} : { options }),
    render: (file) => render(file.text),
  };
}

async function buildWith(root: string, plugin: ViewModePlugin) {
  const config = await loadConfig({
    cwd: root,
    inline: { files: [{ path: "a.txt", view: "shout" }], plugins: [plugin] },
  });
  return await build(config, { builtins: defaultPlugins(), write: false });
}

Deno.test("an edited render of a user plugin is rendered anew though its version is the same", async () => {
  const root = await makeProject({ "a.txt": "hello\n" });
  // Each literal stands for the plugin's file as one process imports it.
  const upper = (): ViewModePlugin => ({
    kind: "view-mode",
    name: "shout",
    version: "1",
    render: (file) => file.text.toUpperCase(),
  });
  const first = await buildWith(root, upper());
  assert.match(first.document, /HELLO/);
  assert.equal(first.files[0].cache, "miss");
  // The same code again (another object, as a new process makes): served from the cache.
  const again = await buildWith(root, upper());
  assert.equal(again.files[0].cache, "hit");
  // The render changed, the version did not: never yesterday's output.
  const edited = await buildWith(root, {
    kind: "view-mode",
    name: "shout",
    version: "1",
    render: (file) => `<<${file.text.trim()}>>`,
  });
  assert.equal(edited.files[0].cache, "miss");
  assert.match(edited.document, /<<hello>>/);
  assert.doesNotMatch(edited.document, /HELLO/);
});

Deno.test("other factory options of a user plugin give another cache key", async () => {
  const root = await makeProject({ "a.txt": "hello\n" });
  // The options reach the render through a closure: only `options` shows them to the key.
  const make = (marks: number) => shout((t) => t.trim() + "!".repeat(marks), { marks });
  assert.match((await buildWith(root, make(1))).document, /hello!\n/);
  const two = await buildWith(root, make(2));
  assert.equal(two.files[0].cache, "miss");
  assert.match(two.document, /hello!!\n/);
  assert.equal((await buildWith(root, make(2))).files[0].cache, "hit");
  // Key order of the options does not matter (canonical JSON).
  assert.equal(
    cacheVersion(shout((t) => t, { a: 1, b: [2] })),
    cacheVersion(shout((t) => t, { b: [2], a: 1 })),
  );
});

Deno.test("cacheVersion() keeps a built-in's version and adds a code hash for a user plugin", () => {
  const registry = createRegistry(defaultPlugins());
  const full = registry.plugins.find((p) => p.name === "slop:full") as ViewModePlugin;
  assert.equal(cacheVersion(full), full.version);
  const mine = shout((t) => t);
  assert.match(cacheVersion(mine), /^1\+[0-9a-f]{16}$/);
  // A user plugin that replaces a built-in by name is the user's code: hashed too.
  const replacement = { ...mine, name: "slop:full" };
  registerUserPlugins(registry, [replacement]);
  assert.match(cacheVersion(replacement), /^1\+[0-9a-f]{16}$/);
  // The version still joins the key: a bump refreshes what the hash cannot see.
  assert.notEqual(cacheVersion({ ...mine, version: "2" }), cacheVersion(mine));
});

Deno.test("a plugin's options must be plain data, named in the error", () => {
  const registry = createRegistry([]);
  assert.throws(
    () => registerUserPlugins(registry, [shout((t) => t, { when: new Date(0) })]),
    /plugin "shout" at plugins\[0\]: "options" must be plain data/,
  );
});

Deno.test("slop build shows an edit of a custom plugin's render on the next build, with the cache on", async () => {
  const mod = join(REPO, "mod.ts");
  const plugin = (body: string) =>
    `import type { ViewModePlugin } from ${JSON.stringify(mod)};
export function upper(options: { mark: string } = { mark: "!" }): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "upper",
    version: "1",
    options,
    render: (file) => ${body},
  };
}
`;
  const config = (mark: string) =>
    `import { upper } from "./plugins/upper.ts";
export default {
  files: [{ path: "a.txt", view: "upper" }],
  plugins: [upper({ mark: ${JSON.stringify(mark)} })],
};
`;
  const root = await makeProject({
    "a.txt": "hello\n",
    "plugins/upper.ts": plugin("file.text.trim().toUpperCase() + options.mark"),
    "slop.config.ts": config("!"),
  });
  const run = async () => {
    const out = await runCli(["build", "--stdout", "--no-server"], root);
    assert.equal(out.code, 0, out.stderr);
    return out.stdout;
  };
  assert.match(await run(), /HELLO!\n/);
  await Deno.writeTextFile(
    join(root, "plugins/upper.ts"),
    plugin("file.text.trim().toLowerCase() + options.mark"),
  );
  const edited = await run();
  assert.match(edited, /hello!\n/);
  assert.doesNotMatch(edited, /HELLO/);
  await Deno.writeTextFile(join(root, "slop.config.ts"), config("?"));
  assert.match(await run(), /hello\?\n/);
});
