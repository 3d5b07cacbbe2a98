/**
 * The whole pipeline, top to bottom: config -> resolve -> read -> secrets ->
 * transform -> compose -> order -> count -> budget -> task -> emit. Each stage is a
 * function over plain data (`stages.ts`); a speed layer, when one is given,
 * wraps them (`accel/`, `server/`). `renderFiles`, `assemble` and
 * `fitDocument` below run the stages up to a counted, fitted document;
 * `build_output.ts` plans the cache, writes the manifest and publishes.
 *
 * @module
 */

import { loadViewModes } from "./registry.ts";
import { failOnSecrets, redactBlocks } from "./secrets.ts";
import { attachSideSlices } from "./slices_file.ts";
import { chooseView, focusOf } from "./transform.ts";
import { releaseCounting } from "./count.ts";
import { loadBudgetMemory } from "./_budget_memory.ts";
import { mapConfig, mapKept, taskHistory, withTask, withTaskTextRoom } from "./task.ts";
import { unmatchedFocus } from "./personas.ts";
import { startRun } from "./run.ts";
import { type Building, endFailed, readyToPublish } from "./build_output.ts";
import { plainStages } from "./stages.ts";
import type {
  Assembled,
  BuildOptions,
  BuildResult,
  PreparedBuild,
  Rendered,
} from "./build_options.ts";
import type { OrderContext, ResolvedConfig, SourceFile } from "./types.ts";

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
  const building = { stages, run, options };
  try {
    const rendered = await renderFiles(building);
    const assembled = await assemble(building, rendered);
    return await readyToPublish(building, assembled);
  } catch (error) {
    endFailed(building);
    throw error;
  }
}

/** Resolve, read, redact and transform: each file rendered by its view. */
async function renderFiles({ stages, run, options }: Building): Promise<Rendered> {
  const { config, registry, warn } = run;
  const clock = options.timings;
  const resolution = await stages.resolve();
  resolution.warnings.forEach(warn);
  await attachSideSlices(resolution.targets, config, warn);
  clock?.mark("resolve");

  const progress = options.onProgress;
  const scan = { stage: "scan", done: 0, total: resolution.targets.length, cacheHits: 0 } as const;
  progress?.(scan);
  // The scan's start told as files are read: a build cancelled meanwhile stops reading.
  const sources = await stages.read(resolution.targets, progress && (() => progress(scan)));
  clock?.mark("read");
  // Lazy built-ins (`cli/_builtins.ts`): the view modes this build chooses are imported now.
  const inFocus = focusOf(config, sources.map((s) => s.path));
  await loadViewModes(registry, sources.map((s) => chooseView(s, config, inFocus(s.path))));

  // Secrets are redacted before any plugin, cache or log sees the text. The scan's start is told
  // again with the bytes read: a build cancelled during the read (its progress throws) ends here.
  const bytesTotal = sources.reduce((n, s) => n + s.size, 0);
  progress?.({ ...scan, bytesDone: 0, bytesTotal });
  const findings = await scanSecrets({ stages, run, options }, sources, { bytesTotal });
  // Decoded and hashed: the raw bytes of text files are not used again (a copy of the project).
  for (const source of sources) {
    if (source.bytes && source.text !== undefined) source.bytes = undefined;
  }
  clock?.mark("secrets");
  progress?.({ ...scan, done: scan.total, bytesDone: bytesTotal, bytesTotal });

  unmatchedFocus(config.focus, sources.map((s) => s.path)).forEach(warn);
  let done = 0;
  let cacheHits = 0;
  let bytesDone = 0;
  const files = await stages.transform(
    sources,
    progress && ((file) => {
      if (file.cache === "hit") cacheHits++;
      bytesDone += file.bytes;
      const total = sources.length;
      progress({ stage: "transform", done: ++done, total, cacheHits, bytesDone, bytesTotal });
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

/**
 * The secrets stage over `sources` (`bytesTotal` bytes), telling `onProgress` the files scanned as
 * they are (the start and the end are told by the caller). What `onProgress` throws meanwhile (a
 * cancelled MCP call) stops the scan at the next file: the scan ends the files under way, stops
 * its threads and throws it.
 */
async function scanSecrets(
  { stages, options }: Building,
  sources: SourceFile[],
  { bytesTotal }: { bytesTotal: number },
) {
  const progress = options.onProgress;
  const total = sources.length;
  return await stages.secrets(
    sources,
    progress && ((done, bytesDone) => {
      if (done === 0 || done >= total) return;
      progress({ stage: "scan", done, total, cacheHits: 0, bytesDone, bytesTotal });
    }),
  );
}

/** The budget stage's progress, as `onProgress` is told it (`undefined` without one). */
function budgetProgress(
  progress: BuildOptions["onProgress"],
  cacheHits: number,
): ((shed: number, over: number) => void) | undefined {
  return progress && ((done, total) => progress({ stage: "budget", done, total, cacheHits }));
}

/** Compose, order, count, then fit the budget and the task: the document's blocks, in place. */
async function assemble(building: Building, rendered: Rendered): Promise<Assembled> {
  const { stages, run, options } = building;
  const { config, warn } = run;
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
  const formatted = await stages.order(blocks, orderContext);
  clock?.mark("order");

  const progress = options.onProgress;
  progress?.({ stage: "tokens", done: 0, total: formatted.length, cacheHits });
  const counted = await stages.count(
    formatted,
    progress && ((n, total) => progress({ stage: "tokens", done: n, total, cacheHits })),
  );
  clock?.mark("count");
  return await fitDocument(building, { ...rendered, counted, orderContext });
}

/**
 * Token budget: step files down until the document fits (see pipeline/budget.ts); with a task,
 * the map before the task section is fitted to its part (pipeline/task.ts).
 */
async function fitDocument(
  building: Building,
  input: Pick<Assembled, keyof Rendered | "counted" | "orderContext">,
): Promise<Assembled> {
  const { stages, options } = building;
  // A task's text longer than its part of the budget takes room from the map.
  const run = await withTaskTextRoom(building.run);
  const { config } = run;
  const { files, sources, findings, orderContext } = input;
  // `slop build` remembers its steps; `slop check` and PATHS builds neither read nor write them.
  const stepMemory = orderContext.orderSource === "state" && !config.paths.length;
  const { placed, counts } = input.counted;
  // A task build reads the recent git history once: for the map's kept files and the ranking.
  const history = await taskHistory(config, { warn: run.warn });
  const assembled = { ...input, placed, stepMemory, history };
  if (config.budget.tokens === undefined) return await withTask(run, assembled, options);
  const map = { files, placed, sources, history, secrets: findings };
  const fit = await stages.budget(files, {
    config: mapConfig(config),
    sources,
    placed,
    counts,
    orderContext,
    remembered: stepMemory ? loadBudgetMemory(config) : [],
    keep: await mapKept(run, map),
    onProgress: budgetProgress(options.onProgress, input.cacheHits),
  });
  options.timings?.mark("budget");
  return await withTask(run, { ...assembled, placed: fit.placed, budget: fit.report }, options);
}
