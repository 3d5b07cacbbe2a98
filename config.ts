/**
 * `defineConfig` and the config's types, for `slop.config.ts`: what a config
 * imports, without the rest of slop's library. `mod.ts` exports the same
 * function, but importing it loads every module of the library (about 15 ms
 * of a build that only reads the config); a build loads this one anyway.
 * Type-only imports (`import type { ViewModePlugin } from ".../mod.ts"`) load
 * nothing, so a config's own plugins may take their types from `mod.ts`.
 *
 * @example
 * ```ts
 * import { defineConfig } from "./config.ts";
 *
 * export default defineConfig({
 *   files: ["src/**", { path: "src/big_module.ts", view: "summary" }],
 * });
 * ```
 *
 * @module
 */

export { defineConfig } from "./pipeline/config.ts";
export type * from "./pipeline/types.ts";
