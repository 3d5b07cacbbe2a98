/**
 * The `breakpoints` rule: leaves the order alone and chooses at most 4 cache
 * breakpoints at block boundaries inside the stable prefix, for providers
 * that take them (Anthropic's `cache_control`), plus one at the end of the
 * history checkpoint and one at the start of the task section (after other
 * volatile sections) when breakpoints are left. Providers that cache
 * prefixes themselves (OpenAI, DeepSeek, Gemini) get one: the prefix end.
 *
 * @module
 */

import type { Block, Breakpoint, OrderingPlugin, PlacedBlock } from "../../pipeline/types.ts";

/** Options of {@linkcode breakpointsOrdering}. */
export interface BreakpointsOptions {
  /** Most breakpoints (Anthropic allows 4 per request). @default {4} */
  max?: number;
  /**
   * TTL of breakpoints that end inside the static blocks (instructions,
   * knowledge), which change least; never shorter than `provider.ttl`.
   * @default {"1h" when the model offers it, else `provider.ttl`}
   */
  staticTtl?: string;
}

/** What {@linkcode chooseBreakpoints} needs besides the blocks. */
export interface ChooseOptions {
  /** Provider tokens of each block, in block order. */
  tokens: number[];
  /** Smallest span between two breakpoints (and before the first), in provider tokens. */
  minTokens: number;
  /** TTL of breakpoints in stable blocks. */
  ttl: string;
  /** TTL of breakpoints that end in static blocks. @default {ttl} */
  staticTtl?: string;
  /** Most breakpoints. @default {4} */
  max?: number;
}

/**
 * Choose breakpoints: the end of the stable prefix first, then the end of
 * the static blocks, then block ends that split the rest of the prefix into
 * spans of about equal tokens. Every span (from the start or the previous
 * breakpoint) holds at least `minTokens`; longer TTLs come first. When fewer
 * than `max` are taken and the volatile tail has a history checkpoint block
 * (`history:checkpoint`, unchanged until the next checkpoint), its end gets
 * one more (`ttl`), if the span before it holds `minTokens`. Likewise the
 * block before the task section (`task`), when volatile blocks precede it.
 *
 * @example
 * ```ts
 * import { chooseBreakpoints } from "./breakpoints.ts";
 * // chooseBreakpoints(placed, { tokens, minTokens: 1024, ttl: "5m", staticTtl: "1h" });
 * ```
 */
export function chooseBreakpoints(
  blocks: Array<Block & { offset: number; length: number }>,
  options: ChooseOptions,
): Breakpoint[] {
  const { tokens, minTokens } = options;
  let max = Math.min(options.max ?? 4, 4);
  if (max <= 0) return [];
  let end = blocks.findIndex((b) => b.stability === "volatile");
  if (end < 0) end = blocks.length;
  // Providers that cache prefixes themselves (max 1) keep the prefix end only.
  const history = max > 1 ? historyCheckpoint(blocks, tokens, end, minTokens) : -1;
  if (history >= 0) max--;
  // The end of what does not depend on the task, when volatile sections come before the task's.
  const task = max > 1 ? taskBoundary(blocks, tokens, end, history, minTokens) : -1;
  if (task >= 0) max--;
  const cum: number[] = [];
  tokens.slice(0, end).reduce((n, t, i) => (cum[i] = n + t), 0);
  const last = end - 1;
  const chosen: number[] = [];
  let staticEnd = -1;
  if (end > 0 && cum[last] >= Math.max(minTokens, 1)) {
    chosen.push(last);
    const fits = (i: number) => {
      const sorted = [...chosen, i].sort((a, b) => a - b);
      return sorted.every((k, n) => cum[k] - (n ? cum[sorted[n - 1]] : 0) >= minTokens);
    };
    const add = (i: number) => {
      if (chosen.length < max && i >= 0 && i < last && !chosen.includes(i) && fits(i)) {
        chosen.push(i);
      }
    };
    for (let i = 0; i < end; i++) if (blocks[i].stability === "static") staticEnd = i;
    add(staticEnd);
    const from = chosen.includes(staticEnd) ? staticEnd : -1;
    const base = from >= 0 ? cum[from] : 0;
    const slots = max - chosen.length;
    for (let j = 1; j <= slots; j++) {
      const target = base + ((cum[last] - base) * j) / (slots + 1);
      add(nearest(cum, from + 1, last - 1, target));
    }
  }
  if (history >= 0) chosen.push(history);
  if (task >= 0) chosen.push(task);

  const staticTtl = longer(options.staticTtl ?? options.ttl, options.ttl);
  return chosen.sort((a, b) => a - b).map((i) => ({
    id: blocks[i].id,
    end: blocks[i].offset + blocks[i].length,
    tokens: sum(tokens, 0, i + 1),
    ttl: i <= staticEnd ? staticTtl : options.ttl,
  }));
}

/**
 * Index of the history checkpoint block after the stable prefix, or -1. It
 * keeps its bytes until the next checkpoint is made, so a breakpoint at its
 * end lets the cached prefix reach into the history.
 */
function historyCheckpoint(
  blocks: Block[],
  tokens: number[],
  end: number,
  minTokens: number,
): number {
  const at = blocks.findIndex((b, i) => i >= end && b.id === HISTORY_CHECKPOINT);
  if (at < 0) return -1;
  const least = Math.max(minTokens, 1);
  // The span after the prefix's last breakpoint (the prefix end), or from the start.
  const from = end > 0 && sum(tokens, 0, end) >= least ? end : 0;
  return sum(tokens, from, at + 1) >= least ? at : -1;
}

/**
 * Index of the last block before the task section (`plugins/sections/task.ts`) when other
 * volatile blocks (history, tree) come between the stable prefix and it, or -1: they do not
 * depend on the task, so a breakpoint there keeps them cached across tasks.
 */
function taskBoundary(
  blocks: Block[],
  tokens: number[],
  end: number,
  history: number,
  minTokens: number,
): number {
  const at = blocks.findIndex((b, i) => i > end && b.id === TASK_HEADING) - 1;
  if (at < end || at === history) return -1;
  const least = Math.max(minTokens, 1);
  const from = history >= 0 && history < at
    ? history + 1
    : end > 0 && sum(tokens, 0, end) >= least
    ? end
    : 0;
  return sum(tokens, from, at + 1) >= least ? at : -1;
}

function sum(tokens: number[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += tokens[i];
  return n;
}

/** Id of the history section's checkpoint block. */
const HISTORY_CHECKPOINT = "history:checkpoint";

/** Id of the task section's heading block (see `plugins/sections/task.ts`). */
const TASK_HEADING = "task";

function nearest(cum: number[], lo: number, hi: number, target: number): number {
  let best = -1;
  for (let i = lo; i <= hi; i++) {
    if (best < 0 || Math.abs(cum[i] - target) < Math.abs(cum[best] - target)) best = i;
  }
  return best;
}

/**
 * Seconds of a TTL such as `5m`, `1h` or `300s`; `NaN` when unreadable.
 *
 * @example
 * ```ts
 * import { ttlSeconds } from "./breakpoints.ts";
 * ttlSeconds("1h"); // 3600
 * ```
 */
export function ttlSeconds(ttl: string): number {
  const m = ttl.trim().match(/^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/);
  if (!m) return NaN;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "s" | "m" | "h" | "d"];
}

function longer(a: string, b: string): string {
  return ttlSeconds(a) >= ttlSeconds(b) ? a : b;
}

/**
 * The `breakpoints` ordering plugin. Register it after the rules that
 * order blocks: it keeps their order and chooses breakpoints for the
 * configured provider's model, which the build records in the manifest.
 *
 * @example
 * ```ts
 * import { breakpointsOrdering } from "./breakpoints.ts";
 * breakpointsOrdering({ staticTtl: "5m" }).name; // "slop:breakpoints"
 * ```
 */
export function breakpointsOrdering(options: BreakpointsOptions = {}): OrderingPlugin {
  return {
    kind: "ordering",
    name: "slop:breakpoints",
    order: (blocks) => blocks,
    breakpoints: (blocks: PlacedBlock[], ctx) =>
      chooseBreakpoints(blocks, {
        tokens: ctx.tokens,
        minTokens: ctx.model.minCacheTokens,
        ttl: ctx.ttl,
        staticTtl: options.staticTtl ??
          (ctx.model.ttls.includes("1h") ? "1h" : ctx.ttl),
        max: ctx.model.breakpoints ? options.max ?? 4 : 1,
      }),
  };
}
