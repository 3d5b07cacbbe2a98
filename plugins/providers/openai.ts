/**
 * The `openai` provider: the OpenAI chat completions API, and every server
 * that speaks it (OpenRouter, Ollama, llama.cpp server, vLLM) via
 * `provider.baseUrl`. Payloads put the stable prefix first, as the system
 * message, and set `prompt_cache_key` from its sha256 so requests with the
 * same prefix reach the same cache.
 *
 * @module
 */

import { sha256Hex } from "../../pipeline/helpers.ts";
import type { ModelInfo, PlacedBlock, ProviderPlugin } from "../../pipeline/types.ts";
import { providerPlugin } from "./_provider.ts";
import type { HttpOptions } from "./_http.ts";
import { type ModelOverrides, OPENAI_MODELS } from "./_models.ts";
import { type PayloadOptions, payloadParts } from "./_payload.ts";

/** Options of {@linkcode openaiProvider}. */
export interface OpenaiOptions extends HttpOptions {
  /** API base URL, ending in `/v1` (`provider.baseUrl` wins). @default {"https://api.openai.com/v1"} */
  baseUrl?: string;
  /** Environment variable of the key (`provider.apiKeyEnv` wins). @default {"OPENAI_API_KEY"} */
  apiKeyEnv?: string;
  /** Model when `provider.model` names none. @default {"gpt-5-mini"} */
  model?: string;
  /** Output token limit of a completion. @default {1024} */
  maxTokens?: number;
  /**
   * Body field of the output limit: OpenAI's own API takes `max_completion_tokens`
   * (its reasoning models reject `max_tokens`); most compatible servers take `max_tokens`.
   * @default {"max_completion_tokens" for the OpenAI API, "max_tokens" for any other base URL}
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Overrides of the model table (minimum cacheable tokens, prices). */
  models?: ModelOverrides;
}

/** The public OpenAI API. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** A user content part of the chat completions API. */
export type OpenaiContent =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** The chat completions request body slop renders. */
export interface OpenaiBody {
  model: string;
  messages: Array<
    { role: "system"; content: string } | { role: "user"; content: string | OpenaiContent[] }
  >;
  prompt_cache_key?: string;
  max_completion_tokens?: number;
  max_tokens?: number;
}

/** Options of {@linkcode openaiPayload} besides the shared ones. */
export interface OpenaiPayloadOptions extends PayloadOptions {
  /** Set `prompt_cache_key` (OpenAI's API takes it; DeepSeek's does not). @default {true} */
  cacheKey?: boolean;
  /** Send screenshots as `image_url` parts. @default {true} */
  images?: boolean;
  /** Body field of the output limit. @default {"max_completion_tokens"} */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/**
 * Render ordered blocks as a chat completions body: the stable prefix as
 * the system message, then one user message with the screenshots, the
 * volatile tail and the question.
 *
 * @example
 * ```ts
 * import { openaiPayload } from "./openai.ts";
 * // const body = await openaiPayload(result.blocks, info, { prompt: "Review" });
 * ```
 */
export async function openaiPayload(
  blocks: PlacedBlock[],
  model: ModelInfo,
  options: OpenaiPayloadOptions = {},
): Promise<OpenaiBody> {
  const parts = await payloadParts(blocks, model, {
    ...options,
    root: options.images === false ? undefined : options.root,
  });
  const messages: OpenaiBody["messages"] = [];
  if (parts.prefix) messages.push({ role: "system", content: parts.prefix });
  const text = parts.tail + parts.prompt;
  messages.push({
    role: "user",
    content: parts.images.length
      ? [
        ...parts.images.map((i): OpenaiContent => ({
          type: "image_url",
          image_url: { url: `data:${i.mediaType};base64,${i.data}` },
        })),
        { type: "text", text },
      ]
      : text,
  });
  const body: OpenaiBody = { model: model.model, messages };
  if (options.cacheKey !== false && parts.prefix) {
    body.prompt_cache_key = `slop-${sha256Hex(parts.prefix).slice(0, 32)}`;
  }
  body[options.maxTokensField ?? "max_completion_tokens"] = options.maxTokens ?? 1024;
  return body;
}

/**
 * The `slop:openai` provider plugin.
 *
 * @example Ollama on this machine
 * ```ts
 * import { openaiProvider } from "./openai.ts";
 * const provider = openaiProvider({ baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b" });
 * ```
 */
export function openaiProvider(options: OpenaiOptions = {}): ProviderPlugin {
  return providerPlugin({
    name: "slop:openai",
    shape: "openai",
    models: OPENAI_MODELS,
    publicBaseUrl: OPENAI_BASE_URL,
    apiKeyEnv: "OPENAI_API_KEY",
    defaultModel: "gpt-5-mini",
    maxTokensField: (url) =>
      options.maxTokensField ?? (url === OPENAI_BASE_URL ? "max_completion_tokens" : "max_tokens"),
    payload: (blocks, model, opts) =>
      openaiPayload(blocks, model, {
        ...opts,
        maxTokensField: options.maxTokensField ?? "max_completion_tokens",
      }),
  }, options);
}
