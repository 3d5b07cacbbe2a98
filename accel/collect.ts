/**
 * A full garbage collection on request, for `slop watch` and the build server
 * (`server/builds.ts`) between builds. V8
 * collects its old generation only once it has grown past a limit set from
 * the largest heap so far (the first build's): each rebuild's garbage (the
 * last build's blocks, manifest and memos it replaced) would pile up on top
 * of what the process keeps, and raise its peak RSS rebuild after rebuild.
 * Deno runs no collection on request unless started with `--expose-gc`;
 * `node:v8` sets that flag at run time, and a context made after it
 * (`node:vm`) has the `gc` function. The flag is unset again at once, so no
 * later context (a worker's) sees a `gc` global.
 *
 * A collection also throws away the compiled code of functions that did not
 * run lately (bytecode flushing), which the next rebuild would compile again:
 * so the process that asks for collections keeps its code (the cost of
 * either way is measured in bench/README.md, "Where the memory goes").
 *
 * @module
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The collector once looked for: a function, or `null` when the runtime gives none. */
let collector: (() => void) | null | undefined;

/**
 * Run a full garbage collection now (it blocks this thread for tens of ms);
 * `false` when the runtime does not allow it (nothing is done then). The
 * first call also stops V8 from flushing this process's compiled code.
 *
 * @example
 * ```ts
 * import { collectGarbage } from "./collect.ts";
 * collectGarbage(); // true on Deno 2
 * ```
 */
export function collectGarbage(): boolean {
  collector ??= findCollector();
  collector?.();
  return collector !== null;
}

/**
 * The collector: V8's own `gc` when the process was started with `--expose-gc` (a big tree's
 * flags, `cli/_v8_flags.ts`), one full collection a call; else the `gc` of a context made with
 * the flag set at run time, which is a low-memory collection (two full collections that compact
 * every page, the second freeing nothing: bench/README.md, "The cold build's collections"); `null`
 * when the runtime gives neither.
 */
function findCollector(): (() => void) | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === "function") {
    keepCompiledCode();
    return () => own();
  }
  try {
    setFlagsFromString("--expose-gc");
    const found = runInNewContext("gc");
    if (typeof found !== "function") return null;
    keepCompiledCode();
    return () => found();
  } catch {
    return null;
  } finally {
    try {
      setFlagsFromString("--no-expose-gc");
    } catch {
      // Left set: only contexts made later see it.
    }
  }
}

/** The process that asks for collections keeps its compiled code (see the module's doc). */
function keepCompiledCode(): void {
  setFlagsFromString("--no-flush-bytecode");
  setFlagsFromString("--no-flush-baseline-code");
}
