/**
 * The build's stages as one object of functions over plain data, and the
 * plain way to run each: no memo of an earlier build, no stat index, no
 * worker started ahead. `build.ts` runs them in order. A speed layer
 * (`accel/`, `server/`) is a function that takes these stages and gives
 * stages that make the same bytes sooner; a stage never asks which it is.
 *
 * @module
 */

import { resolveTargets } from "./resolve.ts";
import { readTargets } from "./read.ts";
import { transformFiles, type TransformOptions } from "./transform.ts";
import { composeBlocks } from "./compose.ts";
import { fileOrder } from "./order_memory.ts";
import { countMany } from "./count.ts";
import {
  buildManifest,
  OutputFolderError,
  placeBlocks,
  pruneOutputs,
  publish,
  type Published,
  type PublishOptions,
} from "./emit.ts";
import { recordBuild } from "./cache.ts";
import { cacheUnsavedWarning } from "./_cache_check.ts";
import { orderBlocks } from "./order.ts";
import { FORMAT_EXTENSIONS, formatBlocks } from "./formats.ts";
import { redactBlocks, redactMessage, redactSources } from "./secrets.ts";
import { fitBudget, type FitResult } from "./budget.ts";
import { fileBlockTokens } from "./_budget_blocks.ts";
import type { StreamedDocument } from "./document.ts";
import type { Cache, CacheOptions } from "./cache.ts";
import type { Resolution } from "./resolve.ts";
import type { Registry } from "./registry.ts";
import type {
  Block,
  CompleteFn,
  DeriveFn,
  FileOrder,
  Manifest,
  OrderContext,
  PlacedBlock,
  RecordFn,
  RenderedFile,
  ResolvedConfig,
  SecretFinding,
  SourceFile,
  StepDown,
  Target,
} from "./types.ts";

/** What every stage of one build shares: the config, the plugins and the warnings. */
export interface BuildRun {
  /** The resolved config. */
  config: ResolvedConfig;
  /** The frozen plugin registry: built-ins and the config's plugins. */
  registry: Registry;
  /** Raise a warning (redacted, kept in order, passed to `onWarning`). */
  warn(message: string): void;
  /** The build's caller's warning callback (for work done after the build returned). */
  onWarning?: (message: string) => void;
  /** The warnings raised so far. */
  warnings: string[];
  /** Asks the configured provider (LLM view modes, compaction). */
  complete: CompleteFn;
  /** The content-hash cache of views and token counts (disabled by `--no-cache`). */
  cache: Cache;
  /**
   * Let go of what the run opened for a build that ends unfinished (failed): the cache it opened
   * for itself (a layer's cache is the layer's to keep). @default {undefined} nothing to let go of
   */
  discard?(): void;
  /** Hook timeout in ms. */
  hookTimeoutMs?: number;
  /** Threads that scan and count tokens; 1: only this thread. */
  workers?: number;
  /**
   * Makes a value from a text alone (a file's block, its content key): `derived()` of
   * `helpers.ts`, which makes it now, unless a layer hands its memo of earlier builds' values.
   */
  derived: DeriveFn;
  /**
   * Makes a value from a record alone (a rendered file's block): none (made now), unless a layer
   * hands its memo of earlier builds' values (`SectionContext.fromRecord`).
   */
  fromRecord?: RecordFn;
}

/** The token counts of a build's blocks, as the count stage found them. */
export interface Counted {
  /** The blocks with offsets, hashes and token counts, in document order. */
  placed: PlacedBlock[];
  /** Token count by block sha256 (the budget counts its step-downs with it). */
  counts: Map<string, number>;
  /** Distinct texts whose count came from the cache. */
  hits: number;
  /** Distinct texts counted now. */
  misses: number;
}

/** What the emit stage is given to write. */
export interface Written {
  /** The document, streamed from the placed blocks. */
  document: StreamedDocument;
  /** The placed blocks it is made of. */
  placed: PlacedBlock[];
  /** The manifest (no `output` yet). */
  manifest: Manifest;
  /** The manifest once the output's path is known. */
  manifestFor(output: string): Manifest;
}

/** A build's outputs, ready to publish (see {@linkcode Stages.emit}). */
export interface Output {
  /** Publish the document and manifest (`write: false`: do not, and drop what was made ahead). */
  publish(write: boolean): Promise<Published | undefined>;
  /** The build will not be finished: drop what was made ahead. */
  discard(): void;
}

/** The stages of a build after config; each takes and gives plain data. */
export interface Stages {
  /** Entries, globs and ignore rules to sorted targets. */
  resolve(): Promise<Resolution>;
  /**
   * Each target read once: text, sha256, or the problem. `onEach` is told the files read so far;
   * what it throws stops the reads.
   */
  read(targets: Target[], onEach?: (done: number) => void): Promise<SourceFile[]>;
  /**
   * Secrets in the texts redacted in place; the findings. `onProgress` is told the files and
   * their bytes done: those not scanned at once, then each as its scan ends.
   */
  secrets(
    sources: SourceFile[],
    onProgress?: (files: number, bytes: number) => void,
  ): Promise<SecretFinding[]>;
  /** Each file rendered by its view mode; `onFile` is called as each is done. */
  transform(sources: SourceFile[], onFile?: (file: RenderedFile) => void): Promise<RenderedFile[]>;
  /** The section plugins' blocks. */
  compose(files: RenderedFile[]): Promise<Block[]>;
  /** The remembered order of the files section (what the `volatility` rule applies). */
  fileOrder(files: RenderedFile[], source: "state" | "lock"): FileOrder;
  /** The blocks ordered by the ordering rules, stable first, in the output format. */
  order(blocks: Block[], context: OrderContext): Promise<Block[]>;
  /** Offsets, hashes and token counts of the ordered blocks; `onBlock` as counts are found. */
  count(blocks: Block[], onBlock?: (done: number, total: number) => void): Promise<Counted>;
  /** Files stepped down (in place) until the document fits `budget.tokens` ({@linkcode fitToBudget}). */
  budget(
    files: RenderedFile[],
    input: BudgetInput & { config: ResolvedConfig },
  ): Promise<FitResult>;
  /** The manifest of the placed blocks (`output` absent; a layer may give it when its hashes are in). */
  manifest(
    files: RenderedFile[],
    written: Pick<Written, "document" | "placed">,
  ): Manifest | Promise<Manifest>;
  /** Get ready to publish (a layer may write the document ahead when `write`). */
  emit(written: Written, write: boolean): Promise<Output>;
  /** Write what the build put in the cache. */
  persist(files: RenderedFile[]): Promise<void>;
  /** Work a build leaves for its end (cache use, the order's commit); a layer may run it later. */
  later(work: () => Promise<void>): Promise<void>;
  /**
   * The build is over: finished, or (`failed`) failed or discarded, when nothing it made is read
   * again but what a layer keeps between builds.
   */
  end(how?: { failed?: boolean }): void;
}

/** A faster way to run some of the stages, making the same bytes (see `accel/`, `server/`). */
export interface StageLayer {
  /** Before the build opens its cache (a layer may wait for its last build's work). */
  begin?(config: ResolvedConfig): Promise<void>;
  /** The cache to build with (a layer may keep one open between builds). */
  cache?(dir: string, options: CacheOptions): Cache | undefined;
  /** What makes values from texts (a layer may keep them between builds; see `BuildRun.derived`). */
  derived?(): DeriveFn | undefined;
  /** What makes values from records (a layer may keep them between builds; see `BuildRun.fromRecord`). */
  fromRecord?(): RecordFn | undefined;
  /** The stages, wrapped. */
  wrap(stages: Stages, run: BuildRun): Stages;
}

/**
 * What a build's renders are given, from its run: the warning sink, the provider, the hooks'
 * timeout and the cache (the transform stage, a budget's and a task's renders alike).
 *
 * @example
 * ```ts
 * import { transformOptions } from "./stages.ts";
 * // const files = await transformFiles(sources, config, registry, transformOptions(run));
 * ```
 */
export function transformOptions(run: BuildRun): TransformOptions & { complete: CompleteFn } {
  return { warn: run.warn, complete: run.complete, timeoutMs: run.hookTimeoutMs, cache: run.cache };
}

/**
 * The plain stages of a build.
 *
 * @example
 * ```ts
 * import { plainStages } from "./stages.ts";
 * // const stages = plainStages(run);
 * // const targets = (await stages.resolve()).targets;
 * ```
 */
export function plainStages(run: BuildRun): Stages {
  const { config, registry, cache } = run;
  const tokenizer = config.budget.tokenizer;
  return {
    resolve: () => resolveTargets(config),
    read: (targets, onEach) => readTargets(targets, config, { onEach }),
    secrets: (sources, onProgress) =>
      redactSources(sources, config.secrets.rules, { cache, workers: run.workers, onProgress }),
    transform: (sources, onFile) =>
      transformFiles(sources, config, registry, { ...transformOptions(run), onFile }),
    compose: (files) =>
      composeBlocks(
        { config, files, root: config.root, stateDir: config.stateDir },
        registry,
        {
          warn: run.warn,
          complete: run.complete,
          derived: run.derived,
          fromRecord: run.fromRecord,
        },
      ),
    fileOrder: (files, source) =>
      fileOrder(config, { source, files, derived: run.derived, warn: run.warn }),
    order: async (blocks, context) =>
      formatBlocks(
        await orderBlocks(blocks, registry, context),
        context.files,
        config.output.format,
      ),
    async count(blocks, onBlock) {
      const found = await countMany(blocks.map((b) => b.text), {
        tokenizer,
        cache,
        workers: run.workers,
        onProgress: blocksDone(blocks.length, onBlock),
      });
      const placed = await placeBlocks(blocks, { tokenizer, tokenCache: found.counts });
      onBlock?.(blocks.length, blocks.length);
      return { ...found, placed };
    },
    // A task build fits the map before its task section (`task.ts`) to the map's config.
    budget: (files, { config: fitted, ...input }) =>
      fitToBudget({ ...run, config: fitted }, { ...input, files }),
    manifest: (files, { document, placed }) =>
      buildManifest(files, placed, { document, warnings: run.warnings }),
    emit: (written) =>
      Promise.resolve({
        publish: async (write) => write ? await publishOutput(run, written) : undefined,
        discard: () => {},
      }),
    persist: () => saveCache(run),
    later: (work) => work(),
    end: () => {},
  };
}

/**
 * The count stage's progress in blocks: `countMany`'s share of characters counted, as that share
 * of `total` blocks, the last block told once they are placed (undefined without `onBlock`).
 *
 * @example
 * ```ts
 * import { blocksDone } from "./stages.ts";
 * blocksDone(200, (done, total) => console.log(done, total))?.(0.5); // 100 200
 * ```
 */
export function blocksDone(
  total: number,
  onBlock?: (done: number, total: number) => void,
  before = 0,
): ((share: number) => void) | undefined {
  return onBlock &&
    ((share) => {
      const done = before + Math.floor(share * (total - before));
      onBlock(Math.max(0, Math.min(total - 1, done)), total);
    });
}

/**
 * Publish a build's document and manifest under the next number, and prune
 * the outputs past `output.keep`.
 *
 * @example
 * ```ts
 * import { publishOutput } from "./stages.ts";
 * // const published = await publishOutput(run, written);
 * ```
 */
export async function publishOutput(
  run: BuildRun,
  written: Written,
  options: PublishOptions & {
    /**
     * Runs the pruning of the old outputs: a speed layer's may run it after the build has
     * returned (removing a big tree's old document takes the kernel a while).
     * @default {undefined} pruned before this returns
     */
    prune?: (work: () => Promise<void>) => Promise<void>;
  } = {},
): Promise<Published> {
  const { output, root } = run.config;
  const { dir, namespace } = output;
  const { prune = (work) => work(), ...publishOptions } = options;
  const published = await publish(
    written.document,
    { dir, namespace, manifestFor: written.manifestFor, root },
    { ext: FORMAT_EXTENSIONS[output.format], ...publishOptions },
  ).catch((error) => {
    throw ownOutputDirError(error, run.config);
  });
  // The oldest numbered outputs past `output.keep` or `output.keepBytes` go (numbers are never reused).
  if (output.keep !== false || output.keepBytes !== false) {
    await prune(() => {
      pruneOutputs(output.dir, output.namespace, {
        keep: output.keep === false ? Infinity : output.keep,
        keepBytes: output.keepBytes === false ? Infinity : output.keepBytes,
      });
      return Promise.resolve();
    });
  }
  return published;
}

/**
 * An output folder error for a folder the config named (`output.dir`): the key named with the
 * folder, and the key to change in the hint (`--state-dir` does not move a folder the config
 * names). Any other error as it is.
 */
function ownOutputDirError(error: unknown, config: ResolvedConfig): unknown {
  if (!(error instanceof OutputFolderError) || config.raw.output?.dir === undefined) return error;
  const problem = error.problem.replace(/^([^"]*"[^"]*")/, '$1 ("output.dir")');
  return new OutputFolderError(
    problem,
    ': print the document with --stdout, or set "output.dir" to a folder you can write',
  );
}

/**
 * Store what the build's cache wrote (`Cache.flush`); a write the cache folder refused (a full
 * disk, a file in the place of its `packs` folder) is one warning naming the folder and why.
 *
 * @example
 * ```ts
 * import { saveCache } from "./stages.ts";
 * // await saveCache(run);
 * ```
 */
export async function saveCache(run: Pick<BuildRun, "cache" | "config" | "warn">): Promise<void> {
  const reason = await run.cache.flush();
  const warning = reason === undefined ? undefined : cacheUnsavedWarning(run.config, reason);
  if (warning) run.warn(warning);
}

/**
 * Record a build's cache use as the last build's (`slop cache stats`): its files' renders taken
 * from the cache or made, and its texts' counts (`counted`).
 *
 * @example
 * ```ts
 * import { recordCacheUse } from "./stages.ts";
 * // await recordCacheUse(run, { files, counted });
 * ```
 */
export async function recordCacheUse(
  run: BuildRun,
  { files, counted }: { files: RenderedFile[]; counted: Pick<Counted, "hits" | "misses"> },
): Promise<void> {
  if (!run.cache.enabled) return;
  await recordBuild(run.config.cache.dir, {
    files: {
      hits: files.filter((f) => f.cache === "hit").length,
      misses: files.filter((f) => f.cache === "miss").length,
    },
    tokens: { hits: counted.hits, misses: counted.misses },
  });
}

/** What {@linkcode fitToBudget} steps down from. */
export interface BudgetInput {
  /** The sources the files were rendered from (rendered again with other views). */
  sources: SourceFile[];
  /** The placed blocks before any step. */
  placed: PlacedBlock[];
  /** Token counts by block sha256, from the count stage. */
  counts: Map<string, number>;
  /** The order context the blocks were ordered with. */
  orderContext: OrderContext;
  /** The previous build's steps, taken first while still valid and needed. */
  remembered: StepDown[];
  /** Files never stepped down (a task build's map keeps them in full). */
  keep?: ReadonlySet<string>;
  /** Told as files step down: tokens shed so far of the tokens over ({@linkcode fitBudget}). */
  onProgress?: (shed: number, over: number) => void;
}

/**
 * The budget stage: step files down until the document fits `budget.tokens`
 * (see `budget.ts`), counting each stepped file's block on its own where a
 * block depends on its file alone (`_budget_blocks.ts`), else composing,
 * ordering and placing the blocks again after each step. `input.files` is
 * updated in place.
 *
 * @example
 * ```ts
 * import { fitToBudget } from "./stages.ts";
 * // const { placed, report } = await fitToBudget(run, { ...input, files });
 * ```
 */
export async function fitToBudget(
  run: BuildRun,
  input: BudgetInput & { files: RenderedFile[] },
): Promise<FitResult> {
  const { config, registry } = run;
  const { files } = input;
  const rules = config.secrets.rules;
  // Sections and ordering rules run again per step: their warnings were reported the first time.
  const warnNew = (raw: string) => {
    if (!run.warnings.includes(redactMessage(raw, rules))) run.warn(raw);
  };
  const assemble = async () => {
    const state = { config, files, root: config.root, stateDir: config.stateDir };
    const blocks = await composeBlocks(state, registry, {
      warn: warnNew,
      complete: run.complete,
      derived: run.derived,
      fromRecord: run.fromRecord,
    });
    await redactBlocks(blocks, rules); // found and listed on the first compose
    const ordered = await orderBlocks(blocks, registry, { ...input.orderContext, warn: warnNew });
    const formatted = formatBlocks(ordered, files, config.output.format);
    const tokenizer = config.budget.tokenizer;
    return await placeBlocks(formatted, { tokenizer, tokenCache: input.counts });
  };
  return await fitBudget(files, input.placed, {
    sources: input.sources,
    config,
    registry,
    transform: transformOptions(run),
    assemble,
    fileTokens: fileBlockTokens(run, input.counts),
    remembered: input.remembered,
    keep: input.keep,
    onProgress: input.onProgress,
  });
}
