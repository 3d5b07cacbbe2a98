/**
 * `slop watch`: build, then rebuild whenever a file under the root changes
 * (debounced), printing how much of the previous output each rebuild reuses
 * as a byte-identical prefix (what a provider's prompt cache can hit).
 *
 * @module
 */

import { isAbsolute, join, relative, sep } from "node:path";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { configImports, isModulePath } from "./_config_graph.ts";
import { build, type BuildResult } from "../pipeline/build.ts";
import { builtinPlugins } from "./_builtins.ts";
import type { ResolvedConfig } from "../pipeline/types.ts";
import { formatBytes, printError, printWarning } from "./_output.ts";
import { applyOverrides, formatFlagError } from "./_flags.ts";
import { resident, watchIgnoredDirs } from "../accel/resident.ts";
import { stageClock, timingsText } from "../pipeline/timings.ts";
import { readEvent } from "./_watch_events.ts";
import { collectGarbage } from "./_collect.ts";
import { literalGlob, ownOutputFiles } from "./_own_output.ts";
import { speedLayer } from "../accel/speed_layer.ts";

/** Flags of `slop watch`. */
export interface WatchFlags {
  /** Config file (`--config`). */
  config?: string;
  /** State dir (`--state-dir`). */
  stateDir?: string;
  /** Persona from the config (`--persona`). */
  persona?: string;
  /** Preset from the config (`--preset`). */
  preset?: string;
  /** Document format (`--format`). */
  format?: string;
  /** Quiet time in ms before a rebuild (`--debounce`). @default {200} */
  debounce?: string | number;
  /** Stop after this many rebuilds (`--max-builds`); unbounded when absent. */
  maxBuilds?: string | number;
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
  /** `false` with `--no-cache`. */
  cache?: boolean;
  /** Print each build stage's time to stderr after every build (`--timings`). */
  timings?: boolean;
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

/** Heap growth in bytes after which `slop watch` collects garbage after a rebuild. */
const COLLECT_AFTER = 2 * 1024 * 1024;

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
  let blocks = 0;
  while (
    blocks < previous.blocks.length && blocks < next.blocks.length &&
    previous.blocks[blocks].sha256 === next.blocks[blocks].sha256
  ) blocks++;
  // Identical leading blocks are identical bytes: compare from the first block that differs,
  // encoding blocks only as the comparison reaches them (not the whole documents).
  const a = blockBytes(previous, blocks);
  const b = blockBytes(next, blocks);
  let bytes = blocks ? next.blocks[blocks - 1].offset + next.blocks[blocks - 1].length : 0;
  let x = a.next().value;
  let y = b.next().value;
  let i = 0;
  let j = 0;
  while (x && y) {
    if (i === x.length) {
      x = a.next().value;
      i = 0;
    } else if (j === y.length) {
      y = b.next().value;
      j = 0;
    } else if (x[i] === y[j]) {
      i++;
      j++;
      bytes++;
    } else break;
  }
  return {
    bytes,
    total: next.manifest.total.bytes,
    blocks,
    prefixUnchanged: previous.manifest.prefix.sha256 === next.manifest.prefix.sha256,
  };
}

function* blockBytes(result: BuildResult, from: number): Generator<Uint8Array, undefined> {
  const encoder = new TextEncoder();
  for (let k = from; k < result.blocks.length; k++) yield encoder.encode(result.blocks[k].text);
  return undefined;
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
  const flagError = !(debounce >= 0)
    ? `Invalid --debounce "${flags.debounce}": expected milliseconds, a number of at least 0`
    : !(maxBuilds >= 0 && (maxBuilds === Infinity || Number.isInteger(maxBuilds)))
    ? `Invalid --max-builds "${flags.maxBuilds}": expected a whole number of at least 0`
    : formatFlagError(flags.format);
  if (flagError) {
    printError(flagError);
    return 2;
  }
  // `slop watch > watch.log` in the project: the log is neither watched nor bundled.
  const outputs = ownOutputFiles();
  const load = async (reload: boolean) => {
    const loaded = await loadConfig({
      config: flags.config,
      stateDir: flags.stateDir,
      persona: flags.persona,
      preset: flags.preset,
      reload,
    });
    applyOverrides(loaded, flags);
    loaded.exclude = [...loaded.exclude, ...underRoot(outputs, loaded.root).map(literalGlob)];
    return loaded;
  };
  let config: ResolvedConfig;
  try {
    config = await load(false);
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  }
  // Kept between rebuilds: the plugins, the opened cache, the stat index, the file list and the
  // blocks' hashes and counts, so a rebuild after a one-file edit does that file's work.
  const builtins = builtinPlugins();
  const state = resident();
  // A rebuild prints the warnings the last build did not give (a secret redacted in a file nobody
  // edited is not told again after every edit); its line counts the others.
  let told = new Set<string>();
  let repeated = 0;
  const rebuild = async (): Promise<BuildResult | undefined> => {
    const clock = flags.timings ? stageClock({ startup: false }) : undefined;
    const given = new Set<string>();
    repeated = 0;
    const onWarning = (warning: string) => {
      if (told.has(warning) && !given.has(warning)) repeated++;
      else printWarning(warning);
      given.add(warning);
    };
    try {
      const result = await build(config, {
        builtins,
        layer: speedLayer({ resident: state }),
        timings: clock,
        onWarning: flags.quiet ? undefined : onWarning,
      });
      told = given;
      return result;
    } catch (error) {
      printError(error instanceof Error ? error.message : String(error));
      return undefined;
    } finally {
      if (clock) console.error(timingsText(clock));
    }
  };
  const ignored = watchIgnoredDirs(config);
  const configPath = config.configPath;
  const logs = underRoot(outputs, config.root).map((rel) => join(config.root, rel));
  const relevant = (path: string) =>
    path === configPath ||
    (!ignored.some((d) => path === d || path.startsWith(d + sep)) && !logs.includes(path));
  // Watch before the first build, so that no change after "watching" is missed. The config
  // may sit outside the root: watch it too.
  const watched = configPath && !configPath.startsWith(config.root + sep)
    ? [config.root, configPath]
    : config.root;
  const watcher = Deno.watchFs(watched, { recursive: true });
  const stop = () => watcher.close();
  // The modules the config imports, read while the first build runs: an edit to one cannot be
  // loaded into this process, so the rebuild says so.
  let imports = configPath ? configImports(configPath) : Promise.resolve(new Set<string>());
  let previous = await rebuild();
  // The garbage of a build is collected once it is done (see `_collect.ts`): the first build's
  // before the warm-up adds to it, and a rebuild's once the heap has grown by `COLLECT_AFTER`.
  let collected = 0;
  const collect = async (always: boolean) => {
    await state.settled();
    if (always || Deno.memoryUsage().heapUsed - collected >= COLLECT_AFTER) {
      collectGarbage();
      collected = Deno.memoryUsage().heapUsed;
    }
  };
  // Before "watching": a build that writes nothing runs the rebuild's code once (compiled before
  // an edit waits on it).
  if (previous) {
    await collect(true);
    const layer = speedLayer({ resident: state });
    await build(config, { builtins, layer, write: false, record: false, remember: false })
      .catch(() => {});
    await collect(true);
  }
  const say = flags.quiet ? () => {} : console.log;
  if (previous) say(`slop: built ${outputName(previous, config)}; watching for changes`);
  if (maxBuilds === 0) {
    stop();
    await state.close();
    return previous ? 0 : 1;
  }
  Deno.addSignalListener("SIGINT", stop);
  let builds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let changed = new Set<string>();
  let configChanged = false;
  let structural = false;
  let modules = new Set<string>();
  try {
    for await (const event of watcher) {
      const change = readEvent(event, relevant);
      if (!change) continue;
      const { paths } = change;
      if (paths.includes(configPath!)) configChanged = true;
      paths.filter((p) => p !== configPath && isModulePath(p)).forEach((p) => modules.add(p));
      if (change.structural) structural = true;
      paths.forEach((p) => changed.add(relative(config.root, p).split(sep).join("/")));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed].sort();
        changed = new Set();
        const reload = configChanged;
        configChanged = false;
        const edited = [...modules].sort();
        modules = new Set();
        const moved = structural || reload;
        structural = false;
        running = running.then(async () => {
          // An edited config applies from this rebuild on; a broken one keeps the last good one.
          if (reload) {
            try {
              config = await load(true);
              imports = configImports(configPath!);
            } catch (error) {
              printError(error instanceof Error ? error.message : String(error));
            }
          }
          if (edited.length && !flags.quiet) {
            const graph = await imports;
            for (const path of edited.filter((p) => graph.has(p))) {
              const name = relative(config.root, path).split(sep).join("/");
              console.error(
                `warning: "${name}" is imported by the config and Deno cannot load a module twice: ` +
                  "restart slop watch to use the edit",
              );
            }
          }
          // Told here, in turn: a build still running may keep a file list of its own.
          state.changed(files, moved);
          const start = performance.now();
          const next = await rebuild();
          const ms = Math.round(performance.now() - start);
          if (next) {
            const what = files.length === 1
              ? files[0]
              : files.length
              ? `${files.length} files`
              : "files";
            const reuse = previous ? reuseLine(prefixReuse(previous, next)) : "first build";
            const before = repeated
              ? `; ${repeated} warning${repeated > 1 ? "s" : ""} as before`
              : "";
            say(
              `slop: ${what} changed: built ${
                outputName(next, config)
              } in ${ms} ms: ${reuse}${before}`,
            );
            previous = next;
            await collect(false);
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
  // The draft of a next document is not left behind.
  await state.close();
  return 0;
}

/** The files of `paths` under `root` (whose real path may differ), relative to it with `/`. */
function underRoot(paths: string[], root: string): string[] {
  if (!paths.length) return [];
  let real = root;
  try {
    real = Deno.realPathSync(root);
  } catch {
    // A root that does not exist fails the build with its own error.
  }
  return paths.flatMap((path) => {
    const rel = relative(real, path);
    const outside = rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel);
    return rel && !outside ? [rel.split(sep).join("/")] : [];
  });
}

function outputName(result: BuildResult, config: ResolvedConfig): string {
  return result.output ? relative(config.root, result.output.document).split(sep).join("/") : "";
}
