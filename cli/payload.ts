/**
 * `slop payload`: build without writing and print the request body of a
 * provider's API for the ordered blocks (breakpoints, TTLs, cache key).
 *
 * @module
 */

import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import {
  createRegistry,
  findProvider,
  providers,
  registerUserPlugins,
} from "../pipeline/registry.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { printError } from "./_output.ts";

/** Flags of `slop payload`. */
export interface PayloadFlags {
  config?: string;
  stateDir?: string;
  /** Provider plugin (`--provider`), over `provider.name`. */
  provider?: string;
  /** Model (`--model`), over `provider.model`. */
  model?: string;
  /** Cache TTL (`--ttl`), over `provider.ttl`. */
  ttl?: string;
  /** The question after the context (`--prompt`). */
  prompt?: string;
  /** Output token limit (`--max-tokens`). */
  maxTokens?: string;
}

/** A flag error: exit code 2. */
class UsageError extends Error {}

/**
 * Build without writing and render the provider's request body, as
 * `slop payload` prints it.
 *
 * @example
 * ```ts
 * import { renderPayload } from "./payload.ts";
 * // const body = await renderPayload({ provider: "openai", model: "gpt-5" });
 * ```
 */
export async function renderPayload(flags: PayloadFlags): Promise<unknown> {
  const maxTokens = flags.maxTokens === undefined ? undefined : Number(flags.maxTokens);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new UsageError(
      `Invalid --max-tokens "${flags.maxTokens}": expected a positive whole number`,
    );
  }
  const config = await loadConfig({ config: flags.config, stateDir: flags.stateDir });
  const configured = config.provider;
  const name = flags.provider ?? configured.name ?? "anthropic";
  const sameProvider = !flags.provider || flags.provider === configured.name;
  config.provider = {
    ...configured,
    name,
    model: flags.model ?? (sameProvider ? configured.model : undefined),
    ttl: flags.ttl ?? (sameProvider ? configured.ttl : undefined),
  };
  const registry = createRegistry(defaultPlugins());
  registerUserPlugins(registry, config.plugins);
  const provider = findProvider(registry, name);
  if (!provider?.payload) {
    const names = providers(registry).filter((p) => p.payload).map((p) =>
      `"${p.name.replace(/^slop:/, "")}"`
    );
    throw new UsageError(
      `Unknown provider "${name}" in --provider: expected one of ${names.join(", ")}`,
    );
  }
  const result = await build(config, {
    builtins: defaultPlugins(),
    write: false,
    onWarning: (w) => console.error(`warning: ${w}`),
  });
  const plan = result.cache;
  return await provider.payload(result.blocks, {
    model: plan?.model.model ?? config.provider.model,
    ttl: plan?.ttl,
    breakpoints: plan?.breakpoints,
    root: config.root,
    prompt: flags.prompt,
    maxTokens,
  });
}

/**
 * Run `slop payload`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runPayload } from "./payload.ts";
 * // const code = await runPayload({ provider: "anthropic" });
 * ```
 */
export async function runPayload(flags: PayloadFlags): Promise<number> {
  try {
    const body = await renderPayload(flags);
    const bytes = new TextEncoder().encode(JSON.stringify(body, null, 2) + "\n");
    let written = 0;
    while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError || error instanceof UsageError ? 2 : 1;
  }
}
