/**
 * LLM calls for view modes, sections and commands: find the provider named by
 * `provider.name` and run its `complete` hook, so that errors name the plugin.
 *
 * @module
 */

import { callHook, findProvider, type Registry } from "./registry.ts";
import { redactingComplete } from "./secrets.ts";
import { typeName } from "./schema.ts";
import type { CompleteFn, CompletionRequest, ResolvedConfig } from "./types.ts";

/** Options of {@linkcode completer}. */
export interface CompleterOptions {
  /** Environment lookup. @default {Deno.env.get} */
  env?: (name: string) => string | undefined;
  /** Milliseconds before a call that never settles fails. @default {120000} */
  timeoutMs?: number;
}

/**
 * A function that asks the configured provider's model.
 *
 * @example
 * ```ts
 * import { completer } from "./llm.ts";
 * // const complete = completer(registry, config);
 * // const text = await complete({ prompt: "Summarize: ..." });
 * ```
 */
export function completer(
  registry: Registry,
  config: ResolvedConfig,
  options: CompleterOptions = {},
): CompleteFn {
  // Every prompt is redacted before it leaves the process (see secrets.ts).
  const complete = redactingComplete(async (request: CompletionRequest) => {
    const name = config.provider.name;
    if (!name) {
      throw new Error(`No provider configured: set "provider.name" to ask a model`);
    }
    const plugin = findProvider(registry, name);
    if (!plugin) throw new Error(`Unknown provider "${name}" in "provider.name"`);
    const complete = plugin.complete;
    if (!complete) throw new Error(`[plugin ${plugin.name}] Provider cannot answer requests`);
    const env = options.env ?? ((key: string) => Deno.env.get(key));
    const result = await callHook(
      plugin,
      "complete",
      () =>
        complete({ model: config.provider.model, ...request }, { provider: config.provider, env }),
      { timeoutMs: options.timeoutMs ?? 120_000 },
    );
    if (typeof result !== "string") {
      throw new Error(`[plugin ${plugin.name}] Hook "complete" must return a string`);
    }
    return result;
  }, config.secrets.rules);
  return (request) => {
    // A plugin's request is checked before anything reads it: a missing prompt failed with the
    // runtime's "Cannot read properties of undefined".
    checkRequest(request);
    return complete(request);
  };
}

/** Throw when `request` is no `CompletionRequest`: the error names the wrong field and its value. */
function checkRequest(request: unknown): asserts request is CompletionRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new TypeError(
      `ctx.complete() takes a request such as { prompt: "..." }; got ${typeName(request)}`,
    );
  }
  const fields = request as Record<string, unknown>;
  if (typeof fields.prompt !== "string") {
    throw new TypeError(
      `ctx.complete()'s "prompt" must be a string; got ${typeName(fields.prompt)}`,
    );
  }
  for (const key of ["system", "model"]) {
    if (fields[key] !== undefined && typeof fields[key] !== "string") {
      throw new TypeError(
        `ctx.complete()'s "${key}" must be a string; got ${typeName(fields[key])}`,
      );
    }
  }
  const max = fields.maxTokens;
  if (max !== undefined && !(typeof max === "number" && Number.isInteger(max) && max > 0)) {
    throw new TypeError(
      `ctx.complete()'s "maxTokens" must be a whole number above 0; got ${typeName(max)}`,
    );
  }
  if (fields.signal !== undefined && !(fields.signal instanceof AbortSignal)) {
    throw new TypeError(
      `ctx.complete()'s "signal" must be an AbortSignal; got ${typeName(fields.signal)}`,
    );
  }
}
