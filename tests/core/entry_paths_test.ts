import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, PathsError } from "../../mod.ts";
import { normalizeEntryPath } from "../../pipeline/helpers.ts";
import { gitInit, makeProject } from "../_helpers.ts";

const TREE = { "src/a.py": "x = 1\n", "b.md": "# b\n" };

// One file, however its path is spelled in "files" or on the command line, is one block under
// its one path: a second spelling must neither add a copy nor show an odd path.
const SPELLINGS = [
  "src/a.py",
  "./src/a.py",
  "src//a.py",
  "src/./a.py",
  "src\\a.py",
  "lib/../src/a.py",
  // A trailing slash after a file's name: the file (it was a row "src/a.py/" that could not be read).
  "src/a.py/",
  "src/a.py//",
];

Deno.test("every spelling of a file's path in files or build paths names the file under its one path", async () => {
  const root = await makeProject(TREE);
  for (const spelling of [...SPELLINGS, join(root, "src/a.py"), join(root, "src//x/../a.py")]) {
    const inFiles = await buildContext({ cwd: root, inline: { files: ["src/**", spelling] } }, {
      write: false,
    });
    assert.deepEqual(inFiles.manifest.files.map((f) => f.path), ["src/a.py"], spelling);
    assert.deepEqual(inFiles.manifest.warnings, [], spelling);
    const asPath = await buildContext({ cwd: root, paths: [spelling] }, { write: false });
    assert.deepEqual(
      asPath.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path),
      ["src/a.py"],
      spelling,
    );
  }
});

Deno.test("the build path . or ./ is the whole project", async () => {
  const root = await makeProject(TREE);
  for (const dot of [".", "./", ".//"]) {
    const result = await buildContext({ cwd: root, paths: [dot] }, { write: false });
    assert.deepEqual(result.manifest.files.map((f) => f.path).sort(), ["b.md", "src/a.py"], dot);
    assert.deepEqual(result.manifest.warnings, [], dot);
  }
});

Deno.test("normalizeEntryPath keeps globs, a trailing slash and a path that leaves the root", () => {
  assert.equal(normalizeEntryPath("src/**/"), "src/**/");
  assert.equal(normalizeEntryPath("./src//*.ts"), "src/*.ts");
  assert.equal(normalizeEntryPath("../x"), "../x");
  assert.equal(normalizeEntryPath("a/../../b"), "../b");
  assert.equal(normalizeEntryPath("/tmp//a/../b/"), "/tmp/b/");
  assert.equal(normalizeEntryPath("docs/"), "docs/");
});

// Route folders of Next.js, SvelteKit and Remix (`[slug]`, `[...all]`, `(group)`) and names such
// as `notes[1].md` hold glob characters. A path that is exactly such a file or folder names it;
// read as a glob, `[slug]` would match a folder named `s`, `l`, `u` or `g` instead.
const GLOB_TREE = {
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
    const root = await makeProject(GLOB_TREE);
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
  const root = await makeProject(GLOB_TREE);
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
  const root = await makeProject(GLOB_TREE);
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
  const root = await makeProject({ ...GLOB_TREE, "docs/a.md": "a\n", "docs/deep/b.md": "b\n" });
  const cases: Array<{ exclude: string[]; gone: string[] }> = [
    { exclude: ["docs"], gone: ["docs/a.md", "docs/deep/b.md"] },
    { exclude: ["docs/"], gone: ["docs/a.md", "docs/deep/b.md"] },
    { exclude: ["app/[slug]/page.tsx"], gone: ["app/[slug]/page.tsx"] },
    { exclude: ["app/[slug]"], gone: ["app/[slug]/page.tsx"] },
    { exclude: ["app/[sg]/*.tsx"], gone: ["app/g/page.tsx", "app/s/page.tsx"] },
    {
      exclude: ["**/*.md"],
      gone: [
        ...Object.keys(GLOB_TREE).filter((p) => p.endsWith(".md")),
        "docs/a.md",
        "docs/deep/b.md",
      ],
    },
  ];
  const all = [...Object.keys(GLOB_TREE), "docs/a.md", "docs/deep/b.md"].sort();
  for (const { exclude, gone } of cases) {
    const want = all.filter((p) => !gone.includes(p));
    const inConfig = await buildContext({ cwd: root, inline: { exclude } }, { write: false });
    assert.deepEqual(rendered(inConfig), want, `exclude ${exclude}`);
    const asFlag = await buildContext({ cwd: root, ignore: exclude }, { write: false });
    assert.deepEqual(rendered(asFlag), want, `--ignore ${exclude}`);
  }
});

// A file named by its path on the command line (`slop build debug.log`) is built even when git
// ignores it, as the same literal path in "files" is; a folder's path still means the files git
// lists under it, and a path that is no file warns (or, when no path matches, stops the build).
for (const git of [true, false]) {
  Deno.test(`a build path that names an ignored file builds it (${git ? "git" : "no git"})`, async () => {
    const root = await makeProject({
      ".gitignore": "*.log\nlogs/*\n!logs/keep.txt\n",
      "debug.log": "ignored but named\n",
      "logs/skip.txt": "ignored\n",
      "logs/keep.txt": "kept\n",
      "src/a.ts": "export const a = 1;\n",
    });
    if (git) await gitInit(root);
    const paths = (given: string[]) =>
      buildContext({ cwd: root, paths: given }, { write: false }).then((r) => ({
        rendered: r.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path),
        warnings: r.manifest.warnings,
      }));
    const inFiles = await buildContext({ cwd: root, inline: { files: ["debug.log"] } }, {
      write: false,
    });
    assert.deepEqual(inFiles.manifest.files.map((f) => f.path), ["debug.log"]);

    assert.deepEqual(await paths(["debug.log"]), { rendered: ["debug.log"], warnings: [] });
    assert.deepEqual(await paths(["logs"]), { rendered: ["logs/keep.txt"], warnings: [] });
    assert.deepEqual(await paths(["logs/skip.txt", "src"]), {
      rendered: ["logs/skip.txt", "src/a.ts"],
      warnings: [],
    });
    await assert.rejects(
      () => paths(["nothere.log"]),
      (error: Error) =>
        error instanceof PathsError &&
        error.message.startsWith('No file matches the path "nothere.log": nothing to build'),
    );
    const some = await paths(["nothere.log", "src"]);
    assert.deepEqual(some, {
      rendered: ["src/a.ts"],
      warnings: ['No file matches the path "nothere.log"'],
    });
  });
}

Deno.test("a build path outside the project folder is named as outside it, not as matching no file", async () => {
  const parent = await makeProject({ "proj/a.py": "x = 1\n", "other/b.py": "y = 2\n" });
  const root = join(parent, "proj");
  for (const given of ["../other/b.py", join(parent, "other/b.py"), "..", "../other/*.py"]) {
    for (const inline of [{}, { allowOutsideRoot: true }]) {
      const built = await buildContext(
        { cwd: root, inline, paths: [given, "a.py", "nothere.py"] },
        {
          write: false,
        },
      );
      assert.deepEqual(built.manifest.files.map((f) => f.path), ["a.py"], given);
      const shown = given.startsWith("/") ? "../other/b.py" : given;
      assert.deepEqual(built.manifest.warnings, [
        'No file matches the path "nothere.py"',
        `The path "${shown}" leaves the project folder "${root}": a path given to build names ` +
        'files under that folder (run slop in a folder that holds it, or name it in "files" ' +
        "with allowOutsideRoot)",
      ], given);
    }
  }
});

Deno.test("a trailing slash after the name of a file the listing leaves out (node_modules) names the file", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "node_modules/pkg/index.js": "1;\n" });
  for (const spelling of ["node_modules/pkg/index.js", "node_modules/pkg/index.js/"]) {
    const result = await buildContext({ cwd: root, inline: { files: [spelling] } }, {
      write: false,
    });
    assert.deepEqual(rendered(result), ["node_modules/pkg/index.js"], spelling);
    assert.deepEqual(result.manifest.warnings, [], spelling);
  }
});
