/**
 * A loop of this thread's own work that lets the early counts' helpers in: between two items it
 * takes a turn of the event loop when {@linkcode precountTurn} says one is due (every 50 ms of
 * work while a helper may wait for its next batch). The count stage hashes every block before it
 * counts (seconds on a big tree) and the helpers' answers, each of which hands its helper the next
 * batch, came in only after it: the helper idled meanwhile and this thread counted what it had
 * left (bench/README.md, "twenty-eighth session, cold41").
 *
 * @module
 */

import { precountTurn } from "./precount.ts";

/**
 * `work` of each of `items` in order, as `items.map(work)` gives it, with a turn of the event loop
 * between two items where `turn` gives one ({@linkcode precountTurn} by default).
 *
 * @example
 * ```ts
 * import { mapWithTurns } from "./turns.ts";
 * await mapWithTurns([1, 2, 3], (n) => n * 2); // [2, 4, 6]
 * ```
 */
export async function mapWithTurns<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => R,
  turn: () => Promise<void> | undefined = precountTurn,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = work(items[i], i);
    const wait = turn();
    if (wait) await wait;
  }
  return out;
}
