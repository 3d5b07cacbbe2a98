/**
 * Helpers of the cache tests: the machine's Python standard library (real
 * data) and small projects built with a state dir of their own.
 *
 * @module
 */

import { join } from "node:path";
import { build, type BuildResult, defaultPlugins, loadConfig } from "../../mod.ts";
import { speedLayer } from "../../accel/speed_layer.ts";

/** The python3 standard library folder, or undefined when there is no python3. */
export async function pythonStdlib(): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const dir = new TextDecoder().decode(out.stdout).trim();
    return out.success && dir ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Build a project (written output) with its own state dir. */
export async function buildIn(
  root: string,
  stateDir: string,
  options: { cache?: boolean; workers?: number } = {},
): Promise<BuildResult> {
  const config = await loadConfig({ cwd: root, stateDir });
  if (options.cache === false) config.cache.enabled = false;
  return await build(config, {
    builtins: defaultPlugins(),
    layer: speedLayer(),
    workers: options.workers,
  });
}

/** Cache marks of a build's manifest: path -> hit | miss. */
export function marks(result: BuildResult): Record<string, string | undefined> {
  return Object.fromEntries(result.manifest.files.map((f) => [f.path, f.cache]));
}

/** Every entry file in a cache dir (no temp files, no last-build record). */
export async function entryFiles(cacheDir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const folder of Deno.readDir(cacheDir)) {
    if (!folder.isDirectory || !/^[0-9a-f]{2}$/.test(folder.name)) continue;
    for await (const item of Deno.readDir(join(cacheDir, folder.name))) {
      if (!item.name.endsWith(".tmp")) out.push(join(cacheDir, folder.name, item.name));
    }
  }
  return out.sort();
}
