/**
 * The `openai` provider: the OpenAI chat completions API, and every server
 * that speaks it (OpenRouter, Ollama, llama.cpp server, vLLM) via
 * `provider.baseUrl`.
 *
 * @module
 */

import type { ProviderPlugin } from "../../pipeline/types.ts";
import { completeWith } from "./_complete.ts";
import { httpClient, type HttpOptions } from "./_http.ts";

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
}

/** The public OpenAI API. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

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
  const name = "slop:openai";
  const http = httpClient(name, options);
  const baseUrl = options.baseUrl ?? OPENAI_BASE_URL;
  return {
    kind: "provider",
    name,
    complete: (request, ctx) => {
      const url = (ctx.provider.baseUrl ?? baseUrl).replace(/\/+$/, "");
      const field = options.maxTokensField ??
        (url === OPENAI_BASE_URL ? "max_completion_tokens" : "max_tokens");
      const setup = {
        plugin: name,
        shape: "openai" as const,
        http,
        baseUrl,
        publicBaseUrl: OPENAI_BASE_URL,
        apiKeyEnv: options.apiKeyEnv ?? "OPENAI_API_KEY",
        defaultModel: options.model ?? "gpt-5-mini",
        maxTokens: options.maxTokens,
        maxTokensField: field,
      };
      return completeWith(setup, request, ctx);
    },
  };
}
