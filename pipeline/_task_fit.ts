/**
 * The order in which the task section tries its files in full under a
 * budget: by expected recall per token rather than down the ranking, so one
 * large file a little ahead in the ranking does not crowd out several small
 * ones that are about as likely to be needed.
 *
 * A file's chance of being needed falls with its place in the ranking
 * (about `place^-RANK_DECAY`, measured on the relevance bench's tuned
 * repositories: 0.65 for the first file, 0.29 for the second, 0.14 for the
 * fifth, 0.05 for the tenth). Its cost is its tokens in full. Files are
 * tried by chance over `tokens^SIZE_EXPONENT`; the exponent is below 1
 * because the files a task needs are larger than the others at the same
 * place (see bench/README.md, "Task builds").
 *
 * @module
 */

/** How fast a file's chance of being needed falls with its place in the ranking. */
export const RANK_DECAY = 1.2;

/** How much a file's tokens count against its chance of being needed. */
export const SIZE_EXPONENT = 0.5;

/**
 * The indices of `costs` (the tokens of each ranked file in full, best
 * first; undefined for a file that has no view to try) in the order to try
 * them: highest `(index + 1)^-RANK_DECAY / tokens^SIZE_EXPONENT` first, ties
 * by index. Files without a cost are left out.
 *
 * @example
 * ```ts
 * import { fitOrder } from "./_task_fit.ts";
 * // The second file is a twentieth of the first's size: it is tried first.
 * fitOrder([12000, 600, 5000]); // [1, 0, 2]
 * fitOrder([500, undefined, 400]); // [0, 2]
 * ```
 */
export function fitOrder(costs: (number | undefined)[]): number[] {
  const value = (i: number) => (i + 1) ** -RANK_DECAY / Math.max(costs[i]!, 1) ** SIZE_EXPONENT;
  const order: number[] = [];
  for (let i = 0; i < costs.length; i++) if (costs[i] !== undefined) order.push(i);
  return order.sort((a, b) => value(b) - value(a) || a - b);
}
