/**
 * The start of a build: the plugins registered, frozen and checked against
 * the config, the warning list, the provider's completer and the cache. What
 * this gives is what every stage shares (`BuildRun` in `stages.ts`).
 *
 * @module
 */

import { checkBuildPermissions } from "./_permissions.ts";
import { checkProvider, checkViews, ConfigError, configName } from "./config.ts";
import {
  createRegistry,
  findProvider,
  freeze,
  loadPlugins,
  registerUserPlugins,
} from "./registry.ts";
import { redactMessage } from "./secrets.ts";
import { loadFocusGlobs } from "./transform.ts";
import { completer } from "./llm.ts";
import { type CacheOptions, openCache } from "./cache.ts";
import { markStateDir, unmarkStateDir } from "./state_dir.ts";
import { stateFoldersError } from "./_state_folders.ts";
import { cacheFolderWarning } from "./_cache_check.ts";
import { isWithin } from "./_path.ts";
import { derived } from "./helpers.ts";
import type { BuildRun, StageLayer } from "./stages.ts";
import type { Plugin, ResolvedConfig } from "./types.ts";

/** Options of {@linkcode startRun}. */
export interface RunOptions {
  /** The built-in plugins. */
  builtins: Plugin[];
  /** Called for each warning as it happens. */
  onWarning?: (message: string) => void;
  /** Hook timeout in ms. @default {60000} */
  hookTimeoutMs?: number;
  /** Threads that scan and count tokens. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** Whether the build writes its outputs. @default {true} */
  write?: boolean;
  /** Whether the build records the order memory in the state dir. */
  remembers?: boolean;
  /** The speed layer, which may keep the cache open between builds. */
  layer?: StageLayer;
}

/**
 * Register and check the plugins, open the cache and give what the stages share.
 * Config errors (an unknown view or provider, a bad plugin) throw a `ConfigError` naming the config.
 *
 * @example
 * ```ts
 * import { startRun } from "./run.ts";
 * // const run = await startRun(config, { builtins: defaultPlugins() });
 * ```
 */
export async function startRun(config: ResolvedConfig, options: RunOptions): Promise<BuildRun> {
  // What the build writes: its outputs and order memory in the state dir, its cache.
  const writes = options.write !== false || options.remembers ? [config.stateDir] : [];
  if (config.cache.enabled) writes.push(config.cache.dir);
  checkBuildPermissions(config.root, writes);
  // The focus globs are matched synchronously later on: picomatch first, if they need it.
  await loadFocusGlobs(config);
  const warnings: string[] = [];
  const warn = (raw: string) => {
    const message = redactMessage(raw, config.secrets.rules);
    warnings.push(message);
    options.onWarning?.(message);
  };
  const registry = createRegistry(options.builtins);
  const file = configName(config);
  try {
    registerUserPlugins(registry, config.plugins);
  } catch (error) {
    throw new ConfigError(file, [error instanceof Error ? error.message : String(error)]);
  }
  freeze(registry);
  const problems = [...checkViews(config.raw, registry), ...checkProvider(config.raw, registry)];
  if (problems.length) throw new ConfigError(file, problems);
  // A lazy built-in provider (`cli/_builtins.ts`) is imported once the config names it.
  await loadPlugins([findProvider(registry, config.provider.name ?? "anthropic")]);
  const complete = completer(registry, config);
  await options.layer?.begin?.(config);
  // A state dir or cache folder holding the project's files: an error before anything is written.
  const mixed = await stateFoldersError(config);
  if (mixed) throw mixed;
  // A build that writes into the state dir marks it first: `.gitignore` of `*` (`state_dir.ts`).
  const mark = options.write !== false || options.remembers ||
      (config.cache.enabled && isWithin(config.cache.dir, config.stateDir))
    ? markStateDir(config.stateDir, config.root)
    : undefined;
  const unusable = cacheFolderWarning(config);
  if (unusable) warn(unusable);
  const cacheOptions = buildCacheOptions(config);
  const kept = options.layer?.cache?.(config.cache.dir, cacheOptions);
  const cache = kept ?? openCache(config.cache.dir, cacheOptions);
  return {
    config,
    registry,
    warn,
    onWarning: options.onWarning,
    warnings,
    complete,
    cache,
    // The build's own cache: its unwritten pack goes with a failed build, and so does a state
    // dir it made that holds nothing yet (a failed build leaves the project as it was).
    discard: () => {
      if (!kept) cache.discard?.();
      unmarkStateDir(mark);
    },
    hookTimeoutMs: options.hookTimeoutMs,
    workers: options.workers,
    derived: options.layer?.derived?.() ?? derived,
    fromRecord: options.layer?.fromRecord?.(),
  };
}

/**
 * How a build opens the config's cache: on or off, the pack its entries go to (one a project
 * and config file, so two configs of one project keep apart), its size limit. Whoever reads a
 * build's entries opens it the same way.
 *
 * @example
 * ```ts
 * import { buildCacheOptions } from "./run.ts";
 * import { loadConfig } from "./config.ts";
 * const options = buildCacheOptions(await loadConfig({ cwd: Deno.cwd() }));
 * ```
 */
export function buildCacheOptions(config: ResolvedConfig): CacheOptions {
  return {
    enabled: config.cache.enabled,
    pack: `${config.root}\0${config.configPath ?? ""}`,
    // The first build with a config file reads what the builds without one wrote.
    ...(config.configPath ? { seed: `${config.root}\0` } : {}),
    maxSize: config.cache.maxSize,
  };
}
