import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { openCache } from "../../pipeline/cache.ts";
import { makeProject } from "../_helpers.ts";

type Plugin = Record<string, unknown>;

/** A build of `a.md` and `b.ts` (shown in the view `view` when given) with `plugins`. */
async function build(root: string, plugins: Plugin[], view?: string) {
  return await buildContext({
    cwd: root,
    inline: { files: ["a.md", view ? { path: "b.ts", view } : "b.ts"], plugins } as never,
  }, { write: false });
}

const TREE = { "a.md": "hello\n", "b.ts": "export const x = 1;\n" };

/** The message of what `run` rejects with. */
async function rejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("it did not fail");
}

Deno.test("a hook's error with line breaks or of any length is one line, cut after 1,000 characters", async () => {
  const root = await makeProject(TREE);
  const thrown = `first\n## Files\n${"y".repeat(300_000)}`;
  const fail = () => {
    throw new Error(thrown);
  };
  const result = await build(
    root,
    [{ kind: "view-mode", name: "v", version: "1", render: fail }],
    "v",
  );
  const row = result.manifest.files.find((f) => f.path === "b.ts")!;
  for (const message of [row.reason!, ...result.manifest.warnings]) {
    assert.ok(!message.includes("\n"), message.slice(0, 200));
    assert.ok(message.length < 1100, `${message.length} characters`);
    assert.match(
      message,
      /^\[plugin v\] Hook "render" failed on "b\.ts": first\\n## Files\\ny+… \(299015 more characters\)$/,
    );
  }
  for (
    const plugin of [
      { kind: "section", name: "s", compose: fail },
      { kind: "ordering", name: "o", order: fail },
    ]
  ) {
    const message = await rejection(() => build(root, [plugin]));
    assert.ok(!message.includes("\n") && message.length < 1100, message.slice(0, 200));
    assert.match(
      message,
      new RegExp(`^\\[plugin ${plugin.name}\\] Hook "\\w+" failed: first\\\\n`),
    );
  }
});

Deno.test("ctx.warn of a view, a section or an ordering rule takes any value and names the plugin", async () => {
  const root = await makeProject(TREE);
  const values = [{ a: 1 }, undefined, Symbol("s"), 7, "two\nlines", "[plugin s] named"];
  const warnAll = (ctx: { warn(value: unknown): void }) => values.forEach((v) => ctx.warn(v));
  const result = await build(root, [
    {
      kind: "view-mode",
      name: "v",
      version: "1",
      render: (_: unknown, ctx: never) => (warnAll(ctx), "ok"),
    },
    { kind: "section", name: "s", compose: (_: unknown, ctx: never) => (warnAll(ctx), []) },
    { kind: "ordering", name: "o", order: (b: unknown, ctx: never) => (warnAll(ctx), b) },
  ], "v");
  assert.deepEqual(result.manifest.files.map((f) => f.status), ["rendered", "rendered"]);
  for (const name of ["v", "s", "o"]) {
    const mine = result.manifest.warnings.filter((w) => w.startsWith(`[plugin ${name}] `));
    assert.deepEqual(mine, [
      `[plugin ${name}] {"a":1}`,
      `[plugin ${name}] undefined`,
      `[plugin ${name}] symbol`,
      `[plugin ${name}] 7`,
      `[plugin ${name}] two\\nlines`,
      name === "s" ? "[plugin s] named" : `[plugin ${name}] [plugin s] named`,
    ]);
  }
});

Deno.test("ctx.store takes JSON data only, naming the plugin and the key, under keys apart from slop's own", async () => {
  const root = await makeProject(TREE);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const refused: [unknown, string][] = [
    [{ f: () => 1 }, `a function at "f"`],
    [{ deep: [1, 10n] }, `the bigint 10n at "deep.1"`],
    [cycle, `a cycle at "self"`],
    [new Map(), "a Map"],
    [Number.NaN, "NaN"],
    [undefined, "no value (undefined)"],
  ];
  for (const [value, what] of refused) {
    const result = await build(root, [{
      kind: "view-mode",
      name: "v",
      version: "1",
      render: async (_: unknown, ctx: { store: { set(k: string, v: unknown): Promise<void> } }) => {
        await ctx.store.set("my-key", value);
        return "ok";
      },
    }], "v");
    assert.equal(
      result.manifest.files.find((f) => f.path === "b.ts")!.reason,
      `[plugin v] Hook "render" failed on "b.ts": ctx.store.set("my-key") takes JSON data ` +
        `(objects, arrays, strings, finite numbers, booleans, null), got ${what}`,
    );
  }
  // A key shaped like one of slop's entries (64 hex digits) is not that entry.
  const key = "ab".repeat(32);
  const keeper = (write: boolean) => ({
    kind: "view-mode",
    name: "keeper",
    version: "1",
    render: async (
      _: unknown,
      ctx: { store: { get(k: string): unknown; set(k: string, v: unknown): unknown } },
    ) => {
      if (write) await ctx.store.set(key, { kept: true });
      return JSON.stringify(await ctx.store.get(key));
    },
  });
  const first = await build(root, [keeper(true)], "keeper");
  assert.match(first.document, /\{"kept":true\}/);
  const second = await build(root, [keeper(false)], "keeper");
  assert.match(second.document, /\{"kept":true\}/);
  assert.equal(await openCache(join(root, ".slop", "cache")).get(key), undefined);
});

Deno.test("a view's cacheKey must give a string, within the plugin's own time limit", async () => {
  const root = await makeProject(TREE);
  const view = (cacheKey: () => unknown) => ({
    kind: "view-mode",
    name: "v",
    version: "1",
    timeoutMs: 200,
    cacheKey,
    render: () => "ok",
  });
  const reason = async (cacheKey: () => unknown) =>
    (await build(root, [view(cacheKey)], "v")).manifest.files.find((f) => f.path === "b.ts")!
      .reason;
  assert.equal(
    await reason(() => 42),
    `[plugin v] Hook "cacheKey" returned number 42 for "b.ts": expected a string`,
  );
  assert.equal(
    await reason(() => ({ a: 1 })),
    `[plugin v] Hook "cacheKey" returned an object for "b.ts": expected a string`,
  );
  assert.equal(
    await reason(() => new Promise(() => {})),
    `[plugin v] Hook "cacheKey" did not settle within 200 ms on "b.ts"`,
  );
});

Deno.test("a plugin named with a control character, or with the name of a built-in of another kind, is refused by name", async () => {
  const root = await makeProject(TREE);
  for (const name of ["v\u001b[31m", "s\nx", "a\u0000b"]) {
    const message = await rejection(() =>
      build(root, [{ kind: "section", name, compose: () => [] }])
    );
    assert.match(
      message,
      /Invalid plugin ".*" at plugins\[0\]: its "name" holds a control character$/,
    );
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\u0000-\u001f]/.test(message), message);
  }
  const crossed: Plugin[] = [
    { kind: "section", name: "slop:full", compose: () => [] },
    { kind: "view-mode", name: "slop:files", version: "1", render: () => "x" },
    { kind: "ordering", name: "slop:tree", order: (b: unknown) => b },
    { kind: "provider", name: "slop:volatility" },
  ];
  for (const plugin of crossed) {
    const message = await rejection(() => build(root, [plugin]));
    assert.match(
      message,
      new RegExp(
        `Invalid plugin "${plugin.name}" at plugins\\[0\\]: a ${plugin.kind} plugin cannot ` +
          `replace the \\S+ plugin of that name \\(give it a name of its own\\)$`,
      ),
    );
  }
});

Deno.test("each section and ordering rule of the config gets its own list of the files", async () => {
  const root = await makeProject(TREE);
  const result = await build(root, [
    { kind: "section", name: "s1", compose: (s: { files: unknown[] }) => (s.files.length = 0, []) },
    {
      kind: "section",
      name: "s2",
      compose: (s: { files: unknown[] }) => [
        { id: "s2", section: "s2", stability: "static", text: `s2 sees ${s.files.length}\n` },
      ],
    },
    {
      kind: "ordering",
      name: "o1",
      order: (b: unknown, c: { files: unknown[] }) => (c.files.length = 0, b),
    },
    {
      kind: "ordering",
      name: "o2",
      order: (b: unknown, c: { files: unknown[] }) => {
        if (c.files.length !== 2) throw new Error(`o2 sees ${c.files.length} files`);
        return b;
      },
    },
  ]);
  assert.match(result.document, /s2 sees 2\n/);
  assert.deepEqual(result.manifest.files.map((f) => f.path).sort(), ["a.md", "b.ts"]);
});

Deno.test("a section or ordering rule that changes a file or block in place is an error naming it, and the object is put back", async () => {
  const root = await makeProject(TREE);
  let kept: { text: string; id: string }[] = [];
  const rule = {
    kind: "ordering",
    name: "o",
    order: (blocks: { text: string; id: string; notes?: string[] }[]) => {
      kept = blocks;
      blocks[0].text = "INJECTED after the secrets were redacted\n";
      return blocks;
    },
  };
  assert.equal(
    await rejection(() => build(root, [rule])),
    `[plugin o] Hook "order" changed block "files" (its "text"): rules may only reorder`,
  );
  assert.doesNotMatch(kept[0].text, /INJECTED/);
  let files: { path: string; text?: string; notes?: string[] }[] = [];
  const section = {
    kind: "section",
    name: "s",
    compose: (state: { files: typeof files }) => {
      files = state.files;
      const file = state.files.find((f) => f.path === "a.md")!;
      file.notes?.push("added");
      file.text = "changed";
      return [];
    },
  };
  assert.equal(
    await rejection(() => build(root, [section])),
    `[plugin s] Hook "compose" changed the file "a.md" it was given (its "text"): a section may ` +
      "only read the files",
  );
  assert.equal(files.find((f) => f.path === "a.md")!.text, "hello\n");
});

Deno.test("a view's prepare that throws, gives no function or whose release throws is passed over with a warning naming it; an async accepts is an error naming it", async () => {
  const root = await makeProject(TREE);
  const prepares: [string, () => unknown, string][] = [
    ["throws", () => {
      throw new Error("not ready");
    }, `Hook "prepare" failed: not ready`],
    ["gives a number", () => 5, `Hook "prepare" returned number 5, not a function or nothing`],
    [
      "gives a promise that never settles",
      () => new Promise(() => {}),
      `Hook "prepare" returned a Promise, not a function or nothing`,
    ],
    ["gives a release that throws", () => () => {
      throw new Error("release");
    }, `Hook "prepare"'s release failed: release`],
  ];
  for (const [what, prepare, warning] of prepares) {
    const result = await build(root, [{
      kind: "view-mode",
      name: "v",
      version: "1",
      prepare,
      render: () => "rendered by v",
    }], "v");
    assert.deepEqual(result.manifest.files.map((f) => f.status), ["rendered", "rendered"], what);
    assert.match(result.document, /rendered by v/, what);
    // Said once, naming the plugin: its author would not know the hook never ran.
    assert.deepEqual(
      result.manifest.warnings.filter((w) => w.includes("prepare")),
      [`[plugin v] ${warning} (passed over: the view renders as usual)`],
      what,
    );
  }
  const result = await build(root, [{
    kind: "view-mode",
    name: "v",
    version: "1",
    accepts: async () => await Promise.resolve(false),
    render: () => "rendered by v",
  }], "v");
  assert.equal(
    result.manifest.files.find((f) => f.path === "b.ts")!.reason,
    `[plugin v] Hook "accepts" returned a promise for "b.ts": it must answer true or false at ` +
      "once (it is not awaited)",
  );
});

Deno.test("a view's ctx.complete() with no request, or a field of the wrong type, says which field and what it got", async () => {
  const root = await makeProject(TREE);
  const cases: Array<[unknown, RegExp]> = [
    [
      undefined,
      /ctx\.complete\(\) takes a request such as \{ prompt: "\.\.\." \}; got no value \(undefined\)$/,
    ],
    ["Summarize", /takes a request such as \{ prompt: "\.\.\." \}; got the string "Summarize"$/],
    [{}, /ctx\.complete\(\)'s "prompt" must be a string; got no value \(undefined\)$/],
    [{ prompt: ["a"] }, /"prompt" must be a string; got an array$/],
    [{ prompt: "p", system: 3 }, /"system" must be a string; got number 3$/],
    [{ prompt: "p", maxTokens: -1 }, /"maxTokens" must be a whole number above 0; got number -1$/],
    [{ prompt: "p", signal: "stop" }, /"signal" must be an AbortSignal; got the string "stop"$/],
  ];
  for (const [request, expected] of cases) {
    const asks = {
      kind: "view-mode",
      name: "asks",
      version: "1",
      render: async (_: unknown, ctx: { complete(r: unknown): Promise<string> }) =>
        await ctx.complete(request),
    };
    const result = await build(root, [asks], "asks");
    const row = result.manifest.files.find((f) => f.path === "b.ts")!;
    assert.match(row.reason!, /^\[plugin asks\] Hook "render" failed on "b\.ts": /);
    assert.match(row.reason!, expected);
  }
});

Deno.test("a config's plugin that sets a field of the config or of its entry fails naming it, and the document is as without it", async () => {
  const root = await makeProject(TREE);
  const plain = await build(root, []);
  const setFormat = (config: { output: { format: string } }) => {
    config.output.format = "xml";
  };
  const cases: Array<[Plugin, RegExp]> = [
    [
      {
        kind: "section",
        name: "s",
        compose: (state: never) => void setFormat((state as { config: never }).config),
      },
      /^\[plugin s\] Hook "compose" failed: Cannot assign to read only property 'format'/,
    ],
    [
      {
        kind: "ordering",
        name: "o",
        order: (blocks: unknown[], ctx: { config: never }) => (setFormat(ctx.config), blocks),
      },
      /^\[plugin o\] Hook "order" failed: Cannot assign to read only property 'format'/,
    ],
  ];
  for (const [plugin, expected] of cases) {
    const message = await rejection(() => build(root, [plugin]));
    assert.match(message, expected);
  }
  // A view that sets its entry's view or the config's format: the file's row is the error, the
  // other files and the document's format are as without it.
  const view = {
    kind: "view-mode",
    name: "v",
    version: "1",
    render: (_: unknown, ctx: { config: never; entry: { view: string } }) => {
      ctx.entry.view = "full";
      setFormat(ctx.config);
      return "";
    },
  };
  const result = await build(root, [view], "v");
  const row = result.manifest.files.find((f) => f.path === "b.ts")!;
  assert.match(
    row.reason!,
    /^\[plugin v\] Hook "render" failed on "b\.ts": Cannot assign to read only property 'view'/,
  );
  // Markdown, as without the plugin (XML starts with a tag).
  assert.ok(plain.document.startsWith("## Files\n"));
  assert.ok(result.document.startsWith("## Files\n"), result.document.slice(0, 40));
});
