import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared, tempDir } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { regenerateDigest } from "../../knowledge/digest.ts";
import { todoViewMode } from "../../examples/plugins/todo_view.ts";

const EXAMPLE = join(REPO, "examples");
const CONFIG = join(EXAMPLE, "slop.config.ts");

interface ManifestFile {
  path: string;
  view: string;
  status: string;
  notes?: string[];
}

Deno.test("the bundled example builds with every view rendered, no fallback notes and no warnings", async () => {
  const state = await tempDir();
  const run = await runCliShared(["build", "--config", CONFIG, "--state-dir", state], REPO);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  assert.doesNotMatch(run.stdout, /warning/i);
  const manifest = JSON.parse(await Deno.readTextFile(join(state, "out", "context_001.json")));
  assert.deepEqual(manifest.warnings, []);
  const files: ManifestFile[] = manifest.files;
  const views = Object.fromEntries(
    files.filter((f) => f.status === "rendered").map((f) => [f.path, f.view]),
  );
  assert.deepEqual(views, {
    "README.md": "full",
    "app/cli.py": "summary",
    "app/store.py": "skeleton",
    "docs/design.md": "custom",
    "docs/notes.md": "todo",
    "src/inventory.ts": "masked",
    "src/report.ts": "skeleton",
  });
  for (const file of files) assert.deepEqual(file.notes ?? [], [], file.path);
  const doc = await Deno.readTextFile(join(state, "out", "context_001.md"));
  assert.ok(doc.startsWith("{knowledge}\n# Knowledge digest\n"), "the digest opens the document");
  assert.ok(
    doc.includes("    def save(\n        self,\n        sku: str,\n"),
    "multi-line signature",
  );
  assert.ok(
    doc.includes("  add(sku: string, name: string, quantity = 1): Item { ... }"),
    "rest: sig",
  );
  assert.match(doc, /throw new RangeError/, "the masked def keeps Inventory.remove whole");
  assert.doesNotMatch(doc, /list\(\): Item\[\]/, "the mask hides Inventory.list");
  assert.match(doc, /\[Slice: invariants\] \(what must always hold\)\nLines 8-10:/);
  assert.match(doc, /3: - TODO: add a `move` command/);
  assert.match(doc, /!\[report_screen.png\]\(docs\/report_screen.png\)/);
  assert.match(doc, /### Discussion Excerpt 4\n/);
});

Deno.test("slop check passes on the bundled example against the committed examples/slop.lock", async () => {
  const state = await tempDir();
  const run = await runCliShared(["check", "--config", CONFIG, "--state-dir", state], REPO);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /the stable prefix matches examples\/slop\.lock/);
});

Deno.test("the example's slices in slop/slices.toml resolve exactly", async () => {
  const run = await runCliShared(["slice", "list", "--json"], EXAMPLE);
  assert.equal(run.code, 0, run.stderr);
  const slices = JSON.parse(run.stdout);
  assert.equal(slices.length, 2);
  for (const s of slices) {
    assert.equal(s.found.status, "exact", s.slice.tag);
    assert.match(s.slice.contentHash, /^[0-9a-f]{64}$/);
    assert.equal(s.slice.anchorLines.length, 6);
  }
});

Deno.test("the example's knowledge digest is what slop knowledge digest writes", async () => {
  const src = join(EXAMPLE, "slop", "knowledge");
  const dir = await tempDir();
  for await (const entry of Deno.readDir(src)) {
    if (entry.isFile && entry.name !== "digest.md") {
      await Deno.copyFile(join(src, entry.name), join(dir, entry.name));
    }
  }
  const result = await regenerateDigest(dir);
  assert.equal(result.status, "written");
  assert.equal(
    await Deno.readTextFile(join(dir, "digest.md")),
    await Deno.readTextFile(join(src, "digest.md")),
  );
});

Deno.test("todoViewMode() lists the marked lines with their numbers; an entry's options set the markers", async () => {
  const root = await makeProject({
    "a.ts": "const a = 1;\n// TODO: one\n  // XXX two  \n",
    "b.md": "# B\n\n- FIXME: three\n- XXX four\n",
    "c.txt": "nothing\n",
  });
  const { document, manifest } = await buildContext({
    cwd: root,
    inline: {
      files: [
        { path: "*", view: "todo" },
        { path: "b.md", options: { markers: ["XXX"] } },
      ],
      plugins: [todoViewMode()],
    },
  }, { write: false });
  assert.deepEqual(manifest.warnings, []);
  assert.ok(document.includes("### a.ts\n\n```ts\n2: // TODO: one\n```\n"), document);
  assert.ok(document.includes("### b.md\n\n```markdown\n4: - XXX four\n```\n"), document);
  assert.ok(document.includes("### c.txt\n\n```txt\n(no TODO or FIXME lines)\n```\n"), document);
});

Deno.test("todoViewMode() names the plugin, the file and the option when an entry's markers are no list", async () => {
  const root = await makeProject({ "a.md": "TODO: one\n", "b.md": "XXX two\n" });
  const { files } = await buildContext({
    cwd: root,
    inline: {
      files: [{ path: "*.md", view: "todo" }, { path: "b.md", options: { markers: "XXX" } }],
      plugins: [todoViewMode({ markers: ["TODO"] })],
    },
  }, { write: false });
  assert.equal(files.find((f) => f.path === "a.md")?.text, "1: TODO: one");
  const b = files.find((f) => f.path === "b.md")!;
  assert.equal(b.status, "error");
  assert.equal(
    b.reason,
    '[plugin todo] Hook "render" failed on "b.md": "options.markers" must be a list of strings, got "XXX"',
  );
});
