import assert from "node:assert/strict";
import { buildContext, summarize } from "../../mod.ts";
import { renderSlice } from "../../plugins/view_modes/custom.ts";
import { makeProject } from "../_helpers.ts";

Deno.test("summarize() lists top-level names of code by language", () => {
  assert.equal(
    summarize(
      "a.py",
      "import os\nfrom x.y import z\n\nLIMIT = 3\n\nclass A:\n    def m(self): pass\n\nasync def run():\n    pass\n",
    ),
    "**Python**, 10 lines\n- classes: `A`\n- functions: `run`\n- constants: `LIMIT`\n- imports: `os`, `x.y`",
  );
  assert.equal(
    summarize(
      "a.ts",
      'import { b } from "./b.ts";\nexport interface I {}\nexport type T = 1;\nexport class C {}\nexport async function f() {}\nexport const k = 1;\n',
    ),
    "**TypeScript**, 6 lines\n- classes: `C`\n- functions: `f`\n- interfaces: `I`\n- types: `T`\n- exports: `k`\n- imports: `./b.ts`",
  );
  assert.equal(
    summarize(
      "m.go",
      "package m\n\ntype S struct{}\n\nfunc (s *S) Do() {}\nfunc New() *S { return nil }\n",
    ),
    "**Go**, 6 lines\n- types: `S`\n- functions: `Do`, `New`",
  );
  assert.equal(
    summarize("l.rs", "pub struct P;\npub trait T {}\nimpl T for P {}\npub fn go() {}\n"),
    "**Rust**, 4 lines\n- types: `P`\n- traits: `T`\n- impls: `T for P`\n- functions: `go`",
  );
});

Deno.test("summarize() gives markdown headings, config keys and a text head", () => {
  assert.equal(
    summarize("r.md", "# Title\n\ntext\n\n## Part\n### Sub\n"),
    "**Markdown**, 6 lines\n- Title\n  - Part\n    - Sub",
  );
  assert.equal(
    summarize("c.json", '{"name": "x", "version": 1}'),
    "**JSON**, 1 line\n- keys: `name`, `version`",
  );
  assert.equal(
    summarize("c.toml", "[a]\nb = 1\n[c.d]\n"),
    "**TOML**, 3 lines\n- keys: `[a]`, `b`, `[c.d]`",
  );
  assert.equal(
    summarize("c.yml", "name: x\nitems:\n  - a\n"),
    "**YAML**, 3 lines\n- keys: `name`, `items`",
  );
  assert.equal(summarize("n.txt", "one\ntwo\n", { headLines: 1 }), "**Text**, 2 lines\n\n    one");
});

Deno.test("renderSlice() renders the seed's slice header and clamps past the end", () => {
  const lines = ["a", "b", "c"];
  const notes: string[] = [];
  assert.equal(
    renderSlice({ startLine: 2, endLine: 9, tag: "t", comment: "c" }, lines, notes),
    "---\n[Slice: t] (c)\nLines 2-3:\nb\nc",
  );
  assert.deepEqual(notes, ["slice 2-9 clamped to 2-3"]);
  assert.equal(
    renderSlice({ startLine: 5, endLine: 6 }, lines, notes),
    "---\n[Slice: untitled]\nLines 5-6: (outside the file)",
  );
});

Deno.test("customViewMode() without slices falls back to summary with a note", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  const result = await buildContext({
    cwd: root,
    inline: { files: [{ path: "a.md", view: "custom" }] },
  }, { write: false });
  assert.equal(result.files[0].view, "summary");
  assert.deepEqual(result.files[0].notes, ["custom view without slices: fell back to summary"]);
  assert.match(result.document, /### a.md\n\n\*\*Markdown\*\*, 1 line\n- A\n\n/);
});

Deno.test("a view that does not accept an extension falls back to summary with a manifest note", async () => {
  const root = await makeProject({ "a.rb": "def x; end\n" });
  const pyOnly = {
    kind: "view-mode" as const,
    name: "pyonly",
    version: "1",
    extensions: [".py"],
    render: () => "never",
  };
  const result = await buildContext({
    cwd: root,
    inline: { defaultView: "pyonly", plugins: [pyOnly] },
  }, { write: false });
  assert.equal(result.files[0].view, "summary");
  assert.deepEqual(result.files[0].notes, ['pyonly does not support ".rb": fell back to summary']);
});

Deno.test("focus files render full; forceFull beats every other view", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "b.py": "y = 2\n", "c.py": "z = 3\n" });
  const result = await buildContext({
    cwd: root,
    focus: ["b.py"],
    inline: {
      defaultView: "none",
      files: ["*.py", { path: "c.py", forceFull: true, view: "summary" }],
    },
  }, { write: false });
  assert.deepEqual(result.files.map((f) => [f.path, f.view]), [["a.py", "none"], ["b.py", "full"], [
    "c.py",
    "full",
  ]]);
});
