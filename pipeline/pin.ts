/**
 * Prefix pinning: build the way `slop check` does (previous order only from
 * `slop.lock`), turn the stable prefix into a lock, and compare it with the
 * committed one.
 *
 * @module
 */

import { build, type BuildResult } from "./build.ts";
import { diffLock, type Lock, type LockDiff, lockFromBlocks, readLock } from "./lock.ts";
import { loadPreviousOrder, orderFiles } from "./order_memory.ts";
import { advanceOrder, reorderState } from "./order_state.ts";
import { prefixEnd } from "./order.ts";
import type { Plugin, ResolvedConfig } from "./types.ts";

/** Options of {@linkcode checkPrefix}. */
export interface CheckPrefixOptions {
  /** The built-in plugins (see `plugins/defaults.ts`). */
  builtins: Plugin[];
  /** Called for each build warning. */
  onWarning?: (message: string) => void;
}

/** What {@linkcode checkPrefix} found. */
export interface PrefixCheck {
  /** The build (not written). */
  result: BuildResult;
  /** The lock of this build (what `--update` writes). */
  current: Lock;
  /** The committed lock, when there is one. */
  pinned?: Lock;
  /** The first difference, when the prefixes differ. */
  diff?: LockDiff;
}

/**
 * Build with the previous order taken only from the lock, and compare the
 * stable prefix with the lock.
 *
 * @example
 * ```ts
 * import { checkPrefix } from "./pin.ts";
 * import { loadConfig } from "./config.ts";
 * import { defaultPlugins } from "../plugins/defaults.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const { diff } = await checkPrefix(config, { builtins: defaultPlugins() });
 * ```
 */
export async function checkPrefix(
  config: ResolvedConfig,
  options: CheckPrefixOptions,
): Promise<PrefixCheck> {
  const pinned = await readLock(config.lock, displayName(config));
  const result = await build(config, {
    builtins: options.builtins,
    write: false,
    orderSource: "lock",
    onWarning: options.onWarning,
  });
  const current = await lockOf(config, result);
  const diff = pinned ? diffLock(pinned, current) : undefined;
  return { result, current, ...(pinned ? { pinned } : {}), ...(diff ? { diff } : {}) };
}

/**
 * The lock of a build made with `orderSource: "lock"`: its stable-prefix
 * blocks plus the order state advanced from the committed lock.
 *
 * @example
 * ```ts
 * import { lockOf } from "./pin.ts";
 * // const lock = await lockOf(config, result);
 * ```
 */
export async function lockOf(config: ResolvedConfig, result: BuildResult): Promise<Lock> {
  const previous = await loadPreviousOrder(config, "lock");
  const files = orderFiles(result.blocks, result.files);
  const step = advanceOrder(previous.state, files, previous.seed, {
    seedWeight: previous.seedWeight,
  });
  const state = reorderState(step.state, files.map((f) => f.path));
  return lockFromBlocks(
    result.blocks.slice(0, prefixEnd(result.blocks)),
    result.manifest.prefix,
    state,
  );
}

function displayName(config: ResolvedConfig): string {
  const cwd = Deno.cwd();
  return config.lock.startsWith(cwd + "/") ? config.lock.slice(cwd.length + 1) : config.lock;
}
