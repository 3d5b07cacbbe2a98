// The plugin author's test helpers of mod.ts: a view mode over a string, a build of strings,
// each through the pipeline a build runs.
import assert from "node:assert/strict";
import {
  buildFiles,
  type OrderingPlugin,
  renderView,
  type SectionPlugin,
  type ViewModePlugin,
} from "../../mod.ts";

/** A view as the plugin guide writes one: its factory's options on `options`. */
function linesView(options: { prefix?: string } = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "lines",
    version: "1",
    extensions: [".txt"],
    options: { prefix: options.prefix ?? "> " },
    render(file, ctx) {
      if (file.text.includes("boom")) throw new Error("cannot read a boom");
      if (file.text.includes("odd")) ctx.warn(`odd line in "${file.path}"`);
      return { text: file.text.split("\n").map((l) => `${ctx.options.prefix}${l}`).join("\n") };
    },
  };
}

Deno.test("renderView gives a view's text with the factory's options under the entry's", async () => {
  const out = await renderView(linesView(), "notes/a.txt", "one\ntwo");
  assert.equal(out.text, "> one\n> two");
  assert.equal(out.view, "lines");
  assert.equal(out.fenced, true);
  assert.deepEqual(out.notes, []);
  assert.deepEqual(out.warnings, []);
  const over = await renderView(linesView({ prefix: "- " }), "a.txt", "x", {
    options: { prefix: "* " },
  });
  assert.equal(over.text, "* x");
  assert.equal((await renderView(linesView({ prefix: "- " }), "a.txt", "x")).text, "- x");
});

Deno.test("renderView shows what a build shows: redaction, fallback, warnings, a failing hook", async () => {
  // The view gets the text after the secret scan, as in a build.
  const key = "AKIA" + "Z7QW3RT5YU8IOP2A";
  const redacted = await renderView(linesView(), "a.txt", `aws = "${key}"`);
  assert.doesNotMatch(redacted.text, new RegExp(key));
  assert.match(redacted.text, /^> aws = "\[REDACTED:/);
  // A file the view does not take falls back to summary, with the build's note.
  const other = await renderView(linesView(), "a.md", "# Title\n");
  assert.equal(other.view, "summary");
  assert.match(other.notes.join("\n"), /lines does not support "\.md": fell back to summary/);
  // ctx.warn reaches the build's warnings under the plugin's name.
  const warned = await renderView(linesView(), "a.txt", "odd");
  assert.deepEqual(warned.warnings, ['[plugin lines] odd line in "a.txt"']);
  // A render that throws is the error the build's summary names: plugin, hook, file.
  await assert.rejects(
    renderView(linesView(), "src/b.txt", "boom"),
    { message: '[plugin lines] Hook "render" failed on "src/b.txt": cannot read a boom' },
  );
});

Deno.test("buildFiles builds strings with a section and an ordering rule, the same bytes twice", async () => {
  const todos: SectionPlugin = {
    kind: "section",
    name: "todos",
    compose(state) {
      const lines = state.files.flatMap((f) =>
        (f.text ?? "").split("\n").filter((l) => l.includes("TODO")).map((l) => `- ${f.path}: ${l}`)
      );
      return lines.length
        ? [{
          id: "todos",
          section: "todos",
          stability: "stable",
          text: `## TODOs\n\n${lines.join("\n")}\n\n`,
        }]
        : [];
    },
  };
  const first: OrderingPlugin = {
    kind: "ordering",
    name: "todos-first",
    order: (blocks) => [
      ...blocks.filter((b) => b.section === "todos"),
      ...blocks.filter((b) => b.section !== "todos"),
    ],
  };
  const files = { "src/a.ts": "// TODO: more\nexport const a = 1;\n", "b.md": "# B\n" };
  const config = { plugins: [todos, first] };
  const result = await buildFiles(files, config);
  assert.deepEqual(result.blocks.map((b) => b.id), [
    "todos",
    "files",
    "files:src/a.ts",
    "files:b.md",
  ]);
  assert.equal(result.blocks[0].text, "## TODOs\n\n- src/a.ts: // TODO: more\n\n");
  assert.equal((await buildFiles(files, config)).document, result.document);
  assert.equal(result.output, undefined, "nothing is written");
});

Deno.test("buildFiles refuses a path that leaves the project, naming it", async () => {
  for (const path of ["../x.txt", "/tmp/x.txt", "a/../../x.txt"]) {
    await assert.rejects(
      buildFiles({ [path]: "x" }),
      { message: `buildFiles: the path "${path}" is not inside the project` },
    );
  }
});
