/**
 * What other folders use of the code views' engine (`_code.ts`) and of the
 * pool of threads it renders on (`_code_pool.ts`): {@linkcode renderCodeShared}
 * (the CLI warms the pool with it), {@linkcode definedNames} (the names a file defines, for
 * ranking files for a task) and the engine's types (`mod.ts` exports them).
 *
 * @example
 * ```ts
 * import { renderCodeShared } from "./code_views.ts";
 * const view = await renderCodeShared("a.py", "def f(x):\n    return x\n");
 * view?.symbols[0].name; // "f"
 * ```
 *
 * @module
 */

export { renderCodeShared } from "./_code_pool.ts";
export { definedNames, MAX_DEFS, MAX_PARSE_CHARS, RANK_MAX_WORK } from "./_defined_names.ts";
export type { CodeSymbol, CodeView, RenderCodeOptions } from "./_code.ts";
