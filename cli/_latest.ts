/**
 * The latest output of a project (document + manifest), or a fresh build
 * when there is none: what `slop stats` and `slop report` look at.
 *
 * @module
 */

import { loadConfig } from "../pipeline/config.ts";
import { build, type BuildProgress } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import type { Manifest, ResolvedConfig } from "../pipeline/types.ts";
import { countedRedactions, printWarning } from "./_output.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { readSettingText } from "../pipeline/helpers.ts";
import { writtenBuilds } from "./_written_builds.ts";

/** Flags shared by `stats` and `report`. */
export interface SourceFlags {
  /** The folder the config is looked up from. @default {Deno.cwd()} */
  cwd?: string;
  /** Config file (`--config`). */
  config?: string;
  /** State dir (`--state-dir`). */
  stateDir?: string;
  /** Build now instead of reading the latest output (`--build`). */
  build?: boolean;
  /** Build now with this persona (`--persona`). */
  persona?: string;
  /** Build now with this preset (`--preset`). */
  preset?: string;
  /** Told the progress of a build made now (the MCP server's `token_stats`). */
  onProgress?: (progress: BuildProgress) => void;
  /** Where a build made now prints its warnings. @default {printWarning} */
  warn?: (message: string) => void;
}

/** A document with its manifest, and where it came from. */
export interface LoadedOutput {
  /** The resolved config. */
  config: ResolvedConfig;
  /** The document text. */
  document: string;
  /** Its manifest. */
  manifest: Manifest;
  /** `latest` (read from `output.dir`) or `build` (built now, not written). */
  from: "latest" | "build";
}

/**
 * Read the highest-numbered manifest in `output.dir` and its document, or
 * build (without writing) when there is none or `build`, `persona` or
 * `preset` is set.
 *
 * @example
 * ```ts
 * import { latestOrBuild } from "./_latest.ts";
 * // const { document, manifest } = await latestOrBuild({});
 * ```
 */
export async function latestOrBuild(flags: SourceFlags): Promise<LoadedOutput> {
  const config = await loadConfig({
    cwd: flags.cwd,
    config: flags.config,
    stateDir: flags.stateDir,
    persona: flags.persona,
    preset: flags.preset,
  });
  // The latest output may be of another persona or preset: those always build.
  if (!flags.build && !flags.persona && !flags.preset) {
    const latest = await readLatest(config, printWarning);
    if (latest) {
      return { config, document: latest.document, manifest: latest.manifest, from: "latest" };
    }
  }
  // A look at the build: its redactions counted in one line (the build names them).
  const warnings = countedRedactions(flags.warn);
  const result = await build(config, {
    builtins: defaultPlugins(),
    layer: speedLayer(),
    write: false,
    // An inspection: the order memory is the builds' own, not this look's.
    remember: false,
    onWarning: warnings.onWarning,
    onProgress: flags.onProgress,
  });
  warnings.done();
  return { config, document: result.document, manifest: result.manifest, from: "build" };
}

/**
 * The latest written output of a config that reads whole, or undefined; a
 * broken manifest or a missing document is passed over, named to `warn`.
 *
 * @example
 * ```ts
 * import { readLatest } from "./_latest.ts";
 * // const latest = await readLatest(config);
 * ```
 */
export async function readLatest(
  config: ResolvedConfig,
  warn: (message: string) => void = () => {},
): Promise<{ document: string; manifest: Manifest; manifestText: string } | undefined> {
  const { dir, namespace } = config.output;
  const place = { dir, namespace, root: config.root };
  // The highest number that reads whole; each one passed over is named.
  for await (
    const { document, manifest, manifestText } of writtenBuilds(place, readSettingText, warn)
  ) {
    return { document, manifest, manifestText };
  }
  return undefined;
}
