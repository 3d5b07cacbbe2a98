import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

const APP = "import os\n\n\ndef main(argv):\n    print(argv)\n    return 0\n";
const LIB =
  "class Lib:\n    def run(self, x):\n        return x * 2\n\n    def _hidden(self):\n        pass\n";

async function project(config: string): Promise<string> {
  return await makeProject({
    "slop.config.ts": config,
    "src/app.py": APP,
    "src/lib.py": LIB,
    "docs/notes.md": "# Notes\n\ntext\n",
  });
}

Deno.test("tier 3 persona: focus files render full, every other file skeleton", async () => {
  const root = await project(
    `export default { files: ["src/**"], personas: { worker: { tier: 3, focus: ["src/app.py"] } } };\n`,
  );
  const result = await buildContext({
    cwd: root,
    persona: "worker",
    stateDir: await tempDir(),
  }, {
    write: false,
  });
  const byPath = Object.fromEntries(result.files.map((f) => [f.path, f]));
  assert.ok(result.document.startsWith("## Files (Tier 3 - Focused)\n\n"));
  assert.equal(byPath["src/app.py"].view, "full");
  assert.equal(byPath["src/lib.py"].view, "skeleton");
  assert.ok(result.document.includes(APP));
  assert.ok(result.document.includes("class Lib:\n    def run(self, x):\n        ...\n"));
  assert.ok(!result.document.includes("return x * 2"));
});

Deno.test("skeleton falls back to summary with a manifest note for a language without a grammar", async () => {
  const root = await project(
    `export default { files: ["**/*.md", "src/**"], defaultView: "skeleton" };\n`,
  );
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  const notes = result.manifest.files.find((f) => f.path === "docs/notes.md")!;
  assert.equal(notes.view, "summary");
  assert.match(
    notes.notes?.join("\n") ?? "",
    /skeleton does not support "\.md": fell back to summary/,
  );
  assert.equal(result.manifest.files.find((f) => f.path === "src/lib.py")?.view, "skeleton");
});

Deno.test("outline lists the public surface only", async () => {
  const root = await project(`export default { files: ["src/lib.py"], defaultView: "outline" };\n`);
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  assert.ok(result.document.includes("class Lib  # class\n  def run(self, x)  # method\n"));
  assert.ok(!result.document.includes("_hidden"));
});

Deno.test("masked: a mask name that matches nothing is a warning naming it", async () => {
  const root = await project(
    `export default { files: [{ path: "src/lib.py", view: "masked", mask: { "Lib.run": "def", "Lib.gone": "sig", "run": "sig", "LIB": "sig" } }] };\n`,
  );
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  assert.ok(result.document.includes("class Lib:\n    def run(self, x):\n        return x * 2\n"));
  assert.ok(!result.document.includes("_hidden"));
  assert.ok(
    result.warnings.some((w) => w.includes('Mask names no symbol "Lib.gone" in "src/lib.py"')),
    result.warnings.join("\n"),
  );
  // A bare member name or another case gets the qualified names it may have meant.
  const said = (name: string) =>
    result.warnings.find((w) => w.includes(`Mask names no symbol "${name}" in "src/lib.py"`));
  assert.equal(
    said("run"),
    '[plugin slop:masked] Mask names no symbol "run" in "src/lib.py" (did you mean "Lib.run"? ' +
      "Mask keys are qualified names)",
  );
  assert.match(said("LIB")!, /\(did you mean "Lib"\? /);
  assert.doesNotMatch(said("Lib.gone")!, /did you mean/);
});

Deno.test("masked: rest sig shows unlisted symbols as signatures", async () => {
  const root = await project(
    `export default { files: [{ path: "src/lib.py", view: "masked", mask: { "Lib.run": "hide" }, options: { rest: "sig" } }] };\n`,
  );
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  assert.ok(
    result.document.includes("class Lib:\n    def _hidden(self):\n        pass\n"),
    result.document,
  );
  assert.ok(!result.document.includes("def run"));
});

Deno.test("skeleton notes a file with syntax errors and still renders what parsed", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.py"], defaultView: "skeleton" };\n`,
    "a.py": "def ok(a):\n    return a\n\ndef broken(:\n    pass\n",
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  const file = result.manifest.files[0];
  assert.equal(file.view, "skeleton");
  assert.match(file.notes?.join("\n") ?? "", /has syntax errors; rendered what parsed/);
  assert.ok(result.document.includes("def ok(a):\n    ...\n"));
});

Deno.test("skeleton falls back to summary when a file is not code the grammar can read", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["notes.py"], defaultView: "skeleton" };\n`,
    "notes.py": "This is prose, not Python: (it [has] unbalanced {brackets and ) stray: colons\n",
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  const file = result.manifest.files[0];
  assert.equal(file.view, "summary");
  assert.match(
    file.notes?.join("\n") ?? "",
    /skeleton cannot parse "notes.py": syntax errors and no definition found: fell back to summary/,
  );
});

Deno.test("skeleton and outline fall back to summary when a file has nothing to show", async () => {
  const root = await makeProject({
    "slop.config.ts":
      `export default { files: [{ path: "run.js", view: "skeleton" }, { path: "lib.py", view: "outline" }, ` +
      `{ path: "run.sh", view: "skeleton" }] };\n`,
    // What it prints and a function it runs where it is written: no top-level call to show.
    "run.js": "console.log('hello');\n(() => main())();\n",
    "lib.py": "def _private():\n    pass\n",
    // Its `#!` line alone, which the code views keep whatever follows it, is nothing to show.
    "run.sh": "#!/bin/sh\necho hi\n",
  });
  const result = await buildContext({ cwd: root, stateDir: await tempDir() }, {
    write: false,
  });
  for (
    const [path, view] of [["run.js", "skeleton"], ["lib.py", "outline"], ["run.sh", "skeleton"]]
  ) {
    const file = result.manifest.files.find((f) => f.path === path)!;
    assert.equal(file.view, "summary");
    assert.match(
      file.notes?.join("\n") ?? "",
      new RegExp(`${view} found nothing to show in "${path}": fell back to summary`),
    );
  }
});
