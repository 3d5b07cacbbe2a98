/**
 * The V8 flags of slop's processes, in a module of its own: a build client
 * starts its server with them without loading `slop init`; and what a build
 * server starts with instead.
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

/**
 * The V8 flags of a build server (`slop build --server`): a young generation
 * of at most 1 MB per half. The server's builds after the first handle one
 * edit's worth of new objects; with 4 MB halves the young generation grew to
 * 4 MB on each of them and stayed there, which was 4-5 MB of zod's per-build
 * peak (94-95 against 99-102 MB, with {@linkcode SERVER_ENV}), at no measured
 * cost in a build's time, cold or warm.
 *
 * @example
 * ```ts
 * import { SERVER_V8_FLAGS } from "./_v8_flags.ts";
 * const args = ["run", "-A", SERVER_V8_FLAGS, "cli.ts", "server", "run"];
 * ```
 */
export const SERVER_V8_FLAGS = "--v8-flags=--max-semi-space-size=1";

/**
 * The environment a build server starts with, beside its client's: glibc's
 * malloc with one arena for all threads instead of up to eight per core. A
 * cold first build runs workers and the runtime's thread pool, each of whose
 * threads took an arena that kept its freed memory afterwards (5-6 MB of
 * zod's per-build peak). Read by glibc when the process starts; other C
 * libraries ignore it.
 *
 * @example
 * ```ts
 * import { SERVER_ENV } from "./_v8_flags.ts";
 * new Deno.Command(Deno.execPath(), { args: ["--version"], env: SERVER_ENV });
 * ```
 */
export const SERVER_ENV: Record<string, string> = { MALLOC_ARENA_MAX: "1" };
