/**
 * The `deepseek` provider: DeepSeek's API, which speaks the OpenAI chat
 * completions shape and caches identical prefixes on its own. Payloads are
 * OpenAI-shaped, text only (no `prompt_cache_key`, no images).
 *
 * @module
 */

import type { ProviderPlugin } from "../../pipeline/types.ts";
import { modelTokens } from "../../pipeline/cache_plan.ts";
import { completeWith } from "./_complete.ts";
import { httpClient, type HttpOptions } from "./_http.ts";
import { DEEPSEEK_MODELS, modelLookups, type ModelOverrides } from "./_models.ts";
import type { PayloadOptions } from "./_payload.ts";
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
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com";

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
  const name = "slop:deepseek";
  const defaultModel = options.model ?? "deepseek-chat";
  const { modelInfo, info } = modelLookups(DEEPSEEK_MODELS, options.models, defaultModel);
  const setup = {
    plugin: name,
    shape: "openai" as const,
    http: httpClient(name, options),
    baseUrl: options.baseUrl ?? DEEPSEEK_BASE_URL,
    publicBaseUrl: DEEPSEEK_BASE_URL,
    apiKeyEnv: options.apiKeyEnv ?? "DEEPSEEK_API_KEY",
    defaultModel,
    maxTokens: options.maxTokens,
    maxTokensField: "max_tokens" as const,
  };
  return {
    kind: "provider",
    name,
    modelInfo,
    countTokens: (text, model) => modelTokens(text, info(model)),
    payload: (blocks, opts: PayloadOptions) =>
      openaiPayload(blocks, info(opts.model), {
        ...opts,
        cacheKey: false,
        images: false,
        maxTokensField: "max_tokens",
      }),
    complete: (request, ctx) => completeWith(setup, request, ctx),
  };
}
