import assert from "node:assert/strict";
import { gitInit, makeProject } from "../_helpers.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href;

/** Build `root` with these file entries in a new process; the CommonJS modules it loaded. */
async function commonJsLoadedBy(root: string, files: string[]): Promise<string[]> {
  const code = `import { buildContext } from ${JSON.stringify(MOD)};
const result = await buildContext({ cwd: Deno.cwd(), inline: { files: ${
    JSON.stringify(files)
  } } }, { write: false });
const { default: Module } = await import("node:module");
console.log(JSON.stringify({ files: result.files.map((f) => f.path), loaded: Object.keys(Module._cache) }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", code],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const { files: built, loaded } = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(built, ["README.md", "src/a.ts", "src/b/c.ts"]);
  return loaded;
}

const TREE = {
  "README.md": "# Project\n",
  "src/a.ts": "export const a = 1;\n",
  "src/b/c.ts": "export const c = 1;\n",
  "notes.txt": "left out\n",
  ".gitignore": "# nothing ignored yet\n\n",
};

Deno.test("a build with literal, * and ** globs loads no CommonJS package, in a repository or not", async () => {
  const plain = await makeProject(TREE);
  assert.deepEqual(await commonJsLoadedBy(plain, ["src/**", "README.md"]), []);
  const repo = await makeProject(TREE);
  await gitInit(repo);
  assert.deepEqual(await commonJsLoadedBy(repo, ["src/**/*.ts", "*.md"]), []);
  // Braces need picomatch; a .gitignore with a rule outside a repository is matched by slop
  // itself (pipeline/_gitignore.ts), with no package.
  await Deno.writeTextFile(`${plain}/.gitignore`, "*.log\n");
  const loaded = await commonJsLoadedBy(plain, ["src/{a,b/c}.ts", "README.md"]);
  assert.ok(loaded.some((p) => /\/picomatch[@/]/.test(p)), loaded.join(", "));
  assert.ok(!loaded.some((p) => /\/ignore[@/]/.test(p)), loaded.join(", "));
});
