/**
 * The whole pipeline, top to bottom: config -> resolve -> read -> secrets ->
 * transform -> compose -> order -> count -> budget -> emit. Each stage is a
 * function over plain data (`stages.ts`); a speed layer, when one is given,
 * wraps them (`accel/`, `server/`).
 *
 * @module
 */

import { callHook, loadViewModes, orderingRules } from "./registry.ts";
import { failOnSecrets, redactBlocks, redactWarnings, withSecrets } from "./secrets.ts";
import { attachSideSlices } from "./slices_file.ts";
import { chooseView, focusOf } from "./transform.ts";
import { releaseCounting } from "./count.ts";
import { orderBlocks } from "./order.ts";
import { contextWarning, planCache, withBreakpoints } from "./cache_plan.ts";
import { renderDocument } from "./emit.ts";
import { formatBlocks } from "./formats.ts";
import { loadBudgetMemory, writeBudgetMemory } from "./_budget_memory.ts";
import { totalTokens } from "./budget.ts";
import { fitTask, mapConfig } from "./task.ts";
import { unmatchedFocus } from "./personas.ts";
import { streamDocument } from "./document.ts";
import { markStateDir } from "./state_dir.ts";
import { startRun } from "./run.ts";
import {
  type BuildRun,
  type Counted,
  fitToBudget,
  type Output,
  plainStages,
  recordCacheUse,
  type Stages,
} from "./stages.ts";
import type { Published } from "./emit.ts";
import type { BuildOptions, BuildResult, FinishOptions, PreparedBuild } from "./build_options.ts";
import type {
  BudgetReport,
  Manifest,
  ManifestTask,
  OrderContext,
  PlacedBlock,
  RenderedFile,
  ResolvedConfig,
  SecretFinding,
  SourceFile,
} from "./types.ts";

export type {
  BuildOptions,
  BuildProgress,
  BuildResult,
  FinishOptions,
  PreparedBuild,
} from "./build_options.ts";

/**
 * Build the context document for a resolved config.
 *
 * @example Build without writing
 * ```ts
 * import { build } from "./build.ts";
 * import { loadConfig } from "./config.ts";
 * import { defaultPlugins } from "../plugins/defaults.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const result = await build(config, { builtins: defaultPlugins(), write: false });
 * console.log(result.manifest.prefix.bytes);
 * ```
 */
export async function build(config: ResolvedConfig, options: BuildOptions): Promise<BuildResult> {
  const prepared = await prepareBuild(config, options);
  return await prepared.finish();
}

/**
 * Run a build up to its outputs: everything {@linkcode build} does but write
 * the document and manifest, commit the order and record the build, which
 * `finish()` does. A build server prepares the next build when its watcher
 * sees an edit, and finishes it when the build is asked for and nothing it
 * read has changed since.
 *
 * @example
 * ```ts
 * import { prepareBuild } from "./build.ts";
 * import { loadConfig } from "./config.ts";
 * import { defaultPlugins } from "../plugins/defaults.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const prepared = await prepareBuild(config, { builtins: defaultPlugins() });
 * const result = await prepared.finish({ write: false });
 * console.log(result.manifest.total.bytes);
 * ```
 */
export async function prepareBuild(
  config: ResolvedConfig,
  options: BuildOptions,
): Promise<PreparedBuild> {
  // Count workers started during the transform end with the build, whatever it ends with.
  return await prepareOnce(config, options).finally(releaseCounting);
}

async function prepareOnce(config: ResolvedConfig, options: BuildOptions): Promise<PreparedBuild> {
  // The order memory is written by every build that remembers, written or piped.
  const remembers = (options.remember ?? true) && (options.orderSource ?? "state") === "state" &&
    !config.paths.length;
  const run = await startRun(config, { ...options, remembers });
  options.timings?.mark("plugins");
  const stages = options.layer ? options.layer.wrap(plainStages(run), run) : plainStages(run);
  const rendered = await renderFiles(stages, run, options);
  const assembled = await assemble(stages, run, options, rendered);
  return await prepareOutput(stages, run, options, assembled);
}

/** What {@linkcode renderFiles} gives: the sources, their rendered files and the secrets found. */
interface Rendered {
  sources: SourceFile[];
  files: RenderedFile[];
  findings: SecretFinding[];
  /** Files whose render came from the cache (for progress reports). */
  cacheHits: number;
}

/** Resolve, read, redact and transform: each file rendered by its view. */
async function renderFiles(
  stages: Stages,
  run: BuildRun,
  options: BuildOptions,
): Promise<Rendered> {
  const { config, registry, warn } = run;
  const clock = options.timings;
  const resolution = await stages.resolve();
  resolution.warnings.forEach(warn);
  await attachSideSlices(resolution.targets, config, warn);
  clock?.mark("resolve");

  const sources = await stages.read(resolution.targets);
  clock?.mark("read");
  // Lazy built-ins (`cli/_builtins.ts`): the view modes this build chooses are imported now.
  const inFocus = focusOf(config, sources.map((s) => s.path));
  await loadViewModes(registry, sources.map((s) => chooseView(s, config, inFocus(s.path))));

  // Secrets are redacted before any plugin, cache or log sees the text.
  const findings = await stages.secrets(sources);
  // Decoded and hashed: the raw bytes of text files are not used again (a copy of the project).
  for (const source of sources) if (source.text !== undefined) source.bytes = undefined;
  clock?.mark("secrets");

  unmatchedFocus(config.focus, sources.map((s) => s.path)).forEach(warn);
  const progress = options.onProgress;
  let done = 0;
  let cacheHits = 0;
  const files = await stages.transform(
    sources,
    progress && ((file) => {
      if (file.cache === "hit") cacheHits++;
      progress({ stage: "transform", done: ++done, total: sources.length, cacheHits });
    }),
  );
  clock?.mark("transform");
  // The texts are rendered now: let them go (a budget's step reads its file again), unless a task
  // may render files again.
  if (config.task === undefined) {
    for (const source of sources) source.bytes = source.text = undefined;
  }
  return { sources, files, findings, cacheHits };
}

/** What {@linkcode assemble} gives: the document's blocks, placed and counted. */
interface Assembled extends Rendered {
  placed: PlacedBlock[];
  counted: Counted;
  orderContext: OrderContext;
  budget?: BudgetReport;
  /** Whether the budget's steps are remembered for the next build. */
  stepMemory: boolean;
  /** The task the document was built for (`pipeline/task.ts`). */
  task?: ManifestTask;
}

/** Compose, order, count and fit the budget: the document's blocks, in place. */
async function assemble(
  stages: Stages,
  run: BuildRun,
  options: BuildOptions,
  rendered: Rendered,
): Promise<Assembled> {
  const { config, registry, warn } = run;
  const { files, findings, cacheHits } = rendered;
  const clock = options.timings;
  const blocks = await stages.compose(files);
  findings.push(...await redactBlocks(blocks, config.secrets.rules));
  failOnSecrets(findings, config.secrets.failOnSecret, warn);
  clock?.mark("compose");

  const orderSource = options.orderSource ?? "state";
  const fileOrder = stages.fileOrder(files, orderSource);
  const { root, stateDir } = config;
  const orderContext: OrderContext = {
    config,
    files,
    root,
    stateDir,
    orderSource,
    fileOrder,
    warn,
  };
  const ordered = await orderBlocks(blocks, registry, orderContext);
  const formatted = formatBlocks(ordered, files, config.output.format);
  clock?.mark("order");

  const progress = options.onProgress;
  progress?.({ stage: "tokens", done: 0, total: formatted.length, cacheHits });
  const counted = await stages.count(
    formatted,
    progress && ((n, total) => progress({ stage: "tokens", done: n, total, cacheHits })),
  );
  clock?.mark("count");

  // Token budget: step files down until the document fits (see pipeline/budget.ts).
  // `slop build` remembers its steps; `slop check` and PATHS builds neither read nor write them.
  const stepMemory = orderSource === "state" && !config.paths.length;
  const assembled = { ...rendered, placed: counted.placed, counted, orderContext, stepMemory };
  // With a task, the map before the task section is fitted to its part (pipeline/task.ts).
  if (config.budget.tokens === undefined) return await withTask(run, assembled, options);
  const fit = await fitToBudget({ ...run, config: mapConfig(config) }, files, {
    sources: rendered.sources,
    placed: counted.placed,
    counts: counted.counts,
    orderContext,
    remembered: stepMemory ? await loadBudgetMemory(config) : [],
  });
  clock?.mark("budget");
  return await withTask(run, { ...assembled, placed: fit.placed, budget: fit.report }, options);
}

/** The task section after the task-independent map, in what the budget leaves (`task.ts`). */
async function withTask(
  run: BuildRun,
  assembled: Assembled,
  options: BuildOptions,
): Promise<Assembled> {
  const { config } = run;
  if (config.task === undefined) return assembled;
  const { files, sources, orderContext } = assembled;
  const state = { config, files, root: config.root, stateDir: config.stateDir };
  const task = await fitTask(state, assembled.placed, {
    sources,
    registry: run.registry,
    order: orderContext,
    transform: {
      warn: run.warn,
      complete: run.complete,
      timeoutMs: run.hookTimeoutMs,
      cache: run.cache,
    },
    tokenCache: assembled.counted.counts,
  });
  assembled.findings.push(...task.secrets);
  const after = totalTokens(task.placed);
  const budget = assembled.budget &&
    {
      ...assembled.budget,
      tokens: config.budget.tokens!,
      after,
      met: after <= config.budget.tokens!,
    };
  options.timings?.mark("task");
  return { ...assembled, placed: task.placed, budget, task: task.task };
}

/** Plan the cache, write the caches and the manifest, and get the outputs ready to publish. */
async function prepareOutput(
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
      for (const rule of orderingRules(registry)) {
        const commit = rule.commit;
        if (commit) await callHook(rule, "commit", () => commit(placed, orderContext));
      }
      if (budget && assembled.stepMemory) await writeBudgetMemory(config, budget.steppedDown);
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
