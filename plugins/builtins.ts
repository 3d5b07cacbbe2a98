/**
 * The one list of slop's built-in plugins, in registration order: the view
 * modes ({@linkcode BUILTIN_VIEW_MODES}), the sections and ordering rules
 * every build runs ({@linkcode sectionsAndRules}), the providers
 * ({@linkcode BUILTIN_PROVIDERS}). View modes and providers are named by
 * module and factory, without loading them: `defaultPlugins()`
 * (`plugins/defaults.ts`) makes them at once, the list `slop build` registers
 * (`cli/_builtins.ts`) when a build first uses them.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import { knowledgeSection } from "./sections/knowledge.ts";
import { filesSection } from "./sections/files.ts";
import { screenshotsSection } from "./sections/screenshots.ts";
import { historySection } from "./sections/history.ts";
import { treeSection } from "./sections/tree.ts";
import { beadsSection } from "./sections/beads.ts";
import { taskSection } from "./sections/task.ts";
import { stableToVolatileOrdering } from "./ordering/stable_to_volatile.ts";
import { volatilityOrdering } from "./ordering/volatility.ts";
import { pinnedOrdering } from "./ordering/pinned.ts";
import { breakpointsOrdering } from "./ordering/breakpoints.ts";

/** A built-in made when it is needed: its kind, name, module (under `plugins/`) and factory. */
export interface BuiltinModule {
  kind: "view-mode" | "provider";
  /** The plugin's name (the factory must make a plugin of this name and kind). */
  name: string;
  /** The module, relative to `plugins/`. */
  module: string;
  /** The module's exported factory, called without options. */
  factory: string;
}

/**
 * The built-in view modes, in registration order.
 *
 * @example
 * ```ts
 * import { BUILTIN_VIEW_MODES } from "./builtins.ts";
 * BUILTIN_VIEW_MODES[0]; // { kind: "view-mode", name: "slop:full", module: "view_modes/full.ts", factory: "fullViewMode" }
 * ```
 */
export const BUILTIN_VIEW_MODES: readonly BuiltinModule[] = [
  ["slop:full", "view_modes/full.ts", "fullViewMode"],
  ["slop:none", "view_modes/none.ts", "noneViewMode"],
  ["slop:summary", "view_modes/summary.ts", "summaryViewMode"],
  ["slop:custom", "view_modes/custom.ts", "customViewMode"],
  ["slop:llm_summary", "view_modes/llm_summary.ts", "llmSummaryViewMode"],
  ["slop:skeleton", "view_modes/skeleton.ts", "skeletonViewMode"],
  ["slop:outline", "view_modes/outline.ts", "outlineViewMode"],
  ["slop:masked", "view_modes/masked.ts", "maskedViewMode"],
  ["slop:cells", "view_modes/cells.ts", "cellsViewMode"],
].map(([name, module, factory]) => ({ kind: "view-mode", name, module, factory }));

/**
 * The built-in providers, in registration order (after the ordering rules).
 *
 * @example
 * ```ts
 * import { BUILTIN_PROVIDERS } from "./builtins.ts";
 * BUILTIN_PROVIDERS.map((b) => b.name); // ["slop:anthropic", "slop:openai", "slop:gemini", "slop:deepseek"]
 * ```
 */
export const BUILTIN_PROVIDERS: readonly BuiltinModule[] = [
  ["slop:anthropic", "providers/anthropic.ts", "anthropicProvider"],
  ["slop:openai", "providers/openai.ts", "openaiProvider"],
  ["slop:gemini", "providers/gemini.ts", "geminiProvider"],
  ["slop:deepseek", "providers/deepseek.ts", "deepseekProvider"],
].map(([name, module, factory]) => ({ kind: "provider", name, module, factory }));

/**
 * Fresh built-in sections, in document order before ordering rules run, then
 * the ordering rules, in the order they run.
 *
 * @example
 * ```ts
 * import { sectionsAndRules } from "./builtins.ts";
 * sectionsAndRules().map((p) => p.name); // ["slop:knowledge", "slop:files", ...]
 * ```
 */
export function sectionsAndRules(): Plugin[] {
  return [
    // sections, in document order
    knowledgeSection(),
    filesSection(),
    screenshotsSection(),
    treeSection(),
    beadsSection(),
    historySection(),
    // last: the task's files and text, after everything that does not depend on the task
    taskSection(),
    // ordering rules, in the order they run
    stableToVolatileOrdering(),
    volatilityOrdering(),
    pinnedOrdering(),
    breakpointsOrdering(),
  ];
}
