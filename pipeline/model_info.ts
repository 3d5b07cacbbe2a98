/**
 * A provider's description of a model (`modelInfo`), asked through the plugin hook and checked:
 * a plugin's value of another shape (`"x"`, `{ name: 5 }`, a price of `NaN`) failed later in
 * slop's own code with a message naming nothing (`Cannot read properties of undefined`), or
 * priced the cache at `NaN` dollars.
 *
 * @module
 */

import { callHook } from "./registry.ts";
import type { ModelInfo, ProviderPlugin } from "./types.ts";

const TOKENIZERS = new Set(["o200k", "cl100k", "o200k-estimate", "chars-estimate"]);

/**
 * What `provider` knows of `model` (its default model when undefined), or undefined when it does
 * not know it. Throws an error naming the plugin when the hook fails or returns another shape.
 *
 * @example
 * ```ts
 * import { providerModel } from "./model_info.ts";
 * const provider = { kind: "provider" as const, name: "mine", modelInfo: () => undefined };
 * await providerModel(provider, "my-model"); // undefined: a model it does not know
 * ```
 */
export async function providerModel(
  provider: ProviderPlugin,
  model?: string,
): Promise<ModelInfo | undefined> {
  const ask = provider.modelInfo;
  if (!ask) return undefined;
  const info = await callHook(provider, "modelInfo", () => ask.call(provider, model));
  if (info === undefined || info === null) return undefined;
  const problem = modelProblem(info);
  if (problem) {
    throw new Error(
      `[plugin ${provider.name}] Hook "modelInfo" returned an invalid model: ${problem}`,
    );
  }
  return info;
}

/** What is wrong with a model description, if anything. */
function modelProblem(info: unknown): string | undefined {
  if (typeof info !== "object") return "expected an object";
  const m = info as Record<string, unknown>;
  const count = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  if (typeof m.model !== "string") return `"model" must be a string`;
  if (!count(m.minCacheTokens)) return `"minCacheTokens" must be a number of 0 or more`;
  const ttls = m.ttls;
  if (!Array.isArray(ttls) || !ttls.length || !ttls.every((t) => typeof t === "string")) {
    return `"ttls" must be a non-empty array of strings`;
  }
  if (typeof m.breakpoints !== "boolean") return `"breakpoints" must be true or false`;
  if (!TOKENIZERS.has(m.tokenizer as string)) {
    return `"tokenizer" must be one of ${[...TOKENIZERS].map((t) => `"${t}"`).join(", ")}`;
  }
  for (const key of ["tokenFactor", "contextWindow"]) {
    if (m[key] !== undefined && !(count(m[key]) && (m[key] as number) > 0)) {
      return `"${key}" must be a number over 0`;
    }
  }
  const prices = m.prices as Record<string, unknown> | null;
  if (typeof prices !== "object" || prices === null) return `"prices" must be an object`;
  for (const key of ["input", "output", "cacheRead", "storagePerHour"]) {
    if ((key !== "storagePerHour" || prices[key] !== undefined) && !count(prices[key])) {
      return `"prices.${key}" must be a number of 0 or more`;
    }
  }
  const writes = prices.cacheWrite;
  if (
    writes !== undefined &&
    !(typeof writes === "object" && writes !== null && Object.values(writes).every(count))
  ) {
    return `"prices.cacheWrite" must map each TTL to a number of 0 or more`;
  }
  return undefined;
}
