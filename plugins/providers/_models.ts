/**
 * Per-model tables of the provider plugins: minimum cacheable tokens, cache
 * TTLs, prices (US dollars per million tokens) and how tokens are counted.
 * Each entry names the provider's own page it was checked against (November
 * 2026, through the team's document search; the pages change: verify before
 * relying on a figure); every plugin takes `models` to override or add entries.
 *
 * @module
 */

import type { ModelInfo, ModelPrices } from "../../pipeline/types.ts";
import { lookupModel } from "../../pipeline/helpers.ts";

/** A table entry: a model's info without its id. */
export type ModelEntry = Omit<ModelInfo, "model">;

/** Table overrides: a partial entry merges over the built-in one (prices merge too). */
export type ModelOverrides = Record<
  string,
  Partial<Omit<ModelEntry, "prices">> & { prices?: Partial<ModelPrices> }
>;

/** The context window of the Claude models of the table. */
const CLAUDE_WINDOW = 200_000;

// Anthropic does not publish its tokenizer: o200k tokens × 1.2 is an estimate
// (Claude tokenizers yield more tokens than o200k on code and English).
const claude = (
  minCacheTokens: number,
  input: number,
  output: number,
): ModelEntry => ({
  minCacheTokens,
  contextWindow: CLAUDE_WINDOW,
  ttls: ["5m", "1h"],
  breakpoints: true,
  tokenizer: "o200k-estimate",
  tokenFactor: 1.2,
  prices: {
    input,
    output,
    cacheRead: input / 10,
    cacheWrite: { "5m": input * 1.25, "1h": input * 2 },
  },
});

// Context window: 200,000 tokens for every Claude model of the table (the 1M-token window of
// some models is a beta the request must ask for; a table override can set it:
// `models: { "claude-sonnet-4-5": { contextWindow: 1_000_000 } }`):
//   https://platform.claude.com/docs/en/docs/about-claude/models/overview
// Prices (input, 5m/1h cache writes = 1.25x/2x, hits = 0.1x, output), every Claude row:
//   https://platform.claude.com/docs/en/docs/about-claude/pricing
// Minimum cacheable tokens, TTLs 5m/1h, at most 4 breakpoints:
//   https://platform.claude.com/docs/en/docs/build-with-claude/prompt-caching
/** Claude models (Anthropic pricing and prompt-caching pages). */
export const ANTHROPIC_MODELS: Record<string, ModelEntry> = {
  // Both pages (Opus 4.6 / 4.5: 4,096 minimum).
  "claude-opus-4-6": claude(4096, 5, 25),
  "claude-opus-4-5": claude(4096, 5, 25),
  // Both pages (Opus 4.1 / 4: 1,024 minimum).
  "claude-opus-4-1": claude(1024, 15, 75),
  "claude-opus-4": claude(1024, 15, 75),
  // Pricing page; the caching page has listed 1,024 for Sonnet 4.6, but caching
  // starts at 2,048 in practice (https://github.com/anthropics/anthropic-sdk-python/issues/1194),
  // so the higher floor is kept: a breakpoint below it would silently cache nothing.
  "claude-sonnet-4-6": claude(2048, 3, 15),
  // Both pages (Sonnet 4.5 / 4 / 3.7: 1,024 minimum).
  "claude-sonnet-4-5": claude(1024, 3, 15),
  "claude-sonnet-4": claude(1024, 3, 15),
  "claude-3-7-sonnet": claude(1024, 3, 15),
  // Both pages (Haiku 4.5: 4,096 minimum).
  "claude-haiku-4-5": claude(4096, 1, 5),
  // Both pages (Haiku 3.5: $0.80 / $1 / $1.6 / $0.08 / $4; 2,048 minimum).
  "claude-3-5-haiku": claude(2048, 0.8, 4),
  // Both pages (Haiku 3: writes $0.30 / $0.50 and hits $0.03 are not the 1.25x/2x/0.1x rule).
  "claude-3-haiku": {
    ...claude(2048, 0.25, 1.25),
    prices: { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: { "5m": 0.3, "1h": 0.5 } },
  },
};

const gpt = (
  input: number,
  cacheRead: number,
  output: number,
  contextWindow: number,
  tokenizer: "o200k" | "cl100k" = "o200k",
): ModelEntry => ({
  minCacheTokens: 1024,
  contextWindow,
  ttls: ["5m"],
  breakpoints: false,
  tokenizer,
  prices: { input, output, cacheRead },
});

// Automatic caching from 1,024 tokens, for gpt-4o and newer; in-memory retention
// 5-10 minutes of inactivity (at most an hour), hence "5m":
//   https://developers.openai.com/api/docs/guides/prompt-caching.md
// Prices: each model's page, https://developers.openai.com/api/docs/models/<id>.md, and
// https://developers.openai.com/api/docs/pricing. The gpt-5-mini and gpt-5-nano pages were read;
// the other rows match the pricing page as quoted by third parties (not read directly).
// Context windows: each model's page (gpt-5 family: 400,000 tokens, of which up to 128,000 are
// output, so at most 272,000 input; gpt-4.1 family 1,047,576; gpt-4o 128,000; o3 and o4-mini
// 200,000; gpt-4-turbo 128,000; gpt-3.5-turbo 16,385).
/** The most input tokens of the gpt-5 family: a 400,000-token window less 128,000 of output. */
const GPT5_INPUT = 272_000;

/** OpenAI models (OpenAI pricing and prompt-caching pages); caching is automatic. */
export const OPENAI_MODELS: Record<string, ModelEntry> = {
  // https://developers.openai.com/api/docs/models/gpt-5
  "gpt-5": gpt(1.25, 0.125, 10, GPT5_INPUT),
  // https://developers.openai.com/api/docs/models/gpt-5-mini
  "gpt-5-mini": gpt(0.25, 0.025, 2, GPT5_INPUT),
  // https://developers.openai.com/api/docs/models/gpt-5-nano.md
  "gpt-5-nano": gpt(0.05, 0.005, 0.4, GPT5_INPUT),
  // https://developers.openai.com/api/docs/models/gpt-4.1 (and -mini, -nano)
  "gpt-4.1": gpt(2, 0.5, 8, 1_047_576),
  "gpt-4.1-mini": gpt(0.4, 0.1, 1.6, 1_047_576),
  "gpt-4.1-nano": gpt(0.1, 0.025, 0.4, 1_047_576),
  // https://developers.openai.com/api/docs/models/gpt-4o (and gpt-4o-mini)
  "gpt-4o": gpt(2.5, 1.25, 10, 128_000),
  "gpt-4o-mini": gpt(0.15, 0.075, 0.6, 128_000),
  // https://developers.openai.com/api/docs/models/o3 (and o4-mini)
  "o3": gpt(2, 0.5, 8, 200_000),
  "o4-mini": gpt(1.1, 0.275, 4.4, 200_000),
  // https://developers.openai.com/api/docs/models/gpt-4-turbo (and gpt-3.5-turbo): older than
  // gpt-4o, so no prompt caching (a cache read costs the input price).
  "gpt-4-turbo": gpt(10, 10, 30, 128_000, "cl100k"),
  "gpt-3.5-turbo": gpt(0.5, 0.5, 1.5, 16_385, "cl100k"),
};

// Google: "a token is equivalent to about 4 characters" for Gemini models.
const gemini = (
  minCacheTokens: number,
  input: number,
  cacheRead: number,
  output: number,
  storagePerHour: number,
): ModelEntry => ({
  minCacheTokens,
  // The input token limit of every Gemini model of the table (each model's page).
  contextWindow: 1_048_576,
  ttls: ["1h", "5m", "24h"],
  breakpoints: false,
  tokenizer: "chars-estimate",
  tokenFactor: 0.25,
  prices: { input, output, cacheRead, storagePerHour },
});

// Minimum tokens for the generateContent API's caching (explicit `cachedContents`, which
// the payload uses): https://ai.google.dev/gemini-api/docs/caching.md (2.5 Pro 4,096,
// 2.5 Flash 1,024, 3 Pro Preview 4,096, 3 Flash Preview 1,024; TTL default one hour).
// A later revision for the Interactions API (implicit caching only, updated 2026-07-07:
// https://ai.google.dev/gemini-api/docs/caching?hl=en) lists 2,048 for 2.5 Flash and Pro;
// it does not cover explicit caching, so these stay.
// Prices (input, cache read, output, storage per million tokens per hour, prompts up to
// 200k tokens): https://ai.google.dev/gemini-api/docs/pricing (matched through copies of
// the page; not read directly).
/** Gemini models (Gemini API pricing and context-caching pages). */
export const GEMINI_MODELS: Record<string, ModelEntry> = {
  "gemini-2.5-pro": gemini(4096, 1.25, 0.125, 10, 4.5),
  "gemini-2.5-flash": gemini(1024, 0.3, 0.03, 2.5, 1),
  // Not in the caching page's table: the 2.5 Flash minimum.
  "gemini-2.5-flash-lite": gemini(1024, 0.1, 0.01, 0.4, 1),
  "gemini-3-pro-preview": gemini(4096, 2, 0.2, 12, 4.5),
  "gemini-3-flash-preview": gemini(1024, 0.5, 0.05, 3, 1),
};

// DeepSeek: "1 English character ≈ 0.3 token, 1 Chinese character ≈ 0.6 token".
const deepseek = (input: number, cacheRead: number, output: number): ModelEntry => ({
  minCacheTokens: 64,
  // "Context length 128K" on the pricing page (V3.2).
  contextWindow: 128_000,
  ttls: ["5m"],
  breakpoints: false,
  tokenizer: "chars-estimate",
  tokenFactor: 0.3,
  prices: { input, output, cacheRead },
});

// Prices: https://api-docs.deepseek.com/quick_start/pricing (the copy the search holds is
// older, $0.07 / $0.27 / $1.10 for deepseek-chat; these are the V3.2 prices of December 2025,
// not confirmed against the current page, which by late 2026 may list V4 models instead).
// Caching: the context-caching guide linked from that page (on by default, 64-token units).
/** DeepSeek models (DeepSeek "Models & Pricing" and context-caching pages); caching is automatic. */
export const DEEPSEEK_MODELS: Record<string, ModelEntry> = {
  "deepseek-chat": deepseek(0.28, 0.028, 0.42),
  "deepseek-reasoner": deepseek(0.28, 0.028, 0.42),
};

/**
 * A plugin's table: the built-in entries with the user's overrides merged
 * over them (an override of an unknown id adds a model and must be complete).
 */
function mergeModels(
  builtin: Record<string, ModelEntry>,
  overrides: ModelOverrides = {},
): Record<string, ModelEntry> {
  const out = { ...builtin };
  for (const [id, entry] of Object.entries(overrides)) {
    const base = out[id] ?? lookupModel(builtin, id);
    const merged = { ...base, ...entry, prices: { ...base?.prices, ...entry.prices } };
    delete (merged as { model?: string }).model;
    out[id] = merged as ModelEntry;
  }
  return out;
}

/**
 * A plugin's `modelInfo` hook over its table and default model.
 */
function modelInfoHook(
  table: Record<string, ModelEntry>,
  defaultModel: string,
): (model?: string) => ModelInfo | undefined {
  return (model) => lookupModel(table, model ?? defaultModel);
}

/** A provider's model lookups (see {@linkcode modelLookups}). */
export interface ModelLookups {
  /** The `modelInfo` hook: the table's entry, or undefined for an unknown id. */
  modelInfo: (model?: string) => ModelInfo | undefined;
  /** For payloads and counting: an unknown id gets the default model's entry under its own id. */
  info: (model?: string) => ModelInfo;
}

/**
 * The model lookups of a provider factory: its table with the user's
 * overrides, and the default model.
 *
 * @example
 * ```ts
 * import { modelLookups, OPENAI_MODELS } from "./_models.ts";
 * const { info } = modelLookups(OPENAI_MODELS, {}, "gpt-5-mini");
 * info("my-finetune").minCacheTokens; // 1024, as gpt-5-mini
 * ```
 */
export function modelLookups(
  builtin: Record<string, ModelEntry>,
  overrides: ModelOverrides | undefined,
  defaultModel: string,
): ModelLookups {
  const modelInfo = modelInfoHook(mergeModels(builtin, overrides), defaultModel);
  const info = (model?: string) =>
    modelInfo(model) ?? { ...modelInfo(defaultModel)!, model: model ?? defaultModel };
  return { modelInfo, info };
}
