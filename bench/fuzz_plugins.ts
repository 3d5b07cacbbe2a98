/**
 * A fuzzer of user plugins and configs that behave badly: view modes, sections, ordering rules
 * and providers whose hooks throw odd values, return values of the wrong type, never settle,
 * mutate what they are given, call `ctx.warn` and `ctx.store` with odd values; plugins with odd
 * names, names of a built-in of another kind, hooks that are not functions; configs with a value
 * of a wrong type at each key. Each case is built in process (`buildContext()` of `mod.ts`, in a
 * project folder of its own) and its outcome counted:
 *
 * - `clear error`: the build failed, or the case's file row is an error, with one line under
 *   {@linkcode MAX_ERROR_CHARS} characters that names what the case expects (the plugin, the key
 *   path, the store key) and holds no stack;
 * - `clean pass`: the build passed and the case's check of its output holds;
 * - `crash`: an error that does not name the fault, holds a stack, spans lines or is too long;
 * - `hang`: no answer within `--timeout` seconds;
 * - `wrong output`: the build passed where the case expects an error, or its output check failed.
 *
 * Cases whose outcome is not the one expected are listed with their message.
 *
 * ```sh
 * deno run -A bench/fuzz_plugins.ts                      # this checkout
 * deno run -A bench/fuzz_plugins.ts --repo /tmp/base     # another checkout (a copy of main)
 * ```
 *
 * @module
 */

import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

/** The longest error message counted as clear. */
const MAX_ERROR_CHARS = 2000;

/** What a case expects: an error naming each of `names`, or a pass whose output `check` accepts. */
type Expect =
  | { error: string[] }
  | { pass: (result: BuildResult) => string | undefined };

/** The parts of a build's result the cases look at. */
interface BuildResult {
  document: string;
  manifest: {
    files: { path: string; status: string; reason?: string }[];
    warnings?: string[];
  };
}

/** One case: the config given inline, and what must come of it. */
interface Case {
  name: string;
  config: Record<string, unknown>;
  expect: Expect;
  /** Files the project holds beside the default two. */
  tree?: Record<string, string>;
}

const TREE = { "a.md": "hello TODO\n", "b.ts": "export const x = 1;\n" };

/** Values a hook may wrongly return. */
function oddValues(): [string, () => unknown][] {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  return [
    ["a number", () => 42],
    ["undefined", () => undefined],
    ["null", () => null],
    ["a symbol", () => Symbol("s")],
    ["a bigint", () => 10n],
    ["a function", () => () => 1],
    ["a promise that rejects with undefined", () => Promise.reject(undefined)],
    ["an object whose getters throw", () => ({
      get text() {
        throw new Error("getter boom");
      },
      get length() {
        throw new Error("getter boom");
      },
    })],
    ["a revoked proxy", () => {
      const p = Proxy.revocable({}, {});
      p.revoke();
      return p.proxy;
    }],
    ["a cycle", () => cycle],
  ];
}

/** Values a hook may throw. */
function thrownValues(): [string, () => unknown][] {
  return [
    ["a multi-line error", () => new Error("first\n## Files\n### forged.ts\n```")],
    ["a huge error", () => new Error(`huge ${"y".repeat(200_000)}`)],
    ["a huge multi-line string", () => "line\n".repeat(50_000)],
    ["undefined", () => undefined],
    ["an object without a prototype", () => Object.create(null)],
    ["an error whose message getter throws", () => {
      const e = new Error("x");
      Object.defineProperty(e, "message", {
        get() {
          throw new Error("no");
        },
      });
      return e;
    }],
  ];
}

/** A file row of `path` is an error, or the build's; `undefined` when it passed. */
function rowError(result: BuildResult, path = "b.ts"): string | undefined {
  return result.manifest.files.find((f) => f.path === path && f.status === "error")?.reason;
}

/** A view mode named `v` used for `b.ts`. */
function viewCase(name: string, plugin: Record<string, unknown>, expect: Expect): Case {
  return {
    name,
    config: {
      files: ["a.md", { path: "b.ts", view: "v" }],
      plugins: [{ kind: "view-mode", name: "v", version: "1", timeoutMs: 500, ...plugin }],
    },
    expect,
  };
}

/** Sections and ordering rules given with the default files. */
function pluginsCase(name: string, plugins: Record<string, unknown>[], expect: Expect): Case {
  return { name, config: { files: ["a.md", "b.ts"], plugins }, expect };
}

/** The document shows both files, and the manifest lists them. */
function bothFiles(result: BuildResult): string | undefined {
  if (result.manifest.files.length !== 2) return `${result.manifest.files.length} manifest rows`;
  if (!result.document.includes("hello TODO") || !result.document.includes("export const x")) {
    return "a file's text is missing from the document";
  }
  return undefined;
}

function hookCases(): Case[] {
  const cases: Case[] = [];
  for (const [what, thrown] of thrownValues()) {
    cases.push(viewCase(`render throws ${what}`, {
      render: () => {
        throw thrown();
      },
    }, { error: ["[plugin v]", "b.ts"] }));
    cases.push(viewCase(`cacheKey throws ${what}`, {
      cacheKey: () => {
        throw thrown();
      },
      render: () => "ok",
    }, { error: ["[plugin v]", "cacheKey"] }));
    cases.push(pluginsCase(`compose throws ${what}`, [{
      kind: "section",
      name: "s",
      compose: () => {
        throw thrown();
      },
    }], { error: ["[plugin s]", "compose"] }));
    cases.push(pluginsCase(`order throws ${what}`, [{
      kind: "ordering",
      name: "o",
      order: () => {
        throw thrown();
      },
    }], { error: ["[plugin o]", "order"] }));
  }
  for (const [what, value] of oddValues()) {
    cases.push(viewCase(`render returns ${what}`, { render: value }, {
      error: ["[plugin v]", "b.ts"],
    }));
    cases.push(viewCase(`cacheKey returns ${what}`, { cacheKey: value, render: () => "ok" }, {
      error: ["[plugin v]", "cacheKey"],
    }));
    cases.push(pluginsCase(`compose returns ${what}`, [{
      kind: "section",
      name: "s",
      compose: value,
    }], { error: ["[plugin s]", "compose"] }));
    cases.push(
      pluginsCase(`order returns ${what}`, [{ kind: "ordering", name: "o", order: value }], {
        error: ["[plugin o]", "order"],
      }),
    );
  }
  const rendered = (r: BuildResult) =>
    r.document.includes("rendered by v") ? undefined : "the view did not render";
  const prepares: [string, () => unknown][] = [
    ["throws", () => {
      throw new Error("not ready");
    }],
    ["gives a number", () => 5],
    ["gives a promise", () => new Promise(() => {})],
    ["gives a release that throws", () => () => {
      throw new Error("release");
    }],
  ];
  for (const [what, prepare] of prepares) {
    cases.push(viewCase(`prepare ${what}`, { prepare, render: () => "rendered by v" }, {
      pass: rendered,
    }));
  }
  cases.push(
    viewCase("accepts is async", { accepts: () => Promise.resolve(false), render: () => "x" }, {
      error: ["[plugin v]", "accepts"],
    }),
  );
  cases.push(viewCase("cacheKey never settles", {
    cacheKey: () => new Promise(() => {}),
    render: () => "ok",
  }, { error: ["[plugin v]", "cacheKey"] }));
  cases.push(viewCase("render never settles", { render: () => new Promise(() => {}) }, {
    error: ["[plugin v]", "render"],
  }));
  cases.push(viewCase("render returns a huge string", { render: () => "z".repeat(2_000_000) }, {
    pass: (r) => r.document.includes("z".repeat(2_000_000)) ? undefined : "the text was cut",
  }));
  return cases;
}

function contextCases(): Case[] {
  const cases: Case[] = [];
  const warned: [string, unknown][] = [
    ["an object", { a: 1 }],
    ["undefined", undefined],
    ["a symbol", Symbol("s")],
    ["a number", 7],
    ["a multi-line string", "one\ntwo"],
    ["a plain string", "plain words"],
  ];
  for (const [what, value] of warned) {
    const named = (plugin: string) => (r: BuildResult) => {
      const warned = (r.manifest.warnings ?? []).some((w) =>
        w.startsWith(`[plugin ${plugin}] `) && !w.includes("\n")
      );
      if (!warned) {
        return `no one-line warning names the plugin: ${JSON.stringify(r.manifest.warnings)}`;
      }
      return r.manifest.files.length === 2 ? undefined : `${r.manifest.files.length} manifest rows`;
    };
    cases.push(viewCase(`ctx.warn of ${what} in render`, {
      render: (_: unknown, ctx: { warn(v: unknown): void }) => {
        ctx.warn(value);
        return "ok";
      },
    }, { pass: named("v") }));
    cases.push(pluginsCase(`ctx.warn of ${what} in compose`, [{
      kind: "section",
      name: "s",
      compose: (_: unknown, ctx: { warn(v: unknown): void }) => (ctx.warn(value), []),
    }], { pass: named("s") }));
    cases.push(pluginsCase(`ctx.warn of ${what} in order`, [{
      kind: "ordering",
      name: "o",
      order: (b: unknown, ctx: { warn(v: unknown): void }) => (ctx.warn(value), b),
    }], { pass: named("o") }));
  }
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const stored: [string, unknown][] = [
    ["a function", { f: () => 1 }],
    ["a bigint", 10n],
    ["a cycle", cycle],
    ["a symbol", Symbol("s")],
    ["undefined", undefined],
    ["a Map", new Map([[1, 2]])],
    ["NaN", Number.NaN],
  ];
  for (const [what, value] of stored) {
    cases.push(viewCase(`ctx.store.set of ${what}`, {
      render: async (_: unknown, ctx: { store: { set(k: string, v: unknown): unknown } }) => {
        await ctx.store.set("my-key", value);
        return "ok";
      },
    }, { error: ["[plugin v]", "my-key"] }));
  }
  cases.push(pluginsCase("a section empties state.files", [
    { kind: "section", name: "s1", compose: (s: { files: unknown[] }) => (s.files.length = 0, []) },
    {
      kind: "section",
      name: "s2",
      compose: (s: { files: unknown[] }) => [
        { id: "s2", section: "s2", stability: "static", text: `s2 sees ${s.files.length}\n` },
      ],
    },
  ], {
    pass: (r) => r.document.includes("s2 sees 2") ? bothFiles(r) : "s2 saw the emptied list",
  }));
  cases.push(pluginsCase("an ordering rule empties ctx.files", [
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
  ], { pass: bothFiles }));
  cases.push(pluginsCase("an ordering rule changes a block's text in place", [
    {
      kind: "ordering",
      name: "o",
      order: (b: { text: string }[]) => (b[0].text = "INJECTED\n", b),
    },
  ], { error: ["[plugin o]", "order"] }));
  cases.push(pluginsCase("an ordering rule changes a block's id in place", [
    { kind: "ordering", name: "o", order: (b: { id: string }[]) => (b[0].id = "other", b) },
  ], { error: ["[plugin o]", "order"] }));
  cases.push(pluginsCase("a section changes a file's text in place", [{
    kind: "section",
    name: "s",
    compose: (s: { files: { text?: string }[] }) => (s.files.forEach((f) => f.text = "X"), []),
  }], { error: ["[plugin s]", "compose"] }));
  cases.push(pluginsCase("a section adds a note to a file in place", [{
    kind: "section",
    name: "s",
    compose: (
      s: { files: { notes?: string[] }[] },
    ) => (s.files.forEach((f) => (f.notes ??= []).push("x")), []),
  }], { error: ["[plugin s]", "compose"] }));
  cases.push(pluginsCase("an ordering rule empties its blocks and returns them", [
    { kind: "ordering", name: "o", order: (b: unknown[]) => (b.length = 0, b) },
  ], { error: ["[plugin o]", "order"] }));
  return cases;
}

function registryCases(): Case[] {
  const cases: Case[] = [];
  const names = ["v\u001b[31m", "s\nx", "a\u0000b", "tab\tname", "del\u007f"];
  for (const name of names) {
    cases.push(pluginsCase(`a name with a control character ${JSON.stringify(name)}`, [{
      kind: "section",
      name,
      compose: () => [],
    }], { error: ["plugins[0]", "name"] }));
  }
  const crossed: [string, string, Record<string, unknown>][] = [
    ["a section named slop:full", "slop:full", { kind: "section", compose: () => [] }],
    ["a view mode named slop:files", "slop:files", {
      kind: "view-mode",
      version: "1",
      render: () => "x",
    }],
    ["an ordering rule named slop:tree", "slop:tree", {
      kind: "ordering",
      order: (b: unknown) => b,
    }],
    ["a provider named slop:volatility", "slop:volatility", { kind: "provider" }],
    ["a section named slop:anthropic", "slop:anthropic", { kind: "section", compose: () => [] }],
  ];
  for (const [what, name, plugin] of crossed) {
    cases.push(pluginsCase(what, [{ name, ...plugin }], { error: ["plugins[0]", name] }));
  }
  for (const hook of ["prepare", "accepts", "cacheKey", "definitions"]) {
    for (const value of [5, "render", null, {}]) {
      cases.push(viewCase(`${hook} is ${JSON.stringify(value)}`, {
        [hook]: value,
        render: () => "ok",
      }, { error: ["plugins[0]", hook] }));
    }
  }
  return cases;
}

/** Wrong values at each config key, each error to name the key path. */
function configCases(): Case[] {
  const cases: Case[] = [];
  const wrong: [string, Record<string, unknown>][] = [
    ["files[2].view", { files: ["a.md", "b.ts", { path: "a.md", view: 5 }] }],
    ["files[1].path", { files: ["a.md", { path: 5 }] }],
    ["files[1].options", { files: ["a.md", { path: "b.ts", options: "x" }] }],
    ["files[0]", { files: [5] }],
    ["exclude[0]", { files: ["a.md"], exclude: [null] }],
    ["defaultView", { files: ["a.md"], defaultView: 3 }],
    ["budget.tokens", { files: ["a.md"], budget: { tokens: "lots" } }],
    ["budget.tokens", { files: ["a.md"], budget: { tokens: -1 } }],
    ["cache.enabled", { files: ["a.md"], cache: { enabled: "yes" } }],
    ["output.format", { files: ["a.md"], output: { format: 7 } }],
    ["maxFileSize", { files: ["a.md"], maxFileSize: "big" }],
    ["secrets.rules", { files: ["a.md"], secrets: { rules: "x" } }],
    ["plugins", { files: ["a.md"], plugins: { kind: "section" } }],
    ["plugins[0]", { files: ["a.md"], plugins: [5] }],
    ["tree", { files: ["a.md"], tree: "yes" }],
    ["beads", { files: ["a.md"], beads: 1 }],
    ["ordering", { files: ["a.md"], ordering: 5 }],
    ["task", { files: ["a.md"], task: 5 }],
    ["history", { files: ["a.md"], history: 5 }],
    ["files[3].view", { files: ["a.md", "b.ts", "a.md", { path: "b.ts", view: ["full"] }] }],
    ["files[1].options", { files: ["a.md", { path: "b.ts", options: [1] }] }],
    ["budget.tokens", { files: ["a.md"], budget: { tokens: Number.NaN } }],
    ["budget.tokens", { files: ["a.md"], budget: { tokens: Infinity } }],
    ["budget.tokenizer", { files: ["a.md"], budget: { tokenizer: "gpt2" } }],
    ["budget.taskShare", { files: ["a.md"], budget: { taskShare: 7 } }],
    ["output.dir", { files: ["a.md"], output: { dir: 5 } }],
    ["output.keep", { files: ["a.md"], output: { keep: "all" } }],
    ["output.namespace", { files: ["a.md"], output: { namespace: { a: 1 } } }],
    ["cache.dir", { files: ["a.md"], cache: { dir: 5 } }],
    ["cache.maxSize", { files: ["a.md"], cache: { maxSize: "lots" } }],
    ["provider.name", { files: ["a.md"], provider: { name: 5 } }],
    ["provider.ttl", { files: ["a.md"], provider: { ttl: 300 } }],
    ["provider", { files: ["a.md"], provider: "anthropic" }],
    ["rank.weights.lexical", { files: ["a.md"], rank: { weights: { lexical: "high" } } }],
    ["knowledge.conversations[0]", { files: ["a.md"], knowledge: { conversations: [5] } }],
    ["secrets.rules.mine", { files: ["a.md"], secrets: { rules: { mine: 5 } } }],
    ["secrets.failOnSecret", { files: ["a.md"], secrets: { failOnSecret: "yes" } }],
    ["compaction.threshold", { files: ["a.md"], compaction: { threshold: "half" } }],
    ["ordering.pinned[0]", { files: ["a.md"], ordering: { pinned: [5] } }],
    ["presets.small", { files: ["a.md"], presets: { small: 5 } }],
    ["personas.reviewer", { files: ["a.md"], personas: { reviewer: "x" } }],
    ["screenshots[0]", { files: ["a.md"], screenshots: [{}] }],
    ["include[0]", { files: ["a.md"], include: [7] }],
    ["summaryOnly", { files: ["a.md"], summaryOnly: "no" }],
    ["allowOutsideRoot", { files: ["a.md"], allowOutsideRoot: 1 }],
    ["slicesFile", { files: ["a.md"], slicesFile: 5 }],
    ["strategy", { files: ["a.md"], strategy: "everything" }],
    ["lock", { files: ["a.md"], lock: 5 }],
    ["root", { files: ["a.md"], root: 5 }],
  ];
  for (const [path, config] of wrong) {
    cases.push({ name: `config ${path} of a wrong type`, config, expect: { error: [path] } });
  }
  return cases;
}

/** Every case, in a fixed order. */
export function allCases(): Case[] {
  return [...hookCases(), ...contextCases(), ...registryCases(), ...configCases()];
}

type Outcome = "clear error" | "clean pass" | "crash" | "hang" | "wrong output";

/** Why an error message is not clear, or `undefined` when it is. */
function unclear(message: string, names: string[]): string | undefined {
  if (message.length > MAX_ERROR_CHARS) return `${message.length} characters`;
  if (message.includes("\n")) return `${message.split("\n").length} lines`;
  if (/\n\s+at |\bat .*:\d+:\d+/.test(message)) return "a stack";
  const missing = names.filter((n) => !message.includes(n));
  return missing.length
    ? `does not name ${missing.map((n) => JSON.stringify(n)).join(", ")}`
    : undefined;
}

type Build = (
  options: { cwd: string; inline: unknown },
  more: { write: boolean },
) => Promise<BuildResult>;

async function runCase(
  build: Build,
  item: Case,
  { root, timeoutMs }: { root: string; timeoutMs: number },
): Promise<{ outcome: Outcome; detail: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<"hang">((done) => timer = setTimeout(() => done("hang"), timeoutMs));
  try {
    const result = await Promise.race([
      build({ cwd: root, inline: item.config }, { write: false }),
      hang,
    ]);
    if (result === "hang") return { outcome: "hang", detail: `no answer in ${timeoutMs} ms` };
    if ("error" in item.expect) {
      const row = rowError(result) ??
        result.manifest.files.find((f) => f.status === "error")?.reason;
      if (row === undefined) return { outcome: "wrong output", detail: "the build passed" };
      const why = unclear(row, item.expect.error);
      return why
        ? { outcome: "crash", detail: `${why}: ${row.slice(0, 160)}` }
        : { outcome: "clear error", detail: row.slice(0, 160) };
    }
    const wrong = item.expect.pass(result);
    return wrong
      ? { outcome: "wrong output", detail: wrong.slice(0, 300) }
      : { outcome: "clean pass", detail: "" };
  } catch (error) {
    const message = error instanceof Error ? String(error.message) : String(error);
    if ("pass" in item.expect) return { outcome: "crash", detail: message.slice(0, 160) };
    const why = unclear(message, item.expect.error);
    return why
      ? { outcome: "crash", detail: `${why}: ${message.slice(0, 160).replaceAll("\n", "\\n")}` }
      : { outcome: "clear error", detail: message.slice(0, 160) };
  } finally {
    clearTimeout(timer);
  }
}

/** Expected outcome of a case. */
function expected(item: Case): Outcome {
  return "error" in item.expect ? "clear error" : "clean pass";
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      repo: { type: "string", default: join(import.meta.dirname!, "..") },
      timeout: { type: "string", default: "20" },
      filter: { type: "string", default: "" },
    },
  });
  const mod = await import(join(resolve(values.repo!), "mod.ts"));
  const build = mod.buildContext as Build;
  // Errors no hook awaited (a rejected promise a hook returned late) are counted by the case.
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  const counts: Record<Outcome, number> = {
    "clear error": 0,
    "clean pass": 0,
    "crash": 0,
    "hang": 0,
    "wrong output": 0,
  };
  const off: string[] = [];
  const cases = allCases().filter((c) => c.name.includes(values.filter!));
  for (const item of cases) {
    const root = await Deno.makeTempDir({ prefix: "fuzz_plugins_" });
    for (const [path, text] of Object.entries({ ...TREE, ...item.tree })) {
      await Deno.writeTextFile(join(root, path), text);
    }
    const { outcome, detail } = await runCase(build, item, {
      root,
      timeoutMs: Number(values.timeout) * 1000,
    });
    counts[outcome]++;
    if (outcome !== expected(item)) {
      off.push(
        `${outcome.padEnd(12)} ${item.name}: ${detail.replaceAll("\n", "\\n").slice(0, 160)}`,
      );
    }
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  console.log(`${cases.length} cases (${values.repo})`);
  for (const [outcome, n] of Object.entries(counts)) console.log(`  ${outcome.padEnd(12)} ${n}`);
  if (off.length) console.log(`\nNot as expected:\n${off.join("\n")}`);
}
