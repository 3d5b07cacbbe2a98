/**
 * The `anthropic` provider: Claude through the Anthropic Messages API.
 *
 * @module
 */

import type { ProviderPlugin } from "../../pipeline/types.ts";
import { completeWith } from "./_complete.ts";
import { httpClient, type HttpOptions } from "./_http.ts";

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
}

/** The public Anthropic API. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/**
 * The `slop:anthropic` provider plugin.
 *
 * @example
 * ```ts
 * import { anthropicProvider } from "./anthropic.ts";
 * const provider = anthropicProvider({ timeoutMs: 30_000 });
 * // await provider.complete!({ prompt: "Say hi" }, { provider: {}, env: Deno.env.get });
 * ```
 */
export function anthropicProvider(options: AnthropicOptions = {}): ProviderPlugin {
  const name = "slop:anthropic";
  const setup = {
    plugin: name,
    shape: "anthropic" as const,
    http: httpClient(name, options),
    baseUrl: options.baseUrl ?? ANTHROPIC_BASE_URL,
    publicBaseUrl: ANTHROPIC_BASE_URL,
    apiKeyEnv: options.apiKeyEnv ?? "ANTHROPIC_API_KEY",
    defaultModel: options.model ?? "claude-haiku-4-5",
    maxTokens: options.maxTokens,
  };
  return {
    kind: "provider",
    name,
    complete: (request, ctx) => completeWith(setup, request, ctx),
  };
}
