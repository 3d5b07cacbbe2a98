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
 * place (see bench/README.md, "Task builds"). A file slop has no grammar
 * for (docs, changelogs, config) has {@linkcode OTHER_FILES} of the chance
 * of a code file at its place, as it has of the score in the ranking and
 * of the change score in the map: prose mentions every word of a task, so
 * at a large budget, where the section reaches the ranking's long tail,
 * docs ranked among code files that only co-change speaks for took a fifth
 * of its room (see bench/README.md, "nineteenth session").
 *
 * How many of the ranked files are tried at all: the first
 * {@linkcode MIN_FIT_FILES}, then more (up to the section's cap) only while
 * the ones tried hold less than {@linkcode FIT_ROOM_TIMES} times the
 * section's room ({@linkcode triedEnough}). A file ranked past them is
 * tried first only when it is small and the room large; with a small room
 * the first files already hold several times what fits, and preparing more
 * is work that changes nothing.
 *
 * @module
 */

import { OTHER_FILES } from "./rank.ts";

/** How fast a file's chance of being needed falls with its place in the ranking. */
export const RANK_DECAY = 1.2;

/** How much a file's tokens count against its chance of being needed. */
export const SIZE_EXPONENT = 0.5;

/** How many ranked files the section tries in full at least (when it has that many). */
export const MIN_FIT_FILES = 100;

/** Past {@linkcode MIN_FIT_FILES}, files are tried until the tried ones hold this many times the room. */
export const FIT_ROOM_TIMES = 4;

/**
 * Whether the section has tried enough files in full: `count` files tried, holding `tokens`
 * together, for a room of `room` tokens (at least {@linkcode MIN_FIT_FILES}, then until they
 * hold {@linkcode FIT_ROOM_TIMES} times the room).
 *
 * @example
 * ```ts
 * import { triedEnough } from "./_task_fit.ts";
 * triedEnough(100, 60000, 12000); // true: 100 files, five times the room
 * triedEnough(100, 60000, 100000); // false: a large room, small files may still fit
 * triedEnough(40, 60000, 12000); // false: fewer than 100
 * ```
 */
export function triedEnough(count: number, tokens: number, room: number): boolean {
  return count >= MIN_FIT_FILES && tokens >= FIT_ROOM_TIMES * room;
}

/** Options of {@linkcode fitOrder}. */
export interface FitOrderOptions {
  /**
   * Whether each file (by index, as `costs`) is code, a language slop has a grammar for; a file
   * that is not has {@linkcode OTHER_FILES} of the chance. Absent: every file is code.
   */
  code?: readonly boolean[];
  /**
   * A chance for each file (by index, as `costs`) that counts instead of its place's when larger:
   * a test's tie to the ranking's first file (`tiedChances` of `_task_tests.ts`).
   */
  tied?: readonly number[];
}

/**
 * The chance that the file at `index` of the ranking (0: the first) is needed, as the fit
 * counts it: `(index + 1)^-RANK_DECAY`.
 *
 * @example
 * ```ts
 * import { placeChance } from "./_task_fit.ts";
 * placeChance(0); // 1
 * placeChance(1); // 2^-1.2, about 0.435
 * ```
 */
export function placeChance(index: number): number {
  return (index + 1) ** -RANK_DECAY;
}

/**
 * The indices of `costs` (the tokens of each ranked file in full, best
 * first; undefined for a file that has no view to try) in the order to try
 * them: highest `(index + 1)^-RANK_DECAY / tokens^SIZE_EXPONENT` first
 * (times {@linkcode OTHER_FILES} for a file `options.code` says is not code;
 * `options.tied`'s chance instead of the place's when larger), ties by index.
 * Files without a cost are left out.
 *
 * @example
 * ```ts
 * import { fitOrder } from "./_task_fit.ts";
 * // The second file is a twentieth of the first's size: it is tried first.
 * fitOrder([12000, 600, 5000]); // [1, 0, 2]
 * fitOrder([500, undefined, 400]); // [0, 2]
 * // A README ranked first is tried after the code file ranked second.
 * fitOrder([500, 500], { code: [false, true] }); // [1, 0]
 * // A 12,000-token test ranked 32nd, tried last, is tried 15th with a tie's chance of 0.1.
 * const costs = [400, ...Array(30).fill(2000), 12000];
 * fitOrder(costs).indexOf(31); // 31
 * fitOrder(costs, { tied: [...Array(31).fill(0), 0.1] }).indexOf(31); // 14
 * ```
 */
export function fitOrder(
  costs: (number | undefined)[],
  options: FitOrderOptions = {},
): number[] {
  const { code, tied } = options;
  const value = (i: number) =>
    Math.max(placeChance(i), tied?.[i] ?? 0) / Math.max(costs[i]!, 1) ** SIZE_EXPONENT *
    (code && !code[i] ? OTHER_FILES : 1);
  const order: number[] = [];
  for (let i = 0; i < costs.length; i++) if (costs[i] !== undefined) order.push(i);
  return order.sort((a, b) => value(b) - value(a) || a - b);
}
