/**
 * A build's last stages: plan the provider cache, write the caches, make the
 * manifest and get the document ready to publish (`readyToPublish`, which
 * `build.ts` calls); the prepared build's `finish()` then publishes it and
 * remembers the build (the cache use, the order memory).
 *
 * @module
 */

import { callHook, orderingRules } from "./registry.ts";
import { redactWarnings, withSecrets } from "./secrets.ts";
import { type CachePlan, contextWarning, planCache, withBreakpoints } from "./cache_plan.ts";
import { renderDocument } from "./emit.ts";
import { writeBudgetMemory } from "./_budget_memory.ts";
import { shownPath } from "./_path.ts";
import { orderMemoryWarning, unwritableReason } from "./_state_write.ts";
import { streamDocument } from "./document.ts";
import { markStateDir } from "./state_dir.ts";
import { type BuildRun, recordCacheUse, type Stages, type Written } from "./stages.ts";
import type {
  Assembled,
  BuildOptions,
  BuildResult,
  FinishOptions,
  PreparedBuild,
} from "./build_options.ts";
import type { Manifest, PlacedBlock } from "./types.ts";

/** What each step of a build is given: its stages, its run and its options. */
export interface Building {
  /** The build's stages (plain, or wrapped by a speed layer). */
  stages: Stages;
  /** The config, the plugins, the cache and the warnings. */
  run: BuildRun;
  /** The build's options. */
  options: BuildOptions;
}

/**
 * Plan the provider cache, write the caches, make the manifest and get the
 * document ready to publish: the prepared build, whose `finish()` publishes
 * the document and remembers the build.
 *
 * @example
 * ```ts
 * import { readyToPublish } from "./build_output.ts";
 * // const prepared = await readyToPublish({ stages, run, options }, assembled);
 * // const result = await prepared.finish();
 * ```
 */
export async function readyToPublish(
  building: Building,
  assembled: Assembled,
): Promise<PreparedBuild> {
  const { stages, run, options } = building;
  const { files, placed, budget } = assembled;
  const clock = options.timings;
  await redactWarnings(run.warnings, run.config.secrets.rules);
  const { plan, overWindow } = await providerCachePlan(run, assembled);
  clock?.mark("plan");
  await stages.persist(files);
  if (run.cache.enabled) clock?.mark("cache write");
  const written = await manifestAndDocument(building, assembled, plan);
  const output = await stages.emit(written, options.write !== false);
  let finished = false;
  return {
    files,
    async finish(more: FinishOptions = {}): Promise<BuildResult> {
      if (finished) throw new Error("A prepared build is finished once");
      finished = true;
      const { config } = run;
      // Asked to remember only now: the state dir was not marked when the build began.
      if (options.remember === false && more.remember) markStateDir(config.stateDir, config.root);
      const asked = { ...options, ...more };
      let published: Awaited<ReturnType<typeof output.publish>>;
      try {
        if (asked.record ?? true) {
          await stages.later(() => recordCacheUse(run, { files, counted: assembled.counted }));
        }
        published = await output.publish(asked.write ?? true);
        // The order memory is recorded whether the document was written or piped (`--stdout`).
        if (asked.remember ?? true) await stages.later(() => commitOrder(run, assembled));
      } catch (error) {
        output.discard();
        endFailed(building);
        throw error;
      }
      stages.end();
      (more.timings ?? clock)?.mark("emit");
      const { manifest } = written;
      const { warnings } = run;
      return withDocument(
        { files, manifest, output: published, warnings, overWindow, cache: plan, budget },
        placed,
      );
    },
    discard() {
      if (finished) return;
      finished = true;
      output.discard();
      endFailed(building);
    },
  };
}

/**
 * End a build that failed or was discarded: its layer lets go of what it opened for the build
 * (the views' threads, the spill file), the run of its own cache's unwritten pack.
 *
 * @example
 * ```ts
 * import { endFailed } from "./build_output.ts";
 * // try { ... } catch (error) { endFailed({ stages, run, options }); throw error; }
 * ```
 */
export function endFailed({ stages, run }: Building): void {
  stages.end({ failed: true });
  run.discard?.();
}

/**
 * The provider cache's plan of the document (where its breakpoints go), and a warning when the
 * configured model cannot take the document (said before anything is sent).
 */
async function providerCachePlan(
  run: BuildRun,
  { placed, orderContext }: Assembled,
): Promise<{ plan?: CachePlan; overWindow?: string }> {
  const { config, registry, warn } = run;
  const plan = await planCache(placed, registry, orderContext);
  const tokens = placed.reduce((n, b) => n + b.tokens, 0);
  const tooLarge = plan && contextWarning(plan, tokens, config.budget.tokens);
  // `slop check` (the order from the lock) compares the prefix and sends nothing to a model.
  if (!tooLarge || orderContext.orderSource === "lock") return { plan };
  warn(tooLarge);
  // The warning as kept (redacted), for a summary that says the same another way to leave out.
  return { plan, overWindow: run.warnings.at(-1) };
}

/**
 * What the emit stage writes: the document, streamed from the blocks as it is hashed and
 * written (never held whole), and its manifest, which takes the output's path when published.
 */
async function manifestAndDocument(
  { stages }: Building,
  assembled: Assembled,
  plan: CachePlan | undefined,
): Promise<Written & { readonly manifest: Manifest }> {
  const { files, placed, findings } = assembled;
  const document = streamDocument(placed);
  const built = withSecrets(await stages.manifest(files, { document, placed }), findings);
  let manifest = withBreakpoints(withBudgetAndTask(built, assembled), plan);
  return {
    document,
    placed,
    get manifest() {
      return manifest;
    },
    manifestFor: (path: string): Manifest => {
      const { version, ...rest } = manifest;
      return (manifest = { version, output: path, ...rest });
    },
  };
}

/**
 * Commit the order memory: each ordering rule's order as the document has it, and the budget's
 * steps. A state dir that takes no writes is a warning: the document does not depend on it.
 */
async function commitOrder(run: BuildRun, assembled: Assembled): Promise<void> {
  const { config, registry } = run;
  const { placed, budget, orderContext } = assembled;
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
    run.warn(orderMemoryWarning(shownPath(config.stateDir, config.root), reason));
  }
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
