// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
// plugins/llamacpp_provider.ts
import type { ModelInfo, ProviderPlugin } from "../../../../mod.ts";

/** Options of {@linkcode llamacppProvider}. */
export interface LlamacppOptions {
  /** The context window the server was started with (`--ctx-size`), in tokens. @default {32768} */
  contextWindow?: number;
}

/**
 * A llama.cpp server's `/completion` endpoint: one prompt string, of which the server keeps the
 * part it saw last time in its cache (`cache_prompt`). Local, so every token costs nothing.
 */
export function llamacppProvider(options: LlamacppOptions = {}): ProviderPlugin {
  const info = (model = "local"): ModelInfo => ({
    model,
    minCacheTokens: 0,
    ttls: ["5m"],
    breakpoints: false,
    prices: { input: 0, output: 0, cacheRead: 0 },
    tokenizer: "o200k-estimate",
    contextWindow: options.contextWindow ?? 32768,
  });
  return {
    kind: "provider",
    name: "llamacpp",
    modelInfo: info,
    payload: (blocks, { prompt, maxTokens }) => ({
      prompt: blocks.map((b) => b.text).join("") + (prompt ?? "{{prompt}}"),
      n_predict: maxTokens ?? 1024,
      cache_prompt: true,
    }),
  };
}
