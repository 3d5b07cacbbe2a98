import assert from "node:assert/strict";
import { builtinPlugins } from "../../cli/_builtins.ts";
import { defaultPlugins } from "../../mod.ts";
import { createRegistry, loadPlugins, loadViewModes } from "../../pipeline/registry.ts";

Deno.test("lazy built-ins list defaultPlugins' names and kinds, in order", () => {
  const describe = (p: { kind: string; name: string }) => `${p.kind} ${p.name}`;
  assert.deepEqual(builtinPlugins().map(describe), defaultPlugins().map(describe));
});

Deno.test("lazy built-ins become defaultPlugins' plugins once loaded", async () => {
  const lazy = builtinPlugins();
  await loadPlugins(lazy);
  const eager = defaultPlugins();
  lazy.forEach((plugin, i) => {
    const want = eager[i] as unknown as Record<string, unknown>;
    const got = plugin as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), plugin.name);
    for (const key of ["kind", "name", "version", "extensions", "timeoutMs"]) {
      assert.deepEqual(got[key], want[key], `${plugin.name} ${key}`);
    }
  });
});

Deno.test("a lazy view mode asked for by many files at once is imported once, for all of them", async () => {
  const registry = createRegistry(builtinPlugins());
  await Promise.all(Array.from({ length: 8 }, () => loadViewModes(registry, ["summary", "full"])));
  const summary = registry.plugins.find((p) => p.name === "slop:summary");
  assert.ok(summary && summary.kind === "view-mode");
  assert.notEqual(summary.version, "");
  const out = await summary.render(
    { path: "a.json", text: '{"a": 1}\n', language: "json" } as never,
    {} as never,
  );
  assert.ok(out);
});

Deno.test("a lazy view mode that was not loaded names itself when used", () => {
  const registry = createRegistry(builtinPlugins());
  const masked = registry.plugins.find((p) => p.name === "slop:masked");
  assert.ok(masked && masked.kind === "view-mode");
  assert.throws(
    () => masked.render({} as never, {} as never),
    /\[plugin slop:masked\] Used before/,
  );
});
