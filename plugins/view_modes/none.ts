/**
 * The `none` view: the file is listed with the literal "(context excluded)".
 *
 * @module
 */

import type { ViewModePlugin } from "../../pipeline/types.ts";

/** The body the seed renders for an excluded file. */
const EXCLUDED_TEXT = "(context excluded)";

/** Options of {@linkcode noneViewMode} (none yet). */
export type NoneOptions = Record<never, never>;

/**
 * The `none` view mode: `### path` with "(context excluded)" as the body.
 *
 * @example
 * ```ts
 * import { noneViewMode } from "./none.ts";
 * noneViewMode().name; // "slop:none"
 * ```
 */
export function noneViewMode(_options: NoneOptions = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "slop:none",
    version: "1",
    render: () => ({ text: EXCLUDED_TEXT, fenced: false }),
  };
}
