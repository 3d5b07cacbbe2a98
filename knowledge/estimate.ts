/**
 * The model-facing half of the harvest that needs no ledger: input prices,
 * splitting a long transcript into parts, asking for the summary of each
 * part, and the input-token estimate of a dry run.
 *
 * @module
 */

import type { CompleteFn, ProviderConfig } from "../pipeline/types.ts";
import { findProvider, type Registry } from "../pipeline/registry.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { buildHarvestPrompt, type HarvestInput, SUMMARY_PROMPT } from "./prompt.ts";

/** Largest part of a transcript sent in one summary request. */
export const SUMMARY_CHUNK_BYTES = 48 * 1024;

/** Output tokens assumed per summary part, for the estimate. */
const SUMMARY_OUTPUT_TOKENS = 1024;

/** A model's input price, as the harvest estimate uses it. */
export interface InputPrice {
  /** USD per million input tokens. */
  perMillion: number;
  /** The model id (the provider's default model when none is configured). */
  model: string;
}

/**
 * The input price of the configured model, from the provider plugin's model
 * table (`modelInfo`, with the factory's overrides): the same table as
 * payload costs and `slop check`. Undefined without `provider.name` or when
 * the table does not know the model.
 *
 * @example
 * ```ts
 * import { inputPrice } from "./estimate.ts";
 * import { createRegistry } from "../pipeline/registry.ts";
 * import { defaultPlugins } from "../plugins/defaults.ts";
 * const registry = createRegistry(defaultPlugins());
 * inputPrice(registry, { name: "openai", model: "gpt-5-mini" })?.perMillion; // 0.25
 * ```
 */
export function inputPrice(registry: Registry, provider: ProviderConfig): InputPrice | undefined {
  if (!provider.name) return undefined;
  const info = findProvider(registry, provider.name)?.modelInfo?.(provider.model);
  return info ? { perMillion: info.prices.input, model: info.model } : undefined;
}

const encoder = new TextEncoder();

/**
 * Split a transcript into parts of at most `maxBytes` (UTF-8), at
 * paragraph breaks where possible.
 *
 * @example
 * ```ts
 * import { splitTranscript } from "./estimate.ts";
 * splitTranscript("a\n\nb\n\nc", 4); // ["a\n\nb", "c"]
 * ```
 */
export function splitTranscript(text: string, maxBytes: number = SUMMARY_CHUNK_BYTES): string[] {
  const parts: string[] = [];
  let current = "";
  const push = (piece: string) => {
    const joined = current ? `${current}\n\n${piece}` : piece;
    if (encoder.encode(joined).length <= maxBytes) {
      current = joined;
      return;
    }
    if (current) parts.push(current);
    current = "";
    if (encoder.encode(piece).length <= maxBytes) {
      current = piece;
      return;
    }
    let rest = piece;
    while (rest) {
      let n = Math.min(rest.length, maxBytes);
      while (encoder.encode(rest.slice(0, n)).length > maxBytes) n = Math.floor(n * 0.9);
      parts.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
  };
  for (const paragraph of text.split(/\n{2,}/)) if (paragraph) push(paragraph);
  if (current) parts.push(current);
  return parts;
}

/**
 * Estimated input tokens (o200k) of the model calls for one conversation:
 * the harvest prompt, or the summary parts plus the harvest of their summaries.
 *
 * @example
 * ```ts
 * import { estimateTokens } from "./estimate.ts";
 * await estimateTokens("harvest", { template: "Extract.", name: "chat-1", content: "User: hi" });
 * ```
 */
export async function estimateTokens(
  action: string,
  input: HarvestInput,
): Promise<number> {
  if (action === "harvest") return await countTokens(buildHarvestPrompt(input));
  if (action !== "summarize") return 0;
  const parts = splitTranscript(input.content);
  let tokens = await countTokens(input.template) + parts.length * SUMMARY_OUTPUT_TOKENS;
  for (const part of parts) tokens += await countTokens(`${SUMMARY_PROMPT}\n${part}`);
  return tokens;
}

/**
 * Summarize a long transcript part by part; the summaries are joined by blank lines.
 *
 * @example
 * ```ts
 * import { summarizeTranscript } from "./estimate.ts";
 * // const summary = await summarizeTranscript(complete, longTranscript);
 * ```
 */
export async function summarizeTranscript(
  complete: CompleteFn,
  transcript: string,
): Promise<string> {
  const parts = splitTranscript(transcript);
  const summaries: string[] = [];
  for (const [i, part] of parts.entries()) {
    const header = parts.length > 1 ? `(part ${i + 1} of ${parts.length})\n\n` : "";
    summaries.push(
      (await complete({ prompt: `${SUMMARY_PROMPT}\n${header}${part}`, maxTokens: 2048 })).trim(),
    );
  }
  return summaries.join("\n\n");
}
