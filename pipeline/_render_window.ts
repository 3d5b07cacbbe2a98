/**
 * The transform's render window: how many files render at once (`eachInWindow()`), so that the
 * inputs held at once stay bounded whatever the tree, and a render that stalls (an LLM view
 * queued behind its provider's limit) lets the next files start. A part of `transform.ts`, which
 * re-exports it; the speed layer's renders (`accel/kept_renders.ts`) share it.
 *
 * @module
 */

/**
 * At most this many files render at once. Each file in flight holds its input (a copy of its
 * text with line ends made LF), its promises and its render's own data until it ends, so the
 * files under way, not the tree, set the memory a transform holds (bench/README.md,
 * "seventeenth session, fuzz20"). 64 keeps the cores and the parse workers busy.
 */
export const RENDER_WINDOW = 64;

/**
 * A render under way for this long gives its place in the window to the next file, when a file
 * started after it has ended or no render has ended for as long: a view that never settles waits
 * out its hook timeout on each file (a minute by default), and held in the window, the files would
 * wait for it 64 at a time, one timeout after another. Renders that end in the order they began,
 * however slowly (a machine so loaded that a turn of the event loop takes a second), are not
 * stalled: the window keeps its size.
 */
const STALLED_MS = 1000;

/**
 * At most this many renders under way at once, stalled ones counted: slow renders (an LLM view
 * queued behind its provider's limit, parses on a loaded machine) leave the window one period
 * after another, and without a bound a big tree's would all be under way, each holding its input.
 */
const MAX_UNDER_WAY = 4096;

/** Options of {@linkcode eachInWindow}. */
export interface WindowOptions {
  /** Renders under way at once before any stalls. @default {RENDER_WINDOW} */
  window?: number;
  /** Most renders under way at once, stalled ones counted. @default {4096} */
  maxUnderWay?: number;
  /**
   * Asked before each render starts: a promise to wait for first (a turn of the event loop that
   * lets other threads' answers in), or nothing. @default {undefined} none
   */
  between?: () => Promise<void> | undefined;
}

/**
 * Call `start(i)` for each index below `count`, in order, with at most `window` of the renders it
 * returns under way at once (one that returns nothing took no place). A render under way for
 * {@linkcode STALLED_MS} while a later one ended, or while none ended, leaves the window, and the
 * window doubles; stalled or not, at most
 * `maxUnderWay` are under way. Resolves when every render has ended. A render's rejection (a
 * cancelled build throws from its progress callback) rejects it at the next turn of the window,
 * and no more renders start (those under way go on).
 *
 * @example
 * ```ts
 * import { eachInWindow } from "./transform.ts";
 * const done: number[] = [];
 * await eachInWindow(3, async (i) => void done.push(i), { window: 2 });
 * done; // [0, 1, 2]
 * ```
 */
export async function eachInWindow(
  count: number,
  start: (i: number) => Promise<void> | undefined,
  options: WindowOptions = {},
): Promise<void> {
  const { window = RENDER_WINDOW, maxUnderWay = MAX_UNDER_WAY, between } = options;
  const all: Promise<void>[] = [];
  let underWay = 0;
  // Each render under way, with when it started and its place in the start order; a render that
  // ends wakes the loop.
  const busy: Busy = { renders: new Map(), endedPlace: -1, lastEnd: Date.now() };
  let wake: (() => void) | undefined;
  let limit = Math.max(1, window);
  let failed = false;
  for (let i = 0; i < count && !failed; i++) {
    const turn = between?.();
    if (turn) await turn;
    const rendering = start(i);
    if (!rendering) continue;
    all.push(rendering);
    const place = i;
    busy.renders.set(rendering, { at: Date.now(), place });
    underWay++;
    const ended = () => {
      busy.renders.delete(rendering);
      busy.endedPlace = Math.max(busy.endedPlace, place);
      busy.lastEnd = Date.now();
      underWay--;
      wake?.();
    };
    rendering.then(ended, () => {
      failed = true;
      ended();
    });
    while ((busy.renders.size >= limit || underWay >= maxUnderWay) && !failed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, STALLED_MS);
      });
      clearTimeout(timer);
      wake = undefined;
      // Renders keep stalling (a view that never settles on any file): twice as many may start
      // in each period, so a big tree's renders have all started after a few periods (never
      // more than `maxUnderWay` under way at once).
      if (dropStalled(busy)) limit *= 2;
    }
  }
  await Promise.all(all);
}

/** The renders of {@linkcode eachInWindow} under way, and what it knows of those that ended. */
interface Busy {
  /** Each render under way, with when it started and its place in the start order. */
  renders: Map<Promise<void>, { at: number; place: number }>;
  /** The latest start place of a render that ended. */
  endedPlace: number;
  /** When a render last ended. */
  lastEnd: number;
}

/**
 * Take the stalled renders out of `busy` (see {@linkcode STALLED_MS}): under way that long while
 * a render started after it ended, or while none ended. Returns how many.
 */
function dropStalled(busy: Busy): number {
  const now = Date.now();
  const noneEnded = now - busy.lastEnd >= STALLED_MS;
  let stalled = 0;
  for (const [render, { at, place }] of busy.renders) {
    if (now - at < STALLED_MS || (place > busy.endedPlace && !noneEnded)) continue;
    busy.renders.delete(render);
    stalled++;
  }
  return stalled;
}

/** The warn of each file's render, and the mark of its end, from {@linkcode warningsInOrder}. */
export interface OrderedWarnings {
  /** The warn of the render of file `i`. */
  warnOf(i: number): (message: string) => void;
  /** The render of file `i` ended: its warnings held so far, and the next files', are told. */
  done(i: number): void;
}

/**
 * Tell the warnings of renders that end in any order in the files' order: file `i`'s warnings
 * are held until every file before it has ended, so the manifest lists them the same in every
 * build (a cold build's renders end as their parses do, a warm build's as the cache answers).
 *
 * @example
 * ```ts
 * import { warningsInOrder } from "./transform.ts";
 * const told: string[] = [];
 * const order = warningsInOrder(2, (m) => told.push(m));
 * order.warnOf(1)("b");
 * order.warnOf(0)("a");
 * order.done(1);
 * order.done(0);
 * told; // ["a", "b"]
 * ```
 */
export function warningsInOrder(count: number, warn: (message: string) => void): OrderedWarnings {
  const held = new Map<number, string[]>();
  const ended = new Set<number>();
  let next = 0;
  return {
    warnOf: (i) => (message) => {
      if (i === next) warn(message);
      else held.set(i, [...(held.get(i) ?? []), message]);
    },
    done(i) {
      ended.add(i);
      while (next < count && ended.has(next)) {
        ended.delete(next);
        next++;
        held.get(next)?.forEach(warn);
        held.delete(next);
      }
    },
  };
}
