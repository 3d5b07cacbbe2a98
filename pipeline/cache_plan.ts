/**
 * The cache plan of a build: the configured provider's model, its tokens for
 * the stable prefix and the volatile tail, the breakpoints an ordering rule
 * chose, and what a cold and a warm call cost.
 *
 * @module
 */

import { callHook, findProvider, orderingRules, type Registry } from "./registry.ts";
import { prefixEnd } from "./order.ts";
import { providerModel } from "./model_info.ts";
import { countWork } from "./_work_count.ts";
import { modelTokens, tokensByO200k } from "./tokens.ts";
import { fileOrder } from "./order_memory.ts";
import type {
  Breakpoint,
  BreakpointContext,
  Manifest,
  ModelInfo,
  OrderContext,
  PlacedBlock,
} from "./types.ts";
import { formatCount } from "./figures.ts";

export { lookupModel } from "./helpers.ts";
export { modelTokens };

/** Input-side cost of one call in US dollars. */
export interface CallCost {
  /** The first call: the prefix is written to the cache (or read uncached). */
  cold: number;
  /** A call within the TTL: the prefix is read from the cache. */
  warm: number;
}

/** What {@linkcode planCache} returns. */
export interface CachePlan {
  /** Provider plugin name. */
  provider: string;
  /** The model and its table entry. */
  model: ModelInfo;
  /** Cache lifetime used for prices. */
  ttl: string;
  /** Provider tokens of each block, in block order. */
  tokens: number[];
  /** Provider tokens of the stable prefix. */
  prefixTokens: number;
  /** Provider tokens after the prefix. */
  tailTokens: number;
  /** Chosen breakpoints (may be empty). */
  breakpoints: Breakpoint[];
  /** Input-side cost of a cold and a warm call. */
  cost: CallCost;
}

/**
 * Input-side cost of a cold and a warm call, from the model's prices: a cold
 * call writes the prefix to the cache (`cacheWrite[ttl]`, else the input
 * price), a warm one reads it (`cacheRead`); the tail is always uncached
 * input. A prefix below `minCacheTokens` is never cached.
 *
 * @example
 * ```ts
 * import { callCost } from "./cache_plan.ts";
 * const info = {
 *   model: "claude-sonnet-4-5", minCacheTokens: 1024, ttls: ["5m", "1h"], breakpoints: true,
 *   tokenizer: "o200k-estimate" as const,
 *   prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: { "5m": 3.75, "1h": 6 } },
 * };
 * callCost(info, 100_000, 1_000, "5m"); // { cold: 0.378, warm: 0.033 }
 * ```
 */
export function callCost(
  info: ModelInfo,
  prefixTokens: number,
  tailTokens: number,
  ttl: string,
): CallCost {
  const p = info.prices;
  const tail = tailTokens * p.input;
  if (prefixTokens < info.minCacheTokens) {
    const all = round((prefixTokens * p.input + tail) / 1e6);
    return { cold: all, warm: all };
  }
  const write = p.cacheWrite?.[ttl] ?? p.input;
  return {
    cold: round((prefixTokens * write + tail) / 1e6),
    warm: round((prefixTokens * p.cacheRead + tail) / 1e6),
  };
}

function round(dollars: number): number {
  return Math.round(dollars * 1e8) / 1e8;
}

/**
 * Plan the cache for the configured provider (`provider.name`, Anthropic
 * when none): count each block in the model's tokens, let the last ordering
 * rule with a `breakpoints` hook choose breakpoints, and price a cold and a
 * warm call. Undefined when the provider has no model table or does not
 * know the model (with a warning, unless `provider.baseUrl` points elsewhere).
 * Without `ctx.fileOrder`, the breakpoints hook gets the build's own.
 *
 * @example
 * ```ts
 * import { planCache } from "./cache_plan.ts";
 * // const plan = await planCache(placed, registry, orderContext);
 * // plan?.breakpoints
 * ```
 */
export async function planCache(
  blocks: PlacedBlock[],
  registry: Registry,
  context: Omit<OrderContext, "fileOrder"> & Partial<Pick<OrderContext, "fileOrder">>,
): Promise<CachePlan | undefined> {
  const ctx: OrderContext = {
    ...context,
    fileOrder: context.fileOrder ??
      fileOrder(context.config, { source: context.orderSource, files: context.files }),
  };
  const config = ctx.config.provider;
  const provider = findProvider(registry, config.name ?? "anthropic");
  if (!provider?.modelInfo) return undefined;
  const model = await providerModel(provider, config.model);
  if (!model) {
    // A model served from another base URL (Ollama, vLLM, a proxy) is expected to be missing
    // from the table; on the provider's own API an unknown id is most likely a typo.
    if (!config.baseUrl) {
      ctx.warn(`Unknown model "${config.model}" for provider "${provider.name}": no cost estimate`);
    }
    return undefined;
  }
  const ttl = chosenTtl(config.ttl, model, ctx.warn);
  // Block tokens are o200k unless the budget counts cl100k.
  const o200k = ctx.config.budget.tokenizer !== "cl100k";
  const tokens: number[] = [];
  for (const b of blocks) {
    const counted = o200k ? b.tokens : undefined;
    // Counted from the block's o200k count: its text (maybe read from disk) is not read.
    const byCount = counted === undefined ? undefined : tokensByO200k(counted, model);
    tokens.push(byCount ?? await modelTokens(b.text, model, counted));
  }
  const end = prefixEnd(blocks);
  const prefixTokens = tokens.slice(0, end).reduce((n, t) => n + t, 0);
  const tailTokens = tokens.slice(end).reduce((n, t) => n + t, 0);
  const breakpoints = await chooseBreakpoints(blocks, registry, { ...ctx, model, ttl, tokens });
  return {
    provider: provider.name,
    model,
    ttl,
    tokens,
    prefixTokens,
    tailTokens,
    breakpoints,
    cost: callCost(model, prefixTokens, tailTokens, ttl),
  };
}

/** The cache TTL of `provider.ttl`, or the model's first when unset or not offered (warned). */
function chosenTtl(
  ttl: string | undefined,
  model: ModelInfo,
  warn: (message: string) => void,
): string {
  const chosen = ttl ?? model.ttls[0];
  if (model.ttls.includes(chosen)) return chosen;
  warn(
    `Cache TTL "${chosen}" in "provider.ttl" is not offered by "${model.model}" (${
      model.ttls.join(", ")
    }): using "${model.ttls[0]}"`,
  );
  return model.ttls[0];
}

/** The breakpoints the last ordering rule with a `breakpoints` hook chooses (none without one). */
async function chooseBreakpoints(
  blocks: PlacedBlock[],
  registry: Registry,
  ctx: BreakpointContext,
): Promise<Breakpoint[]> {
  const rule = orderingRules(registry).filter((r) => r.breakpoints).at(-1);
  if (!rule?.breakpoints) return [];
  const choose = rule.breakpoints;
  const breakpoints = await callHook(rule, "breakpoints", () => choose(blocks, ctx));
  checkBreakpoints(rule.name, breakpoints, blocks);
  return breakpoints;
}

function checkBreakpoints(rule: string, breakpoints: Breakpoint[], blocks: PlacedBlock[]) {
  if (!Array.isArray(breakpoints) || breakpoints.length > 4) {
    throw new Error(`[plugin ${rule}] Hook "breakpoints" must return at most 4 breakpoints`);
  }
  // The ends of the blocks named, found in one pass from the end (the last block of an id, as a
  // map of the blocks by id holds): not a map of a big tree's every block for four breakpoints.
  const ends = new Map<unknown, number>(breakpoints.map((bp) => [bp?.id, NaN]));
  let named = 0;
  for (let i = blocks.length - 1; i >= 0 && named < ends.size; i--) {
    const { id, offset, length } = blocks[i];
    if (ends.has(id) && Number.isNaN(ends.get(id))) {
      ends.set(id, offset + length);
      named++;
    }
  }
  countWork("breakpoint ends kept", ends.size);
  for (const bp of breakpoints) {
    if (ends.get(bp?.id) !== bp.end) {
      throw new Error(
        `[plugin ${rule}] Hook "breakpoints" returned "${bp?.id}", which does not end a block at byte ${bp?.end}`,
      );
    }
  }
}

/**
 * The warning for a document larger than the plan's model takes (its
 * `contextWindow`), or `undefined` when it fits or the window is not known.
 * It suggests a token budget (in the budget's tokens, with a tenth of the
 * window left for the question and the answer) or a skeleton view; under a
 * budget the window takes, which was then not met, it says so and why.
 *
 * @example
 * ```ts
 * import { contextWarning } from "./cache_plan.ts";
 * // contextWarning(plan, manifest.total.tokens, config.budget.tokens)
 * // 'The document has about 333,046 tokens of "claude-haiku-4-5", over its context window of
 * // 200,000: set a token budget (--budget 149000, or "budget.tokens") or show files as ...'
 * ```
 */
export function contextWarning(
  plan: Pick<CachePlan, "model" | "prefixTokens" | "tailTokens">,
  documentTokens: number,
  budget?: number,
): string | undefined {
  const window = plan.model.contextWindow;
  const used = plan.prefixTokens + plan.tailTokens;
  if (!window || used <= window) return undefined;
  const about = plan.model.tokenizer.endsWith("-estimate") ? "about " : "";
  const suggested = suggestedBudget(plan, documentTokens)!;
  const n = formatCount;
  // A budget the window takes that left the document over the window was not met: what it could
  // not step down (focus and forceFull files, the other sections) is the cause, not its size.
  if (budget !== undefined && budget <= suggested) {
    return `The document has ${about}${
      n(used)
    } tokens of "${plan.model.model}", over its context ` +
      `window of ${n(window)} and over the token budget of ${
        n(budget)
      }, which cannot be met: focus ` +
      "and forceFull files are kept whole, with the other sections; focus fewer files";
  }
  const set = budget === undefined
    ? "set a token budget"
    : `lower the token budget from ${budget} to ${suggested}`;
  return `The document has ${about}${n(used)} tokens of "${plan.model.model}", over its context ` +
    `window of ${n(window)}: ${set} (--budget ${suggested}, or "budget.tokens") or show files ` +
    `as skeletons ("defaultView": "skeleton") or summaries (--strategy summarize)`;
}

/**
 * The token budget that fits the document in the plan's model's context window with a tenth of
 * the window left over, in the budget's tokens (the document's count, scaled by the document's
 * tokens per provider token), rounded down to a thousand and at least 1,000; undefined when the
 * model's window is unknown.
 *
 * @example
 * ```ts
 * import { suggestedBudget } from "./cache_plan.ts";
 * // suggestedBudget(plan, manifest.total.tokens); // 149000 for a 200,000-token window
 * ```
 */
export function suggestedBudget(
  plan: Pick<CachePlan, "model" | "prefixTokens" | "tailTokens">,
  documentTokens: number,
): number | undefined {
  const window = plan.model.contextWindow;
  const used = plan.prefixTokens + plan.tailTokens;
  if (!window) return undefined;
  const ratio = used ? documentTokens / used : 1;
  return Math.max(Math.floor((window * ratio * 0.9) / 1000) * 1000, 1000);
}

/**
 * The manifest with the plan's breakpoints (unchanged when there are none).
 *
 * @example
 * ```ts
 * import { withBreakpoints } from "./cache_plan.ts";
 * // const manifest = withBreakpoints(buildManifest(files, placed, document, warnings), plan);
 * ```
 */
export function withBreakpoints(manifest: Manifest, plan?: CachePlan): Manifest {
  return plan?.breakpoints.length ? { ...manifest, breakpoints: plan.breakpoints } : manifest;
}
