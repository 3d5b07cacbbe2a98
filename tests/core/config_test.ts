import assert from "node:assert/strict";
import { join, relative, sep as SEPARATOR } from "node:path";
import { buildContext, ConfigError, loadConfig, validateConfig } from "../../mod.ts";
import { loadedModules, makeProject, REPO, runCliShared, tempDir, V8_FLAGS } from "../_helpers.ts";
import { pathToFileURL } from "node:url";
import { resolveTargets } from "../../pipeline/resolve.ts";

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
  // SLOP_DIR set in a process of its own: this one's environment is shared with the test files
  // running alongside, whose builds would write their state there meanwhile.
  const code = `import { loadConfig } from ${
    JSON.stringify(pathToFileURL(join(REPO, "pipeline/config.ts")).href)
  };\nconst config = await loadConfig({ cwd: ${JSON.stringify(root)} });
const flagged = await loadConfig({ cwd: ${JSON.stringify(root)}, stateDir: "st" });
console.log(JSON.stringify([config.stateDir, config.output.dir, flagged.stateDir]));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    cwd: REPO, // this process's working folder may be another test's for a moment
    env: { SLOP_DIR: "/tmp/slop-env-state" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [
    "/tmp/slop-env-state",
    "/tmp/slop-env-state/out",
    join(root, "st"),
  ]);
});

Deno.test("build() rejects a built-in view's per-file option of the wrong kind, naming its key path", async () => {
  // Each was taken as it was: `maxLineChars: "x"` wrote `… (NaN more characters)` for every name,
  // `maxNames: -1` an empty list, `indent: 1e9` a string too long to make (a render error), and
  // `rest: "bogus"` an error naming the file, not the key.
  const cases: Array<[string, RegExp]> = [
    [
      `{ path: "a.ts", view: "summary", options: { maxLineChars: "x" } }`,
      /"files\[1\]\.options\.maxLineChars" must be a number, got the string "x"/,
    ],
    [
      `{ path: "a.ts", view: "slop:summary", options: { maxNames: -1 } }`,
      /"files\[1\]\.options\.maxNames" must be at least 1, got -1/,
    ],
    [
      `{ path: "a.ts", view: "outline", options: { indent: 1e9 } }`,
      /"files\[1\]\.options\.indent" must be at most 16, got 1000000000/,
    ],
    [
      `{ path: "a.ts", options: { maxValueLines: 2.5 } }`,
      /"files\[1\]\.options\.maxValueLines" must be a whole number, got 2\.5/,
    ],
    [
      `{ path: "a.ts", view: "masked", options: { rest: "bogus" } }`,
      /"files\[1\]\.options\.rest" must be one of "sig", "hide", got the string "bogus"/,
    ],
  ];
  for (const [entry, expected] of cases) {
    const root = await makeProject({
      "a.ts": "export const x = 1;\n",
      "slop.config.ts": `export default { files: ["a.ts", ${entry}] };\n`,
    });
    await assert.rejects(() => buildContext({ cwd: root }, { write: false }), expected, entry);
  }
  // A view of the config's own reads its options as it likes: they are its to check.
  const root = await makeProject({
    "a.ts": "export const x = 1;\n",
    "slop.config.ts": `export default {
      files: [{ path: "a.ts", view: "mine", options: { maxNames: "all", indent: "tab" } }],
      plugins: [{ kind: "view-mode", name: "mine", version: "1", render: (f) => f.text }],
    };\n`,
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, { write: false });
  assert.equal(result.manifest.files[0].view, "mine");
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

Deno.test("config.ts loads only modules a build loads anyway, far fewer than mod.ts", async () => {
  const config = await loadedModules("config.ts");
  const build = new Set(await loadedModules("cli/build.ts"));
  const extra = config.filter((m) => !build.has(m) && m !== "config.ts");
  assert.deepEqual(extra, [], "modules config.ts loads that a build does not");
  const whole = await loadedModules("mod.ts");
  assert.ok(
    config.length * 2 < whole.length,
    `config.ts loads ${config.length} modules, mod.ts ${whole.length}`,
  );
  assert.ok(whole.some((m) => m.startsWith("report/")), "mod.ts loads the report");
  assert.ok(
    !config.some((m) => /^(report|knowledge|plugins|api|cli)\//.test(m)),
    config.join("\n"),
  );
});

// A config whose values throw when read (a getter, a proxy) is a config error like any other:
// exit 2, the message names the config file, and no stack trace.
const CONFIGS = {
  getter: `export default { get files() { throw new Error("files getter failed"); } };\n`,
  proxy: `export default new Proxy({}, { ownKeys() { throw new Error("keys failed"); } });\n`,
};

for (const [name, source] of Object.entries(CONFIGS)) {
  Deno.test(`a config whose ${name} throws when read is a config error naming the file`, async () => {
    const root = await makeProject({ "a.ts": "export {};\n", "slop.config.ts": source });
    const run = await runCliShared(["build", "--stdout"], root);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^slop: Invalid config "slop\.config\.ts": Cannot read (the config|"files"): (files getter|keys) failed\n$/,
    );
  });
}

Deno.test("validateConfig() names the inline history message at fault, not only the array", () => {
  assert.deepEqual(validateConfig({ history: [{ role: "user", content: 5 }] }), [
    '"history[0].content" must be a string, got number 5',
  ]);
  // A message may leave out its role (the seed's `Unknown` speaker); a misspelt key is named.
  assert.deepEqual(validateConfig({ history: ["hi", { rol: "user", content: "x" }] }), [
    'Unknown key "history[1].rol" (did you mean "history[1].role"?)',
  ]);
  assert.deepEqual(validateConfig({ history: [{ content: "x" }] }), []);
  assert.deepEqual(validateConfig({ history: [{ role: "user" }] }), [
    '"history[0].content" is required',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", 3] }), [
    '"history[1]" must be a string or a { role, content } object, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: 3 }), [
    '"history" must be a file path or an array of messages, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", { role: "user", content: "x" }] }), []);
});

Deno.test("loadConfig() rejects a root that is missing or a file, naming the key", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/afile`, "x\n");
  for (const [root, why] of [["nope", "not found"], ["afile", "a file"]]) {
    await assert.rejects(
      loadConfig({ cwd: dir, inline: { root } }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(
          error.message,
          new RegExp(`"root" must be a folder, got "${root}" \\(${why}\\)`),
        );
        return true;
      },
    );
  }
  const ok = await loadConfig({ cwd: dir, inline: { root: "." } });
  assert.equal(ok.root, dir);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadConfig() names a config under a name slop does not load, rather than building without it", async () => {
  // `slop.config.json` with an `exclude` was passed over: the build took every file, the
  // excluded ones too, and said nothing. So was one in other letters (`SLOP.config.yaml`), which
  // the folder listing gives as it is spelled.
  const names = [
    "slop.config.json",
    "slop.config.yaml",
    "slop.config.mts",
    "slop.config.cjs",
    "SLOP.config.yaml",
    "Slop.Config.json",
  ];
  for (const name of names) {
    const dir = await makeProject({ [name]: '{"exclude": ["private/**"]}\n', "a.py": "x = 1\n" });
    await assert.rejects(loadConfig({ cwd: dir }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, unloadedMessage(name));
      return true;
    });
    // Beside a config slop loads, it is loaded no more, and each build says so (below).
    await Deno.writeTextFile(join(dir, "slop.config.ts"), 'export default { exclude: ["b"] };\n');
    const config = await loadConfig({ cwd: dir });
    assert.deepEqual([config.exclude, config.configsBeside], [["b"], [name]]);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() names slop.config.ts in other letters where the file system does not find it", async () => {
  const dir = await makeProject({ "Slop.Config.ts": 'export default { exclude: ["b"] };\n' });
  // A case-insensitive file system (macOS, Windows) finds it as slop.config.ts and loads it.
  const insensitive = await Deno.stat(join(dir, "slop.config.ts")).then(() => true, () => false);
  if (insensitive) assert.deepEqual((await loadConfig({ cwd: dir })).exclude, ["b"]);
  else {await assert.rejects(
      loadConfig({ cwd: dir }),
      ConfigError,
      unloadedMessage("Slop.Config.ts"),
    );}
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadConfig() passes over a folder named like a config", async () => {
  const dir = await makeProject({ "a.py": "x = 1\n" });
  await Deno.mkdir(join(dir, "slop.config.json"));
  await Deno.mkdir(join(dir, "slop.config.yaml"));
  assert.equal((await loadConfig({ cwd: dir })).zeroConfig, true);
  // A file of such a name beside the folders is still named.
  await Deno.writeTextFile(join(dir, "slop.config.toml"), "exclude = []\n");
  await assert.rejects(loadConfig({ cwd: dir }), ConfigError, unloadedMessage("slop.config.toml"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a build warns of each file named as a config beside the config it loads", async () => {
  // `slop.config.yaml` (or `slop.config.js`, found after `slop.config.ts`) beside the loaded config
  // was passed over without a word: its settings silently not applied.
  const dir = await makeProject({
    "slop.config.ts": 'export default { exclude: ["b"] };\n',
    "slop.config.yaml": "exclude: [a.py]\n",
    "slop.config.js": "export default {};\n",
    "SLOP.config.toml": "exclude = []\n",
    "a.py": "x = 1\n",
  });
  await Deno.mkdir(join(dir, "slop.config.json")); // a folder: passed over
  const warned = async (flags: { config?: string }) => {
    const config = await loadConfig({ cwd: dir, ...flags });
    const { warnings } = await resolveTargets(config);
    return warnings.filter((w) => w.includes(" is not loaded"));
  };
  const beside = (name: string) =>
    `"${name}" beside "slop.config.ts" is not loaded: slop reads one config, "slop.config.ts" ` +
    "(the first of slop.config.ts, slop.config.js and slop.config.mjs found); move its " +
    "settings there and remove it";
  assert.deepEqual(await warned({}), [
    beside("SLOP.config.toml"),
    beside("slop.config.js"),
    beside("slop.config.yaml"),
  ]);
  // Named by --config: the others are the user's choice.
  assert.deepEqual(await warned({ config: "slop.config.ts" }), []);
  await Deno.remove(dir, { recursive: true });
});

/** The error of a config file `name` that slop does not load. */
function unloadedMessage(name: string): string {
  return `Invalid config "${name}": slop loads only slop.config.ts, slop.config.js or ` +
    "slop.config.mjs, in lower case (a module that default-exports the config): rename it to " +
    "slop.config.ts (export default { ... }), or move it away to build without a config";
}

// A config whose loading never finishes is an error that names the file, after a time limit:
// a top-level await that never settles used to hang a build server or an MCP call forever.
Deno.test("a config whose top-level await never settles fails with its file named", async () => {
  const root = await makeProject({
    "slop.config.ts": "await new Promise(() => {});\nexport default {};\n",
    "a.py": "x = 1\n",
    // The stalled module stays stalled: a process of its own, which exits once the load failed.
    "load.ts": `import { loadConfig } from "${pathToFileURL(join(REPO, "mod.ts")).href}";\n` +
      "await loadConfig({ cwd: Deno.cwd(), loadTimeoutMs: 300 }).catch((e) => console.log(e.message));\n" +
      "Deno.exit(0);\n",
  });
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", V8_FLAGS, "load.ts"],
    cwd: root,
    stderr: "inherit",
  }).output();
  assert.equal(code, 0);
  assert.equal(
    new TextDecoder().decode(stdout),
    'Invalid config "slop.config.ts": Cannot load the config: it did not finish loading in 0.3 s ' +
      "(a top-level await that never settles?)\n",
  );
});

// A config whose code loops without awaiting holds the thread, and with it every timer: the slop
// command's watch (a process of its own) names the file and ends the process. A load that ends
// stops its watch: the process exits as usual, and no watch is left running.
Deno.test("a config whose code never returns without awaiting ends the slop command with its file named", async () => {
  const load = (source: string, loadTimeoutMs = 1000) =>
    makeProject({
      "slop.config.ts": source,
      "load.ts": `import { loadConfig } from "${pathToFileURL(join(REPO, "mod.ts")).href}";\n` +
        `import { watchConfigLoads } from "${
          pathToFileURL(join(REPO, "pipeline/config_watchdog.ts")).href
        }";\n` +
        "watchConfigLoads();\n" +
        `await loadConfig({ cwd: Deno.cwd(), loadTimeoutMs: ${loadTimeoutMs} });\n` +
        "console.log('loaded');\n",
    });
  const run = (root: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", V8_FLAGS, "load.ts"],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000), // without the watch: held for good (killed: SIGTERM)
    }).output();
  // Blocked for good without spinning (no CPU spent): the same to the thread as `while (true) {}`.
  const block = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";
  const sources = [`${block}\nexport default {};\n`, `export default () => { ${block} };\n`];
  const runs = await Promise.all(sources.map(async (source) => await run(await load(source))));
  for (const [i, { signal, stderr }] of runs.entries()) {
    assert.equal(signal, "SIGKILL", sources[i]);
    assert.equal(
      new TextDecoder().decode(stderr),
      'slop: Invalid config "slop.config.ts": Cannot load the config: its code ran for over 1 s ' +
        "without returning (a loop that never ends?)\n",
    );
  }
  // A config that loads, with a limit no busy machine's start reaches: its watch ends with it.
  const { code, stdout } = await run(await load("export default {};\n", 60_000));
  assert.deepEqual([code, new TextDecoder().decode(stdout)], [0, "loaded\n"]);
});

const CASES: Record<string, { source: string; message: RegExp }> = {
  "a config function": {
    source: "export default () => new Promise(() => {});\n",
    message: /: The config function failed: it did not return in 0\.3 s$/,
  },
  "a default export that is a promise": {
    source: "export default new Promise(() => {});\n",
    message: /: The config's promise failed: it did not return in 0\.3 s$/,
  },
};

for (const [name, { source, message }] of Object.entries(CASES)) {
  Deno.test(`a config that never settles (${name}) fails with its file named`, async () => {
    const root = await makeProject({ "slop.config.ts": source, "a.py": "x = 1\n" });
    // Imported once before: the limit then times only what the default export does, not how long
    // a busy machine takes to compile the module (over 0.3 s on a loaded CI runner).
    await import(pathToFileURL(join(root, "slop.config.ts")).href);
    const error = await loadConfig({ cwd: root, loadTimeoutMs: 300 }).then(
      () => assert.fail("the config loaded"),
      (e) => e,
    );
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, /^Invalid config "slop\.config\.ts": /);
    assert.match(error.message, message);
  });
}

Deno.test("a config that takes a while but settles within the limit loads", async () => {
  const root = await makeProject({
    "slop.config.ts": "await new Promise((r) => setTimeout(r, 50));\n" +
      "export default async () => {\n  await new Promise((r) => setTimeout(r, 50));\n" +
      '  return { files: ["a.py"] };\n};\n',
    "a.py": "x = 1\n",
  });
  // The limit is far above the config's 0.1 s, so that a busy machine's slow import never reaches it.
  const config = await loadConfig({ cwd: root, loadTimeoutMs: 60_000 });
  assert.equal(config.files.length, 1);
});
