/**
 * How every summary writes a count and its word: the count grouped by thousands by
 * `formatCount` (`1,234 lines`), the same in every locale and time zone.
 *
 * @module
 */

import { formatCount } from "../../pipeline/helpers.ts";

/**
 * A count and its word, plural unless one: `1 line`, `14,258 lines`.
 *
 * @example
 * ```ts
 * import { counted } from "./_counts.ts";
 * counted(1200, "cell"); // "1,200 cells"
 * ```
 */
export function counted(n: number, word: string, plural = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : plural}`;
}
