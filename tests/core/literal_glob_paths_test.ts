import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

// Route folders of Next.js, SvelteKit and Remix (`[slug]`, `[...all]`, `(group)`) and names such
// as `notes[1].md` hold glob characters. A path that is exactly such a file or folder names it;
// read as a glob, `[slug]` would match a folder named `s`, `l`, `u` or `g` instead.
const TREE = {
  "app/[slug]/page.tsx": "export default 1;\n",
  "app/(group)/[...all]/page.tsx": "export default 2;\n",
  "app/s/page.tsx": "export default 3;\n",
  "app/g/page.tsx": "export default 4;\n",
  "notes[1].md": "one\n",
  "notes1.md": "also one\n",
  "notes.md": "none\n",
};

function rendered(result: Awaited<ReturnType<typeof buildContext>>): string[] {
  return result.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path).sort();
}

const CASES: Array<{ given: string[]; want: string[] }> = [
  { given: ["app/[slug]/page.tsx"], want: ["app/[slug]/page.tsx"] },
  { given: ["app/[slug]"], want: ["app/[slug]/page.tsx"] },
  { given: ["app/[slug]/"], want: ["app/[slug]/page.tsx"] },
  { given: ["app/(group)/[...all]/page.tsx"], want: ["app/(group)/[...all]/page.tsx"] },
  { given: ["notes[1].md"], want: ["notes[1].md"] },
  // A pattern that is no file's path stays a glob.
  { given: ["app/[sg]/page.tsx"], want: ["app/g/page.tsx", "app/s/page.tsx"] },
  { given: ["notes?.md"], want: ["notes1.md"] },
];

for (const { given, want } of CASES) {
  Deno.test(`the path "${given}" in "files", as a build path and in both renders ${want}`, async () => {
    const root = await makeProject(TREE);
    const inFiles = await buildContext({ cwd: root, inline: { files: given } }, { write: false });
    assert.deepEqual(rendered(inFiles), want, "files");
    assert.deepEqual(inFiles.manifest.warnings, []);
    const asPaths = await buildContext({ cwd: root, paths: given }, { write: false });
    assert.deepEqual(rendered(asPaths), want, "paths");
    assert.deepEqual(asPaths.manifest.warnings, []);
    // Each file's heading is in the document once; no other file is.
    for (const path of want) assert.ok(inFiles.document.includes(`### ${path}\n`));
  });
}

Deno.test("a focus entry that is exactly a file's path with glob characters focuses that file only", async () => {
  const root = await makeProject(TREE);
  const result = await buildContext({
    cwd: root,
    focus: ["app/[slug]/page.tsx"],
    inline: { defaultView: "summary" },
  }, { write: false });
  const views = Object.fromEntries(result.manifest.files.map((f) => [f.path, f.view]));
  assert.equal(views["app/[slug]/page.tsx"], "full");
  assert.equal(views["app/s/page.tsx"], "summary");
  assert.equal(views["app/g/page.tsx"], "summary");
});

Deno.test("a pinned entry that is exactly a file's path with glob characters pins that file only", async () => {
  const root = await makeProject(TREE);
  const result = await buildContext({
    cwd: root,
    inline: { ordering: { pinned: ["app/[slug]/page.tsx"] } },
  }, { write: false });
  const filesOf = (r: typeof result) =>
    r.manifest.blocks.filter((b) => b.id.startsWith("files:")).map((b) => b.id.slice(6));
  const order = filesOf(result);
  assert.equal(order[0], "app/[slug]/page.tsx");
  // The others keep their place after it; `app/s/page.tsx` is not pulled to the front.
  const unpinned = await buildContext({ cwd: root }, { write: false });
  const rest = filesOf(unpinned).filter((p) => p !== "app/[slug]/page.tsx");
  assert.deepEqual(order.slice(1), rest);
});

Deno.test("an exclude entry or --ignore path is read as files entries are: a folder's path leaves out its files, an exact path with glob characters only that file", async () => {
  const root = await makeProject({ ...TREE, "docs/a.md": "a\n", "docs/deep/b.md": "b\n" });
  const cases: Array<{ exclude: string[]; gone: string[] }> = [
    { exclude: ["docs"], gone: ["docs/a.md", "docs/deep/b.md"] },
    { exclude: ["docs/"], gone: ["docs/a.md", "docs/deep/b.md"] },
    { exclude: ["app/[slug]/page.tsx"], gone: ["app/[slug]/page.tsx"] },
    { exclude: ["app/[slug]"], gone: ["app/[slug]/page.tsx"] },
    { exclude: ["app/[sg]/*.tsx"], gone: ["app/g/page.tsx", "app/s/page.tsx"] },
    {
      exclude: ["**/*.md"],
      gone: [...Object.keys(TREE).filter((p) => p.endsWith(".md")), "docs/a.md", "docs/deep/b.md"],
    },
  ];
  const all = [...Object.keys(TREE), "docs/a.md", "docs/deep/b.md"].sort();
  for (const { exclude, gone } of cases) {
    const want = all.filter((p) => !gone.includes(p));
    const inConfig = await buildContext({ cwd: root, inline: { exclude } }, { write: false });
    assert.deepEqual(rendered(inConfig), want, `exclude ${exclude}`);
    const asFlag = await buildContext({ cwd: root, ignore: exclude }, { write: false });
    assert.deepEqual(rendered(asFlag), want, `--ignore ${exclude}`);
  }
});
