import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "../_helpers.ts";
import { checkViews, loadConfig } from "../../pipeline/config.ts";
import { createRegistry, registerUserPlugins } from "../../pipeline/registry.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";

const README = await Deno.readTextFile(join(REPO, "README.md"));
const EXAMPLE = await Deno.readTextFile(join(REPO, "examples", "plugins", "todo_view.ts"));

/** Every ```ts block of the README that imports slop (`../slop/mod.ts`), made runnable here. */
function samples(): string[] {
  const blocks = [...README.matchAll(/```ts\n([^]*?)```\n/g)].map((m) => m[1]);
  return blocks.filter((b) => b.includes('"../slop/mod.ts"')).map((b) =>
    b.replaceAll('"../slop/mod.ts"', JSON.stringify(pathToFileURL(join(REPO, "mod.ts")).href))
      .replaceAll(
        '"./plugins/todo_view.ts"',
        JSON.stringify(pathToFileURL(join(REPO, "examples", "plugins", "todo_view.ts")).href),
      )
  );
}

Deno.test("every README config sample loads, validates and names only installed views", async () => {
  const configs = samples().filter((s) => s.includes("export default defineConfig("));
  assert.ok(configs.length >= 6, `found ${configs.length} config samples`);
  for (const source of configs) {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(join(dir, "slop.config.ts"), source);
    const config = await loadConfig({ cwd: dir });
    const registry = createRegistry(defaultPlugins());
    registerUserPlugins(registry, config.plugins);
    assert.deepEqual(checkViews(config.raw, registry), [], source);
  }
});

Deno.test("every README sample that imports slop type-checks", async () => {
  const dir = await Deno.makeTempDir();
  const files = [];
  for (const [i, source] of samples().entries()) {
    const file = join(dir, `sample_${i}.ts`);
    await Deno.writeTextFile(file, source);
    files.push(file);
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--config", join(REPO, "deno.json"), ...files],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
});

Deno.test("the README's plugin example is examples/plugins/todo_view.ts, byte for byte", () => {
  assert.ok(
    README.includes("\n````ts\n" + EXAMPLE + "````\n"),
    "README shows the plugin file whole",
  );
});
