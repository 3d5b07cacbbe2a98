/**
 * The `gemini` provider: Google's Gemini API. Payloads are two bodies: a
 * `cachedContents` body that caches the stable prefix (and screenshots),
 * and a `generateContent` body that references it by name and carries the
 * volatile tail and the question.
 *
 * @module
 */

import { sha256Hex } from "../../pipeline/helpers.ts";
import type { ModelInfo, PlacedBlock, ProviderPlugin } from "../../pipeline/types.ts";
import { providerPlugin } from "./_provider.ts";
import type { HttpOptions } from "./_http.ts";
import { GEMINI_MODELS, type ModelOverrides } from "./_models.ts";
import { type PayloadOptions, payloadParts } from "./_payload.ts";
import { ttlSeconds } from "../ordering/breakpoints.ts";

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
  /** Overrides of the model table (minimum cacheable tokens, prices). */
  models?: ModelOverrides;
}

/** The public Gemini API. */
const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** Where the `generateContent` body names the cache: replace it with the created cache's `name`. */
const CACHE_NAME_PLACEHOLDER = "{{cachedContents.name}}";

/** A Gemini content part. */
export type GeminiPart = { text: string } | { inlineData: { mimeType: string; data: string } };

/** The two request bodies slop renders for Gemini. */
export interface GeminiPayload {
  /** `POST /v1beta/cachedContents` (absent when the prefix is below the model's minimum). */
  cachedContents?: {
    model: string;
    displayName: string;
    contents: Array<{ role: "user"; parts: GeminiPart[] }>;
    ttl: string;
  };
  /** `POST /v1beta/models/{model}:generateContent`. */
  generateContent: {
    cachedContent?: string;
    contents: Array<{ role: "user"; parts: GeminiPart[] }>;
    generationConfig: { maxOutputTokens: number };
  };
}

/**
 * Render ordered blocks as a `cachedContents` body and a `generateContent`
 * body that references the cache. When the prefix is too small to cache,
 * only `generateContent` is returned, with the prefix inline.
 *
 * @example
 * ```ts
 * import { geminiPayload } from "./gemini.ts";
 * // const { cachedContents, generateContent } = await geminiPayload(result.blocks, info);
 * ```
 */
export async function geminiPayload(
  blocks: PlacedBlock[],
  model: ModelInfo,
  options: PayloadOptions = {},
): Promise<GeminiPayload> {
  const parts = await payloadParts(blocks, model, options);
  const images: GeminiPart[] = parts.images.map((i) => ({
    inlineData: { mimeType: i.mediaType, data: i.data },
  }));
  const generationConfig = { maxOutputTokens: options.maxTokens ?? 1024 };
  const question: GeminiPart = { text: parts.tail + parts.prompt };
  const cached = parts.segments.some((s) => s.ttl);
  if (!cached) {
    const prefix: GeminiPart[] = parts.prefix ? [{ text: parts.prefix }] : [];
    return {
      generateContent: {
        contents: [{ role: "user", parts: [...prefix, ...images, question] }],
        generationConfig,
      },
    };
  }
  const ttl = options.ttl ?? model.ttls[0];
  return {
    cachedContents: {
      model: `models/${model.model}`,
      displayName: `slop-${sha256Hex(parts.prefix).slice(0, 16)}`,
      contents: [{ role: "user", parts: [{ text: parts.prefix }, ...images] }],
      ttl: `${ttlSeconds(ttl)}s`,
    },
    generateContent: {
      cachedContent: CACHE_NAME_PLACEHOLDER,
      contents: [{ role: "user", parts: [question] }],
      generationConfig,
    },
  };
}

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
  return providerPlugin({
    name: "slop:gemini",
    shape: "gemini",
    models: GEMINI_MODELS,
    publicBaseUrl: GEMINI_BASE_URL,
    apiKeyEnv: "GEMINI_API_KEY",
    defaultModel: "gemini-2.5-flash",
    payload: geminiPayload,
  }, options);
}
