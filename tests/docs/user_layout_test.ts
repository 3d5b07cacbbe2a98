import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared, tempDir } from "../_helpers.ts";

// docs/plugins.md's config and plugin, laid out as a user does: slop's clone beside the project
// (`../slop`), the plugin copied to `plugins/todo_view.ts` with its import as the page says to
// write it, the config's `defineConfig` imported by the page's own line. Both specifiers resolve
// and the build renders the plugin's view (the copy's import was `../../mod.ts`, the example's own
// path, which only a type import survives; twenty-ninth session, user42).

Deno.test("docs/plugins.md's config and plugin build in a project beside slop's clone, imports as written", async () => {
  const page = await Deno.readTextFile(join(REPO, "docs/plugins.md"));
  const said = page.match(/the copy imports `"([^"]+)"`/)?.[1];
  assert.equal(said, "../../slop/mod.ts");
  const config = page.match(/```ts\n(\/\/ slop\.config\.ts\n[^`]*todoViewMode\(\)[^`]*)```/)?.[1];
  assert.ok(config, "the page's config block");
  assert.match(config, /^import \{ defineConfig \} from "\.\.\/slop\/config\.ts";$/m);
  const example = await Deno.readTextFile(join(REPO, "examples/plugins/todo_view.ts"));
  const plugin = example.replace('from "../../mod.ts"', `from "${said}"`);
  assert.notEqual(plugin, example);

  const parent = await tempDir({ prefix: "slop_user_layout_" });
  await Deno.symlink(REPO, join(parent, "slop"));
  const root = await makeProject({
    "src/app.ts": "export const app = 1;\n",
    "docs/notes.md": "# Notes\n\nXXX: ship the report\nTODO: not a marker here\n",
    "plugins/todo_view.ts": plugin,
    "slop.config.ts": config,
  }, join(parent, "project"));
  const run = await runCliShared(["build", "--stdout"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /### docs\/notes\.md\n\n```\w*\n3: XXX: ship the report\n```/);
  assert.match(run.stdout, /### src\/app\.ts/);
});
