/**
 * Where a text may be cut so that the token counts of the pieces add up to
 * the count of the whole: at a line start whose first character is neither
 * whitespace nor `/`, where no piece of the o200k/cl100k pre-split can cross
 * (a piece holding a newline holds only whitespace or, after punctuation,
 * newlines and slashes after it). Counting in pieces (`count.ts`), early
 * counts of the middles of texts (`precount.ts`) and counts by difference
 * (`count_diff.ts`) all cut here.
 *
 * @module
 */

/**
 * Whether `at` is such a line start of `text`.
 *
 * @example
 * ```ts
 * import { isCountCut } from "./_count_cuts.ts";
 * isCountCut("a\nb", 2); // true
 * isCountCut("a\n b", 2); // false
 * ```
 */
export function isCountCut(text: string, at: number): boolean {
  return text[at - 1] === "\n" && !/[\s/]/.test(text[at]);
}

/**
 * Cut a text into pieces of about `size` characters (longer where no cut is
 * near) at such line starts, so their counts add up to the count of the whole.
 *
 * @example
 * ```ts
 * import { splitForCounting } from "./_count_cuts.ts";
 * splitForCounting("a\nb\n", 1); // ["a\n", "b\n"]
 * ```
 */
export function splitForCounting(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    let cut = -1;
    for (let nl = text.indexOf("\n", start + size - 1); nl >= 0 && nl + 1 < text.length;) {
      if (isCountCut(text, nl + 1)) {
        cut = nl + 1;
        break;
      }
      nl = text.indexOf("\n", nl + 1);
    }
    if (cut < 0) break;
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}
