/**
 * The longest delay a timer takes, in a module of its own with no imports: the build server's
 * client names its server's files with it (`server/files.ts`), and a client that loaded
 * `helpers.ts` for one number loaded much of the pipeline with it (bench/README.md, "The build
 * server's warm answer").
 *
 * @module
 */

/**
 * The longest delay a timer takes, in ms (2^31 - 1, about 24.8 days): past it `setTimeout` fires
 * at once (with Node's `TimeoutOverflowWarning` on stderr), so a setting of a delay is at most this.
 *
 * @example
 * ```ts
 * import { MAX_TIMER_MS } from "./timer_limit.ts";
 * MAX_TIMER_MS; // 2147483647
 * ```
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
