// Bad input on every surface a user or an agent types into gets one clear error that names the
// key path, file, flag, argument or plugin at fault, and leaves nothing half written. The cases
// are generated from valid input by a seeded generator (`_bad_input.ts`).
import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { ConfigError } from "../../pipeline/config.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { LockError, parseLock, readLock } from "../../pipeline/lock.ts";
import { parseSlices } from "../../pipeline/slices_file.ts";
import { join } from "node:path";
import {
  badConfigs,
  badHookResults,
  badLocks,
  badPlugins,
  badSlices,
  messageFaults,
  treeState,
} from "./_bad_input.ts";
import type { SlopConfig } from "../../pipeline/types.ts";
import { png } from "../_images.ts";

const SEED = 20261129;

/** The message of what `run` throws (it must throw). */
async function thrown(run: () => Promise<unknown>, label: string): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  assert.fail(`${label}: accepted`);
}

/** What is wrong with `error` as the one config error naming `names`, or undefined. */
function configErrorFault(error: unknown, names: string[], label: string): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const faults = messageFaults(message, names);
  if (!(error instanceof ConfigError)) {
    faults.push(`a ${(error as Error)?.name}, not a ConfigError`);
  }
  return faults.length ? `${label}: ${faults.join(", ")}\n    ${message.slice(0, 300)}` : undefined;
}

/** A project with the files the valid config names. */
function project(extra: Record<string, string> = {}): Promise<string> {
  return makeProject({
    "a.py": "def f():\n    return 1\n",
    "b.md": "# B\n\ntext\n",
    "c.txt": "c\n",
    "shot.png": png(1, 1),
    ...extra,
  });
}

Deno.test("every key path of a config refuses wrong types and values with one error naming the path", async () => {
  const root = await project();
  const before = await treeState(root);
  const failures: string[] = [];
  for (const { input, label, names } of badConfigs(SEED, 80)) {
    let error: unknown;
    try {
      await buildContext({ cwd: root, inline: input }, { write: false });
      failures.push(`${label}: accepted`);
      continue;
    } catch (e) {
      error = e;
    }
    const fault = configErrorFault(error, names, label);
    if (fault) failures.push(fault);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});

Deno.test("a config with holes, throwing getters, control characters or 100,000 bad items is one bounded error naming the key path", async () => {
  const root = await project();
  const before = await treeState(root);
  const throwing = (key: string, thrown: unknown) =>
    Object.defineProperty({ files: ["a.py"] }, key, {
      enumerable: true,
      get() {
        throw thrown;
      },
    });
  const later = new Proxy({ files: ["a.py"] }, {
    get(target, key) {
      if (key === "task") throw new TypeError("read once too often");
      return Reflect.get(target, key);
    },
  });
  // deno-lint-ignore no-sparse-arrays
  const holes = [, "a.py"];
  const cases: Array<[string, unknown, string[]]> = [
    ["a hole in files", { files: holes }, ["files[0]"]],
    ["a hole in a preset's files", { files: ["a.py"], presets: { p: { files: holes } } }, [
      "presets.p.files[0]",
    ]],
    ["a hole in exclude", { files: ["a.py"], exclude: ["x", , "y"] }, ["exclude[1]"]],
    // A variable left undefined in a list (it was "got undefined undefined").
    ["an undefined item", { files: ["a.py", undefined] }, ['"files[1]"', "got no value"]],
    ["an undefined pin", { files: ["a.py"], ordering: { pinned: [undefined] } }, [
      '"ordering.pinned[0]"',
      "got no value",
    ]],
    ["a getter that throws", throwing("task", new Error("boom")), ['"task"', "boom"]],
    ["a nested getter that throws", {
      files: [Object.defineProperty({ path: "a.py" }, "view", {
        enumerable: true,
        get() {
          throw Object.create(null);
        },
      })],
    }, ['"files[0].view"']],
    ["a newline in a view's name", { files: [{ path: "a.py", view: "sk\nel" }] }, [
      "files[0].view",
      "sk\\nel",
    ]],
    ["a newline in a persona's name", { files: ["a.py"], personas: { "a\nb": { tier: 9 } } }, [
      "personas.a\\nb.tier",
    ]],
    ["an escape in a root", { files: ["a.py"], root: "x\u001b[2J" }, ['"root"']],
    ["100,000 bad items", { files: Array.from({ length: 100_000 }, () => 5) }, [
      "files[0]",
      "99,980 more",
    ]],
  ];
  const failures: string[] = [];
  for (const [label, inline, names] of cases) {
    const error = await thrown(
      () => buildContext({ cwd: root, inline: inline as SlopConfig }, { write: false }),
      label,
    ).catch((e) => e);
    const message = error instanceof Error ? error.message : String(error);
    // A list of 20 problems and a count of the rest is longer than one message line may be.
    const faults = messageFaults(message, names, { lines: 22 })
      .filter((f) => !f.endsWith("characters long"));
    if (message.length > 10_000) faults.push(`${message.length} characters`);
    // deno-lint-ignore no-control-regex
    if (/[\u0000-\u0009\u000b-\u001f]/.test(message)) faults.push("a control character");
    if (!(error instanceof ConfigError)) {
      faults.push(`a ${(error as Error)?.name}, not a ConfigError`);
    }
    if (faults.length) {
      failures.push(`${label}: ${faults.join(", ")}\n    ${message.slice(0, 300)}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
  // A proxy asked again later in the build would throw there, naming nothing: it is read once.
  const built = await buildContext({ cwd: root, inline: later as SlopConfig }, { write: false });
  assert.match(built.document, /### a\.py/);
});

Deno.test("a config key named like an Object.prototype member is an unknown key, at any depth", async () => {
  const root = await project();
  const failures: string[] = [];
  for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"]) {
    for (const at of ["", "budget", "files[0]", "personas.dev"]) {
      const inline: Record<string, unknown> = {
        files: [{ path: "a.py" }],
        budget: { tokens: 100 },
        personas: { dev: { tier: 1 } },
      };
      const owner = at.match(/[^.[\]]+/g)?.reduce(
        (o: Record<string, unknown>, step) => o[step] as Record<string, unknown>,
        inline,
      ) ?? inline;
      Object.defineProperty(owner, key, { value: 1, enumerable: true });
      const path = at ? `${at}.${key}` : key;
      const label = `${path} = 1`;
      const error = await thrown(
        () => buildContext({ cwd: root, inline: inline as SlopConfig }, { write: false }),
        label,
      ).catch((e) => e);
      const fault = configErrorFault(error, [`Unknown key "${path}"`], label);
      if (fault) failures.push(fault);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("files, globs, extensions and views named like Object.prototype members are names like any other", async () => {
  const names = ["constructor", "__proto__", "a.toString", "b.constructor", "c.hasOwnProperty"];
  const root = await makeProject(Object.fromEntries(names.map((n) => [n, `${n}\n`])));
  const failures: string[] = [];
  const configs: Array<[string, Record<string, unknown>]> = [
    ["files", { files: names }],
    ["a glob per name", { files: ["**"], exclude: ["toString"], include: ["a.toString"] }],
    ["an exclude", { files: ["**"], exclude: ["constructor"] }],
  ];
  for (const [label, inline] of configs) {
    const built = await buildContext({ cwd: root, inline: inline as SlopConfig }, { write: false })
      .catch((e) => e);
    if (built instanceof Error) {
      failures.push(`${label}: ${built.message}`);
      continue;
    }
    const excluded = ((inline.exclude ?? []) as string[]).filter((n) => n !== "toString");
    const paths = built.files.map((f: { path: string }) => f.path).sort();
    const want = names.filter((n) => !excluded.includes(n)).sort();
    if (paths.join() !== want.join()) failures.push(`${label}: files ${paths}`);
    // A fence's language is a word, never a function's source.
    const fences = built.document.match(/^`{3,}.*$/gm) ?? [];
    const odd = fences.filter((f: string) => /[({ ]/.test(f));
    if (odd.length) failures.push(`${label}: fences ${odd.join(" | ").slice(0, 200)}`);
  }
  const viewed = await buildContext({
    cwd: root,
    inline: { files: [{ path: "constructor", view: "constructor" }] } as SlopConfig,
  }, { write: false }).catch((e) => e);
  const fault = configErrorFault(
    viewed,
    ['Unknown view mode "constructor"'],
    "a view named constructor",
  );
  if (fault) failures.push(fault);
  assert.deepEqual(failures, []);
});

Deno.test("a config file that throws, exports nothing or garbage, or is no module, is one error naming the file", async () => {
  const bodies: Record<string, string> = {
    "throws_error.ts": 'throw new Error("boom");\n',
    "throws_string.ts": 'throw "boom";\n',
    "throws_undefined.ts": "throw undefined;\n",
    "throws_bare_object.ts": "throw Object.create(null);\n",
    "throws_getter.ts": "throw { get message() { throw new Error('inner'); } };\n",
    "throws_bad_error.ts": "const e = new Error('x');\n" +
      "Object.defineProperty(e, 'message', { get() { throw 1; } });\nthrow e;\n",
    "syntax.ts": "export default { files: [ };\n",
    "missing_import.ts": 'import "./nowhere.ts";\nexport default {};\n',
    "empty.ts": "",
    "named_only.ts": "export const config = {};\n",
    "number.ts": "export default 5;\n",
    "null.ts": "export default null;\n",
    "array.ts": 'export default ["a.py"];\n',
    "map.ts": "export default new Map();\n",
    "fn_garbage.ts": "export default () => 42;\n",
    "fn_throws_string.ts": 'export default () => { throw "nope"; };\n',
    "fn_throws_bare.ts": "export default () => { throw Object.create(null); };\n",
    "promise_rejects.ts": "export default Promise.reject(Object.create(null));\n",
    "getter.ts": "export default { get files() { throw Object.create(null); } };\n",
    "proxy.ts": "export default new Proxy({}, { ownKeys() { throw 'no keys'; } });\n",
    "deep.ts": "let o = {}; for (let i = 0; i < 20000; i++) o = { files: o };\nexport default o;\n",
    "proto.ts": 'export default { __proto__: { files: 5 }, files: ["a.py"] };\n',
    "a_folder.ts/x": "",
    "data.json": '{ "files": ["a.py"] }\n',
    "a.py": "print(1)\n",
  };
  const root = await project(bodies);
  const before = await treeState(root);
  const failures: string[] = [];
  for (const name of [...Object.keys(bodies).map((n) => n.replace(/\/x$/, "")), "absent.ts"]) {
    const error = await thrown(
      () => buildContext({ cwd: root, config: name }, { write: false }),
      name,
    )
      .catch((e) => e);
    const message = error instanceof Error ? error.message : String(error);
    const faults = messageFaults(message, [`"${name}"`], { lines: 1 });
    if (!(error instanceof ConfigError)) {
      faults.push(`a ${(error as Error)?.name}, not a ConfigError`);
    }
    if (faults.length) failures.push(`${name}: ${faults.join(", ")}\n    ${message.slice(0, 300)}`);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});

Deno.test("a persona or preset named like an Object.prototype member is unknown, not inherited", async () => {
  const root = await project({
    "slop.config.ts": "export default { files: ['a.py'], personas: { dev: { tier: 1 } }, " +
      "presets: { small: { files: ['a.py'] } } };\n",
  });
  const failures: string[] = [];
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", ""]) {
    for (const kind of ["persona", "preset"] as const) {
      const label = `${kind} "${name}"`;
      const error = await thrown(
        () => buildContext({ cwd: root, [kind]: name }, { write: false }),
        label,
      ).catch((e) => e);
      const message = error instanceof Error ? error.message : String(error);
      const faults = messageFaults(message, [`"${name}"`, kind]);
      if (faults.length) failures.push(`${label}: ${faults.join(", ")}\n    ${message}`);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("a bad plugin object is one config error naming its place, name and key", async () => {
  const root = await project();
  const before = await treeState(root);
  const failures: string[] = [];
  for (const { input, label, names } of badPlugins(SEED)) {
    const inline = { files: ["a.py"], plugins: input } as SlopConfig;
    const error = await thrown(() => buildContext({ cwd: root, inline }, { write: false }), label)
      .catch((e) => e);
    const fault = configErrorFault(error, names, label);
    if (fault) failures.push(fault);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});

Deno.test("a view hook that throws anything or returns garbage is an error item naming the plugin and file", async () => {
  const root = await project();
  const failures: string[] = [];
  for (const [label, hook] of badHookResults()) {
    const plugin = { kind: "view-mode", name: "bad", version: "1", render: hook };
    const inline = { files: [{ path: "a.py", view: "bad" }, "b.md"], plugins: [plugin] };
    const result = await buildContext({ cwd: root, inline: inline as SlopConfig }, { write: false })
      .catch((e) => e);
    if (result instanceof Error) {
      failures.push(`${label}: the build threw ${result.message}`);
      continue;
    }
    const file = result.files.find((f: { path: string }) => f.path === "a.py");
    if (file?.status !== "error") failures.push(`${label}: a.py is ${file?.status}`);
    const faults = messageFaults(file?.reason ?? "", ["[plugin bad]", '"a.py"']);
    if (faults.length) failures.push(`${label}: ${faults.join(", ")}\n    ${file?.reason}`);
    if (!result.document.includes("### b.md")) failures.push(`${label}: b.md is lost`);
  }
  assert.deepEqual(failures, []);
});

Deno.test("a section or ordering hook that throws anything or returns garbage stops the build naming the plugin, writing nothing", async () => {
  const root = await project();
  // A first good build, so that the output folder, cache and order memory exist.
  await buildContext({ cwd: root, inline: { files: ["a.py"] } });
  const before = await treeState(root);
  const failures: string[] = [];
  for (const [label, hook] of badHookResults()) {
    for (const kind of ["section", "ordering"]) {
      const plugin = kind === "section"
        ? { kind, name: "bad", compose: hook }
        : { kind, name: "bad", order: hook };
      const inline = { files: ["a.py"], plugins: [plugin] } as SlopConfig;
      const error = await thrown(() => buildContext({ cwd: root, inline }), `${kind} ${label}`)
        .catch((e) => e);
      const message = error instanceof Error ? error.message : String(error);
      const faults = messageFaults(message, ["[plugin bad]"]);
      if (faults.length) failures.push(`${kind} ${label}: ${faults.join(", ")}\n    ${message}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await treeState(root), before);
});

Deno.test("a corrupted or hand-edited slop.lock is one error naming the file and line, and slop check leaves it as it was", async () => {
  const root = await project({ "slop.config.ts": "export default { files: ['a.py', 'b.md'] };\n" });
  const pinned = await runCliShared(["check", "--update", "-q"], root);
  assert.equal(pinned.code, 0, pinned.stderr);
  const valid = await Deno.readTextFile(join(root, "slop.lock"));
  const failures: string[] = [];
  for (const { input, label, names } of badLocks(valid, SEED)) {
    let message = "accepted";
    try {
      parseLock(input, "slop.lock");
    } catch (error) {
      if (!(error instanceof LockError)) failures.push(`${label}: a ${(error as Error).name}`);
      message = (error as Error).message;
    }
    const faults = messageFaults(message, ['"slop.lock"', ...names]);
    if (faults.length) failures.push(`${label}: ${faults.join(", ")}\n    ${message}`);
  }
  assert.deepEqual(failures, []);
  // End to end: `slop check` exits 2 with the one line, and the lock stays as the user left it.
  const broken = valid.replace(/\ttotal\t/, "\ttotal\t").replace("slop.lock v1", "slop.lock v9");
  await Deno.writeTextFile(join(root, "slop.lock"), broken);
  const before = await treeState(root);
  const run = await runCliShared(["check"], root);
  assert.equal(run.code, 2, run.stderr);
  assert.deepEqual(messageFaults(run.stderr.trimEnd(), ['"slop.lock"', "line 1", '"v9"']), []);
  assert.deepEqual(await treeState(root), before);
  // A folder where the lock should be.
  await Deno.remove(join(root, "slop.lock"));
  await Deno.mkdir(join(root, "slop.lock"));
  await assert.rejects(() => readLock(join(root, "slop.lock"), "slop.lock"), (error: Error) => {
    assert.deepEqual(messageFaults(error.message, ['"slop.lock"', "folder"]), []);
    return error instanceof LockError;
  });
});

Deno.test("a bad slices file is one error naming the file and the key path; a build warns and renders the file whole", async () => {
  const failures: string[] = [];
  for (const { input, label, names } of badSlices(SEED)) {
    let message = "accepted";
    try {
      await parseSlices(input, "slop/slices.toml");
    } catch (error) {
      message = (error as Error).message;
    }
    const faults = messageFaults(message, ['"slop/slices.toml"', ...names]);
    if (faults.length) failures.push(`${label}: ${faults.join(", ")}\n    ${message}`);
  }
  assert.deepEqual(failures, []);
  const root = await project({ "slop/slices.toml": "[[slices]]\npath = 5\n" });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "a.py", view: "custom" }] },
  }, {
    write: false,
  });
  assert.deepEqual(
    result.warnings.filter((w) => w.includes("slices")).map((w) =>
      messageFaults(w, ['"slop/slices.toml"'])
    ),
    [[]],
  );
});

Deno.test("a folder key naming a file, or a view named after a plugin of another kind, is one error naming the key, and the last output stays", async () => {
  const root = await project();
  // A first good build: its output must stay as it is (a failed build may have cached what it
  // read and rendered).
  await buildContext({ cwd: root, inline: { files: ["a.py"] } });
  const kept = async () => (await treeState(root)).filter((f) => !f.startsWith(".slop/cache/"));
  const before = await kept();
  const section = { kind: "section", name: "notes", compose: () => [] };
  const ordering = { kind: "ordering", name: "keep", order: (blocks: unknown[]) => blocks };
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ["output.dir a file", { files: ["a.py"], output: { dir: "c.txt" } }, [
      '"output.dir"',
      "c.txt",
      'set "output.dir"',
    ]],
    ["knowledge.dir a file", { files: ["a.py"], knowledge: { dir: "c.txt" } }, [
      '"knowledge.dir"',
      "c.txt",
    ]],
    ["a section's name as a view", {
      files: [{ path: "a.py", view: "notes" }],
      plugins: [section],
    }, ['"files[0].view"', '"notes"']],
    ["an ordering's name as the default view", {
      files: ["a.py"],
      defaultView: "keep",
      plugins: [ordering],
    }, ['"defaultView"', '"keep"']],
  ];
  const failures: string[] = [];
  for (const [label, inline, names] of cases) {
    const error = await thrown(
      () => buildContext({ cwd: root, inline: inline as SlopConfig }),
      label,
    ).catch((e) => e);
    const message = error instanceof Error ? error.message : String(error);
    const faults = messageFaults(message, names);
    if (faults.length) failures.push(`${label}: ${faults.join(", ")}\n    ${message}`);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await kept(), before);
});
