/**
 * The option and model-table types every built-in provider shares, for the
 * library's users (`mod.ts`): HTTP settings, model overrides and payload
 * options. The providers themselves take them from their private modules.
 *
 * @example
 * ```ts
 * import type { HttpOptions, ModelOverrides } from "./types.ts";
 * const http: HttpOptions = { timeoutMs: 30_000 };
 * const models: ModelOverrides = {};
 * ```
 *
 * @module
 */

export type { HttpOptions } from "./_http.ts";
export type { ModelEntry, ModelOverrides } from "./_models.ts";
export type { PayloadOptions } from "./_payload.ts";
