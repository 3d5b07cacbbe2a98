/**
 * How every summary writes a count: grouped by thousands (`1,234 lines`), the same in every
 * locale and time zone.
 *
 * @module
 */

import { formatCount } from "../../pipeline/helpers.ts";

/**
 * A number as summaries write it: `1,234`.
 *
 * @example
 * ```ts
 * import { numeral } from "./_counts.ts";
 * numeral(14258); // "14,258"
 * ```
 */
export function numeral(n: number): string {
  return formatCount(n);
}

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
  return `${numeral(n)} ${n === 1 ? word : plural}`;
}
