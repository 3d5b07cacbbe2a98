/**
 * Prefix pinning: build the way `slop check` does (previous order only from
 * `slop.lock`), turn the stable prefix into a lock, and compare it with the
 * committed one.
 *
 * @module
 */

import { build, type BuildResult } from "./build.ts";
import type { BuildOptions } from "./build_options.ts";
import { diffLock, type Lock, type LockDiff, lockFromBlocks, readLock } from "./lock.ts";
import { loadPreviousOrder, orderFiles } from "./order_memory.ts";
import { advanceOrder, reorderState } from "./order_state.ts";
import { prefixEnd } from "./order.ts";
import { createRegistry, findProvider, providers, registerUserPlugins } from "./registry.ts";
import { modelTokens } from "./cache_plan.ts";
import { countTokens } from "./tokens.ts";
import { providerModel } from "./model_info.ts";
import type { Plugin, ResolvedConfig } from "./types.ts";
import { shownPath } from "./_path.ts";

/** Options of {@linkcode checkPrefix}. */
export interface CheckPrefixOptions {
  /** The built-in plugins (see `plugins/defaults.ts`). */
  builtins: Plugin[];
  /** Called for each build warning. */
  onWarning?: (message: string) => void;
  /** Told as the build goes on, as {@linkcode build}'s `onProgress` (`slop mcp`'s progress). */
  onProgress?: BuildOptions["onProgress"];
}

/** What {@linkcode checkPrefix} found. */
export interface PrefixCheck {
  /** The build (not written). */
  result: BuildResult;
  /** The lock of this build (what `--update` writes). */
  current: Lock;
  /** The current lock counted as the committed one counts (`current` when both use one tokenizer). */
  compared: Lock;
  /** The committed lock, when there is one. */
  pinned?: Lock;
  /** The first difference, when the prefixes differ. */
  diff?: LockDiff;
  /** What the invalidated tokens cost per provider, when the prefixes differ. */
  costs?: InvalidationCost[];
  /**
   * The tokenizer of `compared`'s and `diff`'s token counts: the committed
   * lock's, else `budget.tokenizer`'s (`current` always counts by the latter).
   */
  tokenizer: "o200k" | "cl100k";
}

/** What re-sending the invalidated prefix costs on one provider's model. */
export interface InvalidationCost {
  /** Provider plugin name. */
  provider: string;
  /** Model id (the configured one for the configured provider, else the provider's default). */
  model: string;
  /** Invalidated tokens in the model's tokens (estimated where its tokenizer is not public). */
  tokens: number;
  /** Present when `tokens` is an estimate: scaled from the lock's count by the build's ratio. */
  estimated?: true;
  /** Extra US dollars of the next call: written to the cache again instead of read from it. */
  dollars: number;
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
    onProgress: options.onProgress,
  });
  const current = await lockOf(config, result);
  const counter = config.budget.tokenizer ?? "o200k";
  // A lock pinned under another `budget.tokenizer` is compared in its own
  // tokens: the same bytes still match, and what a change invalidates is
  // counted as the lock counts it.
  const tokenizer = pinned?.tokenizer ?? (pinned ? "o200k" : counter);
  const compared = tokenizer === counter ? current : await recounted(current, result, tokenizer);
  const diff = pinned ? diffLock(pinned, compared) : undefined;
  const costs = diff && diff.invalidatedTokens > 0
    ? await invalidationCosts(config, options.builtins, diff.invalidatedTokens, result, {
      tokenizer,
    })
    : undefined;
  return {
    result,
    current,
    compared,
    ...(pinned ? { pinned } : {}),
    ...(diff ? { diff } : {}),
    ...(costs?.length ? { costs } : {}),
    tokenizer,
  };
}

/** `lock` (of `result`'s stable prefix) with its token counts made by `tokenizer`. */
async function recounted(
  lock: Lock,
  result: BuildResult,
  tokenizer: "o200k" | "cl100k",
): Promise<Lock> {
  const blocks = result.blocks.slice(0, prefixEnd(result.blocks));
  const lines: Lock["lines"] = [];
  for (const [i, line] of lock.lines.entries()) {
    lines.push({ ...line, tokens: await countTokens(blocks[i].text, tokenizer) });
  }
  const tokens = lines.reduce((n, l) => n + l.tokens, 0);
  const { tokenizer: _, ...rest } = lock;
  return {
    ...rest,
    lines,
    total: { ...lock.total, tokens },
    ...(tokenizer === "o200k" ? {} : { tokenizer }),
  };
}

/** Options of {@linkcode invalidationCosts}. */
export interface InvalidationCostsOptions {
  /** The tokenizer `tokens` were counted by. @default {config.budget.tokenizer ?? "o200k"} */
  tokenizer?: "o200k" | "cl100k";
}

/**
 * What `tokens` invalidated prefix tokens (counted by `budget.tokenizer`,
 * o200k by default) cost on each provider with a model table: the difference
 * between writing them to the cache (or sending them uncached) and reading them
 * from it, for the provider's TTL. A model that counts otherwise (another
 * tokenizer, or an estimate where its tokenizer is not public) gets the
 * build's own ratio of its count to the build's.
 *
 * @example
 * ```ts
 * import { invalidationCosts } from "./pin.ts";
 * // const costs = await invalidationCosts(config, defaultPlugins(), 12000, result);
 * ```
 */
export async function invalidationCosts(
  config: ResolvedConfig,
  builtins: Plugin[],
  tokens: number,
  result: BuildResult,
  options: InvalidationCostsOptions = {},
): Promise<InvalidationCost[]> {
  const registry = createRegistry(builtins);
  registerUserPlugins(registry, config.plugins);
  const configured = config.provider.name
    ? findProvider(registry, config.provider.name)
    : undefined;
  // A model counting otherwise than `tokens` were counted gets the document's
  // ratio of its count to that tokenizer's.
  const counter = options.tokenizer ?? config.budget.tokenizer ?? "o200k";
  const counted = counter === (config.budget.tokenizer ?? "o200k")
    ? result.manifest.total.tokens
    : await countTokens(result.document, counter);
  const known = counter === "o200k" ? counted : undefined;
  const out: InvalidationCost[] = [];
  for (const provider of providers(registry)) {
    const model = await providerModel(
      provider,
      provider === configured ? config.provider.model : undefined,
    );
    if (!model) continue;
    const exact = model.tokenizer === counter || !counted;
    const own = exact
      ? tokens
      : Math.round(tokens * (await modelTokens(result.document, model, known)) / counted);
    const ttl = provider === configured && config.provider.ttl
      ? config.provider.ttl
      : model.ttls[0];
    const write = model.prices.cacheWrite?.[ttl] ?? model.prices.input;
    const dollars = Math.round(own * (write - model.prices.cacheRead) * 100) / 1e8;
    out.push({
      provider: provider.name,
      model: model.model,
      tokens: own,
      ...(exact ? {} : { estimated: true as const }),
      dollars,
    });
  }
  return out;
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
    seedPrior: previous.seedPrior,
  });
  const state = reorderState(step.state, files.map((f) => f.path));
  const lock = lockFromBlocks(
    result.blocks.slice(0, prefixEnd(result.blocks)),
    result.manifest.prefix,
    state,
  );
  const tokenizer = config.budget.tokenizer ?? "o200k";
  return tokenizer === "o200k" ? lock : { ...lock, tokenizer };
}

function displayName(config: ResolvedConfig): string {
  return shownPath(config.lock);
}
