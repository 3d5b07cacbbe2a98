/**
 * The built-in plugins, assembled in one place and handed to the pipeline
 * by `mod.ts` and `cli.ts`. The sections and ordering rules, and their
 * order, come from `_always_loaded.ts`.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import { sectionsAndRules } from "./_always_loaded.ts";
import { fullViewMode } from "./view_modes/full.ts";
import { noneViewMode } from "./view_modes/none.ts";
import { summaryViewMode } from "./view_modes/summary.ts";
import { customViewMode } from "./view_modes/custom.ts";
import { llmSummaryViewMode } from "./view_modes/llm_summary.ts";
import { skeletonViewMode } from "./view_modes/skeleton.ts";
import { outlineViewMode } from "./view_modes/outline.ts";
import { maskedViewMode } from "./view_modes/masked.ts";
import { anthropicProvider } from "./providers/anthropic.ts";
import { openaiProvider } from "./providers/openai.ts";
import { geminiProvider } from "./providers/gemini.ts";
import { deepseekProvider } from "./providers/deepseek.ts";

/**
 * A fresh list of every built-in plugin.
 *
 * @example
 * ```ts
 * import { defaultPlugins } from "./defaults.ts";
 * defaultPlugins().map((p) => p.name);
 * ```
 */
export function defaultPlugins(): Plugin[] {
  return [
    // view modes
    fullViewMode(),
    noneViewMode(),
    summaryViewMode(),
    customViewMode(),
    llmSummaryViewMode(),
    skeletonViewMode(),
    outlineViewMode(),
    maskedViewMode(),
    ...sectionsAndRules(),
    // providers
    anthropicProvider(),
    openaiProvider(),
    geminiProvider(),
    deepseekProvider(),
  ];
}
