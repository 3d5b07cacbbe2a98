import assert from "node:assert/strict";
import { buildContext, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, runCli } from "../_helpers.ts";

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
  const run = await runCli(
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
