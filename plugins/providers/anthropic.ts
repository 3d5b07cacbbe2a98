/**
 * The `anthropic` provider: Claude through the Anthropic Messages API.
 * Payloads put the stable prefix in `system` as text blocks, each span
 * ending at a breakpoint marked `cache_control: {type: "ephemeral", ttl}`;
 * screenshots, the volatile tail and the question go in the user message.
 *
 * @module
 */

import type { ModelInfo, PlacedBlock, ProviderPlugin } from "../../pipeline/types.ts";
import { providerPlugin } from "./_provider.ts";
import type { HttpOptions } from "./_http.ts";
import { ANTHROPIC_MODELS, type ModelOverrides } from "./_models.ts";
import { type PayloadOptions, payloadParts, type Segment } from "./_payload.ts";

/** Options of {@linkcode anthropicProvider}. */
export interface AnthropicOptions extends HttpOptions {
  /** API base URL (`provider.baseUrl` wins). @default {"https://api.anthropic.com"} */
  baseUrl?: string;
  /** Environment variable of the key (`provider.apiKeyEnv` wins). @default {"ANTHROPIC_API_KEY"} */
  apiKeyEnv?: string;
  /** Model when `provider.model` names none. @default {"claude-haiku-4-5"} */
  model?: string;
  /** Output token limit of a completion. @default {1024} */
  maxTokens?: number;
  /** Overrides of the model table (minimum cacheable tokens, TTLs, prices). */
  models?: ModelOverrides;
}

/** The public Anthropic API. */
const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** A text or image content block of the Messages API. */
export type AnthropicContent =
  | { type: "text"; text: string; cache_control?: { type: "ephemeral"; ttl: string } }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } };

/** The Messages API request body slop renders. */
export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: AnthropicContent[];
  messages: Array<{ role: "user"; content: AnthropicContent[] }>;
}

/**
 * Render ordered blocks as a Messages API body.
 *
 * @example
 * ```ts
 * import { anthropicPayload } from "./anthropic.ts";
 * // const body = await anthropicPayload(result.blocks, info, { breakpoints, prompt: "Review" });
 * ```
 */
export async function anthropicPayload(
  blocks: PlacedBlock[],
  model: ModelInfo,
  options: PayloadOptions = {},
): Promise<AnthropicBody> {
  const parts = await payloadParts(blocks, model, options);
  const text = (s: Segment): AnthropicContent =>
    s.ttl
      ? { type: "text", text: s.text, cache_control: { type: "ephemeral", ttl: s.ttl } }
      : { type: "text", text: s.text };
  const system: AnthropicContent[] = parts.segments.map(text);
  const content: AnthropicContent[] = parts.images.map((i) => ({
    type: "image",
    source: { type: "base64", media_type: i.mediaType, data: i.data },
  }));
  // The tail's history checkpoint may end a breakpoint: the cache reaches into the history.
  content.push(...parts.tailSegments.map(text));
  content.push({ type: "text", text: parts.prompt });
  return {
    model: model.model,
    max_tokens: options.maxTokens ?? 1024,
    ...(system.length ? { system } : {}),
    messages: [{ role: "user", content }],
  };
}

/**
 * The `slop:anthropic` provider plugin.
 *
 * @example
 * ```ts
 * import { anthropicProvider } from "./anthropic.ts";
 * const provider = anthropicProvider({ models: { "claude-sonnet-4-5": { minCacheTokens: 2048 } } });
 * provider.modelInfo!("claude-sonnet-4-5")?.minCacheTokens; // 2048
 * ```
 */
export function anthropicProvider(options: AnthropicOptions = {}): ProviderPlugin {
  return providerPlugin({
    name: "slop:anthropic",
    shape: "anthropic",
    models: ANTHROPIC_MODELS,
    publicBaseUrl: ANTHROPIC_BASE_URL,
    apiKeyEnv: "ANTHROPIC_API_KEY",
    defaultModel: "claude-haiku-4-5",
    payload: anthropicPayload,
  }, options);
}
