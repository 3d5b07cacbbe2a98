/**
 * A binary search shared by the stages: the first place in a sorted run where a condition that
 * holds for a start of it stops holding.
 *
 * @module
 */

/**
 * The first index in `0` to `length` for which `before(i)` is false, where `before` is true for
 * every index below some point and false from it on (a sorted list asked "is this before what I
 * look for?"); `length` when it is true throughout. `log2(length)` calls of `before`.
 *
 * @example
 * ```ts
 * import { firstIndex } from "./_first_index.ts";
 * const sorted = [1, 3, 3, 7];
 * firstIndex(sorted.length, (i) => sorted[i] < 3); // 1
 * firstIndex(sorted.length, (i) => sorted[i] < 9); // 4
 * ```
 */
export function firstIndex(length: number, before: (i: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
