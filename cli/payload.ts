/**
 * `slop payload`: build without writing and print the request body of a
 * provider's API for the ordered blocks (breakpoints, TTLs, cache key).
 *
 * @module
 */

import { flagNumber } from "./_flags.ts";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import type { BuildResult } from "../pipeline/build_options.ts";
import { redactText } from "../pipeline/secrets.ts";
import { type CachePlan, contextWarning, planCache } from "../pipeline/cache_plan.ts";
import { providerModel } from "../pipeline/model_info.ts";
import {
  callHook,
  createRegistry,
  findProvider,
  providers,
  registerUserPlugins,
  type Registry,
} from "../pipeline/registry.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import type { PayloadOptions, ProviderConfig, ProviderPlugin } from "../pipeline/types.ts";
import { printError, printWarning } from "./_output.ts";
import { writeStdout } from "./_terminal.ts";
import { speedLayer } from "../accel/speed_layer.ts";
import { progressBar } from "./_progress.ts";
import { commandErrorText } from "./_error_message.ts";

/** Flags of `slop payload`. */
export interface PayloadFlags {
  config?: string;
  stateDir?: string;
  /** Persona from the config (`--persona`). */
  persona?: string;
  /** Preset from the config (`--preset`). */
  preset?: string;
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
  const maxTokens = maxTokensFlag(flags.maxTokens);
  const config = await loadConfig({
    config: flags.config,
    stateDir: flags.stateDir,
    persona: flags.persona,
    preset: flags.preset,
  });
  const configured = config.provider;
  const target = payloadTarget(flags, configured);
  const name = target.name!;
  const registry = createRegistry(defaultPlugins());
  registerUserPlugins(registry, config.plugins);
  const provider = payloadProvider(registry, name, flags.provider ? "flag" : "config");
  if (flags.ttl) await checkTtl(provider, { model: target.model, ttl: flags.ttl });
  // The build (and its LLM calls, e.g. llm_summary) uses the configured provider, so a payload
  // for another provider neither asks that provider nor misses the summaries cached for this one.
  // Its build shows its progress on a terminal, as `slop build` does; a warning clears it first.
  const bar = progressBar({ enabled: Deno.stderr.isTerminal() });
  const warn = (message: string) => {
    bar.clear();
    printWarning(message);
  };
  // The build planned for the configured provider (Anthropic when none is set).
  const planned = { ...configured, name: configured.name ?? "anthropic" };
  const sameTarget = JSON.stringify(target) === JSON.stringify(planned);
  // For another model its warnings wait: the context window they name is the configured model's.
  const held: string[] = [];
  const result = await build(config, {
    builtins: defaultPlugins(),
    layer: speedLayer(),
    write: false,
    onWarning: sameTarget ? warn : (warning) => held.push(warning),
    onProgress: bar.update,
  }).finally(bar.done);
  const plan = sameTarget ? result.cache : await planCache(result.blocks, registry, {
    config: { ...config, provider: target },
    files: result.files,
    root: config.root,
    stateDir: config.stateDir,
    orderSource: "state",
    warn,
  });
  if (!sameTarget) targetWarnings(held, result, plan, config.budget.tokens).forEach(warn);
  // The question goes into the request after the context: redacted as the task is.
  const prompt = flags.prompt === undefined
    ? undefined
    : (await redactText(flags.prompt, "prompt", { rules: config.secrets.rules })).text;
  return await askPayload(provider, result.blocks, {
    model: plan?.model.model ?? target.model,
    ttl: plan?.ttl,
    breakpoints: plan?.breakpoints,
    root: config.root,
    prompt,
    maxTokens,
  });
}

/** The provider's request body for `blocks`, which must be a JSON value. */
async function askPayload(
  provider: PayloadProvider,
  blocks: BuildResult["blocks"],
  options: PayloadOptions,
): Promise<unknown> {
  const body = await callHook(provider, "payload", () => provider.payload(blocks, options));
  const problem = jsonProblem(body);
  if (problem) throw new Error(`[plugin ${provider.name}] Hook "payload" ${problem}`);
  return body;
}

/**
 * Why `body` is no request body `slop payload` can print, if it is not: a plugin's `undefined`
 * was printed as the word `undefined`, and a BigInt or a cycle stopped the command with
 * JSON's own message, naming no plugin.
 */
function jsonProblem(body: unknown): string | undefined {
  try {
    return JSON.stringify(body) === undefined
      ? `returned no JSON value (${typeof body})`
      : undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `returned a value JSON cannot hold: ${detail.split("\n")[0]}`;
  }
}

/** `--max-tokens`: a positive whole number, or undefined when not given. */
function maxTokensFlag(value: string | undefined): number | undefined {
  const maxTokens = value === undefined ? undefined : flagNumber(value);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new UsageError(`Invalid --max-tokens "${value}": expected a positive whole number`);
  }
  return maxTokens;
}

/** The provider and model the payload is for: the flags' over the configured ones. */
function payloadTarget(flags: PayloadFlags, configured: ProviderConfig): ProviderConfig {
  const name = flags.provider ?? configured.name ?? "anthropic";
  // Another provider's payload takes none of the configured provider's settings (base URL, key).
  const target: ProviderConfig = !flags.provider || flags.provider === configured.name
    ? { ...configured, name }
    : { name };
  if (flags.model) target.model = flags.model;
  if (flags.ttl) target.ttl = flags.ttl;
  return target;
}

/**
 * The warnings of a build for a payload to another model than the configured one: the build's,
 * with its context-window warning (the configured model's) replaced by the target model's.
 */
function targetWarnings(
  held: string[],
  result: BuildResult,
  plan: CachePlan | undefined,
  budget: number | undefined,
): string[] {
  const tokens = result.manifest.total.tokens;
  const configured = result.cache && contextWarning(result.cache, tokens, budget);
  const target = plan && contextWarning(plan, tokens, budget);
  return [...held.filter((warning) => warning !== configured), ...(target ? [target] : [])];
}

/** A provider plugin that renders request payloads. */
type PayloadProvider = ProviderPlugin & Required<Pick<ProviderPlugin, "payload">>;

/** The provider plugin named by `--provider` (or the config), which must render payloads. */
function payloadProvider(
  registry: Registry,
  name: string,
  from: "flag" | "config",
): PayloadProvider {
  const provider = findProvider(registry, name);
  if (!provider?.payload) {
    const names = providers(registry).filter((p) => p.payload).map((p) =>
      `"${p.name.replace(/^slop:/, "")}"`
    );
    const given = from === "flag" ? "--provider" : '"provider.name"';
    throw new UsageError(
      provider
        ? `Provider "${name}" in ${given} has no "payload" hook: pass --provider, one of ${
          names.join(", ")
        }`
        : `Unknown provider "${name}" in ${given}: expected one of ${names.join(", ")}`,
    );
  }
  return provider as PayloadProvider;
}

/** Throw when the provider knows the model and it does not offer the `--ttl` asked for. */
async function checkTtl(
  provider: ProviderPlugin,
  { model, ttl }: { model?: string; ttl: string },
): Promise<void> {
  const info = await providerModel(provider, model);
  if (info && !info.ttls.includes(ttl)) {
    const offered = info.ttls.map((t) => `"${t}"`).join(", ");
    throw new UsageError(`Invalid --ttl "${ttl}": "${info.model}" offers ${offered}`);
  }
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
    await writeStdout(bytes);
    return 0;
  } catch (error) {
    printError(commandErrorText(error));
    return error instanceof ConfigError || error instanceof UsageError ? 2 : 1;
  }
}
