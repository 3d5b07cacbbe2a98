/**
 * The V8 flags of slop's processes, in a module of its own: the relaunch
 * reads them without loading `slop init` (a build server starts with its
 * own, `server/client.ts`).
 *
 * @module
 */

/**
 * The V8 flags slop runs with: a command that builds in its own process
 * starts again with them (`cli/_relaunch.ts`), so no task or command line
 * names them; the benchmark passes them itself. A young generation of at most 4 MB per half
 * instead of V8's 32, which keeps about 20-45 MB off a cold build's peak RSS
 * (it grows while the project's texts are read and stays resident) at no
 * measured cost in CPU time. And no TurboFan: JavaScript is optimized by
 * Maglev only. A build is a short process whose hot code (the code views'
 * walk, the tokenizer, the scanner) runs for a second or two in each of its
 * threads, and TurboFan spent more CPU compiling it, on background threads
 * that took the build's cores, than its faster code saved: a cold zod
 * `skeleton` build took 1.14 s against 1.32 (CPU 1.80 against 2.21 s, medians
 * of 12 alternating runs), the stdlib's 2.36 against 2.81, the typescript
 * lib's 3.20 against 3.64; full builds, warm builds and `slop watch`
 * rebuilds took the same. On one core it is the other way (zod's skeleton
 * under `taskset -c 0`: 2.32 s against 2.11), which the README says. A
 * running process cannot set them for itself: after `node:v8`'s
 * `setFlagsFromString` TurboFan still compiled the hot functions and the
 * young generation still grew to 32 MB a half (hence the start again).
 *
 * @example
 * ```ts
 * import { SLOP_V8_FLAGS } from "./_v8_flags.ts";
 * const args = ["run", "-A", SLOP_V8_FLAGS, "cli.ts", "build"];
 * ```
 */
export const SLOP_V8_FLAGS = "--v8-flags=--max-semi-space-size=4,--no-turbofan";
