/**
 * The `full` view: the file's text as it is.
 *
 * @module
 */

import type { ViewModePlugin } from "../../pipeline/types.ts";

/** Options of {@linkcode fullViewMode} (none yet). */
export type FullOptions = Record<never, never>;

/**
 * The `full` view mode: raw text, fenced.
 *
 * @example
 * ```ts
 * import { fullViewMode } from "./full.ts";
 * const plugin = fullViewMode();
 * plugin.name; // "slop:full"
 * ```
 */
export function fullViewMode(_options: FullOptions = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "slop:full",
    version: "1",
    render: (file) => file.text,
  };
}
