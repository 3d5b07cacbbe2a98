/**
 * The documentation's TypeScript blocks are true: in README.md and every
 * `docs/*.md` page, each ts block type-checks against this checkout and runs
 * (config blocks through a real `slop build`, test blocks with `deno test`,
 * scripts with `deno run`), and the plugin shown whole is the bundled
 * example's, byte for byte.
 *
 * A ts block that is deliberately not a complete program is marked with
 * `<!-- readme-test: fragment -->` on the line before its fence.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeProject, REPO, tempDir, type Tree } from "../_helpers.ts";
import { anchorOf, codeSpans, parseMarkdown } from "./_markdown.ts";
import { deno, page, pool, USER_PAGES } from "./_docs.ts";
import {
  COPIES,
  copies,
  pluginPath,
  pointed,
  type Snippet,
  snippets,
  staleCopies,
} from "./_snippets.ts";
// The blocks' copies, type-checked with this file (and the other test files) by `deno test`.
import type {} from "./snippets/index.ts";

/** slop's entry points in this checkout, as a URL the temporary projects import them from. */
const ROOT = `${pathToFileURL(REPO).href}/`;

/** The small project every snippet runs in: the files its configs name. */
const FIXTURE: Tree = {
  "src/big_module.ts": "/** Sums numbers. */\nexport function total(xs: number[]): number {\n" +
    "  return xs.reduce((a, b) => a + b, 0);\n}\n",
  "src/app.ts": 'import { total } from "./big_module.ts";\nconsole.log(total([1, 2]));\n',
  "src/store.py": 'class Store:\n    """A store of items."""\n\n    def get(self, sku):\n' +
    "        return self.items[sku]\n\n    def put(self, sku, item):\n" +
    "        self.items[sku] = item\n",
  "docs/notes.md": "# Notes\n\n- XXX: check the totals\n- TODO: more tests\n",
  "slop/discussion.jsonl": '{"role":"user","content":"Add a total."}\n' +
    '{"role":"assistant","content":"Done."}\n',
  "notebooks/explore.ipynb": notebook("print(total)", "6\n"),
  "notebooks/raw.ipynb": notebook("x = 1", ""),
};

/** A notebook of one code cell and what it printed. */
function notebook(source: string, printed: string): string {
  const outputs = printed ? [{ output_type: "stream", name: "stdout", text: [printed] }] : [];
  const cells = [{ cell_type: "code", metadata: {}, source: [source], outputs }];
  return JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1);
}

/** A warning a hermetic build may give: the model views have no key and no network here. */
const OFFLINE_WARNING = /^\[plugin slop:llm_summary\] Cannot summarize /;

/** One fixture project per snippet; the plugin blocks sit in `plugins/` as the configs import them. */
async function projects(
  all: Snippet[],
): Promise<{ snippet: Snippet; dir: string; file: string }[]> {
  const plugins: Tree = {};
  for (const s of all.filter((s) => s.kind === "plugin")) {
    plugins[pluginPath(s.body)] = pointed(s.body, ROOT);
  }
  // A test or script runs in the README's setup: its first config block.
  const firstConfig = pointed(
    all.find((s) => s.kind === "config" && s.page.path === "README.md")!.body,
    ROOT,
  );
  const out = [];
  for (const snippet of all) {
    const name = {
      config: "slop.config.ts",
      plugin: "plugin.ts",
      test: "context_test.ts",
      script: "script.ts",
    }[snippet.kind];
    const tree: Tree = { ...FIXTURE, ...plugins, [name]: pointed(snippet.body, ROOT) };
    if (snippet.kind !== "config") tree["slop.config.ts"] = firstConfig;
    const dir = await makeProject(tree);
    out.push({ snippet, dir, file: join(dir, name) });
  }
  return out;
}

/**
 * `slop build` in each of `dirs`, one after the other in one process (the CLI's `main()`, as
 * `cli.ts` runs it): a process and its module loading for each of the dozen config blocks
 * cost a third of this test's time. The exit codes in order, and all that the builds printed.
 */
async function slopBuilds(dirs: string[]): Promise<{ codes: number[]; output: string }> {
  const runner = join(await tempDir({ prefix: "slop_doc_builds_" }), "builds.ts");
  await Deno.writeTextFile(
    runner,
    `import { main } from ${JSON.stringify(pathToFileURL(join(REPO, "cli.ts")).href)};\n` +
      "const codes = [];\n" +
      "for (const dir of Deno.args.slice(1)) {\n" +
      "  Deno.chdir(dir);\n" +
      '  codes.push(await main(["build"]).catch((e) => (console.error(e), 1)));\n' +
      "}\n" +
      "await Deno.writeTextFile(Deno.args[0], JSON.stringify(codes));\n",
  );
  const codesFile = join(runner, "..", "codes.json");
  const run = await deno(["run", "-A", "--quiet", runner, codesFile, ...dirs], dirs[0]);
  const output = `${run.stdout}${run.stderr}`;
  assert.equal(run.code, 0, output);
  const codes: number[] = JSON.parse(await Deno.readTextFile(codesFile));
  await Deno.remove(join(runner, ".."), { recursive: true });
  return { codes, output };
}

Deno.test("the docs' TypeScript blocks type-check, and every config block builds with slop build", async () => {
  const all = snippets();
  const kinds = all.map((s) => s.kind);
  assert.ok(kinds.filter((k) => k === "config").length >= 6, `config blocks: ${kinds}`);
  assert.ok(kinds.includes("plugin") && kinds.includes("test") && kinds.includes("script"));
  // The README had 9 before it was split into pages; they all moved, and 3 more were added.
  assert.ok(all.length >= 12, `${all.length} ts blocks`);
  const made = await projects(all);

  // The type check itself happened before this test ran, on the copies; they must be the blocks.
  const stale = await staleCopies(copies(all));
  if (stale.length) {
    // Show what a check of the blocks as they are says, then fail: the copies must be written.
    const check = await deno(["check", "--quiet", ...made.map((m) => m.file)], made[0].dir);
    assert.equal(check.code, 0, check.stderr);
    assert.fail(
      `${COPIES} differs from the docs' ts blocks (${stale.join(", ")}): ` +
        "run deno run -A tests/docs/_snippets.ts",
    );
  }

  const configs = made.filter((m) => m.snippet.kind === "config");
  const [built, runs] = await Promise.all([
    slopBuilds(configs.map((m) => m.dir)),
    pool(made.map(({ snippet, dir }) => async () => {
      const where = `${snippet.page.path} line ${snippet.fence.line} (${snippet.kind})`;
      if (snippet.kind === "test") {
        // As the docs say: record the snapshot with -u, then the test passes against it. The
        // block was type-checked with the others above, so its runs skip a second check.
        const test = ["test", "-A", "--quiet", "--no-check"];
        for (const args of [[...test, "-u"], test]) {
          const run = await deno(args, dir);
          assert.equal(
            run.code,
            0,
            `${where}: deno ${args.join(" ")}: ${run.stdout}${run.stderr}`,
          );
        }
      } else if (snippet.kind === "script") {
        const run = await deno(["run", "-A", "--quiet", "script.ts"], dir);
        assert.equal(run.code, 0, `${where}: ${run.stdout}${run.stderr}`);
      }
      return where;
    })),
  ]);
  assert.equal(runs.length, made.length);
  assert.equal(built.codes.length, configs.length, built.output);
  for (const [i, { snippet, dir }] of configs.entries()) {
    const where = `${snippet.page.path} line ${snippet.fence.line} (config)`;
    assert.equal(built.codes[i], 0, `${where}: ${built.output}`);
    const manifest = JSON.parse(
      await Deno.readTextFile(join(dir, ".slop", "out", "context_001.json")),
    );
    const files: { path: string; status: string }[] = manifest.files;
    assert.ok(files.some((f) => f.status === "rendered"), where);
    assert.deepEqual(files.filter((f) => f.status === "error"), [], where);
    const warnings = (manifest.warnings as string[]).filter((w) => !OFFLINE_WARNING.test(w));
    assert.deepEqual(warnings, [], where);
  }
  for (const { dir } of made) await Deno.remove(dir, { recursive: true });
});

Deno.test("every plugin block of the docs runs: a config or test block imports it", () => {
  const all = snippets();
  const users = all.filter((s) => s.kind === "config" || s.kind === "test").map((s) => s.body);
  const unused = all.filter((s) => s.kind === "plugin")
    .filter((s) => !users.some((body) => body.includes(`"./${pluginPath(s.body)}"`)))
    .map((s) => `${s.page.path} line ${s.fence.line} (${pluginPath(s.body)})`);
  assert.deepEqual(unused, [], "plugin blocks that are type-checked but never run");
});

Deno.test("the plugin page's example is examples/plugins/todo_view.ts, byte for byte", async () => {
  const example = await Deno.readTextFile(join(REPO, "examples", "plugins", "todo_view.ts"));
  assert.ok(
    page("docs/plugins.md").doc.fences.some((f) => f.info === "ts" && f.body === example),
    "docs/plugins.md shows the plugin file whole",
  );
});

Deno.test("a block after <!-- readme-test: fragment --> is marked; code spans may wrap lines", () => {
  const md =
    "Text `slop\nbuild` and ``a ` b``.\n\n<!-- readme-test: fragment -->\n```ts\nx;\n```\n" +
    "\n````ts\n```\ny;\n````\n";
  const parsed = parseMarkdown(md);
  assert.deepEqual(parsed.fences.map((f) => [f.info, f.body, f.marker]), [
    ["ts", "x;\n", "fragment"],
    ["ts", "```\ny;\n", undefined],
  ]);
  assert.deepEqual(codeSpans(parsed.paragraphs[0]), ["slop build", "a ` b"]);
  assert.equal(anchorOf("Benchmarks, stats and reports"), "benchmarks-stats-and-reports");
});

Deno.test("fragment markers are rare and each sits on a ts block", () => {
  const fences = USER_PAGES.flatMap((p) => p.doc.fences.map((f) => ({ p, f })));
  const marked = fences.filter(({ f }) => f.marker !== undefined);
  for (const { p, f } of marked) {
    assert.equal(f.marker, "fragment", `${p.path} line ${f.line}`);
    assert.equal(f.info, "ts", `${p.path} line ${f.line}`);
  }
  const ts = fences.filter(({ f }) => f.info === "ts");
  assert.ok(marked.length * 4 <= ts.length, `${marked.length} of ${ts.length} ts blocks skipped`);
});
