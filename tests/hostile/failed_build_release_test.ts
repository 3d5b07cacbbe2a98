import assert from "node:assert/strict";
import { join } from "node:path";
import { build, prepareBuild } from "../../pipeline/build.ts";
import type { BuildOptions } from "../../pipeline/build.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { speedLayer } from "../../accel/speed_layer.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { makeProject, tempDir } from "../_helpers.ts";

/**
 * A library caller whose builds fail (a section plugin that throws, secrets with
 * `failOnSecret`, a progress callback that cancels, an output folder that cannot be made) or
 * are prepared and discarded: each build lets go of what it opened (the new cache pack's temp
 * file, the spill file of its texts) as it ends, not when the collector happens to find it.
 * Counted in open files and files left on disk, after each of two builds in a row.
 */
async function project(config: string): Promise<string> {
  const tree: Record<string, string> = { "slop.config.ts": config };
  // Over the spill's smallest text (1024 characters): each text goes to the spill file.
  for (let i = 0; i < 6; i++) {
    tree[`src/f${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`.repeat(60);
    tree[`src/g${i}.ts`] = `export function g${i}(x: number) {\n  return x;\n}\n`.repeat(40);
  }
  // A key that \`failOnSecret\` stops the build for.
  tree["src/keys.py"] = 'AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"\n';
  return await makeProject(tree);
}

/** Open files of this process. */
function openFiles(): string[] {
  return [...Deno.readDirSync("/proc/self/fd")].map((entry) => {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${entry.name}`);
    } catch {
      return ""; // The listing's own descriptor, closed already.
    }
  });
}

/**
 * Open files and files on disk a build left behind: the cache's temp packs and spill files.
 * The builds make their spill files in a folder of their own (`spillDir`): `deno test --parallel`
 * runs other test files on other threads of this process, whose builds' files are open too.
 */
function leftBehind(root: string, spillDir: string): string[] {
  const open = openFiles().filter((path) => path.startsWith(root) || path.startsWith(spillDir));
  const packs = join(root, ".slop", "cache", "packs");
  let temps: string[] = [];
  try {
    temps = [...Deno.readDirSync(packs)].map((e) => e.name).filter((n) => n.endsWith(".tmp"));
  } catch {
    // No pack folder: nothing left in it.
  }
  const spills = [...Deno.readDirSync(spillDir)].map((e) => e.name);
  return [...open.map((p) => `open ${p}`), ...temps, ...spills];
}

const SCRIPT_FILES = `files: ["src/**/*.py", { path: "src/**/*.ts", view: "skeleton" }]`;

async function failingBuilds(
  config: string,
  options: Partial<BuildOptions> & { discard?: boolean } = {},
): Promise<{ errors: string[]; left: string[] }> {
  const root = await project(config);
  const spillDir = await tempDir({ prefix: "slop_test_spills_" });
  const loaded = await loadConfig({ cwd: root });
  const errors: string[] = [];
  const left: string[] = [];
  // Two builds: the first in a fresh project, the second over what the first left (its cache).
  for (let i = 0; i < 2; i++) {
    const { discard, ...rest } = options;
    const opts = {
      builtins: defaultPlugins(),
      layer: speedLayer({ spillAfter: 0, spillDir }),
      write: true,
      ...rest,
    };
    try {
      if (discard) (await prepareBuild(loaded, opts)).discard();
      else await build(loaded, opts);
      errors.push("built");
    } catch (error) {
      errors.push(error instanceof Error ? error.message.split("\n")[0] : String(error));
    }
    left.push(...leftBehind(root, spillDir));
  }
  await Deno.remove(root, { recursive: true });
  await Deno.remove(spillDir, { recursive: true });
  return { errors, left };
}

Deno.test("a build that fails lets go of its open files, temp packs and spill files as it ends", async () => {
  const cases: Record<string, [string, Partial<BuildOptions> & { discard?: boolean }]> = {
    "a section plugin that throws": [
      `export default { ${SCRIPT_FILES}, plugins: [{ kind: "section", name: "boom", compose() { throw new Error("boom"); } }] };\n`,
      {},
    ],
    "a secret with failOnSecret": [
      `export default { ${SCRIPT_FILES}, secrets: { failOnSecret: true } };\n`,
      {},
    ],
    "a progress callback that cancels in the transform": [
      `export default { ${SCRIPT_FILES} };\n`,
      {
        onProgress: (p) => {
          if (p.stage === "transform" && p.done > 2) throw new Error("cancelled");
        },
      },
    ],
    "a progress callback that cancels in the budget": [
      `export default { ${SCRIPT_FILES}, budget: { tokens: 300 } };\n`,
      {
        onProgress: (p) => {
          if (p.stage === "budget") throw new Error("cancelled");
        },
      },
    ],
    "an output folder that is a file": [
      `export default { ${SCRIPT_FILES}, output: { dir: "src/f0.py" } };\n`,
      {},
    ],
    "a prepared build discarded": [`export default { ${SCRIPT_FILES} };\n`, { discard: true }],
  };
  const found: string[] = [];
  for (const [name, [config, options]] of Object.entries(cases)) {
    const { errors, left } = await failingBuilds(config, options);
    assert.equal(new Set(errors).size, 1, `${name}: ${errors.join(", ")}`);
    if (left.length) found.push(`${name} (${errors[0]}): ${left.length} left, ${left[0]}`);
  }
  assert.deepEqual(found, []);
});
