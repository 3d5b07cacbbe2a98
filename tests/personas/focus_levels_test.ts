import assert from "node:assert/strict";
import { build, loadConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { focusMatcher } from "../../pipeline/transform.ts";
import { unmatchedFocus } from "../../pipeline/personas.ts";
import { makeProject } from "../_helpers.ts";

const TREE = {
  "src/app.ts": "export const app = 1;\n",
  "src/webapp.ts": "export const web = 2;\n",
  "apps/main.py": "def main():\n    return 0\n",
  "lib/b.ts": "export const b = 3;\n",
  "docs/README.md": "# Docs\n",
  "README.md": "# Top\n",
};
const PATHS = Object.keys(TREE);

/** The files the build renders in full (focus), every other file as a summary. */
async function fullWith(focus: string[]): Promise<{ full: string[]; warnings: string[] }> {
  const root = await makeProject(TREE);
  const config = await loadConfig({ cwd: root, inline: { defaultView: "summary" }, focus });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  return {
    full: result.files.filter((f) => f.view === "full").map((f) => f.path).sort(),
    warnings: result.warnings,
  };
}

Deno.test("--focus app matches by substring when no path or name is app", async () => {
  const { full, warnings } = await fullWith(["app"]);
  assert.deepEqual(full, ["apps/main.py", "src/app.ts", "src/webapp.ts"]);
  assert.deepEqual(warnings, []);
});

Deno.test("focus levels: exact path, folder, glob and name come before the substring", async () => {
  // A file name: its files only, not every path that holds the text.
  assert.deepEqual((await fullWith(["app.ts"])).full, ["src/app.ts"]);
  assert.deepEqual((await fullWith(["README.md"])).full, ["README.md", "docs/README.md"]);
  // An exact path, a folder (with or without its slash), a glob.
  assert.deepEqual((await fullWith(["src/app.ts"])).full, ["src/app.ts"]);
  assert.deepEqual((await fullWith(["src"])).full, ["src/app.ts", "src/webapp.ts"]);
  assert.deepEqual((await fullWith(["./src/"])).full, ["src/app.ts", "src/webapp.ts"]);
  assert.deepEqual((await fullWith(["**/*.py"])).full, ["apps/main.py"]);
  // Each entry takes its own level.
  assert.deepEqual((await fullWith(["lib", "web"])).full, ["lib/b.ts", "src/webapp.ts"]);
});

Deno.test("a focus entry that matches at no level is still named in a warning", async () => {
  const { full, warnings } = await fullWith(["nope", "app.ts"]);
  assert.deepEqual(full, ["src/app.ts"]);
  assert.deepEqual(warnings, ['Focus "nope" matches no file of the build']);
  assert.deepEqual(unmatchedFocus(["pp.t", "zzz"], PATHS), [
    'Focus "zzz" matches no file of the build',
  ]);
});

Deno.test("focusMatcher() without the build's paths has no substring level", () => {
  assert.equal(focusMatcher(["app"])("src/app.ts"), false);
  assert.equal(focusMatcher(["app"], PATHS)("src/app.ts"), true);
  assert.equal(focusMatcher(["app"], PATHS)("lib/b.ts"), false);
  // Substrings are case-sensitive, as paths are.
  assert.equal(focusMatcher(["APP"], PATHS)("src/app.ts"), false);
});
