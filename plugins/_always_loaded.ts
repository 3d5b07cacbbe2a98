/**
 * The built-in sections and ordering rules, which every build runs: listed
 * once for `defaultPlugins()` (plugins/defaults.ts) and for the lazy list
 * `slop build` registers (cli/_builtins.ts).
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
import { stableToVolatileOrdering } from "./ordering/stable_to_volatile.ts";
import { volatilityOrdering } from "./ordering/volatility.ts";
import { pinnedOrdering } from "./ordering/pinned.ts";
import { breakpointsOrdering } from "./ordering/breakpoints.ts";

/**
 * Fresh built-in sections, in document order before ordering rules run, then
 * the ordering rules, in the order they run.
 *
 * @example
 * ```ts
 * import { sectionsAndRules } from "./_always_loaded.ts";
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
    // ordering rules, in the order they run
    stableToVolatileOrdering(),
    volatilityOrdering(),
    pinnedOrdering(),
    breakpointsOrdering(),
  ];
}
