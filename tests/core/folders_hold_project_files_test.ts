import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { gitInit, makeProject } from "../_helpers.ts";

// An output folder that holds the project's own files would leave them out of every build (slop
// leaves its output folder out): a config error that names `output.dir` and the files, before
// anything is written. A folder that holds only what slop wrote there, or files git ignores, builds.
const buildInline = async (root: string, inline: Record<string, unknown>) =>
  build(await loadConfig({ cwd: root, inline }), { builtins: defaultPlugins(), write: true });

Deno.test("output.dir on a folder of the project's files is an error naming the key and the files", async () => {
  const src = Object.fromEntries(
    ["a.py", "b.py", "c.py", "d.py", "lib/e.py"].map((f) => [`src/${f}`, `x = "${f}"\n`]),
  );
  const root = await makeProject({ "README.md": "hi\n", ...src, "docs/gen/notes.md": "mine\n" });
  const expected = (dir: string, files: string) =>
    `Invalid config "inline config": output.dir "${dir}" holds files of the project (${files}): ` +
    "slop leaves its output folder out of the build, so they would be missing from the " +
    "document; name a folder of its own, or leave output.dir out (the state dir's out/ folder)";
  await assert.rejects(() => buildInline(root, { output: { dir: "src" } }), (error: Error) => {
    assert.equal(error.name, "ConfigError");
    assert.equal(error.message, expected("src", '"src/a.py", "src/b.py", "src/c.py" and 2 more'));
    return true;
  });
  // Nested, written with a trailing slash: the same; nothing was written.
  await assert.rejects(
    () => buildInline(root, { output: { dir: "./docs/gen/" } }),
    { message: expected("docs/gen", '"docs/gen/notes.md"') },
  );
  assert.deepEqual([...Deno.readDirSync(join(root, "src"))].map((e) => e.name).sort(), [
    "a.py",
    "b.py",
    "c.py",
    "d.py",
    "lib",
  ]);
});

Deno.test("an output folder that holds only slop's outputs and cache, or files git ignores, builds", async () => {
  const root = await makeProject({
    "a.py": "x = 1\n",
    ".gitignore": "build/\n",
    "build/app.bin.txt": "compiled\n",
  });
  // Files git ignores (listed by git, or by the walk's own reading of .gitignore) are not listed.
  const files = async (inline: Record<string, unknown>) =>
    (await buildInline(root, inline)).files.map((f) => f.path);
  assert.deepEqual(await files({ output: { dir: "build" } }), [".gitignore", "a.py"]);
  // Outputs, the last number and a cache dir inside the output folder, over three builds.
  for (let i = 0; i < 3; i++) {
    const inline = { output: { dir: "out" }, cache: { dir: "out/cache" } };
    assert.deepEqual(await files(inline), [".gitignore", "a.py"]);
  }
  await Deno.writeTextFile(join(root, ".gitignore"), "build/\nout/\n");
  await gitInit(root);
  assert.deepEqual(await files({ output: { dir: "build" } }), [".gitignore", "a.py"]);
});

// A state dir (--state-dir, SLOP_DIR) or cache.dir inside the project that holds the project's own
// files would leave them out of every build (slop leaves these folders out, and the state dir's
// .gitignore of "*" hides them from git): an error naming where the folder came from and the
// files, before anything is written.
const run = async (
  root: string,
  options: { inline?: Record<string, unknown>; stateDir?: string },
) =>
  build(await loadConfig({ cwd: root, ...options }), { builtins: defaultPlugins(), write: true });

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

for (const tracked of [false, true]) {
  Deno.test(`a state dir or cache.dir on a folder of the project's files is an error naming it and the files (${tracked ? "git" : "no git"})`, async () => {
    const src = Object.fromEntries(
      ["a.py", "b.py", "c.py", "lib/d.py"].map((f) => [`src/${f}`, "x\n"]),
    );
    const root = await makeProject({ "README.md": "hi\n", ...src });
    if (tracked) await gitInit(root);
    await assert.rejects(() => run(root, { stateDir: join(root, "src") }), (error: Error) => {
      assert.equal(error.name, "ConfigError");
      assert.equal(
        error.message,
        'The state dir "src" (--state-dir or SLOP_DIR) holds files of the project ("src/a.py", ' +
          '"src/b.py", "src/c.py" and 1 more): slop leaves its state dir out of the build and ' +
          "hides it from git, so they would be missing from the document; name a folder of its " +
          'own (the default is ".slop")',
      );
      return true;
    });
    await assert.rejects(() => run(root, { inline: { cache: { dir: "src/lib" } } }), {
      name: "ConfigError",
      message: 'Invalid config "inline config": cache.dir "src/lib" holds files of the project ' +
        '("src/lib/d.py"): slop leaves its cache folder out of the build, so they would be ' +
        "missing from the document; name a folder of its own, or leave cache.dir out (the " +
        "state dir's cache/ folder)",
    });
    // Nothing was written: no .gitignore hides the folder from git.
    assert.deepEqual(names(join(root, "src")), ["a.py", "b.py", "c.py", "lib"]);
    assert.deepEqual(names(join(root, "src", "lib")), ["d.py"]);
  });
}

Deno.test("a state dir and cache.dir of their own inside the project build again and again", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  await gitInit(root);
  for (let i = 0; i < 2; i++) {
    const built = await run(root, {
      stateDir: join(root, "state"),
      inline: { cache: { dir: "c" } },
    });
    assert.deepEqual(built.files.map((f) => f.path), ["a.py"]);
  }
});

Deno.test("a state dir inside a folder .gitignore leaves out, or named like a pattern, is judged by what a build lists", async () => {
  for (const tracked of [false, true]) {
    const root = await makeProject({
      ".gitignore": "tmp/\n",
      "a.py": "x\n",
      "tmp/scratch.txt": "not the project's\n",
      "state[1]/x.py": "x\n",
    });
    if (tracked) await gitInit(root);
    const built = await run(root, { stateDir: join(root, "tmp") });
    assert.deepEqual(built.files.map((f) => f.path), [".gitignore", "a.py", "state[1]/x.py"]);
    await assert.rejects(() => run(root, { stateDir: join(root, "state[1]") }), {
      message:
        /^The state dir "state\[1\]" \(--state-dir or SLOP_DIR\) holds files of the project \("state\[1\]\/x.py"\)/,
    });
  }
});
