/**
 * The library entry point: load the config and build with the built-in
 * plugins in one call. Like `mod.ts` and `cli.ts` (and unlike anything in
 * `pipeline/`), it hands `plugins/defaults.ts` to the pipeline.
 *
 * @module
 */

import { type ConfigFlags, loadConfig } from "../pipeline/config.ts";
import { build, type BuildOptions, type BuildResult } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { speedLayer } from "../accel/speed_layer.ts";

/** Build options without the built-ins (they are supplied). */
export type BuildContextOptions = Omit<BuildOptions, "builtins">;

/**
 * Load the config (file, inline object or zero-config) and build.
 *
 * @example
 * ```ts
 * import { buildContext } from "./build_context.ts";
 * const result = await buildContext({ cwd: Deno.cwd() }, { write: false });
 * console.log(result.document.length);
 * ```
 */
export async function buildContext(
  flags: ConfigFlags = {},
  options: BuildContextOptions = {},
): Promise<BuildResult> {
  const config = await loadConfig(flags);
  return await build(config, { layer: speedLayer(), ...options, builtins: defaultPlugins() });
}
