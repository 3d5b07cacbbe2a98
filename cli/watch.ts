/**
 * `slop watch`: build, then rebuild whenever a file under the root changes
 * (debounced), printing how much of the previous output each rebuild reuses
 * as a byte-identical prefix (what a provider's prompt cache can hit).
 * A change to the config file reloads it (a module the config imports is
 * noticed too, see {@linkcode runWatch}); a config that fails to load leaves
 * the last good one in use.
 *
 * @module
 */

import { relative, resolve, sep } from "node:path";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { build, type BuildResult } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import type { OutputFormat, ResolvedConfig } from "../pipeline/types.ts";
import { formatBytes, printError } from "./_output.ts";
import { type ConfigSources, configSources } from "./_config_reload.ts";

/** Flags of `slop watch`. */
export interface WatchFlags {
  /** Config file (`--config`). */
  config?: string;
  /** State dir (`--state-dir`). */
  stateDir?: string;
  /** Document format (`--format`). */
  format?: string;
  /** Quiet time in ms before a rebuild (`--debounce`). @default {200} */
  debounce?: string | number;
  /** Stop after this many rebuilds (`--max-builds`); unbounded when absent. */
  maxBuilds?: string | number;
}

/** How much of the previous output a rebuild kept. */
export interface PrefixReuse {
  /** Leading bytes identical to the previous document. */
  bytes: number;
  /** The new document's size. */
  total: number;
  /** Leading blocks identical (same sha256, same place). */
  blocks: number;
  /** Whether the stable prefix hash is unchanged. */
  prefixUnchanged: boolean;
}

/**
 * Compare a build with the previous one.
 *
 * @example
 * ```ts
 * import { prefixReuse } from "./watch.ts";
 * // prefixReuse(previous, next).bytes
 * ```
 */
export function prefixReuse(previous: BuildResult, next: BuildResult): PrefixReuse {
  const a = new TextEncoder().encode(previous.document);
  const b = new TextEncoder().encode(next.document);
  let bytes = 0;
  const n = Math.min(a.length, b.length);
  while (bytes < n && a[bytes] === b[bytes]) bytes++;
  let blocks = 0;
  while (
    blocks < previous.blocks.length && blocks < next.blocks.length &&
    previous.blocks[blocks].sha256 === next.blocks[blocks].sha256
  ) blocks++;
  return {
    bytes,
    total: b.length,
    blocks,
    prefixUnchanged: previous.manifest.prefix.sha256 === next.manifest.prefix.sha256,
  };
}

/**
 * The line printed after a rebuild.
 *
 * @example
 * ```ts
 * import { reuseLine } from "./watch.ts";
 * reuseLine({ bytes: 90, total: 100, blocks: 3, prefixUnchanged: true });
 * // "reused 90 B of 100 B (90%), 3 blocks; stable prefix unchanged"
 * ```
 */
export function reuseLine(reuse: PrefixReuse): string {
  const pct = reuse.total ? Math.floor((reuse.bytes / reuse.total) * 100) : 100;
  return `reused ${formatBytes(reuse.bytes)} of ${
    formatBytes(reuse.total)
  } (${pct}%), ${reuse.blocks} blocks; stable prefix ${
    reuse.prefixUnchanged ? "unchanged" : "changed"
  }`;
}

/**
 * Run `slop watch`; resolves to the exit code when `--max-builds` is reached
 * or on Ctrl-C.
 *
 * @example
 * ```ts
 * import { runWatch } from "./watch.ts";
 * // await runWatch({ maxBuilds: 1 });
 * ```
 */
export async function runWatch(flags: WatchFlags): Promise<number> {
  const debounce = Number(flags.debounce ?? 200);
  const maxBuilds = flags.maxBuilds === undefined ? Infinity : Number(flags.maxBuilds);
  if (!(debounce >= 0) || !(maxBuilds >= 0)) {
    printError("Invalid --debounce or --max-builds: expected a number of at least 0");
    return 2;
  }
  let config: ResolvedConfig;
  const load = async (reload?: string) => {
    const loaded = await loadConfig({ config: flags.config, stateDir: flags.stateDir, reload });
    if (flags.format) loaded.output.format = flags.format as OutputFormat;
    return loaded;
  };
  try {
    config = await load();
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
  // The files the config is made of: a change to one reloads it before the rebuild.
  let sources: ConfigSources | undefined = config.configPath
    ? await configSources(config.configPath, config.root)
    : undefined;
  const reloadConfig = async (changed: Set<string>) => {
    if (!sources || !sources.files.some((f) => changed.has(f))) return;
    const next = await configSources(sources.files[0], config.root);
    if (next.version === sources.version) return;
    const name = relative(config.root, sources.files[0]).split(sep).join("/");
    const modules = sources.files.slice(1).filter((f) => changed.has(f))
      .map((f) => relative(config.root, f).split(sep).join("/"));
    try {
      config = await load(next.version);
      sources = next;
      if (!modules.length) console.log(`slop: ${name} changed: reloaded the config`);
      else {
        // The config module is evaluated anew, but Deno keeps the first version of what it imports.
        const list = modules.join(", ");
        console.log(
          `slop: ${list} changed: reloaded ${name}; restart slop watch to load ${list} itself (Deno keeps a module's first version)`,
        );
      }
    } catch (error) {
      // Keep the last good config; the error is printed once per failed version.
      sources = next;
      const detail = error instanceof Error ? error.message : String(error);
      printError(`${name} changed but cannot be loaded; keeping the last good config: ${detail}`);
    }
  };
  const rebuild = async (): Promise<BuildResult | undefined> => {
    try {
      return await build(config, { builtins: defaultPlugins() });
    } catch (error) {
      printError(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  const ignored = [
    config.stateDir,
    config.output.dir,
    config.cache.dir,
    resolve(config.root, ".git"),
  ]
    .map((d) => d.endsWith(sep) ? d.slice(0, -1) : d);
  const relevant = (path: string) => !ignored.some((d) => path === d || path.startsWith(d + sep));
  // Watch before the first build, so that no change after "watching" is missed.
  const outside = sources && relative(config.root, sources.files[0]).startsWith("..");
  const watcher = Deno.watchFs(outside ? [config.root, sources!.files[0]] : config.root, {
    recursive: true,
  });
  const stop = () => watcher.close();
  let previous = await rebuild();
  if (previous) console.log(`slop: built ${outputName(previous, config)}; watching for changes`);
  if (maxBuilds === 0) {
    stop();
    return previous ? 0 : 1;
  }
  Deno.addSignalListener("SIGINT", stop);
  let builds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let changed = new Set<string>();
  let changedPaths = new Set<string>();
  try {
    for await (const event of watcher) {
      const paths = event.paths.filter(relevant);
      if (!paths.length || event.kind === "access") continue;
      paths.forEach((p) => changed.add(relative(config.root, p).split(sep).join("/")));
      paths.forEach((p) => changedPaths.add(resolve(p)));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed].sort();
        changed = new Set();
        const paths = changedPaths;
        changedPaths = new Set();
        running = running.then(async () => {
          await reloadConfig(paths);
          const next = await rebuild();
          if (next) {
            const what = files.length === 1 ? files[0] : `${files.length} files`;
            const reuse = previous ? reuseLine(prefixReuse(previous, next)) : "first build";
            console.log(`slop: ${what} changed: built ${outputName(next, config)}: ${reuse}`);
            previous = next;
          }
          if (++builds >= maxBuilds) stop();
        });
      }, debounce);
    }
  } finally {
    clearTimeout(timer);
    Deno.removeSignalListener("SIGINT", stop);
  }
  await running;
  return 0;
}

function outputName(result: BuildResult, config: ResolvedConfig): string {
  return result.output ? relative(config.root, result.output.document).split(sep).join("/") : "";
}
