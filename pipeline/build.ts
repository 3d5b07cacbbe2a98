/**
 * The whole pipeline: config -> resolve -> read -> transform -> compose ->
 * order -> emit, as one function over plain data.
 *
 * @module
 */

import { checkProvider, checkViews, ConfigError, displayPath } from "./config.ts";
import {
  callHook,
  createRegistry,
  findProvider,
  freeze,
  loadPlugins,
  loadViewModes,
  orderingRules,
  registerUserPlugins,
} from "./registry.ts";
import { resolveTargets, takeLstats } from "./resolve.ts";
import { readTargets } from "./read.ts";
import {
  failOnSecrets,
  redactBlocks,
  redactMessage,
  redactSources,
  redactWarnings,
  withSecrets,
} from "./secrets.ts";
import { attachSideSlices } from "./slices_file.ts";
import { mayDedup } from "./dedup.ts";
import { chooseView, focusOf, loadFocusGlobs, transformFiles } from "./transform.ts";
import { composeBlocks } from "./compose.ts";
import { completer } from "./llm.ts";
import { openCache, recordBuild } from "./cache.ts";
import {
  countMany,
  prefetchTable,
  prepareCounting,
  prestartCounting,
  releaseCounting,
} from "./count.ts";
import { orderBlocks, prefixEnd } from "./order.ts";
import { fileOrder } from "./order_memory.ts";
import { type CachePlan, contextWarning, planCache, withBreakpoints } from "./cache_plan.ts";
import {
  buildManifest,
  dropAhead,
  manifestJsonWithOutput,
  placeBlocks,
  pruneOutputs,
  publish,
  renderDocument,
  writeAhead,
} from "./emit.ts";
import { FORMAT_EXTENSIONS, formatBlocks } from "./formats.ts";
import { fitBudget } from "./budget.ts";
import { loadBudgetMemory, writeBudgetMemory } from "./_budget_memory.ts";
import { unmatchedFocus } from "./personas.ts";
import { streamDocument, type StreamedDocument } from "./_document.ts";
import { shareFileTexts } from "./_share_text.ts";
import { hashText } from "./_text_hash.ts";
import { textParts } from "./_block_parts.ts";
import type { StageClock } from "./timings.ts";
import {
  isDeferred,
  loadStatIndex,
  saveStatIndex,
  statIndexPath,
  statSession,
} from "./_stat_index.ts";
import { lateFindings } from "./_lazy_input.ts";
import type { Resident } from "./resident.ts";
import {
  type DocumentHasher,
  documentHasher,
  fileStamp,
  loadWritten,
  saveWritten,
  withWrittenBlocks,
} from "./_patch_write.ts";
import { earlierIn, earlierInMemo } from "./_count_diff.ts";
import { loadContentKeys, saveContentKeys } from "./_content_keys.ts";
import { prepareViews } from "./_prepare_views.ts";
import { markStateDir } from "./state_dir.ts";
import { isAbsolute, relative } from "./_path.ts";
import type {
  Block,
  BudgetReport,
  Manifest,
  OrderContext,
  PlacedBlock,
  Plugin,
  RenderedFile,
  ResolvedConfig,
} from "./types.ts";

/** Options of {@linkcode build}. */
export interface BuildOptions {
  /** The built-in plugins (see `plugins/defaults.ts`). */
  builtins: Plugin[];
  /** Write the document and manifest to `output.dir`. @default {true} */
  write?: boolean;
  /**
   * Record this build's cache hits as the last build's (`slop cache stats`); `false` for a
   * resident process's rehearsal, which builds only to run the code once. @default {true}
   */
  record?: boolean;
  /** Where ordering rules take the previous order from. @default {"state"} */
  orderSource?: "state" | "lock";
  /**
   * Record the order memory (the file order and the budget's steps) in the state dir, whether the
   * document is written or not: every build that makes a document for a model does, so the next
   * build keeps its prefix (`--stdout`, `--json`, the library, an MCP server). `false` for
   * inspection (`slop stats`, `report`) and for a resident process's rehearsal. A build with
   * `orderSource: "lock"` (`slop check`) or restricted to PATHS never records. @default {true}
   */
  remember?: boolean;
  /** Called for each warning as it happens. */
  onWarning?: (message: string) => void;
  /** Hook timeout in ms. @default {60000} */
  hookTimeoutMs?: number;
  /** Called as work finishes (files transformed, blocks counted), for progress bars. */
  onProgress?: (progress: BuildProgress) => void;
  /** Threads that scan and count tokens; 1: only this thread. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** Marked as each stage ends (`slop build --timings`). */
  timings?: StageClock;
  /** State kept between builds by a long-running process (`slop watch`; see `pipeline/resident.ts`). */
  resident?: Resident;
  /**
   * Files rendered ahead for this build by a build server's prepared builds: reported as
   * rendered, not as taken from the cache (see `TransformOptions.renderedAhead`).
   */
  renderedAhead?: (file: RenderedFile) => boolean;
}

/** A progress report of {@linkcode build}. */
export interface BuildProgress {
  /** `transform`: files rendered; `tokens`: blocks placed and counted. */
  stage: "transform" | "tokens";
  /** Items done in this stage. */
  done: number;
  /** Items in this stage. */
  total: number;
  /** Files whose transform came from the cache so far. */
  cacheHits: number;
}

/** What a build returns. */
export interface BuildResult {
  /** The document. */
  document: string;
  /** Ordered blocks with offsets, hashes and tokens. */
  blocks: PlacedBlock[];
  /** Files in path order with their status. */
  files: RenderedFile[];
  /** The manifest (as written beside the document). */
  manifest: Manifest;
  /** Where it was written (absent when `write: false`). */
  output?: { number: number; document: string; manifest: string };
  /** Warnings, in the order they were raised. */
  warnings: string[];
  /** The configured provider's cache plan: tokens, breakpoints, cold and warm cost. */
  cache?: CachePlan;
  /** The token budget and what was stepped down (only when a budget is set). */
  budget?: BudgetReport;
}

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

/** A build done up to writing its outputs (see {@linkcode prepareBuild}). */
export interface PreparedBuild {
  /** The files as rendered, with their views and cache use. */
  files: RenderedFile[];
  /**
   * Write the document and manifest (unless `write` is false), commit the ordering rules' state
   * and give the result. Once only: a second call, or one after `discard()`, is an error.
   */
  finish(options?: FinishOptions): Promise<BuildResult>;
  /**
   * Drop a build that will not be finished: the document it wrote ahead (a hidden temp file in
   * the output folder) is removed. Nothing after `finish()`.
   */
  discard(): void;
}

/** Options of {@linkcode PreparedBuild.finish}; absent ones are the build's. */
export interface FinishOptions {
  /** Write the document and manifest to `output.dir`. */
  write?: boolean;
  /** Record this build's cache hits as the last build's (`slop cache stats`). */
  record?: boolean;
  /** Record the order memory (see {@linkcode BuildOptions.remember}). */
  remember?: boolean;
  /** Marked as writing ends (`emit`). */
  timings?: StageClock;
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
  // The focus globs are matched synchronously later on: picomatch first, if they need it.
  await loadFocusGlobs(config);
  const warnings: string[] = [];
  const warn = (raw: string) => {
    const message = redactMessage(raw, config.secrets.rules);
    warnings.push(message);
    options.onWarning?.(message);
  };
  const registry = createRegistry(options.builtins);
  const configName = config.configPath
    ? displayPath(config.configPath, Deno.cwd())
    : "inline config";
  try {
    registerUserPlugins(registry, config.plugins);
  } catch (error) {
    throw new ConfigError(configName, [error instanceof Error ? error.message : String(error)]);
  }
  freeze(registry);
  const viewProblems = [
    ...checkViews(config.raw, registry),
    ...checkProvider(config.raw, registry),
  ];
  if (viewProblems.length) throw new ConfigError(configName, viewProblems);
  // A lazy built-in provider (`cli/_builtins.ts`) is imported once the config names it.
  await loadPlugins([findProvider(registry, config.provider.name ?? "anthropic")]);

  const clock = options.timings;
  clock?.mark("plugins");
  // What a resident process does after the build returns reports its failure as a warning.
  const deferredError = (error: unknown) =>
    options.onWarning?.(error instanceof Error ? error.message : String(error));
  const complete = completer(registry, config);
  // `--no-cache` (cache.enabled false) means everything anew: no memo of an earlier build either.
  const resident = config.cache.enabled ? options.resident : undefined;
  // The last build's cache writes are done before this one uses the cache.
  await resident?.settled();
  resident?.begin();
  const cacheOptions = {
    enabled: config.cache.enabled,
    pack: `${config.root}\0${config.configPath ?? ""}`,
    maxSize: config.cache.maxSize,
  };
  // A build that writes into the state dir marks it first: `.gitignore` of `*` (`state_dir.ts`).
  // The order memory is written there by every build that remembers, written or piped.
  const remembers = (options.remember ?? true) && (options.orderSource ?? "state") === "state" &&
    !config.paths.length;
  if (
    options.write !== false || remembers ||
    (config.cache.enabled && within(config.cache.dir, config.stateDir))
  ) {
    markStateDir(config.stateDir, config.root);
  }
  const cache = resident?.cache(config.cache.dir, cacheOptions) ??
    openCache(config.cache.dir, cacheOptions);
  // The pack (the size of the project) is read on the thread pool while files are resolved.
  const packRead = cache.prefetch?.();
  // Without a cached tokenizer table, a worker builds one while files are read.
  prepareCounting(config.budget.tokenizer, cache);
  let resolution = resident?.resolution(config);
  // The resolve stage's lstat of each file, when it resolved now (a kept resolution has none).
  let lstats: Map<string, Deno.FileInfo> | undefined;
  if (!resolution) {
    resolution = await resolveTargets(config, { previous: resident?.lastResolution(config) });
    lstats = takeLstats(resolution);
    resident?.keepResolution(config, resolution);
  }
  resolution.warnings.forEach(warn);
  await attachSideSlices(resolution.targets, config, warn);
  clock?.mark("resolve");
  // Files unchanged since the last build (same lstat fingerprint) are not read unless needed.
  const indexPath = statIndexPath(config.cache.dir, config.root, config.configPath);
  const writtenPath = indexPath.replace(/\.json$/, ".doc.json");
  // A resident process knows which files its watcher saw no change of: they are not looked at.
  const kept = resident?.statIndex(config);
  const index = cache.enabled
    ? statSession(kept?.index ?? loadStatIndex(indexPath), indexPath, kept?.unchanged)
    : undefined;
  const sources = await readTargets(resolution.targets, config, { index, lstats });
  // Decoded and hashed: a text file's raw bytes are not used again (a copy of the project).
  for (const source of sources) if (source.text !== undefined) source.bytes = undefined;
  // A warm build that read some files anew counts them: their table loads meanwhile.
  if (sources.some(isDeferred) && sources.some((s) => s.text !== undefined)) {
    prefetchTable(config.budget.tokenizer);
  }
  clock?.mark("read");
  const inFocus = focusOf(config, sources.map((s) => s.path));
  // Views start their threads and load grammars while the scan runs.
  // Lazy built-ins (`cli/_builtins.ts`): the view modes this build chooses are imported now.
  await loadViewModes(registry, sources.map((s) => chooseView(s, config, inFocus(s.path))));
  const viewsReady = prepareViews(sources, config, registry, inFocus);
  await packRead;
  // Secrets are redacted before any plugin, cache or log sees the text.
  const countsEarly = new WeakMap<object, boolean>();
  const secrets = await redactSources(sources, config.secrets.rules, cache, {
    // Files shown in full: the scan's workers count their texts early (see `_precount.ts`),
    // unless content dedup may rewrite the text (then the block holds another text).
    count: {
      tokenizer: config.budget.tokenizer,
      only: (file) => {
        // Asked more than once for a file, before and after redaction: decided once.
        let early = countsEarly.get(file);
        if (early === undefined) {
          early = chooseView(file, config, inFocus(file.path)) === "full" &&
            (file.entry.dedup === false || !mayDedup(file.text ?? ""));
          countsEarly.set(file, early);
        }
        return early;
      },
    },
    workers: options.workers,
  });
  clock?.mark("secrets");
  // Decoded and hashed: the raw bytes of text files are not used again (a copy of the project).
  for (const source of sources) if (source.text !== undefined) source.bytes = undefined;
  unmatchedFocus(config.focus, sources.map((s) => s.path)).forEach(warn);
  let done = 0;
  let cacheHits = 0;
  let anew = 0;
  const progress = options.onProgress;
  const files = await transformFiles(sources, config, registry, {
    warn,
    complete,
    timeoutMs: options.hookTimeoutMs,
    cache,
    rendered: resident?.rendered,
    renderedAhead: options.renderedAhead,
    onFile: (file) => {
      // Views rendered anew are counted later: enough of them starts the count workers now.
      if (file.cache !== "hit" && file.view !== "full") {
        prestartCounting(anew += file.text?.length ?? 0, options.workers);
      }
      if (file.cache === "hit") cacheHits++;
      progress?.({ stage: "transform", done: ++done, total: sources.length, cacheHits });
    },
  });
  viewsReady();
  secrets.push(...lateFindings(sources));
  clock?.mark("transform");
  // Views rendered anew are counted after ordering: the table is read meanwhile, off this thread.
  if (anew) prefetchTable(config.budget.tokenizer);
  // The raw bytes and texts are rendered now: let them go (they are the size of the project),
  // unless a token budget may render files again with other views.
  if (config.budget.tokens === undefined) {
    for (const source of sources) source.bytes = source.text = undefined;
  }
  const state = { config, files, root: config.root, stateDir: config.stateDir };
  const blocks = await composeBlocks(state, registry, { warn, complete });
  // Each file's text is held once, inside its block, from here on.
  shareFileTexts(blocks, files, config.budget.tokenizer ?? "o200k");
  secrets.push(...await redactBlocks(blocks, config.secrets.rules));
  failOnSecrets(secrets, config.secrets.failOnSecret, warn);
  clock?.mark("compose");
  // The order memory's content keys of cached texts, kept by the last build (`_content_keys.ts`).
  await loadContentKeys(cache);
  const orderContext: OrderContext = {
    config,
    files,
    root: config.root,
    stateDir: config.stateDir,
    orderSource: options.orderSource ?? "state",
    fileOrder: fileOrder(config, options.orderSource ?? "state", files, resident),
    warn,
  };
  const ordered = await orderBlocks(blocks, registry, orderContext);
  const formatted = formatBlocks(ordered, files, config.output.format);
  clock?.mark("order");
  progress?.({ stage: "tokens", done: 0, total: formatted.length, cacheHits });
  // A resident process knows the counts of the blocks it placed before.
  const memo = resident?.blocks;
  const fresh = memo
    ? formatted.filter((b) => {
      const known = memo.get(b.id);
      return known?.tokenizer !== (config.budget.tokenizer ?? "o200k") || known?.text !== b.text;
    })
    : formatted;
  // The last document (kept in memory, or recorded in the cache): counts by difference start from
  // its blocks, and its same leading blocks are copied from its file, not written again.
  const last = resident
    ? await resident.lastDocument()
    : cache.enabled
    ? loadWritten(writtenPath)
    : undefined;
  // Each block is hashed once: the count cache and the place stage share it. A build that is not
  // resident (every block is fresh) takes the document's hashes as it goes, from the same
  // encoding of each block; a resident one resumes them after the blocks it hashed before.
  const whole = resident ? undefined : documentHasher(prefixEnd(formatted));
  const encodings = new Map(fresh.map((b) => [b, encodeBlock(b, whole)]));
  const wholeHashes = whole?.done();
  const counted = await countMany(fresh.map((b) => b.text), {
    tokenizer: config.budget.tokenizer,
    cache,
    workers: options.workers,
    hashes: fresh.map((b) => encodings.get(b)!.sha256),
    sources: fresh.map((b) => b.source),
    parts: fresh.map(textParts),
    // A block the cache has no count for is counted against the same block of the last document.
    // A resident process has the last text and count of each block in memory.
    earlier: !cache.enabled
      ? undefined
      : memo
      ? earlierInMemo(memo, fresh, config.budget.tokenizer ?? "o200k")
      : earlierIn(last, fresh),
  });
  clock?.mark("count");
  let placed = await placeBlocks(formatted, {
    tokenizer: config.budget.tokenizer,
    tokenCache: counted.counts,
    memo,
    encodings: formatted.map((b) => encodings.get(b)),
    onBlock: progress &&
      ((n, total) => progress({ stage: "tokens", done: n, total, cacheHits })),
  });
  const firstPlaced = placed;
  clock?.mark("place");
  // Token budget: step files down until the document fits (see pipeline/budget.ts).
  let budget: BudgetReport | undefined;
  // `slop build` remembers its steps (sticky); `slop check` and PATHS builds neither read nor write.
  const stepMemory = orderContext.orderSource === "state" && !config.paths.length;
  if (config.budget.tokens !== undefined) {
    const transform = { warn, complete, timeoutMs: options.hookTimeoutMs, cache };
    // Sections and ordering rules run again per step: their warnings were reported the first time.
    const warnNew = (raw: string) => {
      if (!warnings.includes(redactMessage(raw, config.secrets.rules))) warn(raw);
    };
    const assemble = async () => {
      const blocks = await composeBlocks(state, registry, { warn: warnNew, complete });
      await redactBlocks(blocks, config.secrets.rules); // found and listed on the first compose
      const ordered = await orderBlocks(blocks, registry, { ...orderContext, warn: warnNew });
      const formatted = formatBlocks(ordered, files, config.output.format);
      const tokenizer = config.budget.tokenizer;
      return await placeBlocks(formatted, { tokenizer, tokenCache: counted.counts });
    };
    const remembered = stepMemory ? await loadBudgetMemory(config) : [];
    const fit = await fitBudget(files, placed, {
      sources,
      config,
      registry,
      transform,
      assemble,
      remembered,
    });
    ({ placed, report: budget } = fit);
    clock?.mark("budget");
  }
  // Hash and write the document once (it is large); the string is made only when asked for.
  // Never held as bytes: encoded piece by piece as it is hashed and written (a resident process
  // hashes and writes from the first block that changed).
  const bytes = streamDocument(placed);
  let text: string | undefined;
  await redactWarnings(warnings, config.secrets.rules);
  const plan = await planCache(placed, registry, orderContext);
  // A document the configured model cannot take is said before anything is sent.
  const tooLarge = plan &&
    contextWarning(plan, placed.reduce((n, b) => n + b.tokens, 0), config.budget.tokens);
  if (tooLarge) warn(tooLarge);
  clock?.mark("plan");
  // The build's cache hits, recorded as the last build's once it is finished.
  let record: (() => Promise<void>) | undefined;
  if (cache.enabled) {
    const hits = files.filter((f) => f.cache === "hit").length;
    record = () =>
      recordBuild(config.cache.dir, {
        files: { hits, misses: files.filter((f) => f.cache === "miss").length },
        tokens: { hits: counted.hits, misses: counted.misses },
      });
    const persist = async () => {
      await saveContentKeys(cache, files);
      await cache.flush();
      if (index?.changed()) await saveStatIndex(index.result());
    };
    // A resident process writes its cache after the build returns (its memos serve the next
    // build, which waits for the write first); other builds write it now.
    if (resident) resident.defer(persist, deferredError);
    else await persist();
    if (kept && index) kept.keep(index.result());
    clock?.mark("cache write");
  }
  const withBudget = (m: Manifest): Manifest => (budget ? { ...m, budget } : m);
  // The document's parts, as the manifest, the patch and the next build compare them.
  const hashes = placed.map((b) => b.sha256);
  const manifestOf = (document: StreamedDocument) =>
    buildManifest(files, placed, document, warnings, undefined, {
      // Taken with the blocks' hashes, unless the budget placed other blocks since.
      known: placed === firstPlaced ? wholeHashes : undefined,
      parts: resident && hashes,
      previous: resident?.hashes,
      keep: resident && ((states) => (resident.hashes = states)),
    });
  let built: Manifest;
  try {
    // A resident rebuild hashes the blocks the last document has from its file (an edit moved
    // the blocks behind the edited one): they are not encoded again.
    built = manifestOf(
      resident ? withWrittenBlocks(bytes, hashes, last) : bytes,
    );
  } catch {
    // The last document changed while it was read: hashed from the texts.
    built = manifestOf(bytes);
  }
  let manifest = withBreakpoints(withBudget(withSecrets(built, secrets)), plan);
  // The document (to a hidden temp file) and the manifest's JSON are made with the build, unless
  // it is not written: a build prepared ahead links the one and adds the output's path to the
  // other when asked.
  const ahead = options.write === false ? undefined : {
    manifestJson: JSON.stringify(manifest, null, 2),
    document: await writeAhead(config.output.dir, config.output.namespace, bytes, {
      base: last,
      hashes,
    }),
  };
  let finished = false;
  const finish = async (more: FinishOptions = {}): Promise<BuildResult> => {
    if (finished) throw new Error("A prepared build is finished once");
    finished = true;
    const write = more.write ?? options.write ?? true;
    if (ahead?.document && !write) dropAhead(ahead.document);
    const clock = more.timings ?? options.timings;
    let output: BuildResult["output"];
    if (record && (more.record ?? options.record ?? true)) {
      if (resident) resident.defer(record, deferredError);
      else await record();
    }
    if (write) {
      output = await publish(
        config.output.dir,
        config.output.namespace,
        bytes,
        (path) => {
          const { version, ...rest } = manifest;
          return (manifest = { version, output: path, ...rest });
        },
        config.root,
        {
          ext: FORMAT_EXTENSIONS[config.output.format],
          base: last,
          hashes,
          ahead: ahead?.document,
          manifestText: (m) =>
            ahead && m.output !== undefined
              ? manifestJsonWithOutput(ahead.manifestJson, m.output)
              : undefined,
        },
      );
      // The oldest numbered outputs past `output.keep` go (numbers are never reused).
      if (config.output.keep !== false) {
        pruneOutputs(config.output.dir, config.output.namespace, config.output.keep);
      }
      const stamp = fileStamp(output.document);
      const written = stamp
        ? {
          hashes,
          lengths: bytes.lengths,
          path: output.document,
          stamp,
        }
        : undefined;
      if (resident) resident.keepDocument(written);
      else if (cache.enabled && written) await saveWritten(writtenPath, written);
    }
    // The order memory is recorded whether the document was written or piped (`--stdout`): the
    // next build takes its order from it either way.
    if (more.remember ?? options.remember ?? true) {
      // Asked to remember only now: the state dir was not marked when the build began.
      if (options.remember === false) markStateDir(config.stateDir, config.root);
      const commit = async () => {
        for (const rule of orderingRules(registry)) {
          const commit = rule.commit;
          if (commit) await callHook(rule, "commit", () => commit(placed, orderContext));
        }
        if (budget && stepMemory) await writeBudgetMemory(config, budget.steppedDown);
      };
      // A resident process commits the order after the build returns, before its next build.
      if (resident) resident.defer(commit, deferredError);
      else await commit();
    }
    resident?.release();
    clock?.mark("emit");
    return {
      get document() {
        return (text ??= renderDocument(placed));
      },
      blocks: placed,
      files,
      manifest,
      output,
      warnings,
      cache: plan,
      budget,
    };
  };
  const discard = () => {
    if (finished) return;
    finished = true;
    if (ahead?.document) dropAhead(ahead.document);
  };
  return { files, finish, discard };
}

/** Whether `path` is `dir` or inside it. */
function within(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The sha256 and length of a block's UTF-8 bytes, hashed in pieces: the bytes are made where the
 * document is written, not held (the size of the document) while blocks are counted.
 */
function encodeBlock(block: Block, whole?: DocumentHasher): { sha256: string; length: number } {
  whole?.next();
  // A file block part by part (`_block_parts.ts`): its text is not copied whole.
  return hashText(textParts(block), undefined, whole?.hash);
}
