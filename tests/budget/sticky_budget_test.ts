import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, type SlopConfig } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

function prose(title: string, n: number): string {
  const paragraphs = Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} of ${title} says something long enough to cost tokens in full.`,
  );
  return `# ${title}\n\n${paragraphs.join("\n\n")}\n`;
}

/** No git: candidates go largest first, so `a.md` (40 paragraphs) is stepped before `b.md` (38). */
async function project(): Promise<string> {
  return await makeProject({
    "a.md": prose("A", 40),
    "b.md": prose("B", 38),
    "c.md": prose("C", 10),
  });
}

async function fullTokens(root: string): Promise<number> {
  const result = await buildContext({ cwd: root, inline: {} }, { write: false });
  return result.manifest.total.tokens;
}

function memoryFile(root: string): string {
  return join(root, ".slop", "budget", "context.json");
}

Deno.test("a budget steps the same file down on the next build, though another became the largest", async () => {
  const root = await project();
  const tokens = (await fullTokens(root)) - 1;
  const inline: SlopConfig = { budget: { tokens } };
  const first = await buildContext({ cwd: root, inline });
  assert.deepEqual(first.manifest.budget!.steppedDown, [
    { path: "a.md", from: "full", to: "summary" },
  ]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(memoryFile(root))), {
    version: 1,
    tokens,
    steps: [{ path: "a.md", from: "full", to: "summary" }],
  });

  // b.md grows past a.md: still over the budget, and stepping a.md alone still meets it.
  await Deno.writeTextFile(join(root, "b.md"), prose("B", 44));
  const second = await buildContext({ cwd: root, inline });
  assert.equal(second.manifest.budget!.met, true);
  assert.deepEqual(second.manifest.budget!.steppedDown, [
    { path: "a.md", from: "full", to: "summary" },
  ]);
  const block = (r: typeof first, id: string) => r.manifest.blocks.find((b) => b.id === id)!;
  assert.equal(block(second, "files:a.md").sha256, block(first, "files:a.md").sha256);

  // Without the memory (a fresh state dir) the largest file, now b.md, would be stepped instead.
  const fresh = await buildContext({ cwd: root, stateDir: await tempDir(), inline }, {
    write: false,
  });
  assert.deepEqual(fresh.manifest.budget!.steppedDown, [
    { path: "b.md", from: "full", to: "summary" },
  ]);

  // Same state, same bytes.
  const again = await buildContext({ cwd: root, inline }, { write: false });
  const twice = await buildContext({ cwd: root, inline }, { write: false });
  assert.equal(again.document, second.document);
  assert.equal(twice.document, second.document);
});

Deno.test("a remembered step is dropped when no longer needed or no longer valid", async () => {
  const root = await project();
  const tokens = (await fullTokens(root)) - 1;
  await buildContext({ cwd: root, inline: { budget: { tokens } } });
  await Deno.writeTextFile(join(root, "b.md"), prose("B", 44));

  // a.md is now a focus file: its remembered step is invalid, b.md is stepped, and remembered.
  const focused = await buildContext({
    cwd: root,
    focus: ["a.md"],
    inline: { budget: { tokens } },
  });
  assert.deepEqual(focused.manifest.budget!.steppedDown, [
    { path: "b.md", from: "full", to: "summary" },
  ]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(memoryFile(root))).steps, [
    { path: "b.md", from: "full", to: "summary" },
  ]);

  // The document fits without any step: nothing is stepped, and the memory is cleared.
  const roomy = await buildContext({ cwd: root, inline: { budget: { tokens: tokens * 2 } } });
  assert.deepEqual(roomy.manifest.budget!.steppedDown, []);
  await assert.rejects(Deno.stat(memoryFile(root)), Deno.errors.NotFound);

  // A remembered step whose file is gone, or whose view changed, is skipped.
  await Deno.mkdir(join(root, ".slop", "budget"), { recursive: true });
  await Deno.writeTextFile(
    memoryFile(root),
    JSON.stringify({
      version: 1,
      tokens,
      steps: [
        { path: "gone.md", from: "full", to: "summary" },
        { path: "c.md", from: "skeleton", to: "summary" },
      ],
    }),
  );
  const skipped = await buildContext({ cwd: root, inline: { budget: { tokens } } }, {
    write: false,
  });
  assert.deepEqual(skipped.manifest.budget!.steppedDown, [
    { path: "b.md", from: "full", to: "summary" },
  ]);
});

Deno.test("slop check and PATHS builds neither read nor write the budget memory", async () => {
  const root = await project();
  const tokens = (await fullTokens(root)) - 1;
  await buildContext({ cwd: root, inline: { budget: { tokens } } });
  await Deno.writeTextFile(join(root, "b.md"), prose("B", 44));
  const checked = await buildContext({ cwd: root, inline: { budget: { tokens } } }, {
    write: false,
    orderSource: "lock",
  });
  assert.deepEqual(checked.manifest.budget!.steppedDown.map((s) => s.path), ["b.md"]);
  const restricted = await buildContext({
    cwd: root,
    paths: ["b.md", "c.md"],
    inline: { budget: { tokens: 300 } },
  });
  assert.deepEqual(restricted.manifest.budget!.steppedDown.map((s) => s.path), ["b.md"]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(memoryFile(root))).steps, [
    { path: "a.md", from: "full", to: "summary" },
  ]);
});

Deno.test("a build that replays the budget memory gives the manifest of the build that made it: a step whose view fell back keeps its notes", async () => {
  const root = await project();
  const code = Array.from({ length: 60 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`);
  await Deno.writeTextFile(join(root, "z.py"), code.join("\n"));
  const tokens = Math.floor((await fullTokens(root)) / 2);
  const inline: SlopConfig = { budget: { tokens } };
  const first = await buildContext({ cwd: root, inline });
  const steps = first.manifest.budget!.steppedDown;
  // A markdown file has no skeleton: asked as one, it falls back to a summary (and a note says so).
  assert.ok(steps.some((s) => s.path.endsWith(".md") && s.to === "summary"), JSON.stringify(steps));
  const notes = (r: typeof first) => r.manifest.files.map((f) => [f.path, f.view, f.notes]);
  assert.ok(JSON.stringify(notes(first)).includes("fell back to summary"));
  const replayed = await buildContext({ cwd: root, inline }, { write: false });
  assert.deepEqual(replayed.manifest.budget!.steppedDown, steps);
  assert.deepEqual(notes(replayed), notes(first));
  assert.equal(replayed.document, first.document);
});

Deno.test("a replayed step keeps the notes of a view asked after one that was not taken (a skeleton larger than the file, then an outline that fell back)", async () => {
  // No function to elide, a doc comment on top: its skeleton is larger than the file (not taken),
  // and its outline finds nothing to show (a summary, with a note saying so): a computed member is
  // assigned (`Prism.languages.z = …` would be a symbol of its own).
  const table = Array.from({ length: 40 }, (_, i) => `\t'k${i}': {\n\t\tpattern: /a${i}b/\n\t},`);
  const source = `/**\n * A table of patterns\n */\n Prism.languages["z"] = {\n${
    table.join("\n")
  }\n};\n`;
  const root = await makeProject({ "z.js": source });
  const inline: SlopConfig = { budget: { tokens: 100 } };
  const first = await buildContext({ cwd: root, inline });
  const notes = (r: typeof first) => r.manifest.files.map((f) => [f.path, f.view, f.notes]);
  assert.deepEqual(notes(first), [["z.js", "summary", [
    'outline found nothing to show in "z.js": fell back to summary',
    "stepped down from full to summary to fit the token budget",
  ]]]);
  const replayed = await buildContext({ cwd: root, inline }, { write: false });
  assert.deepEqual(notes(replayed), notes(first));
  assert.equal(replayed.document, first.document);
});

Deno.test("after the budget grows, the next build with nothing changed gives the same document (a file listed at once and taken back has its steps tried too)", async () => {
  const root = await makeProject({
    "src/m0.py": "",
    "src/m1.py": "# 1\n",
    "src/m2.py": "# 2\n",
    "src/m4.py": "# 4\n",
    "src/m5.py": "",
    "src/m3.py": "class K3:\n    def m(self):\n        return 3\n",
    "docs/a.md": "# A\n\nText here.\n## B\n\nmore\n",
    "slop.config.ts": `export default {
  plugins: [{ kind: "view-mode", name: "tagger", version: "1", render: (f) => "v1\\n" + f.text }],
  files: ["src/**", "docs/**", { path: "src/m1.py", view: "tagger" }],
};
`,
  });
  const stateDir = await tempDir();
  const build = async (tokens: number) =>
    await buildContext({ cwd: root, stateDir, budget: tokens }, { write: false });
  // Every file listed at 40 tokens: the memory lists them all, each in one step.
  await build(40);
  const grown = await build(80);
  const again = await build(80);
  assert.ok(grown.manifest.total.tokens <= 80);
  assert.deepEqual(again.manifest.budget, grown.manifest.budget);
  assert.equal(again.document, grown.document);
});
