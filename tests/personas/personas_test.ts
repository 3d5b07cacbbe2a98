import assert from "node:assert/strict";
import { build, buildContext, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { git, gitInit, makeProject, runCliShared } from "../_helpers.ts";
import { focusMatcher } from "../../pipeline/transform.ts";
import { unmatchedFocus } from "../../pipeline/personas.ts";
import { join } from "node:path";
import { changedSince } from "../../pipeline/since.ts";

const PROJECT = {
  "app.py": "import os\n\ndef main():\n    return os.getcwd()\n",
  "lib.py": "class Store:\n    def get(self, key):\n        return key\n",
  "notes.md": "# Notes\n\nSome prose.\n",
};

const PERSONAS = {
  lead: { tier: 1 as const },
  tech: { tier: 2 as const },
  worker: { tier: 3 as const, focus: ["lib.py"] },
  custom: { tier: 2 as const, defaultView: "none" },
};

/** The view a grammar view renders as on this branch: itself when installed, else summary. */
function installedOr(view: string): string {
  return defaultPlugins().some((p) => p.name === `slop:${view}`) ? view : "summary";
}

function views(result: { files: Array<{ path: string; view: string }> }) {
  return Object.fromEntries(result.files.map((f) => [f.path, f.view]));
}

Deno.test("a tier 1 persona gets every file in full over the config's defaultView", async () => {
  const root = await makeProject(PROJECT);
  const result = await buildContext({
    cwd: root,
    persona: "lead",
    inline: { defaultView: "summary", personas: PERSONAS },
  }, { write: false });
  assert.deepEqual(views(result), { "app.py": "full", "lib.py": "full", "notes.md": "full" });
  assert.match(result.document, /^## Files\n\n/);
});

Deno.test("a tier 2 persona gets summaries, llm_summary once a provider is configured", async () => {
  const root = await makeProject(PROJECT);
  const result = await buildContext({
    cwd: root,
    persona: "tech",
    inline: { personas: PERSONAS },
  }, { write: false });
  assert.deepEqual(views(result), {
    "app.py": "summary",
    "lib.py": "summary",
    "notes.md": "summary",
  });
  assert.match(result.document, /### app.py\n\n\*\*Python\*\*, 4 lines\n- functions: `main`/);
  const withProvider = await loadConfig({
    cwd: root,
    persona: "tech",
    inline: { personas: PERSONAS, provider: { name: "openai", model: "m" } },
  });
  assert.equal(withProvider.defaultView, "llm_summary");
});

Deno.test("a persona's own defaultView beats its tier's; per-file views beat both", async () => {
  const root = await makeProject(PROJECT);
  const result = await buildContext({
    cwd: root,
    persona: "custom",
    inline: { personas: PERSONAS, files: ["*.py", { path: "notes.md", view: "full" }] },
  }, { write: false });
  assert.deepEqual(views(result), { "app.py": "none", "lib.py": "none", "notes.md": "full" });
});

Deno.test("a tier 3 persona gets its focus files in full and every other file as a skeleton", async () => {
  const root = await makeProject(PROJECT);
  const result = await buildContext({
    cwd: root,
    persona: "worker",
    inline: { personas: PERSONAS, files: ["*.py", { path: "notes.md", view: "full" }] },
  }, { write: false });
  assert.deepEqual(views(result), {
    "app.py": installedOr("skeleton"),
    "lib.py": "full",
    "notes.md": "summary",
  });
  assert.match(result.document, /^## Files \(Tier 3 - Focused\)\n\n/);
  assert.match(result.document, /### lib.py\n\n```python\nclass Store:\n/);
  if (installedOr("skeleton") === "summary") {
    assert.deepEqual(result.files[0].notes, ["skeleton is not installed: fell back to summary"]);
  }
});

Deno.test("--focus adds to the persona's focus, end to end through the CLI", async () => {
  const root = await makeProject({
    ...PROJECT,
    "slop.config.ts": `export default { personas: ${JSON.stringify(PERSONAS)} };\n`,
  });
  const run = await runCliShared(
    ["build", "--persona", "worker", "--focus", "app.py", "--stdout", "--json"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  const { manifest, document } = JSON.parse(run.stdout);
  const byPath = Object.fromEntries(
    manifest.files.map((f: { path: string; view: string }) => [f.path, f.view]),
  );
  assert.equal(byPath["app.py"], "full");
  assert.equal(byPath["lib.py"], "full");
  assert.notEqual(byPath["slop.config.ts"], "full");
  assert.match(document, /^## Files \(Tier 3 - Focused\)\n\n/);
});

Deno.test("a focus entry that matches no file is a warning, the build goes on", async () => {
  const root = await makeProject(PROJECT);
  const result = await buildContext({
    cwd: root,
    persona: "worker",
    focus: ["app.py", "lbi.py"],
    inline: { personas: PERSONAS },
  }, { write: false });
  assert.deepEqual(result.warnings, ['Focus "lbi.py" matches no file of the build']);
  assert.equal(result.files.find((f) => f.path === "app.py")!.view, "full");
});

const TREE = {
  "src/app.ts": "export const app = 1;\n",
  "src/webapp.ts": "export const web = 2;\n",
  "apps/main.py": "def main():\n    return 0\n",
  "lib/b.ts": "export const b = 3;\n",
  "docs/README.md": "# Docs\n",
  "README.md": "# Top\n",
};
const PATHS = Object.keys(TREE);

/** The files the build renders in full (focus), every other file as a summary. */
async function fullWith(focus: string[]): Promise<{ full: string[]; warnings: string[] }> {
  const root = await makeProject(TREE);
  const config = await loadConfig({ cwd: root, inline: { defaultView: "summary" }, focus });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  return {
    full: result.files.filter((f) => f.view === "full").map((f) => f.path).sort(),
    warnings: result.warnings,
  };
}

Deno.test("--focus app matches by substring when no path or name is app", async () => {
  const { full, warnings } = await fullWith(["app"]);
  assert.deepEqual(full, ["apps/main.py", "src/app.ts", "src/webapp.ts"]);
  assert.deepEqual(warnings, []);
});

Deno.test("focus levels: exact path, folder, glob and name come before the substring", async () => {
  // A file name: its files only, not every path that holds the text.
  assert.deepEqual((await fullWith(["app.ts"])).full, ["src/app.ts"]);
  assert.deepEqual((await fullWith(["README.md"])).full, ["README.md", "docs/README.md"]);
  // An exact path, a folder (with or without its slash), a glob.
  assert.deepEqual((await fullWith(["src/app.ts"])).full, ["src/app.ts"]);
  assert.deepEqual((await fullWith(["src"])).full, ["src/app.ts", "src/webapp.ts"]);
  assert.deepEqual((await fullWith(["./src/"])).full, ["src/app.ts", "src/webapp.ts"]);
  assert.deepEqual((await fullWith(["**/*.py"])).full, ["apps/main.py"]);
  // Each entry takes its own level.
  assert.deepEqual((await fullWith(["lib", "web"])).full, ["lib/b.ts", "src/webapp.ts"]);
});

Deno.test("a focus entry that matches at no level is still named in a warning", async () => {
  const { full, warnings } = await fullWith(["nope", "app.ts"]);
  assert.deepEqual(full, ["src/app.ts"]);
  assert.deepEqual(warnings, ['Focus "nope" matches no file of the build']);
  assert.deepEqual(unmatchedFocus(["pp.t", "zzz"], PATHS), [
    'Focus "zzz" matches no file of the build',
  ]);
});

Deno.test("focusMatcher() without the build's paths has no substring level", () => {
  assert.equal(focusMatcher(["app"])("src/app.ts"), false);
  assert.equal(focusMatcher(["app"], PATHS)("src/app.ts"), true);
  assert.equal(focusMatcher(["app"], PATHS)("lib/b.ts"), false);
  // Substrings are case-sensitive, as paths are.
  assert.equal(focusMatcher(["APP"], PATHS)("src/app.ts"), false);
});

/** A repo with two commits, then a modified, a deleted, an untracked and an ignored file. */
async function scriptedRepo(): Promise<string> {
  const root = await makeProject({
    ".gitignore": "*.log\n",
    "sub/a.py": "a = 1\n",
    "sub/b.py": "b = 1\n",
    "sub/c.py": "c = 1\n",
    "top.md": "# Top\n",
  });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "sub/a.py"), "a = 2\n");
  await git(root, "commit", "-q", "-am", "second");
  await Deno.writeTextFile(join(root, "sub/b.py"), "b = 2\n");
  await Deno.remove(join(root, "sub/c.py"));
  await Deno.writeTextFile(join(root, "sub/new.py"), "n = 1\n");
  await Deno.writeTextFile(join(root, "sub/debug.log"), "noise\n");
  return root;
}

Deno.test("changedSince() gives changed and untracked files, not deleted or ignored ones", async () => {
  const root = await scriptedRepo();
  assert.deepEqual(await changedSince(root, "HEAD"), ["sub/b.py", "sub/new.py"]);
  assert.deepEqual(await changedSince(root, "HEAD~1"), ["sub/a.py", "sub/b.py", "sub/new.py"]);
  // From a subfolder root, paths are relative to it.
  assert.deepEqual(await changedSince(join(root, "sub"), "HEAD~1"), ["a.py", "b.py", "new.py"]);
});

Deno.test("--since puts the changed files in focus, matched exactly", async () => {
  const root = await scriptedRepo();
  // A same-named file elsewhere must not be pulled into focus by its basename.
  await Deno.mkdir(join(root, "other"));
  await Deno.writeTextFile(join(root, "other/b.py"), "other = 1\n");
  await git(root, "add", "other/b.py");
  await git(root, "commit", "-q", "-m", "other");
  await Deno.writeTextFile(join(root, "other/b.py"), "other = 1\n");
  const result = await buildContext({
    cwd: root,
    since: "HEAD",
    inline: { defaultView: "none" },
  }, { write: false });
  const views = Object.fromEntries(result.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    ".gitignore": "none",
    "other/b.py": "none",
    "sub/a.py": "none",
    "sub/b.py": "full",
    "sub/new.py": "full",
    "top.md": "none",
  });
});

Deno.test("--since with an unknown ref or outside git is a clear usage error", async () => {
  const root = await scriptedRepo();
  const bad = await runCliShared(["build", "--since", "no-such-branch", "--stdout"], root);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown git revision "no-such-branch" for --since/);
  const option = await runCliShared(["build", "--since=--all", "--stdout"], root);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /Unknown git revision "--all" for --since/);
  const plain = await makeProject({ "a.py": "a = 1\n" });
  const outside = await runCliShared(["build", "--since", "HEAD", "--stdout"], plain);
  assert.equal(outside.code, 2);
  assert.match(outside.stderr, /Cannot use --since "HEAD": ".*" is not inside a git work tree/);
});

Deno.test("slop build --since REF renders the changed files in full, end to end", async () => {
  const root = await scriptedRepo();
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { defaultView: "summary", exclude: ["slop.config.ts"] };\n`,
  );
  const run = await runCliShared(["build", "--since", "HEAD~1", "--stdout"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /### sub\/a.py\n\n```python\na = 2\n```/);
  assert.match(run.stdout, /### sub\/b.py\n\n```python\nb = 2\n```/);
  assert.match(run.stdout, /### top.md\n\n\*\*Markdown\*\*/);
});
