/**
 * Per-model tables of the provider plugins: minimum cacheable tokens, cache
 * TTLs, prices (US dollars per million tokens) and how tokens are counted.
 * Sources and the date they were read are in the README ("Providers and
 * payloads"); every plugin takes `models` to override or add entries.
 *
 * @module
 */

import type { ModelInfo, ModelPrices } from "../../pipeline/types.ts";
import { lookupModel } from "../../pipeline/cache_plan.ts";

/** A table entry: a model's info without its id. */
export type ModelEntry = Omit<ModelInfo, "model">;

/** Table overrides: a partial entry merges over the built-in one (prices merge too). */
export type ModelOverrides = Record<
  string,
  Partial<Omit<ModelEntry, "prices">> & { prices?: Partial<ModelPrices> }
>;

// Anthropic does not publish its tokenizer: o200k tokens × 1.2 is an estimate
// (Claude tokenizers yield more tokens than o200k on code and English).
const claude = (
  minCacheTokens: number,
  input: number,
  output: number,
): ModelEntry => ({
  minCacheTokens,
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

/** Claude models (Anthropic pricing and prompt-caching pages). */
export const ANTHROPIC_MODELS: Record<string, ModelEntry> = {
  "claude-opus-4-6": claude(4096, 5, 25),
  "claude-opus-4-5": claude(4096, 5, 25),
  "claude-opus-4-1": claude(1024, 15, 75),
  "claude-opus-4": claude(1024, 15, 75),
  "claude-sonnet-4-6": claude(2048, 3, 15),
  "claude-sonnet-4-5": claude(1024, 3, 15),
  "claude-sonnet-4": claude(1024, 3, 15),
  "claude-3-7-sonnet": claude(1024, 3, 15),
  "claude-haiku-4-5": claude(4096, 1, 5),
  "claude-3-5-haiku": claude(2048, 0.8, 4),
  "claude-3-haiku": {
    ...claude(2048, 0.25, 1.25),
    prices: { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: { "5m": 0.3, "1h": 0.5 } },
  },
};

const gpt = (
  input: number,
  cacheRead: number,
  output: number,
  tokenizer: "o200k" | "cl100k" = "o200k",
): ModelEntry => ({
  minCacheTokens: 1024,
  ttls: ["5m"],
  breakpoints: false,
  tokenizer,
  prices: { input, output, cacheRead },
});

/** OpenAI models (OpenAI pricing and prompt-caching pages); caching is automatic. */
export const OPENAI_MODELS: Record<string, ModelEntry> = {
  "gpt-5": gpt(1.25, 0.125, 10),
  "gpt-5-mini": gpt(0.25, 0.025, 2),
  "gpt-5-nano": gpt(0.05, 0.005, 0.4),
  "gpt-4.1": gpt(2, 0.5, 8),
  "gpt-4.1-mini": gpt(0.4, 0.1, 1.6),
  "gpt-4.1-nano": gpt(0.1, 0.025, 0.4),
  "gpt-4o": gpt(2.5, 1.25, 10),
  "gpt-4o-mini": gpt(0.15, 0.075, 0.6),
  "o3": gpt(2, 0.5, 8),
  "o4-mini": gpt(1.1, 0.275, 4.4),
  "gpt-4-turbo": gpt(10, 10, 30, "cl100k"),
  "gpt-3.5-turbo": gpt(0.5, 0.5, 1.5, "cl100k"),
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
  ttls: ["1h", "5m", "24h"],
  breakpoints: false,
  tokenizer: "chars-estimate",
  tokenFactor: 0.25,
  prices: { input, output, cacheRead, storagePerHour },
});

/** Gemini models (Gemini API pricing and context-caching pages). */
export const GEMINI_MODELS: Record<string, ModelEntry> = {
  "gemini-2.5-pro": gemini(4096, 1.25, 0.125, 10, 4.5),
  "gemini-2.5-flash": gemini(1024, 0.3, 0.03, 2.5, 1),
  "gemini-2.5-flash-lite": gemini(1024, 0.1, 0.01, 0.4, 1),
  "gemini-3-pro-preview": gemini(4096, 2, 0.2, 12, 4.5),
  "gemini-3-flash-preview": gemini(1024, 0.5, 0.05, 3, 1),
};

// DeepSeek: "1 English character ≈ 0.3 token, 1 Chinese character ≈ 0.6 token".
const deepseek = (input: number, cacheRead: number, output: number): ModelEntry => ({
  minCacheTokens: 64,
  ttls: ["5m"],
  breakpoints: false,
  tokenizer: "chars-estimate",
  tokenFactor: 0.3,
  prices: { input, output, cacheRead },
});

/** DeepSeek models (DeepSeek "Models & Pricing" and context-caching pages); caching is automatic. */
export const DEEPSEEK_MODELS: Record<string, ModelEntry> = {
  "deepseek-chat": deepseek(0.28, 0.028, 0.42),
  "deepseek-reasoner": deepseek(0.28, 0.028, 0.42),
};

/**
 * A plugin's table: the built-in entries with the user's overrides merged
 * over them (an override of an unknown id adds a model and must be complete).
 *
 * @example
 * ```ts
 * import { ANTHROPIC_MODELS, mergeModels } from "./_models.ts";
 * const table = mergeModels(ANTHROPIC_MODELS, { "claude-sonnet-4-5": { minCacheTokens: 2048 } });
 * ```
 */
export function mergeModels(
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
 *
 * @example
 * ```ts
 * import { modelInfoHook, OPENAI_MODELS } from "./_models.ts";
 * modelInfoHook(OPENAI_MODELS, "gpt-5-mini")("gpt-5")?.minCacheTokens; // 1024
 * ```
 */
export function modelInfoHook(
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
