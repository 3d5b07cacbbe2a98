import assert from "node:assert/strict";
import { buildContext, callHook, PluginError } from "../../mod.ts";
import { createRegistry, freeze, register, registerUserPlugins } from "../../pipeline/registry.ts";
import { makeProject } from "../_helpers.ts";

const section = (name: string) => ({ kind: "section" as const, name, compose: () => [] });

Deno.test("register() rejects plugins without a name, with a bad kind or with unknown keys", () => {
  const registry = createRegistry([]);
  assert.throws(
    () => register(registry, "x", { where: "plugins[0]" }),
    /Invalid plugin at plugins\[0\]: expected an object, got "x"/,
  );
  assert.throws(
    () => register(registry, { kind: "section", compose() {} }, { where: "plugins[1]" }),
    /missing a "name"/,
  );
  assert.throws(
    () => register(registry, { kind: "widget", name: "w" }, { where: "plugins[2]" }),
    /Invalid plugin "w" at plugins\[2\]: "kind" must be one of "view-mode", "section", "ordering", "provider", got "widget"/,
  );
  assert.throws(
    () => register(registry, { ...section("s"), compse() {} }, { where: "plugins[3]" }),
    /Invalid plugin "s" at plugins\[3\]: unknown key "compse" for a section plugin/,
  );
  assert.throws(
    () => register(registry, { kind: "ordering", name: "o", ordr() {} }, { where: "plugins[5]" }),
    /^TypeError: Invalid plugin "o" at plugins\[5\]: unknown key "ordr" for an ordering plugin \(did you mean "order"\?\)$/,
  );
  assert.throws(
    () =>
      register(registry, { kind: "view-mode", name: "v", render() {} }, { where: "plugins[4]" }),
    /Invalid plugin "v" at plugins\[4\]: missing "version"/,
  );
});

Deno.test("registerUserPlugins() replaces a built-in of the same name in place", () => {
  const registry = createRegistry([section("slop:files"), section("slop:history")]);
  const mine = section("slop:files");
  registerUserPlugins(registry, [mine, section("extra")]);
  assert.deepEqual(registry.plugins.map((p) => p.name), ["slop:files", "slop:history", "extra"]);
  assert.equal(registry.plugins[0], mine);
});

Deno.test("freeze() makes later registration throw", () => {
  const registry = freeze(createRegistry([]));
  assert.throws(
    () => register(registry, section("late")),
    /registry is frozen once the build starts/,
  );
});

Deno.test("callHook() wraps errors with the plugin, hook and file", async () => {
  await assert.rejects(
    () =>
      callHook({ name: "demo" }, "render", () => {
        throw new Error("boom");
      }, { path: "src/a.py" }),
    (error: PluginError) => {
      assert.ok(error instanceof PluginError);
      assert.equal(error.message, '[plugin demo] Hook "render" failed on "src/a.py": boom');
      assert.deepEqual([error.plugin, error.hook, error.path], ["demo", "render", "src/a.py"]);
      return true;
    },
  );
});

Deno.test("callHook() fails a hook that never settles after the timeout", async () => {
  await assert.rejects(
    () =>
      callHook({ name: "slow" }, "render", () => new Promise(() => {}), {
        path: "a.ts",
        timeoutMs: 20,
      }),
    /\[plugin slow\] Hook "render" did not settle within 20 ms on "a.ts"/,
  );
});

Deno.test("build() turns a throwing view into an error block naming plugin and file; the build goes on", async () => {
  const root = await makeProject({ "a.ts": "a", "b.ts": "b" });
  const broken = {
    kind: "view-mode" as const,
    name: "broken",
    version: "1",
    render: () => {
      throw new Error("no luck");
    },
  };
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "a.ts", view: "broken" }, "b.ts"], plugins: [broken] },
  }, { write: false });
  const a = result.files.find((f) => f.path === "a.ts")!;
  assert.equal(a.status, "error");
  assert.equal(a.reason, '[plugin broken] Hook "render" failed on "a.ts": no luck');
  assert.match(result.document, /ERROR in broken view mode for a.ts: \[plugin broken\]/);
  assert.equal(result.files.find((f) => f.path === "b.ts")!.status, "rendered");
});

Deno.test("build() reports a view that returns a non-string", async () => {
  const root = await makeProject({ "a.ts": "a" });
  const odd = { kind: "view-mode" as const, name: "odd", version: "1", render: () => 42 as never };
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "a.ts", view: "odd" }], plugins: [odd] },
  }, { write: false });
  assert.match(
    result.files[0].reason!,
    /\[plugin odd\] Hook "render" returned number for "a.ts": expected a string or \{ text \}/,
  );
});

Deno.test("build() lets a user plugin replace a built-in view", async () => {
  const root = await makeProject({ "a.ts": "secret body" });
  const mine = {
    kind: "view-mode" as const,
    name: "slop:full",
    version: "1",
    render: () => "replaced",
  };
  const result = await buildContext({ cwd: root, inline: { plugins: [mine] } }, { write: false });
  assert.match(result.document, /```ts\nreplaced\n```/);
});
