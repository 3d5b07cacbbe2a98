/**
 * The V8 flags of slop's processes, in a module of its own: a build client
 * starts its server with them without loading `slop init`.
 *
 * @module
 */

/**
 * The V8 flags slop runs with (in `slop init`'s task, this repository's
 * tasks and the benchmark): a young generation of at most 4 MB per half
 * instead of V8's 32, which keeps about 20-45 MB off a cold build's peak RSS
 * (it grows while the project's texts are read and stays resident) at no
 * measured cost in CPU time. A running process cannot set them for itself.
 *
 * @example
 * ```ts
 * import { SLOP_V8_FLAGS } from "./_v8_flags.ts";
 * const task = `deno run -A ${SLOP_V8_FLAGS} cli.ts build`;
 * ```
 */
export const SLOP_V8_FLAGS = "--v8-flags=--max-semi-space-size=4";
