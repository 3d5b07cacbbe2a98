/**
 * The `gemini` provider: Google's Gemini API (`generateContent`).
 *
 * @module
 */

import type { ProviderPlugin } from "../../pipeline/types.ts";
import { completeWith } from "./_complete.ts";
import { httpClient, type HttpOptions } from "./_http.ts";

/** Options of {@linkcode geminiProvider}. */
export interface GeminiOptions extends HttpOptions {
  /** API base URL (`provider.baseUrl` wins). @default {"https://generativelanguage.googleapis.com/v1beta"} */
  baseUrl?: string;
  /** Environment variable of the key (`provider.apiKeyEnv` wins). @default {"GEMINI_API_KEY"} */
  apiKeyEnv?: string;
  /** Model when `provider.model` names none. @default {"gemini-2.5-flash"} */
  model?: string;
  /** Output token limit of a completion. @default {1024} */
  maxTokens?: number;
}

/** The public Gemini API. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/**
 * The `slop:gemini` provider plugin. The key travels in the `x-goog-api-key`
 * header, never in the URL.
 *
 * @example
 * ```ts
 * import { geminiProvider } from "./gemini.ts";
 * const provider = geminiProvider({ model: "gemini-2.5-pro" });
 * ```
 */
export function geminiProvider(options: GeminiOptions = {}): ProviderPlugin {
  const name = "slop:gemini";
  const setup = {
    plugin: name,
    shape: "gemini" as const,
    http: httpClient(name, options),
    baseUrl: options.baseUrl ?? GEMINI_BASE_URL,
    publicBaseUrl: GEMINI_BASE_URL,
    apiKeyEnv: options.apiKeyEnv ?? "GEMINI_API_KEY",
    defaultModel: options.model ?? "gemini-2.5-flash",
    maxTokens: options.maxTokens,
  };
  return {
    kind: "provider",
    name,
    complete: (request, ctx) => completeWith(setup, request, ctx),
  };
}
