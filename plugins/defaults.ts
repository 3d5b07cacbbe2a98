/**
 * The built-in plugins, assembled in one place and handed to the pipeline
 * by `mod.ts` and `cli.ts`. Section order here is document order before
 * ordering rules run: knowledge, files, screenshots, beads, history.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import { fullViewMode } from "./view_modes/full.ts";
import { noneViewMode } from "./view_modes/none.ts";
import { summaryViewMode } from "./view_modes/summary.ts";
import { customViewMode } from "./view_modes/custom.ts";
import { knowledgeSection } from "./sections/knowledge.ts";
import { llmSummaryViewMode } from "./view_modes/llm_summary.ts";
import { skeletonViewMode } from "./view_modes/skeleton.ts";
import { outlineViewMode } from "./view_modes/outline.ts";
import { maskedViewMode } from "./view_modes/masked.ts";
import { filesSection } from "./sections/files.ts";
import { screenshotsSection } from "./sections/screenshots.ts";
import { historySection } from "./sections/history.ts";
import { treeSection } from "./sections/tree.ts";
import { beadsSection } from "./sections/beads.ts";
import { stableToVolatileOrdering } from "./ordering/stable_to_volatile.ts";
import { volatilityOrdering } from "./ordering/volatility.ts";
import { pinnedOrdering } from "./ordering/pinned.ts";
import { breakpointsOrdering } from "./ordering/breakpoints.ts";
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
    // sections, in document order
    knowledgeSection(),
    filesSection(),
    screenshotsSection(),
    treeSection(),
    beadsSection(),
    historySection(),
    // ordering rules, in the order they run
    stableToVolatileOrdering(),
    volatilityOrdering(),
    pinnedOrdering(),
    breakpointsOrdering(),
    // providers
    anthropicProvider(),
    openaiProvider(),
    geminiProvider(),
    deepseekProvider(),
  ];
}
