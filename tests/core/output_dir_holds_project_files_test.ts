// An output folder that holds the project's own files would leave them out of every build (slop
// leaves its output folder out): a config error that names `output.dir` and the files, before
// anything is written. A folder that holds only what slop wrote there, or files git ignores, builds.
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { gitInit, makeProject } from "../_helpers.ts";

const run = async (root: string, inline: Record<string, unknown>) =>
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
  await assert.rejects(() => run(root, { output: { dir: "src" } }), (error: Error) => {
    assert.equal(error.name, "ConfigError");
    assert.equal(error.message, expected("src", '"src/a.py", "src/b.py", "src/c.py" and 2 more'));
    return true;
  });
  // Nested, written with a trailing slash: the same; nothing was written.
  await assert.rejects(
    () => run(root, { output: { dir: "./docs/gen/" } }),
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
    (await run(root, inline)).files.map((f) => f.path);
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
