/**
 * What every built-in provider plugin shares: the model table with the
 * user's overrides, token counts in the model's tokens, the payload, and
 * `complete` through the HTTP client. A provider file only says what is its
 * own (name, API shape, defaults, payload).
 *
 * @module
 */

import type { ModelInfo, PlacedBlock, ProviderPlugin } from "../../pipeline/types.ts";
import { modelTokens } from "../../pipeline/tokens.ts";
import { type ApiShape, completeWith } from "./_complete.ts";
import { httpClient, type HttpOptions } from "./_http.ts";
import { type ModelEntry, modelLookups, type ModelOverrides } from "./_models.ts";
import type { PayloadOptions } from "./_payload.ts";

/** Options every built-in provider factory takes. */
export interface ProviderOptions extends HttpOptions {
  /** API base URL (`provider.baseUrl` wins). */
  baseUrl?: string;
  /** Environment variable of the key (`provider.apiKeyEnv` wins). */
  apiKeyEnv?: string;
  /** Model when `provider.model` names none. */
  model?: string;
  /** Output token limit of a completion. @default {1024} */
  maxTokens?: number;
  /** Overrides of the model table (minimum cacheable tokens, prices). */
  models?: ModelOverrides;
}

/** What makes a provider its own. */
export interface ProviderSpec {
  /** Plugin name (`slop:openai`). */
  name: string;
  /** The API shape `complete` speaks. */
  shape: ApiShape;
  /** The built-in model table. */
  models: Record<string, ModelEntry>;
  /** The provider's public API (a key is required only there). */
  publicBaseUrl: string;
  /** Default environment variable of the key. */
  apiKeyEnv: string;
  /** Default model. */
  defaultModel: string;
  /** OpenAI shape: the body field of the output limit for a base URL. */
  maxTokensField?: (baseUrl: string) => "max_tokens" | "max_completion_tokens";
  /** The request body for the ordered blocks. */
  payload: (blocks: PlacedBlock[], model: ModelInfo, options: PayloadOptions) => unknown;
}

/**
 * Build a provider plugin from its spec and the user's factory options.
 *
 * @example
 * ```ts
 * import { providerPlugin } from "./_provider.ts";
 * import { DEEPSEEK_MODELS } from "./_models.ts";
 * const plugin = providerPlugin({
 *   name: "slop:mine", shape: "openai", models: DEEPSEEK_MODELS,
 *   publicBaseUrl: "https://api.example.com", apiKeyEnv: "MINE_KEY", defaultModel: "deepseek-chat",
 *   payload: (blocks) => ({ blocks: blocks.length }),
 * }, {});
 * plugin.name; // "slop:mine"
 * ```
 */
export function providerPlugin(spec: ProviderSpec, options: ProviderOptions): ProviderPlugin {
  const defaultModel = options.model ?? spec.defaultModel;
  const { modelInfo, info } = modelLookups(spec.models, options.models, defaultModel);
  const http = httpClient(spec.name, options);
  const baseUrl = options.baseUrl ?? spec.publicBaseUrl;
  return {
    kind: "provider",
    name: spec.name,
    modelInfo,
    countTokens: (text, model) => modelTokens(text, info(model)),
    payload: (blocks, opts: PayloadOptions) => spec.payload(blocks, info(opts.model), opts),
    complete: (request, ctx) => {
      const url = (ctx.provider.baseUrl ?? baseUrl).replace(/\/+$/, "");
      const setup = {
        plugin: spec.name,
        shape: spec.shape,
        http,
        baseUrl,
        publicBaseUrl: spec.publicBaseUrl,
        apiKeyEnv: options.apiKeyEnv ?? spec.apiKeyEnv,
        defaultModel,
        maxTokens: options.maxTokens,
        maxTokensField: spec.maxTokensField?.(url),
      };
      return completeWith(setup, request, ctx);
    },
  };
}
