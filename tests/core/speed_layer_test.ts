// The speed layer (`accel/speed_layer.ts`) wraps the plain stages (`pipeline/stages.ts`): the
// same project built with and without it gives the same document and manifest, cold, warm after
// an edit, under a token budget, with a file that holds a secret, and with a resident.
import assert from "node:assert/strict";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { makeProject } from "../_helpers.ts";

const code = (n: number) =>
  Array.from({ length: 40 }, (_, i) => `def f${n}_${i}(x):\n    return x + ${i}\n`).join("\n");

const PROJECT = {
  "slop.config.ts": `export default { files: ["src/**", "README.md"] };\n`,
  "README.md": "# demo\n\nA small project.\n",
  "src/a.py": code(1),
  "src/b.py": code(2),
  "src/c.ts": "export const c = 3;\n".repeat(50),
  "src/keys.py": `TOKEN = "ghp_${"a1B2c3D4e5".repeat(3)}abcdef"\n`,
  "src/logo.png": "\x89PNG\r\n\x1a\n\0\0\0binary",
};

/** The bytes a build writes (document and manifest), read back. */
async function outputs(root: string, n: number): Promise<[string, string]> {
  const name = `context_${String(n).padStart(3, "0")}`;
  const out = join(root, ".slop/out");
  return [
    await Deno.readTextFile(join(out, `${name}.md`)),
    await Deno.readTextFile(join(out, `${name}.json`)),
  ];
}

/** Build both projects the same way: one plain, one with the speed layer (and a resident). */
async function bothWays(flags: { budget?: number } = {}) {
  const plain = await makeProject(PROJECT);
  const fast = await makeProject(PROJECT);
  const kept = resident();
  const builds = async (n: number) => {
    const load = (cwd: string) => loadConfig({ cwd, budget: flags.budget });
    await build(await load(plain), { builtins: defaultPlugins() });
    await build(await load(fast), {
      builtins: defaultPlugins(),
      layer: speedLayer({ resident: n > 2 ? kept : undefined }),
    });
    assert.deepEqual(await outputs(fast, n), await outputs(plain, n), `build ${n}`);
  };
  // Cold, warm with nothing changed, then a resident process's builds after edits.
  await builds(1);
  await builds(2);
  await builds(3);
  for (const root of [plain, fast]) {
    await Deno.writeTextFile(join(root, "src/a.py"), code(1) + "\ndef added():\n    return 0\n");
  }
  await builds(4);
  for (const root of [plain, fast]) await Deno.remove(join(root, "src/c.ts"));
  await builds(5);
  await kept.close();
}

Deno.test("the speed layer writes the bytes the plain stages write, cold, warm and resident", async () => {
  await bothWays();
});

Deno.test("the speed layer writes the bytes the plain stages write under a token budget", async () => {
  await bothWays({ budget: 900 });
});

Deno.test({
  name: "a build keeping every text out of memory writes the plain stages' bytes, cold and warm",
  // A warm build's cached renders stay in the cache's pack, whose file their texts hold open
  // until they are collected (`accel/text_spill.ts`).
  sanitizeResources: false,
  async fn() {
    const plain = await makeProject(PROJECT);
    const fast = await makeProject(PROJECT);
    const builds = async (n: number) => {
      await build(await loadConfig({ cwd: plain }), { builtins: defaultPlugins() });
      await build(await loadConfig({ cwd: fast }), {
        builtins: defaultPlugins(),
        layer: speedLayer({ spillAfter: 0 }),
      });
      assert.deepEqual(await outputs(fast, n), await outputs(plain, n), `build ${n}`);
    };
    await builds(1);
    // Warm after an edit (fences in it): the other files' renders are the cache's.
    for (const root of [plain, fast]) {
      await Deno.writeTextFile(join(root, "src/b.py"), "```\n" + code(2) + "\n`````x\n");
    }
    await builds(2);
    // Nothing changed: the blocks' hashes and content keys are the ones remembered.
    await builds(3);
  },
});
