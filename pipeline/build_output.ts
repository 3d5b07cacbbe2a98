/**
 * A build's last stages: plan the provider cache, write the caches and the
 * manifest, get the document ready (`prepareOutput`), then publish it and
 * commit the order memory when the build is finished (`build.ts` runs them).
 *
 * @module
 */

import { callHook, orderingRules } from "./registry.ts";
import { redactWarnings, withSecrets } from "./secrets.ts";
import { contextWarning, planCache, withBreakpoints } from "./cache_plan.ts";
import { type Published, renderDocument } from "./emit.ts";
import { writeBudgetMemory } from "./_budget_memory.ts";
import { relative } from "./_path.ts";
import { orderMemoryWarning, unwritableReason } from "./_state_write.ts";
import { streamDocument } from "./document.ts";
import { markStateDir } from "./state_dir.ts";
import { type BuildRun, type Output, recordCacheUse, type Stages } from "./stages.ts";
import type {
  Assembled,
  BuildOptions,
  BuildResult,
  FinishOptions,
  PreparedBuild,
} from "./build_options.ts";
import type { Manifest, PlacedBlock } from "./types.ts";

/**
 * Plan the cache, write the caches and the manifest, and get the outputs
 * ready to publish: the prepared build's `finish()` publishes them.
 *
 * @example
 * ```ts
 * import { prepareOutput } from "./build_output.ts";
 * // const prepared = await prepareOutput(stages, run, options, assembled);
 * // const result = await prepared.finish();
 * ```
 */
export async function prepareOutput(
  stages: Stages,
  run: BuildRun,
  options: BuildOptions,
  assembled: Assembled,
): Promise<PreparedBuild> {
  const { config, registry, warn } = run;
  const { files, placed, budget, findings } = assembled;
  const clock = options.timings;
  // The document is streamed from the blocks as it is hashed and written, never held whole.
  const document = streamDocument(placed);
  await redactWarnings(run.warnings, config.secrets.rules);
  const plan = await planCache(placed, registry, assembled.orderContext);
  // A document the configured model cannot take is said before anything is sent.
  const tokens = placed.reduce((n, b) => n + b.tokens, 0);
  const tooLarge = plan && contextWarning(plan, tokens, config.budget.tokens);
  if (tooLarge) warn(tooLarge);
  clock?.mark("plan");

  await stages.persist(files);
  if (run.cache.enabled) clock?.mark("cache write");

  const built = withSecrets(stages.manifest(files, { document, placed }), findings);
  let manifest = withBreakpoints(withBudgetAndTask(built, assembled), plan);
  const written = {
    document,
    placed,
    manifest,
    manifestFor: (path: string): Manifest => {
      const { version, ...rest } = manifest;
      return (manifest = { version, output: path, ...rest });
    },
  };
  const output = await stages.emit(written, options.write !== false);
  let finished = false;
  return {
    files,
    async finish(more: FinishOptions = {}): Promise<BuildResult> {
      if (finished) throw new Error("A prepared build is finished once");
      finished = true;
      // Asked to remember only now: the state dir was not marked when the build began.
      if (options.remember === false && more.remember) markStateDir(config.stateDir, config.root);
      const published = await publishBuild(stages, run, { ...options, ...more }, assembled, output);
      (more.timings ?? clock)?.mark("emit");
      const { warnings } = run;
      return withDocument(
        { files, manifest, output: published, warnings, cache: plan, budget },
        placed,
      );
    },
    discard() {
      if (!finished) output.discard();
      finished = true;
    },
  };
}

/** Record the cache use, publish the outputs and commit the order memory. */
async function publishBuild(
  stages: Stages,
  run: BuildRun,
  options: BuildOptions & FinishOptions,
  assembled: Assembled,
  output: Output,
): Promise<Published | undefined> {
  const { config, registry } = run;
  const { placed, budget, orderContext } = assembled;
  if (options.record ?? true) {
    await stages.later(() => recordCacheUse(run, assembled.files, assembled.counted));
  }
  const published = await output.publish(options.write ?? true);
  // The order memory is recorded whether the document was written or piped (`--stdout`).
  if (options.remember ?? true) {
    await stages.later(async () => {
      try {
        for (const rule of orderingRules(registry)) {
          const commit = rule.commit;
          if (commit) await callHook(rule, "commit", () => commit(placed, orderContext));
        }
        if (budget && assembled.stepMemory) await writeBudgetMemory(config, budget.steppedDown);
      } catch (error) {
        // A read-only or full state dir: the document does not depend on the memory.
        const reason = unwritableReason(error);
        if (!reason) throw error;
        const shown = relative(config.root, config.stateDir);
        run.warn(orderMemoryWarning(shown.startsWith("..") ? config.stateDir : shown, reason));
      }
    });
  }
  stages.end();
  return published;
}

/** A build's result, with the document made from its blocks when first asked for. */
function withDocument(
  result: Omit<BuildResult, "document" | "blocks">,
  blocks: PlacedBlock[],
): BuildResult {
  let text: string | undefined;
  return {
    get document() {
      return (text ??= renderDocument(blocks));
    },
    blocks,
    ...result,
  };
}

/** The manifest with the budget's report and the task, when the build had them. */
function withBudgetAndTask(manifest: Manifest, { budget, task }: Assembled): Manifest {
  return { ...manifest, ...(budget ? { budget } : {}), ...(task ? { task } : {}) };
}
