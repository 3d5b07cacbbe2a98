/**
 * The `deepseek` provider: DeepSeek's API, which speaks the OpenAI chat
 * completions shape and caches identical prefixes on its own. Payloads are
 * OpenAI-shaped, text only (no `prompt_cache_key`, no images).
 *
 * @module
 */

import type { ProviderPlugin } from "../../pipeline/types.ts";
import { providerPlugin } from "./_provider.ts";
import type { HttpOptions } from "./_http.ts";
import { DEEPSEEK_MODELS, type ModelOverrides } from "./_models.ts";
import { openaiPayload } from "./openai.ts";

/** Options of {@linkcode deepseekProvider}. */
export interface DeepseekOptions extends HttpOptions {
  /** API base URL (`provider.baseUrl` wins). @default {"https://api.deepseek.com"} */
  baseUrl?: string;
  /** Environment variable of the key (`provider.apiKeyEnv` wins). @default {"DEEPSEEK_API_KEY"} */
  apiKeyEnv?: string;
  /** Model when `provider.model` names none. @default {"deepseek-chat"} */
  model?: string;
  /** Output token limit of a completion. @default {1024} */
  maxTokens?: number;
  /** Overrides of the model table (minimum cacheable tokens, prices). */
  models?: ModelOverrides;
}

/** The public DeepSeek API. */
const DEEPSEEK_BASE_URL = "https://api.deepseek.com";

/**
 * The `slop:deepseek` provider plugin.
 *
 * @example
 * ```ts
 * import { deepseekProvider } from "./deepseek.ts";
 * const provider = deepseekProvider({ retries: 4 });
 * ```
 */
export function deepseekProvider(options: DeepseekOptions = {}): ProviderPlugin {
  return providerPlugin({
    name: "slop:deepseek",
    shape: "openai",
    models: DEEPSEEK_MODELS,
    publicBaseUrl: DEEPSEEK_BASE_URL,
    apiKeyEnv: "DEEPSEEK_API_KEY",
    defaultModel: "deepseek-chat",
    maxTokensField: () => "max_tokens",
    payload: (blocks, model, opts) =>
      openaiPayload(blocks, model, {
        ...opts,
        cacheKey: false,
        images: false,
        maxTokensField: "max_tokens",
      }),
  }, options);
}
