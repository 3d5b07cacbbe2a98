import assert from "node:assert/strict";
import { join, relative, sep as SEPARATOR } from "node:path";
import { buildContext, ConfigError, loadConfig, validateConfig } from "../../mod.ts";
import { makeProject, REPO } from "../_helpers.ts";

const MOD = join(REPO, "mod.ts");

Deno.test("validateConfig() names unknown keys with their path and a hint", () => {
  const problems = validateConfig({ files: ["a", "b", "c", { path: "d", veiw: "full" }] });
  assert.deepEqual(problems, ['Unknown key "files[3].veiw" (did you mean "files[3].view"?)']);
});

Deno.test("validateConfig() names mistyped values with their path", () => {
  assert.deepEqual(validateConfig({ files: [{ path: "a", forceFull: "yes" }] }), [
    '"files[0].forceFull" must be a boolean, got the string "yes"',
  ]);
  assert.deepEqual(validateConfig({ strategy: "fast" }), [
    '"strategy" must be one of "auto", "summarize", "full", got the string "fast"',
  ]);
  assert.deepEqual(validateConfig({ personas: { dev: { tier: 4 } } }), [
    '"personas.dev.tier" must be one of 1, 2, 3, got number 4',
  ]);
  assert.deepEqual(validateConfig({ output: { dir: 3 } }), [
    '"output.dir" must be a string, got number 3',
  ]);
  assert.deepEqual(validateConfig({ files: [{ view: "full" }] }), ['"files[0].path" is required']);
});

Deno.test("loadConfig() reports an unknown key naming the config file", async () => {
  const root = await makeProject({
    "slop.config.ts":
      `import { defineConfig } from "${MOD}";\nexport default defineConfig({ filez: [] } as never);\n`,
  });
  await assert.rejects(
    () => loadConfig({ cwd: root }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(
        error.message,
        'Invalid config "slop.config.ts": Unknown key "filez" (did you mean "files"?)',
      );
      return true;
    },
  );
});

Deno.test("loadConfig() names a missing module the config imports, without colour codes", async () => {
  const root = await makeProject({
    "slop.config.ts": `import files from "./missing.ts";\nexport default { files };\n`,
  });
  await assert.rejects(() => loadConfig({ cwd: root }), (error: Error) => {
    assert.match(error.message, /Cannot load the config: Module not found ".*missing\.ts"/);
    assert.match(error.message, /slop\.config\.ts:1:\d+/);
    assert.ok(!error.message.includes("\x1b["), JSON.stringify(error.message));
    return true;
  });
});

Deno.test("loadConfig() says where this slop is when the config imports slop from a path that is not there", async () => {
  // slop init writes the import as a path to the slop that ran it: a teammate's slop is elsewhere.
  const root = await makeProject({
    "slop.config.ts": 'import { defineConfig } from "../old/slop/config.ts";\n' +
      'export default defineConfig({ files: ["a.py"] });\n',
    "a.py": "x = 1\n",
  });
  const here = relative(root, join(REPO, "config.ts")).split(SEPARATOR).join("/");
  await assert.rejects(() => loadConfig({ cwd: root }), (error: Error) => {
    assert.ok(error instanceof ConfigError);
    assert.match(
      error.message,
      /Cannot load the config: Module not found ".*\/old\/slop\/config\.ts"/,
    );
    assert.ok(
      error.message.endsWith(
        `\nthe config imports slop from "${join(root, "..", "old", "slop", "config.ts")}", which ` +
          `is not there: point the import at this slop ("${here}"), or drop it and defineConfig ` +
          "(which only adds types): `export default { ... }`",
      ),
      error.message,
    );
    return true;
  });
  // Another missing module gets no such hint.
  const other = await makeProject({
    "slop.config.ts": `import files from "./missing.ts";\nexport default { files };\n`,
  });
  await assert.rejects(() => loadConfig({ cwd: other }), (error: Error) => {
    assert.doesNotMatch(error.message, /imports slop/);
    return true;
  });
});

Deno.test("loadConfig() reports a config with a syntax error with its file and line", async () => {
  const root = await makeProject({ "slop.config.ts": "export default {\n  files: [,\n};\n" });
  await assert.rejects(() => loadConfig({ cwd: root }), (error: Error) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /^Invalid config "slop.config.ts": Cannot load the config: /);
    assert.match(error.message, /slop\.config\.ts:\d+/);
    return true;
  });
});

Deno.test("loadConfig() accepts a function of persona and preset, and a promise", async () => {
  const root = await makeProject({
    "slop.config.ts":
      `export default ({ persona }: { persona?: string }) => Promise.resolve({ defaultView: persona === "lead" ? "summary" : "full", personas: { lead: {} } });\n`,
  });
  assert.equal((await loadConfig({ cwd: root })).defaultView, "full");
  assert.equal((await loadConfig({ cwd: root, persona: "lead" })).defaultView, "summary");
});

Deno.test("loadConfig() applies CLI flags over persona over file over defaults", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
      strategy: "full",
      defaultView: "none",
      personas: { reviewer: { strategy: "summarize", focus: ["a.ts"] } },
      presets: { small: { files: ["a.ts"], screenshots: ["x.png"] } },
    };\n`,
  });
  const file = await loadConfig({ cwd: root });
  assert.equal(file.strategy, "full");
  assert.equal(file.defaultView, "none");
  const persona = await loadConfig({ cwd: root, persona: "reviewer" });
  assert.equal(persona.strategy, "summarize");
  assert.deepEqual(persona.focus, ["a.ts"]);
  const flags = await loadConfig({
    cwd: root,
    persona: "reviewer",
    strategy: "auto",
    focus: ["b.ts"],
  });
  assert.equal(flags.strategy, "auto");
  assert.deepEqual(flags.focus, ["a.ts", "b.ts"]);
  const preset = await loadConfig({ cwd: root, preset: "small" });
  assert.deepEqual(preset.files, [{ path: "a.ts" }]);
  assert.deepEqual(preset.screenshots, ["x.png"]);
  await assert.rejects(
    () => loadConfig({ cwd: root, persona: "reviwer" }),
    /Unknown persona "reviwer" \(did you mean "reviewer"\?\)/,
  );
  await assert.rejects(
    () => loadConfig({ cwd: root, preset: "smal" }),
    /Unknown preset "smal" \(did you mean "small"\?\)/,
  );
});

Deno.test("loadConfig() resolves relative paths from the config file's folder", async () => {
  const root = await makeProject({
    "conf/slop.config.ts": `export default { root: "..", output: { dir: "out" } };\n`,
  });
  const config = await loadConfig({ cwd: root, config: "conf/slop.config.ts" });
  assert.equal(config.root, root);
  assert.equal(config.output.dir, join(root, "conf", "out"));
  assert.equal(config.stateDir, join(root, ".slop"));
  assert.equal(config.lock, join(root, "conf", "slop.lock"));
});

Deno.test("loadConfig() takes the state dir from --state-dir, then SLOP_DIR", async () => {
  const root = await makeProject({ "a.txt": "a" });
  assert.equal((await loadConfig({ cwd: root, stateDir: "st" })).stateDir, join(root, "st"));
  Deno.env.set("SLOP_DIR", "/tmp/slop-env-state");
  try {
    const config = await loadConfig({ cwd: root });
    assert.equal(config.stateDir, "/tmp/slop-env-state");
    assert.equal(config.output.dir, "/tmp/slop-env-state/out");
    assert.equal((await loadConfig({ cwd: root, stateDir: "st" })).stateDir, join(root, "st"));
  } finally {
    Deno.env.delete("SLOP_DIR");
  }
});

Deno.test("build() rejects an unknown view mode naming its key path", async () => {
  const root = await makeProject({
    "a.ts": "x",
    "slop.config.ts": `export default { files: ["a.ts", { path: "a.ts", view: "sumary" }] };\n`,
  });
  await assert.rejects(
    () => buildContext({ cwd: root }, { write: false }),
    /Unknown view mode "sumary" at "files\[1\]\.view" \(did you mean "summary"\?\)/,
  );
});

Deno.test("build() rejects duplicate and malformed user plugins naming their position", async () => {
  const view = { kind: "view-mode", name: "mine", version: "1", render: () => "" };
  const cwd = await makeProject({});
  await assert.rejects(
    () =>
      buildContext({ inline: { plugins: [view, { ...view }] } as never, cwd }, { write: false }),
    /Duplicate plugin name "mine" at plugins\[1\]: already used at plugins\[0\]/,
  );
  await assert.rejects(
    () =>
      buildContext({
        inline: { plugins: [{ kind: "view-mode", version: "1", render: () => "" }] } as never,
        cwd,
      }, { write: false }),
    /Invalid plugin at plugins\[0\]: missing a "name"/,
  );
});
