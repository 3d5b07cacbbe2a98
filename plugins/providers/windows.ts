/**
 * The context windows of every model in the built-in provider tables, and
 * whether a document fits any of them: a build whose document is larger than
 * every known window says so in its summary, with the ways to make it
 * smaller (a token budget, skeleton or summary views, a preset or persona).
 *
 * @module
 */

import { ANTHROPIC_MODELS, DEEPSEEK_MODELS, GEMINI_MODELS, OPENAI_MODELS } from "./_models.ts";
import type { ModelEntry } from "./_models.ts";
import { formatCount } from "../../pipeline/helpers.ts";

/** A document's size, as the manifest gives it. */
export interface DocumentSize {
  /** Tokens of the build's tokenizer (o200k unless `budget.tokenizer` says cl100k). */
  tokens: number;
  /** UTF-8 bytes (at least its characters: the character estimates use them). */
  bytes: number;
}

/** One known model and the document in its tokens. */
export interface WindowFit {
  /** Provider plugin name (`anthropic`, `openai`, `gemini`, `deepseek`). */
  provider: string;
  /** Model id. */
  model: string;
  /** Its context window, in its own tokens. */
  contextWindow: number;
  /** The document in the model's tokens (estimated for Claude, Gemini and DeepSeek). */
  tokens: number;
}

const TABLES: Array<[string, Record<string, ModelEntry>]> = [
  ["anthropic", ANTHROPIC_MODELS],
  ["openai", OPENAI_MODELS],
  ["gemini", GEMINI_MODELS],
  ["deepseek", DEEPSEEK_MODELS],
];

/**
 * The document's size in each built-in model's tokens, the model it fits best first (the
 * smallest share of its window), then by provider and model id.
 *
 * @example
 * ```ts
 * import { modelWindows } from "./windows.ts";
 * const best = modelWindows({ tokens: 2_000_000, bytes: 8_000_000 })[0];
 * best.contextWindow; // 1047576 (a gpt-4.1 model)
 * ```
 */
export function modelWindows(document: DocumentSize): WindowFit[] {
  const out: WindowFit[] = [];
  for (const [provider, table] of TABLES) {
    for (const [model, entry] of Object.entries(table)) {
      if (!entry.contextWindow) continue;
      const factor = entry.tokenFactor ?? 1;
      const tokens = entry.tokenizer === "chars-estimate"
        ? Math.ceil(document.bytes * factor)
        : Math.ceil(document.tokens * factor);
      out.push({ provider, model, contextWindow: entry.contextWindow, tokens });
    }
  }
  return out.sort((a, b) =>
    a.tokens / a.contextWindow - b.tokens / b.contextWindow ||
    a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model)
  );
}

/** Options of {@linkcode overEveryWindow}. */
export interface OverEveryWindowOptions {
  /**
   * The token budget to suggest (the build summary passes the one that fits the configured
   * model, so that it agrees with the context-window warning).
   *
   * @default {200000}
   */
  budget?: number;
  /** The tokenizer of `document.tokens` (`budget.tokenizer`), named beside the count. @default {"o200k"} */
  tokenizer?: "o200k" | "cl100k";
}

/**
 * A sentence for the build summary when the document is larger than the context window of every
 * built-in model, naming the one it comes closest to fitting and the ways to make it smaller;
 * undefined when some model takes it.
 *
 * @example
 * ```ts
 * import { overEveryWindow } from "./windows.ts";
 * overEveryWindow({ tokens: 1000, bytes: 4000 }); // undefined
 * overEveryWindow({ tokens: 9_000_000, bytes: 36_000_000 })?.startsWith("the document"); // true
 * ```
 */
export function overEveryWindow(
  document: DocumentSize,
  options: OverEveryWindowOptions = {},
): string | undefined {
  const best = modelWindows(document)[0];
  if (!best || best.tokens <= best.contextWindow) return undefined;
  const n = formatCount;
  const tokenizer = options.tokenizer ?? "o200k";
  return `the document (${
    n(document.tokens)
  } ${tokenizer} tokens) is larger than the context window of ` +
    `every known model (the closest: ${best.provider} "${best.model}", ${
      n(best.contextWindow)
    } tokens, about ${n(best.tokens)} of them for this document): ` +
    `give it a token budget (--budget ${
      options.budget ?? 200_000
    }, or "budget.tokens"), show files as skeletons ` +
    `or summaries ("defaultView": "skeleton", --strategy summarize), or build fewer files with ` +
    `a preset or persona (--preset NAME, --persona NAME); see docs/large_inputs.md`;
}
