/**
 * The model-facing half of the harvest that needs no ledger: input prices,
 * splitting a long transcript into parts, asking for the summary of each
 * part, and the input-token estimate of a dry run.
 *
 * @module
 */

import type { CompleteFn } from "../pipeline/types.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { buildHarvestPrompt, type HarvestInput, SUMMARY_PROMPT } from "./prompt.ts";

/** Largest part of a transcript sent in one summary request. */
export const SUMMARY_CHUNK_BYTES = 48 * 1024;

/** Output tokens assumed per summary part, for the estimate. */
const SUMMARY_OUTPUT_TOKENS = 1024;

/** List prices in USD per million input tokens, by model id prefix (override with `pricePerMillion`). */
export const INPUT_PRICES: Array<[prefix: string, usd: number]> = [
  ["claude-opus-4-5", 5],
  ["claude-opus-4", 15],
  ["claude-sonnet-4", 3],
  ["claude-3-7-sonnet", 3],
  ["claude-3-5-sonnet", 3],
  ["claude-haiku-4-5", 1],
  ["claude-3-5-haiku", 0.8],
  ["gpt-4.1-nano", 0.1],
  ["gpt-4.1-mini", 0.4],
  ["gpt-4.1", 2],
  ["gpt-4o-mini", 0.15],
  ["gpt-4o", 2.5],
  ["deepseek-chat", 0.27],
];

/**
 * The list price per million input tokens of a model, if the table has it.
 *
 * @example
 * ```ts
 * import { inputPrice } from "./estimate.ts";
 * inputPrice("claude-sonnet-4-5"); // 3
 * ```
 */
export function inputPrice(model?: string): number | undefined {
  if (!model) return undefined;
  return INPUT_PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
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
