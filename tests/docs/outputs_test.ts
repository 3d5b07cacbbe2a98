/**
 * The documentation's sample outputs and tables are what slop prints and knows: the README's
 * build summary and document excerpt of the bundled example, the cache stats, the `slop check`,
 * `slop explain` and config error samples, and the tables of config keys, built-in plugins,
 * sections and views.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import * as mod from "../../mod.ts";
import { validateConfig } from "../../pipeline/config.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { blockAfter, deno, page, table } from "./_docs.ts";

const README = page("README.md");

/**
 * Where the excerpt's chunks (split at `[...]` lines) are in `document`, in order; a chunk is
 * whole lines of it. Returns the problems (empty when every chunk is found after the last).
 */
function excerptProblems(excerpt: string, document: string): string[] {
  const lines = document.split("\n");
  const chunks: string[][] = [[]];
  for (const line of excerpt.replace(/\n$/, "").split("\n")) {
    if (line === "[...]") chunks.push([]);
    else chunks.at(-1)!.push(line);
  }
  const problems: string[] = [];
  let from = 0;
  for (const chunk of chunks.filter((c) => c.length)) {
    let at = -1;
    for (let i = from; i + chunk.length <= lines.length && at < 0; i++) {
      if (chunk.every((l, j) => lines[i + j] === l)) at = i;
    }
    if (at < 0) problems.push(`not found after line ${from + 1}: ${chunk.join("\n")}`);
    else from = at + chunk.length;
  }
  return problems;
}

Deno.test("the excerpt check finds whole lines in order, and only those", () => {
  const doc = "a\nb\nc\nd\n";
  assert.deepEqual(excerptProblems("a\n[...]\nc\nd\n", doc), []);
  assert.notDeepEqual(excerptProblems("c\n[...]\na\n", doc), []);
  assert.notDeepEqual(excerptProblems("a\nc\n", doc), []);
  assert.notDeepEqual(excerptProblems("b \n", doc), []);
});

Deno.test("the README's summary and document, and the cache stats, are what the bundled example gives", async () => {
  // Run from a temp folder with the docs' state dir, so the printed paths are the docs'.
  const cwd = await tempDir();
  await Deno.mkdir(join(cwd, "examples"));
  const args = ["--config", join(REPO, "examples", "slop.config.ts"), "--state-dir"];
  const cli = ["run", "-A", "--quiet", join(REPO, "cli.ts")];
  const first = await deno([...cli, "build", ...args, "examples/.slop"], cwd);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(
    first.stdout,
    blockAfter(README, "`deno task context` builds the bundled example").body,
  );
  const document = await Deno.readTextFile(join(cwd, "examples/.slop/out/context_001.md"));
  const excerpt = blockAfter(README, "The document, shortened where it says");
  assert.equal(excerpt.info, "text");
  assert.ok(excerpt.body.split("\n").length >= 20, "a real excerpt");
  assert.deepEqual(excerptProblems(excerpt.body, document), []);
  const second = await deno([...cli, "build", ...args, "examples/.slop"], cwd);
  assert.equal(second.code, 0, second.stderr);
  const stats = await deno([...cli, "cache", "stats", ...args, "examples/.slop"], cwd);
  assert.equal(stats.code, 0, stats.stderr);
  const shown = blockAfter(
    page("docs/caching.md"),
    "On a fresh clone, after `deno task context` twice",
  )
    .body.split("\n").filter((l) => l.startsWith("# ")).map((l) => l.slice(2) + "\n").join("");
  assert.equal(stats.stdout, shown);
  // The README quotes the same figures.
  const prose = README.text.replace(/\s+/g, " ");
  const hits = /files (\d+)\/(\d+) hits .* token counts (\d+)\/(\d+) hits/.exec(stats.stdout)!;
  assert.ok(
    prose.includes(
      `takes ${hits[1]} of ${hits[2]} files and ${hits[3]} of ${hits[4]} token counts`,
    ),
    "the README's warm rebuild figures",
  );
  const cost = /cold (\$[\d.]+), warm (\$[\d.]+)/.exec(first.stdout)!;
  assert.ok(prose.includes(`${cost[1]} cold, ${cost[2]} warm`), "the README's call costs");
  await Deno.remove(cwd, { recursive: true });
});

/** The keys of an `obj({...})` schema in pipeline/config.ts, from its source. */
async function schemaKeys(opening: string): Promise<string[]> {
  const source = await Deno.readTextFile(join(REPO, "pipeline", "config.ts"));
  const body = source.split(opening)[1].split(/\n\}/)[0];
  return [...body.matchAll(/^ {2}(\w+)(?::|,)/gm)].map((m) => m[1]);
}

Deno.test("the config page's config and FileEntry tables list exactly the keys the config schema knows", async () => {
  const config = page("docs/config.md");
  const keys = table(config, ["key", "type", "default", "meaning"]).map((r) =>
    r[0].replace(/`/g, "")
  );
  const entry = table(config, ["key", "type", "meaning"]).map((r) => r[0].replace(/`/g, ""));
  assert.deepEqual([...keys].sort(), (await schemaKeys("const SCHEMA: Rule = obj({")).sort());
  assert.deepEqual([...entry].sort(), (await schemaKeys("const fileEntry = obj({")).sort());
  // And the schema itself agrees: a wrong type, not an unknown key.
  for (const key of keys) {
    const problems = validateConfig({ [key]: Symbol("wrong") });
    assert.ok(problems.length && !problems.some((p) => p.startsWith("Unknown key")), key);
  }
  for (const key of entry.filter((k) => k !== "path")) {
    const problems = validateConfig({ files: [{ path: "a", [key]: Symbol("wrong") }] });
    assert.ok(problems.length && !problems.some((p) => p.startsWith("Unknown key")), key);
  }
});

Deno.test("the plugin, section and view tables are the built-ins, in the order they run", () => {
  const builtins = defaultPlugins();
  const rows = table(page("docs/plugins.md"), ["kind", "hooks", "name", "factory"]);
  let kind = "";
  const listed = rows.map((r) => {
    if (r[0]) kind = r[0].replace(/`/g, "");
    return { kind, name: r[2].replace(/`/g, ""), factory: r[3].replace(/`|\(\)/g, "") };
  });
  assert.deepEqual(
    listed.map((p) => `${p.kind} ${p.name}`),
    builtins.map((p) => `${p.kind} ${p.name}`),
  );
  const exports = mod as unknown as Record<string, () => { name: string }>;
  for (const p of listed) {
    assert.equal(typeof exports[p.factory], "function", `mod.ts exports ${p.factory}`);
    assert.equal(exports[p.factory]().name, p.name, p.factory);
  }
  const sections = table(page("docs/sections.md"), ["plugin", "renders", "stability", "when"])
    .map((r) => r[0].replace(/`/g, ""));
  assert.deepEqual(sections, builtins.filter((p) => p.kind === "section").map((p) => p.name));
  const views = table(page("docs/views.md"), ["view", "output"]).map((r) =>
    `slop:${r[0].replace(/`/g, "")}`
  );
  assert.deepEqual(
    views.sort(),
    builtins.filter((p) => p.kind === "view-mode").map((p) => p.name).sort(),
  );
});

/** Each line's label: its text up to the first ":" (the sample's values are illustrative). */
function labels(text: string): string[] {
  return text.trimEnd().split("\n").map((l) => l.split(":")[0]);
}

Deno.test("the ordering page's slop check and slop explain samples have the lines the commands print", async () => {
  const dir = await makeProject({
    "slop.config.ts": 'export default { files: ["src/**"] };\n',
    "src/inventory.ts": "export class Inventory {\n  items = new Map<string, number>();\n}\n",
    "src/store.py": 'class Store:\n    """A store."""\n\n    def get(self, sku):\n' +
      "        return self.items[sku]\n",
    "src/notes.md": "# Notes\n\nSmall.\n",
  });
  const cli = ["run", "-A", "--quiet", join(REPO, "cli.ts")];
  assert.equal((await deno([...cli, "check", "--update"], dir)).code, 0);
  assert.equal((await deno([...cli, "build", "-q"], dir)).code, 0);
  await Deno.writeTextFile(
    join(dir, "src", "store.py"),
    'class Store:\n    """A store."""\n\n    def get(self, sku):\n        return self.items.get(sku)\n',
  );
  const check = await deno([...cli, "check"], dir);
  assert.equal(check.code, 1, check.stderr);
  assert.equal((await deno([...cli, "build", "-q"], dir)).code, 0);
  const explain = await deno([...cli, "explain"], dir);
  assert.equal(explain.code, 0, explain.stderr);
  const ordering = page("docs/ordering.md");
  assert.deepEqual(
    labels(blockAfter(ordering, "exits 1 when the prefix differs").body),
    labels(check.stdout + check.stderr),
  );
  assert.deepEqual(
    labels(blockAfter(ordering, "compares the last two written builds").body),
    labels(explain.stdout),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the config page's error is the one slop prints for a mistyped key", async () => {
  const dir = await makeProject({
    "slop.config.ts":
      'export default { files: ["a", "b", "c", { path: "a.ts", veiw: "full" }] };\n',
    "a.ts": "export const a = 1;\n",
  });
  const run = await deno(["run", "-A", "--quiet", join(REPO, "cli.ts"), "build"], dir);
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr,
    blockAfter(page("docs/config.md"), "keys are errors that name the key path and the file").body,
  );
  await Deno.remove(dir, { recursive: true });
});
