/**
 * Single-turn completions in the three API shapes slop speaks: the Anthropic
 * Messages API, the OpenAI-compatible chat completions API (OpenAI,
 * DeepSeek, OpenRouter, Ollama, llama.cpp server, vLLM) and Gemini's
 * `generateContent`.
 *
 * @module
 */

import { PluginError } from "../../pipeline/helpers.ts";
import type { CompletionRequest, ProviderContext } from "../../pipeline/types.ts";
import { endpoint, type EndpointDefaults, type HttpClient } from "./_http.ts";

/** The API shapes of {@linkcode completeWith}. */
export type ApiShape = "anthropic" | "openai" | "gemini";

/** What {@linkcode completeWith} needs to know about the plugin. */
export interface CompleteSetup extends EndpointDefaults {
  /** Plugin name, for errors. */
  plugin: string;
  /** The API shape. */
  shape: ApiShape;
  /** The HTTP client (limits, retries). */
  http: HttpClient;
  /** Model when neither the request nor `provider.model` names one. */
  defaultModel: string;
  /** Output token limit when the request sets none. @default {1024} */
  maxTokens?: number;
  /** OpenAI shape: the body field of the output limit. @default {"max_tokens"} */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/** The Anthropic API version header slop sends. */
const ANTHROPIC_VERSION = "2023-06-01";

/**
 * Ask a model once and return its text.
 *
 * @example
 * ```ts
 * import { completeWith } from "./_complete.ts";
 * import { httpClient } from "./_http.ts";
 * const setup = {
 *   plugin: "slop:openai", shape: "openai" as const, http: httpClient("slop:openai"),
 *   baseUrl: "https://api.openai.com/v1", publicBaseUrl: "https://api.openai.com/v1",
 *   apiKeyEnv: "OPENAI_API_KEY", defaultModel: "gpt-5-mini",
 * };
 * // await completeWith(setup, { prompt: "Say hi" }, ctx);
 * ```
 */
export async function completeWith(
  setup: CompleteSetup,
  request: CompletionRequest,
  ctx: ProviderContext,
): Promise<string> {
  const { baseUrl, key } = endpoint(setup.plugin, ctx, setup);
  const model = request.model ?? ctx.provider.model ?? setup.defaultModel;
  const maxTokens = request.maxTokens ?? setup.maxTokens ?? 1024;
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    setup.http.post({ url: baseUrl + path, headers, body, signal: request.signal }, [key ?? ""]);
  let text: string | undefined;
  if (setup.shape === "anthropic") {
    const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
    if (key) headers["x-api-key"] = key;
    text = anthropicText(
      await post("/v1/messages", headers, anthropicBody(model, maxTokens, request)),
    );
  } else if (setup.shape === "gemini") {
    const headers: Record<string, string> = key ? { "x-goog-api-key": key } : {};
    const path = `/models/${encodeURIComponent(model)}:generateContent`;
    text = geminiText(await post(path, headers, geminiBody(maxTokens, request)));
  } else {
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    const field = setup.maxTokensField ?? "max_tokens";
    text = openaiText(
      await post("/chat/completions", headers, openaiBody(model, field, maxTokens, request)),
    );
  }
  if (text === undefined) {
    throw new PluginError(setup.plugin, "complete", `The answer of model "${model}" has no text`);
  }
  return text;
}

/**
 * The Messages API body of a single-turn request.
 */
function anthropicBody(
  model: string,
  maxTokens: number,
  request: CompletionRequest,
): Record<string, unknown> {
  return {
    model,
    max_tokens: maxTokens,
    ...(request.system ? { system: request.system } : {}),
    messages: [{ role: "user", content: request.prompt }],
  };
}

/**
 * The chat completions body of a single-turn request.
 */
function openaiBody(
  model: string,
  maxTokensField: string,
  maxTokens: number,
  request: CompletionRequest,
): Record<string, unknown> {
  const messages = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  messages.push({ role: "user", content: request.prompt });
  return { model, messages, [maxTokensField]: maxTokens };
}

/**
 * The `generateContent` body of a single-turn request (the model is in the URL).
 */
function geminiBody(maxTokens: number, request: CompletionRequest): Record<string, unknown> {
  return {
    ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
    contents: [{ role: "user", parts: [{ text: request.prompt }] }],
    generationConfig: { maxOutputTokens: maxTokens },
  };
}

function anthropicText(json: unknown): string | undefined {
  const content = (json as { content?: unknown })?.content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter((c) => c?.type === "text" && typeof c.text === "string");
  return parts.length ? parts.map((c) => c.text).join("") : undefined;
}

function openaiText(json: unknown): string | undefined {
  const choices = (json as { choices?: unknown })?.choices;
  const content = Array.isArray(choices) ? choices[0]?.message?.content : undefined;
  return typeof content === "string" ? content : undefined;
}

function geminiText(json: unknown): string | undefined {
  const candidates = (json as { candidates?: unknown })?.candidates;
  const parts = Array.isArray(candidates) ? candidates[0]?.content?.parts : undefined;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.filter((p) => typeof p?.text === "string" && !p.thought);
  return texts.length ? texts.map((p) => p.text).join("") : undefined;
}
