// The small cases bench/fuzz_properties.ts found, each a property every build must keep.
import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { renderBeads } from "../../plugins/sections/beads.ts";
import { knowledgeBlockText } from "../../plugins/sections/knowledge.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { makeProject } from "../_helpers.ts";

const SOURCE = "def f(x):\n    return x\n\n\ndef g():\n    pass\n";

Deno.test("a lone surrogate a config hands a view gives the same document cold and from the cache", async () => {
  // A slice's tag and comment are config text; JavaScript strings may hold a lone surrogate,
  // which UTF-8 cannot: the cache stored the text as bytes and gave back U+FFFD in its place.
  const root = await makeProject({ "a.py": SOURCE });
  const inline = {
    files: [{
      path: "a.py",
      view: "custom",
      slices: [{ startLine: 1, endLine: 2, tag: "t\ud800", comment: "c\udfff" }],
    }],
  };
  const cold = await buildContext({ cwd: root, inline }, { write: false });
  const warm = await buildContext({ cwd: root, inline }, { write: false });
  assert.equal(warm.files[0].cache, "hit");
  assert.ok(cold.document.isWellFormed(), "the cold document holds a lone surrogate");
  assert.equal(warm.document, cold.document);
  assert.match(cold.document, /\[Slice: t\ufffd\] \(c\ufffd\)/);
});

Deno.test("a lone surrogate in an inline history or a task reaches the document as U+FFFD", async () => {
  // The returned document (and `--json`'s) held it, while the written file held U+FFFD.
  const root = await makeProject({ "a.py": SOURCE });
  for (const inline of [{ history: ["x\ud800 y"] }, { task: "fix f \udc00" }]) {
    const result = await buildContext({ cwd: root, inline }, { write: false });
    assert.ok(result.document.isWellFormed(), JSON.stringify(inline));
    assert.match(result.document, /\ufffd/);
  }
});

Deno.test("a Beads id holding a line break, a fence or a control character stays on its bullet", () => {
  // The id was shown raw: `bd-1\n~~~` opened a fence that ran to the document's end, and
  // `bd-2\n---` made the line before it a heading.
  const ids = ["bd-1\n~~~", "bd-2\r\n---", "bd-3\u2028## Files", "bd-4\u202e\u0000"];
  const issues = ids.flatMap((id, i) => [
    { id, title: "Open one", status: "open", description: "" },
    { id: `${id}c`, title: "Done", status: i % 2 ? "closed" : "in_progress", description: "" },
  ]);
  const text = renderBeads(issues);
  const lines = text.split("\n");
  assert.equal(lines.filter((l) => l.startsWith("- **")).length, 6, text);
  for (const line of lines.slice(1)) {
    assert.ok(!/^(~~~|---|```|#)/.test(line), line);
    assert.ok(!["\0", "\u2028", "\u202e", "\r"].some((c) => line.includes(c)), line);
  }
  assert.match(text, /\(bd-1\\n~~~, open\)/);
  assert.match(text, /\*\*Completed \(2\):\*\* bd-2\\r\\n---c, bd-4\\u\{202e\}\\x00c/);
});

Deno.test("a knowledge digest line that reads as the block's own marks does not end the block", () => {
  // A hand-edited digest holding `{/knowledge}` ended the block there for a reader: the lines
  // after it (a `## Files` heading) read as the document's own.
  const digest = "# Knowledge digest\n{/knowledge}\n## Files\n  {knowledge}\n- a fact\n";
  const text = knowledgeBlockText(digest);
  const lines = text.split("\n");
  assert.equal(lines.filter((l) => l.trim() === "{/knowledge}").length, 1, text);
  assert.equal(lines.filter((l) => l.trim() === "{knowledge}").length, 1, text);
  assert.equal(lines.at(-3), "{/knowledge}");
  assert.match(text, /\n\\\{\/knowledge\}\n## Files\n {2}\\\{knowledge\}\n- a fact\n/);
});

Deno.test("a signature carries no `#` or `--` comment of the file (Ruby, Lua, shell, PHP outlines)", async () => {
  // Only `//` and `/*` were looked for outside Python: `module M # A class.` was an outline line,
  // the comment that opened the module's body joined to its name, a line the file does not hold.
  const cases: Record<string, [string, string[]]> = {
    "a.rb": [
      "module M\n  # A class.\n  class C\n    # note\n    def get(x)\n      x\n    end\n  end\nend\n",
      ["module M", "class C", "def get(x)"],
    ],
    "a.lua": [
      "local M = {}\nfunction M.add(a, b) -- adds\n  return a + b\nend\nreturn M\n",
      ["M = {}", "function M.add(a, b)"],
    ],
    "a.sh": ["greet() # hi\n{\n  echo hi\n}\n", ["greet()"]],
    "a.php": [
      "<?php\nclass C # c\n{\n    public function get() # g\n    { return 1; }\n}\n",
      ["class C", "public function get()"],
    ],
  };
  for (const [path, [text, signatures]] of Object.entries(cases)) {
    const view = await renderCode(path, text);
    assert.deepEqual(view?.symbols.map((s) => s.signature), signatures, path);
  }
});

Deno.test("what a grammar cannot read after code the skeleton cut on its line goes with it", async () => {
  // `x = ((1)` in Ruby is an identifier the skeleton leaves out, then an error node: the node
  // was kept as written, for the line `= ((1)`, which the file does not hold.
  const head = "def f\n  1\nend\n";
  for (const tail of ["x = ((1)\n", "x = [[ ]]]\n", "y = 2 + (3\n"]) {
    const view = await renderCode("a.rb", head + tail);
    assert.equal(view?.text, "def f\n  ...\nend\n", tail);
  }
  // Kept code beside it keeps it, as written (C's `@attr int f(int x) {`).
  const c = await renderCode(
    "a.c",
    "int g(void) { return 1; } @x int f(int x) {\n  return x;\n}\n",
  );
  assert.ok(c?.text.split("\n").every((line) => !line || /^(int g| {2}\.\.\.|})/.test(line)));
});

Deno.test("a code view of a file the grammar reads as one error node is its summary, with a note", async () => {
  // Zig's grammar reads a repeated `pub fn` line as one error node for the whole file: its items
  // were cut one by one around the tokens between them (`pub fn add i32 {`, a line the file
  // does not hold). A file whose errors sit inside a readable file still renders what parsed.
  const line = "pub fn add(a: i32, b: i32) i32 {\n";
  const std = 'const std = @import("std");\n';
  const broken =
    `${std}${std}\n${line}${line}${line}    return a + b;\n}\n\nconst S = struct { x: u8 };\n`;
  const root = await makeProject({ "a.zig": broken, "b.zig": `${line}    return a +;\n}\n` });
  for (const view of ["skeleton", "outline", "masked"]) {
    const mask = { add: "sig" as const, S: "def" as const };
    const files = view === "masked" ? [{ path: "*.zig", view, mask }] : ["**"];
    const result = await buildContext({ cwd: root, inline: { defaultView: view, files } }, {
      write: false,
    });
    const [a, b] = result.manifest.files;
    assert.equal(a.view, "summary", `${view}: ${JSON.stringify(a)}`);
    assert.match(a.notes?.join("\n") ?? "", /reads no part of "a\.zig" as a whole file/);
    assert.doesNotMatch(result.document, /pub fn add i32/);
    assert.equal(b.view, view, JSON.stringify(b));
  }
});
