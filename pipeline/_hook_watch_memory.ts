/**
 * The memory the build's thread shares with the thread that watches its plugins' hooks
 * (`hook_watchdog.ts`): a few times and texts, each text in a region of its own.
 *
 * @module
 */

/** How long past its limit a hook holds the thread before the process is ended. */
export const GRACE_MS = 2000;

/** The texts the shared memory holds, each in its region. */
export const REGIONS = {
  sync: [0, 4096],
  oldest: [4096, 4096],
  log: [8192, 4096],
  words: [12288, 16384],
};
export type Region = keyof typeof REGIONS;
export const LENGTH_AT: Record<Region, number> = { sync: 0, oldest: 1, log: 2, words: 3 };
/** Where `lengths` holds how many last words did not fit in their region (and are not said). */
export const UNSAID_AT = 4;
const BYTES = 12288 + 16384;

/** The size of the shared memory. */
export const SHARED_BYTES = 64 + BYTES;

/**
 * The build's thread's monotonic clock (ms), which the shared times are in: unlike `Date.now()`,
 * it never steps, nor moves on while the machine sleeps, as a hook's timer does not.
 *
 * @example
 * ```ts
 * import { clock } from "./_hook_watch_memory.ts";
 * console.log(clock() <= clock());
 * ```
 */
export function clock(): number {
  return performance.now();
}

/** Views of the memory shared with the watch's thread. */
export interface Layout {
  buffer: SharedArrayBuffer;
  /** The sync hook's start and limit (ms), the last turn, the oldest awaited hook's deadline. */
  times: Float64Array;
  /** Each region's length in bytes (`LENGTH_AT`), then the last words left out (`UNSAID_AT`). */
  lengths: Int32Array;
  bytes: Uint8Array;
}

/**
 * The views of `buffer`, as both threads read it.
 *
 * @example
 * ```ts
 * import { layout, SHARED_BYTES } from "./_hook_watch_memory.ts";
 * const memory = layout(new SharedArrayBuffer(SHARED_BYTES));
 * ```
 */
export function layout(buffer: SharedArrayBuffer): Layout {
  return {
    buffer,
    times: new Float64Array(buffer, 0, 4),
    lengths: new Int32Array(buffer, 32, 5),
    bytes: new Uint8Array(buffer, 64, BYTES),
  };
}

/**
 * The text last written to `region` ("" when none).
 *
 * @example
 * ```ts
 * import { layout, readText, SHARED_BYTES } from "./_hook_watch_memory.ts";
 * console.log(readText(layout(new SharedArrayBuffer(SHARED_BYTES)), "log") === "");
 * ```
 */
export function readText(at: Layout, region: Region): string {
  const [start] = REGIONS[region];
  const length = Atomics.load(at.lengths, LENGTH_AT[region]);
  return new TextDecoder().decode(at.bytes.slice(start, start + length));
}
