/**
 * The speed layer: the same stages, with what makes a build fast wrapped
 * around them. Each wrapper below makes the same bytes as the plain stage;
 * what it buys is measured in `bench/README.md` ("Speed layers, each switched
 * off").
 *
 * - resolve: the `lstat` the stage takes of each file is handed to the read
 *   stage, which does not look again (`kept_resolution.ts`); with a resident,
 *   the last resolution's files are looked at while git lists the files, and
 *   that resolution is taken again while nothing can have changed it.
 * - read: files whose `lstat` fingerprint is unchanged since the last build
 *   are not read (the stat index, `stat_index.ts`), and their texts are read
 *   later only if a stage needs them; a plain-text file whose data limit
 *   depends on its text is not read either: its limit is remembered by the
 *   text's hash (`text_memo.ts`).
 * - secrets: the code views start their threads while the scan runs, and the
 *   scan's workers count the tokens of files shown in full (early counts).
 * - transform: counting threads start once enough views are rendered anew;
 *   on a big tree, a cached render's text stays in the cache's pack (not
 *   decoded), and what is made from it is remembered by its name
 *   (`text_memo.ts`).
 * - compose: a file block keeps the parts it was joined from, so the file's
 *   text is never copied into a joined string.
 * - file order: a resident keeps the order it wrote in memory and advances it
 *   (`kept_order.ts`).
 * - count: a block the last document had (by its name: a cached render kept
 *   in the pack, its heading and fence, `known_blocks.ts`) takes its sha256
 *   and length from the last document's record, unread; the others are hashed
 *   once for the count cache and the manifest, and a block the cache lacks is
 *   counted against the last document's (by difference).
 * - manifest: the document's hashes are those the count stage took, or, for
 *   a resident, resumed after the leading blocks the last build hashed
 *   (`resumed_hashes.ts`), else hashed on a worker from the last document's
 *   file and the new blocks' bytes while the count ends and the caches are
 *   written (`hash_ahead.ts`), else hashed here with the blocks the last
 *   document has read from its file (a megabyte at a time, not text by text).
 * - emit: the document is written ahead to a temp file, the last document's
 *   same leading bytes copied, not encoded (`patch_write.ts`).
 * - with a resident (`slop watch`, the build server, see `resident.ts`): the
 *   last build's resolution, renders, counts and document are kept in memory,
 *   and the cache writes wait until the build has returned.
 *
 * @module
 */

import { resolveAgain } from "./kept_resolution.ts";
import type { FileStat } from "../pipeline/file_stat.ts";
import { readLooked } from "./read_looked.ts";
import { redactSources } from "../pipeline/secrets.ts";
import { type ReadScan, scanAhead } from "./scan_ahead.ts";
import { redactHandingOff } from "./scan_handoff.ts";
import { chooseView, focusOf, packedRenderText } from "../pipeline/transform.ts";
import { isKeptRender, type RenderedMemo, transformKept } from "./kept_renders.ts";
import { mayDedup } from "../pipeline/dedup.ts";
import { keptFileOrder } from "./kept_order.ts";
import { prefixEnd } from "../pipeline/order.ts";
import {
  type CountResult,
  prefetchTable,
  prepareCounting,
  prestartCounting,
} from "../pipeline/count.ts";
import { countKnown } from "./count_known.ts";
import {
  buildManifest,
  placeBlocks,
  type Placement,
  prefixLength,
  type WrittenAhead,
} from "../pipeline/emit.ts";
import {
  blocksDone,
  type BuildRun,
  type Counted,
  type Output,
  publishOutput,
  saveCache,
  type StageLayer,
  type Stages,
  transformOptions,
  type Written,
} from "../pipeline/stages.ts";
import {
  loadStatIndex,
  readIndexed,
  saveStatIndex,
  statIndexPath,
  type StatSession,
  statSession,
  type UnreadLoader,
  unreadLoader,
} from "./stat_index.ts";
import {
  dropAhead,
  loadWritten,
  saveWritten,
  withWrittenBlocks,
  writeAhead,
  writePatched,
  type WrittenDocument,
} from "./patch_write.ts";
import {
  type DocumentHasher,
  documentHasher,
  documentHashes,
  streamDocument,
  type StreamedDocument,
} from "../pipeline/document.ts";
import { resumedDocumentHashes } from "./resumed_hashes.ts";
import { type HashAhead, startHashAhead } from "./hash_ahead.ts";
import { type DraftAhead, dropUnusedDraft, startDraft, withDraft } from "./draft_ahead.ts";
import { blockName, knownBlocks } from "./known_blocks.ts";
import { keptManifestJson } from "./manifest_json.ts";
import type { BlockMemo, Memo } from "../pipeline/memo.ts";
import { countWork, fileStamp, removeQuietly } from "../pipeline/helpers.ts";
import { earlierIn, earlierInMemo } from "./count_diff.ts";
import { countEarly, earlyKnown, noteEarlyPlan, precountTurn } from "./precount.ts";
import { hashText } from "../pipeline/text_hash.ts";
import { takeParts, textParts } from "../pipeline/block_parts.ts";
import { prepareViews } from "./_prepare_views.ts";
import { knownOnce, withText } from "./_same_text.ts";
import { mapWithTurns } from "./turns.ts";
import { openSpill, SPILL_WINDOW, spillAfterFromEnv, type TextSpill } from "./text_spill.ts";
import { loadTextMemo, saveTextMemo, type TextMemo } from "./text_memo.ts";
import {
  byteParts,
  compactLazy,
  copyLazy,
  hasText,
  lazyList,
  textBacking,
} from "../pipeline/lazy_text.ts";
import type { KeptStatIndex, Resident } from "./resident.ts";
import type { Resolution } from "../pipeline/resolve.ts";
import type {
  Block,
  Manifest,
  PlacedBlock,
  RecordFn,
  RenderedFile,
  SecretFinding,
  SourceFile,
  Target,
  Tokenizer,
} from "../pipeline/types.ts";

/** Options of {@linkcode speedLayer}. */
export interface SpeedOptions {
  /**
   * State kept between the builds of one process (`slop watch`, the build server; see
   * `accel/resident.ts`). Not used by a build with the cache disabled.
   * @default {undefined} none: each build starts from the cache folder
   */
  resident?: Resident;
  /**
   * Files rendered ahead for this build by a build server's prepared builds: reported as
   * rendered (`cache: "miss"`), not as taken from the cache they were put in.
   * @default {undefined} none
   */
  renderedAhead?: (file: RenderedFile) => boolean;
  /**
   * Characters of texts a build holds in memory before it keeps the others in a spill file,
   * read again where a stage uses them (`text_spill.ts`: bounded memory on a big tree, for more
   * CPU); `false`: never. With a resident, its memos keep the texts of its renders as kept there
   * (each build's spill file is read until none of its texts is left, then removed).
   * @default {spillAfterFromEnv()} `SLOP_SPILL_AFTER_MB` millions (`off`: never), else 64M
   */
  spillAfter?: number | false;
  /**
   * The folder the spill file is made in (a disk with room, or one a test watches alone).
   * @default {undefined} `TMPDIR`, else `/tmp`
   */
  spillDir?: string;
  /**
   * Copy the last document to a draft while the build runs (`draft_ahead.ts`), for the emit stage
   * to patch: for a build that writes its document (a build that does not leaves the copy unused).
   * Not used with a resident (which drafts between builds) or without the cache.
   * @default {false} the last document copied when the document is written
   */
  draftAhead?: boolean;
}

/**
 * The speed layer for one build.
 *
 * @example
 * ```ts
 * import { speedLayer } from "./speed_layer.ts";
 * import { build } from "../pipeline/build.ts";
 * import { loadConfig } from "../pipeline/config.ts";
 * import { defaultPlugins } from "../plugins/defaults.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const result = await build(config, {
 *   builtins: defaultPlugins(),
 *   layer: speedLayer(),
 *   write: false,
 * });
 * console.log(result.manifest.total.bytes);
 * ```
 */
export function speedLayer(options: SpeedOptions = {}): StageLayer {
  // `--no-cache` (cache.enabled false) means everything anew: no memo of an earlier build either.
  let resident: Resident | undefined;
  return {
    async begin(config) {
      resident = config.cache.enabled ? options.resident : undefined;
      // The last build's cache writes are done before this one uses the cache.
      await resident?.settled();
      resident?.begin(config);
    },
    cache: (dir, cacheOptions) => resident?.cache(dir, cacheOptions),
    derived: () => resident?.derived,
    fromRecord: () => resident?.fromRecord,
    wrap: (stages, run) => wrapStages(stages, run, resident, options),
  };
}

/** What the layer's wrappers of one build share. */
interface Speed {
  run: BuildRun;
  resident?: Resident;
  options: SpeedOptions;
  tokenizer: Tokenizer;
  /** The pack's index read, started with the build (on this thread, at the first wait). */
  packRead?: Promise<void>;
  /** Where the stat index and the last document's record are kept. */
  indexPath: string;
  writtenPath: string;
  /** The resident's stat index, when there is a resident. */
  kept?: KeptStatIndex;
  /** This build's stat index session (none without a cache). */
  index?: StatSession;
  /** What reads the files the read stage left unread (one for all of them). */
  loader: UnreadLoader;
  /**
   * The secret scan begun on a worker as files are read (the read stage has this thread only):
   * the secrets stage takes its results.
   */
  ahead?: ReadScan;
  /** The resolve stage's lstat of each file, when it resolved now. */
  lstats?: Map<string, FileStat>;
  findings: SecretFinding[];
  /** Findings of files read after the secrets stage (they changed since their hash was recorded). */
  late: Map<SourceFile, SecretFinding[]>;
  viewsReady: () => void;
  /** The last document (kept in memory, or recorded in the cache). */
  last?: WrittenDocument;
  /** The last document's record read as blocks are counted, and its copy under way. */
  drafting?: DraftAhead;
  /** The blocks as the count stage placed them, with the document's hashes taken then. */
  counted?: PlacedBlock[];
  wholeHashes?: { prefix: string; total: string };
  /** The counted blocks' document hashed on a worker, when they were not taken with the blocks. */
  hashing?: HashAhead;
  /** The sha256 of each block of the document. */
  hashes: string[];
  /** The name of each block the count stage placed (`blockName()`), for the last document's record. */
  names?: string[];
  /**
   * Values made from the last build's texts, by their hashes (`text_memo.ts`): the spill's
   * measures, plain text's data limits (the read stage's). None without the cache.
   */
  memo?: TextMemo;
  /** Where the texts are kept while the build runs (a resident keeps some for its next builds). */
  spill?: TextSpill;
  /**
   * The renders a resident keeps from this build whose texts are in the spill: moved to the
   * cache's pack once its writes are done ({@linkcode moveKeptTexts}).
   */
  keptSpilled?: RenderedMemo[];
  /** Whether content dedup may rewrite a file's text, noted as it is read (before its spill). */
  dedupMay: WeakMap<SourceFile, boolean>;
  /** A resident's block memo, each block looked up once in this build (`knownOnce()`). */
  known?: (block: Block) => BlockMemo | undefined;
}

function wrapStages(
  stages: Stages,
  run: BuildRun,
  resident: Resident | undefined,
  options: SpeedOptions,
): Stages {
  const speed = startSpeed(run, resident, options);
  const { config } = run;
  // Between stages, no text read from the spill is held (`forget`).
  const done = <T>(work: Promise<T>) => work.finally(() => speed.spill?.forget());
  return {
    ...stages,
    resolve: () => resolveKept(speed),
    read: (targets, onEach) => done(readUnchanged(speed, targets, onEach)),
    secrets: (sources, onProgress) => done(scanEarly(speed, sources, onProgress)),
    transform: (sources, onFile) => done(transformAhead(speed, sources, onFile)),
    compose: (files) => done(composeParts(stages, files)),
    fileOrder: (files, source) =>
      resident
        ? keptFileOrder(config, { source, files, kept: keptOf(speed, resident), warn: run.warn })
        : stages.fileOrder(files, source),
    count: (blocks, onBlock) => done(countPlaced(speed, blocks, onBlock)),
    persist: () => persistLater(speed),
    manifest: (files, written) => manifestResumed(speed, files, written),
    emit: (written, write) => emitPatched(speed, written, write),
    later: (work) => later(speed, work),
    end: (how) => {
      // The views' threads and kept runs, when the transform did not end (a failed build).
      speed.viewsReady();
      // A scan ahead's workers, when the secrets stage did not take them (a failed build).
      speed.ahead?.stop();
      // The document's hashing, when the manifest did not take it (a failed build).
      speed.hashing?.stop();
      // A resident's memos keep this build's texts: its spill stays open for reads. Nothing
      // reads a failed build's texts again: its file goes now, not when the collector finds it.
      speed.spill?.close({
        keepOpen: resident !== undefined,
        drop: how?.failed && resident === undefined,
      });
      stages.end(how);
      resident?.release();
      // A draft the emit stage did not rename into place goes once its copy is done.
      if (speed.drafting) dropUnusedDraft(speed.drafting);
    },
  };
}

/**
 * What the wrappers of one build share, opened as the build starts: the stat index, the spill,
 * the pack's read and the tokenizer's table, started while files are resolved.
 */
function startSpeed(
  run: BuildRun,
  resident: Resident | undefined,
  options: SpeedOptions,
): Speed {
  const { config, cache } = run;
  // Unchanged files (same lstat fingerprint) are not read unless a stage needs them.
  const indexPath = statIndexPath(config.cache.dir, config.root, config.configPath);
  // A resident process knows which files its watcher saw no change of: they are not looked at.
  const kept = resident?.statIndex(config);
  // Values made from unchanged texts: their measures, plain text's data limits.
  const memo = cache.enabled ? loadTextMemo(memoPath(indexPath)) : undefined;
  const speed: Speed = {
    run,
    resident,
    options,
    tokenizer: config.budget.tokenizer ?? "o200k",
    // The pack's index is read while git lists the files: on this thread, at the resolve
    // stage's first wait (its time is the resolve stage's; from its index file, one read).
    packRead: cache.prefetch?.(),
    indexPath,
    writtenPath: writtenPath(indexPath),
    kept,
    index: cache.enabled
      ? statSession(kept?.index ?? loadStatIndex(indexPath), indexPath, kept?.unchanged)
      : undefined,
    loader: unreadLoader(config),
    findings: [],
    late: new Map(),
    viewsReady: () => {},
    hashes: [],
    memo,
    spill: spillFor(options.spillAfter ?? spillAfterFromEnv(), {
      memo,
      dir: options.spillDir,
      owner: resident,
      // A rebuild writes or reads back the few texts it changed: no collection at each stage's
      // end for those (a full collection of a big tree's records costs more than the garbage
      // frees), only for a stage that let go of many: past 16M characters for a resident (the
      // server collects between builds), an eighth of the texts for a build of its own.
      settleAfter: resident ? RESIDENT_SETTLE_CHARS : undefined,
      settleShare: resident ? undefined : SETTLE_SHARE,
      warn: run.warn,
    }),
    dedupMay: new WeakMap(),
    known: resident && knownOnce(resident.blocks, resident.fromRecord),
  };
  // Without a cached tokenizer table, a worker builds one while files are read.
  prepareCounting(config.budget.tokenizer, cache);
  return speed;
}

/** Characters a resident's build writes or reads back from its spill before a stage's end collects. */
const RESIDENT_SETTLE_CHARS = 16 * 1024 * 1024;
/**
 * The share of its texts a build's stage lets go of before its end collects: the garbage left is
 * at most an eighth of the texts' characters (a quarter of their bytes, as two-byte strings).
 */
const SETTLE_SHARE = 1 / 8;

function spillFor(
  after: number | false,
  options: {
    memo?: TextMemo;
    owner?: object;
    dir?: string;
    settleAfter?: number;
    settleShare?: number;
    warn?: (message: string) => void;
  },
): TextSpill | undefined {
  return after === false ? undefined : openSpill({ after, ...options });
}

/** Where the record of the last document a build wrote is kept (`patch_write.ts`). */
function writtenPath(indexPath: string): string {
  return indexPath.replace(/\.json$/, ".doc.json");
}

/** Where the values made from a build's unchanged texts are kept (`text_memo.ts`). */
function memoPath(indexPath: string): string {
  return indexPath.replace(/\.json$/, ".texts.json");
}

/** Work a resident process does after the build returns, before its next build. */
function later(speed: Speed, work: () => Promise<void>): Promise<void> {
  const { resident, run } = speed;
  if (!resident) return work();
  // Its failure is reported as a warning.
  resident.defer(
    work,
    (error) => run.onWarning?.(error instanceof Error ? error.message : String(error)),
  );
  return Promise.resolve();
}

/** Resolve: a resident's resolution while nothing can have changed it. */
async function resolveKept(speed: Speed): Promise<Resolution> {
  const { resident, run: { config } } = speed;
  let resolution = resident?.resolution(config);
  if (!resolution) {
    // With the resolve stage's lstat of each file: the read stage does not look again.
    ({ resolution, lstats: speed.lstats } = await resolveAgain(
      config,
      resident?.lastResolution(config),
    ));
    resident?.keepResolution(config, resolution);
  }
  return resolution;
}

/** Read: files the stat index knows unchanged are left unread (their `load` reads them). */
async function readUnchanged(
  speed: Speed,
  targets: Target[],
  onEach?: (done: number) => void,
): Promise<SourceFile[]> {
  const { config } = speed.run;
  const { index, lstats, loader } = speed;
  // Without a stat index every file is read: the scan's workers start now when their bytes are
  // many (loaded while the first files are read), else once enough has been read.
  let bytes = 0;
  if (!index) lstats?.forEach((stat) => bytes += stat.size);
  const ahead = speed.ahead = scanAhead(config.secrets.rules, {
    workers: speed.run.workers,
    expect: bytes,
  });
  // Each text read is scanned ahead (sent before the spill lets it go). Nothing in this stage
  // reads a text back: not kept among those read last (`recent`).
  const onRead = (source: SourceFile) => {
    ahead.add(source);
    if (speed.spill) spillSource(speed, source, { recent: false });
  };
  // A file left unread is read when a stage needs its text (the scan, when its list of files
  // found clean is not the last build's: other rules, another config file; a view): its text is
  // spilled as a file read here is, or every such text would be held at once.
  if (speed.spill) loader.onLoad = (file) => Promise.resolve(spillSource(speed, file));
  const sources = index
    ? await readIndexed(targets, config, {
      index,
      lstats,
      onRead,
      onEach,
      loader,
      memo: speed.memo,
    })
    : await readLooked(targets, config, { lstats, onRead, onEach });
  // Each `lstat` (four dates in it) is held by the build otherwise: let them go.
  speed.lstats = undefined;
  // What a stage's end lets go of is weighed against the tree's texts (unread ones too).
  speed.spill?.expect(sources.reduce((n, s) => n + s.size, 0));
  // Texts spilled as read: each source in a compact copy (`compactLazy`), its dedup note with it.
  if (speed.spill) {
    compactLazy(sources, (from, to) => speed.dedupMay.set(to, speed.dedupMay.get(from)!));
  }
  // Decoded and hashed: a text file's raw bytes are not used again (a copy of the project): let
  // go now, before the scan (`build.ts` lets go after it, of the files the scan read late too).
  for (const source of sources) {
    if (source.bytes && hasText(source)) source.bytes = undefined;
  }
  // Files read anew are counted (early by the scan's workers, or by the count stage): their table
  // is read now, while the scan lets the runtime's I/O in. Transform, compose and order hardly let
  // it in: early counts waited for the table until the count stage, their workers idle till then.
  // (Whether a text is there, not read: a spilled one would be read back.)
  if (sources.some(hasText)) prefetchTable(config.budget.tokenizer);
  return sources;
}

/**
 * A file just read: its text goes to the spill (its raw bytes are not used again), noting first
 * whether content dedup may rewrite it (the early counts' choice, made on the text as read).
 */
function spillSource(
  speed: Speed,
  source: SourceFile,
  options?: { recent?: boolean },
): void {
  if (source.text === undefined) return;
  source.bytes = undefined;
  const text = source.text;
  speed.dedupMay.set(source, mayDedup(text));
  speed.spill!.spill(source, options);
  const backing = textBacking(source);
  if (backing) noteEarlyPlan(backing, text);
}

/** Secrets: the views get ready meanwhile, and the scan's workers count full texts early. */
async function scanEarly(
  speed: Speed,
  sources: SourceFile[],
  onProgress?: (files: number, bytes: number) => void,
): Promise<SecretFinding[]> {
  const { config, registry, cache } = speed.run;
  const inFocus = focusOf(config, sources.map((s) => s.path));
  // Views start their threads and load grammars while the scan runs.
  speed.viewsReady = prepareViews(sources, {
    config,
    registry,
    isFocus: inFocus,
    warn: speed.run.warn,
  });
  await speed.packRead;
  const countsEarly = new WeakMap<object, boolean>();
  // Files shown in full: the scan's workers count their texts early (see `precount.ts`),
  // unless content dedup may rewrite the text (then the block holds another text).
  const keep = (file: SourceFile) => {
    // Asked more than once for a file, before and after redaction: decided once.
    let early = countsEarly.get(file);
    if (early === undefined) {
      early = chooseView(file, config, inFocus(file.path)) === "full" &&
        (file.entry.dedup === false || !(speed.dedupMay.get(file) ?? mayDedup(file.text ?? "")));
      countsEarly.set(file, early);
    }
    return early;
  };
  const { resident } = speed;
  speed.findings = await redactHandingOff(sources, config.secrets.rules, {
    cache,
    handOff: countEarly(speed.tokenizer, cache, keep),
    ahead: speed.ahead,
    workers: speed.run.workers,
    onProgress,
    // A resident's last list of the files found clean: not decoded from the cache and made a set
    // again (a big tree's every id) at each build. Kept by cache folder and scan (one server may
    // build projects of other caches).
    cleanBefore: resident &&
      ((key) => resident.clean?.key === `${cache.dir}\0${key}` ? resident.clean.ids : undefined),
    keepClean: resident && ((key, ids) => (resident.clean = { key: `${cache.dir}\0${key}`, ids })),
  });
  // A file still unread may be read by a view; one that changed since is scanned then (and
  // spilled, as read).
  speed.loader.onLoad = async (file, changed) => {
    await lateScan(file, changed, config.secrets.rules, speed.late);
    if (speed.spill) spillSource(speed, file);
  };
  return speed.findings;
}

/** Transform: a resident's renders kept, and the count workers started once enough is new. */
async function transformAhead(
  speed: Speed,
  sources: SourceFile[],
  onFile?: (file: RenderedFile) => void,
): Promise<RenderedFile[]> {
  const { run, resident, spill } = speed;
  const { config } = run;
  const ahead = speed.options.renderedAhead;
  const counted = { anew: 0 };
  const byPath = spill ? new Map(sources.map((s) => [s.path, s])) : undefined;
  const spills = spill?.spills(sources.reduce((n, s) => n + s.size, 0));
  // The rendered files a resident keeps, offered to the spill as they were kept: one left in
  // memory then (under the threshold) stays so, as the memo holds it, and so does its source
  // (spilled later, the build's blocks, which the block memo keeps, would hold a record the kept
  // render does not, and its spill file would be kept for them).
  const keptLazy = resident && spills ? new WeakSet<object>() : undefined;
  const files = await transformKept(sources, config, run.registry, {
    ...transformOptions(run),
    rendered: resident?.rendered,
    // Texts are read from the spill as their files render: a few files at once hold theirs.
    window: spills ? SPILL_WINDOW : undefined,
    // The early counts' workers are handed their next texts between renders, not after them.
    between: precountTurn,
    // A cached render's text stays in the cache's pack: not decoded, nor written to the spill.
    keepText: spills ? (text, place) => spill!.keepAt(text, place) : undefined,
    // A resident's kept renders hold their texts' records in the spill, not the texts.
    keepLazy: keptLazy &&
      ((target) => {
        keptLazy.add(target);
        spill!.spill(target);
      }),
    // ... until the cache's pack has them: they are moved there once it is written.
    onKept: keptLazy &&
      ((kept) => {
        const { file, output } = kept;
        // Not a cache hit's text kept in the pack already (`keepText`), nor one left in memory.
        if (spill!.holds(textBacking(output)) || spill!.holds(textBacking(file))) {
          (speed.keptSpilled ??= []).push(kept);
        }
      }),
    // A kept render is the memo's record, shared by the builds that take it: one rendered ahead
    // for this build is told as a miss on a copy.
    given: ahead && ((file) => ahead(file) ? copyLazy(file, { cache: "miss" as const }) : file),
    onFile: transformedFile(speed, { counted, keptLazy, byPath, onFile }),
  });
  speed.viewsReady();
  // Files read late (a view needed them) were scanned then: their findings, in path order.
  for (const file of sources) speed.findings.push(...speed.late.get(file) ?? []);
  // Texts spilled as rendered: the files and their sources in compact copies (`compactLazy`).
  if (spill) [files, sources].forEach((records) => compactLazy<object>(records));
  // Views rendered anew are counted after ordering: the table is read meanwhile.
  if (counted.anew) prefetchTable(config.budget.tokenizer);
  return files;
}

/**
 * What the layer does with each file the transform gives: a cache hit rendered ahead is told as a
 * miss, views rendered anew start the count workers once there are enough (`counted.anew`
 * characters), and texts go to the spill (a kept render is left as the memo holds it).
 */
function transformedFile(
  speed: Speed,
  state: {
    counted: { anew: number };
    keptLazy?: WeakSet<object>;
    byPath?: Map<string, SourceFile>;
    onFile?: (file: RenderedFile) => void;
  },
): (file: RenderedFile) => void {
  const { run, spill } = speed;
  const ahead = speed.options.renderedAhead;
  const { counted, keptLazy, byPath, onFile } = state;
  return (file) => {
    if (file.cache === "hit" && !isKeptRender(file) && ahead?.(file)) file.cache = "miss";
    // Views rendered anew are counted later: enough of them starts the count workers now.
    if (file.cache !== "hit" && file.view !== "full") {
      prestartCounting(counted.anew += file.text?.length ?? 0, run.workers);
    }
    onFile?.(file);
    // Rendered: its text (the source's own, for a full view) is kept in the spill.
    if (keptLazy?.has(file) && !textBacking(file)) return;
    // A kept render is left as the memo holds it (made lazy in place, the shared record would
    // become a dictionary of its properties).
    if (!isKeptRender(file)) spill?.spill(file);
    if (byPath) spill!.spill(byPath.get(file.path) ?? {});
  };
}

/**
 * Compose: each file block keeps the parts it was joined from (heading, the file's text, fence),
 * so hashing, counting and writing read the file's own text and never a joined copy.
 */
async function composeParts(stages: Stages, files: RenderedFile[]): Promise<Block[]> {
  const blocks = await stages.compose(files);
  // A lazy file block reads its parts itself: the files are looked up by path for the others only
  // (a map of a big tree's every path, made at each build, for none).
  let byPath: Map<string, RenderedFile> | undefined;
  for (const block of blocks) {
    if (block.section !== "files" || block.source === undefined || textBacking(block)) continue;
    byPath ??= new Map(files.map((f) => [f.path, f]));
    const file = byPath.get(block.source);
    if (file) takeParts(block, file);
  }
  return blocks;
}

/** Count: blocks hashed once, a resident's counts kept, the others counted (`countFresh`). */
async function countPlaced(
  speed: Speed,
  formatted: Block[],
  onBlock?: (done: number, total: number) => void,
): Promise<Counted> {
  const { resident, tokenizer } = speed;
  const { cache } = speed.run;
  // A resident process knows the counts of the blocks it placed before.
  const memo = resident?.blocks;
  // Each block looked up once: the blocks it knows are counted and placed with what it holds.
  const known = memo && speed.known && formatted.map((b) => remembered(speed.known, b, tokenizer));
  const fresh = known ? formatted.filter((_, i) => !known[i]) : formatted;
  // Counts by difference start from the last document's blocks, and its same leading blocks are
  // copied from its file, not written again.
  speed.last = resident
    ? await resident.lastDocument()
    : cache.enabled
    ? lastWritten(speed)
    : undefined;
  // A block the last document had (by its name: a cached render kept in the pack, with its
  // heading and fence) has its sha256 and length from its record, its text not read; when some
  // have, the manifest hashes the document in one pass. Else each block is hashed once, for the
  // count cache and the manifest's document hashes.
  speed.names = resident || !cache.enabled ? undefined : formatted.map(blockName);
  const named = speed.names ? knownBlocks(speed.names, speed.last) : [];
  // Taken: the last document's names are not needed again (a string a block).
  if (speed.last?.names) speed.last.names = undefined;
  const whole = resident || named.some((k) => k) ? undefined : documentHasher(prefixEnd(formatted));
  // Hashed with turns for the early counts' helpers: each answer let in hands its helper the next
  // batch, which this thread would count itself after the hashing.
  const hashed = await mapWithTurns(fresh, (b, i) => named[i] ?? encodeBlock(b, whole));
  const encodings = new Map(fresh.map((b, i) => [b, hashed[i]]));
  speed.wholeHashes = whole?.done();
  hashAhead(speed, formatted, formatted.map((b) => encodings.get(b)));
  const found = await countFresh(speed, fresh, {
    hashes: fresh.map((b) => encodings.get(b)!.sha256),
    // The blocks a resident knows are done; the share of the others' text counted so far.
    onProgress: blocksDone(formatted.length, onBlock, formatted.length - fresh.length),
  });
  speed.counted = await placeRemembered(formatted, {
    tokenizer,
    counts: found.counts,
    memo,
    known,
    encodings: formatted.map((b) => encodings.get(b)),
    fromRecord: resident?.fromRecord,
  });
  onBlock?.(formatted.length, formatted.length);
  return { ...found, placed: speed.counted };
}

/**
 * The last document's record, read as the blocks are counted; with `draftAhead`, that document's
 * copy starts then (on the thread pool, while blocks are counted, the caches written and the
 * manifest made: not while files are resolved or rendered, whose work the kernel's copy slows
 * here, bench/README.md "The last document copied while the build counts").
 */
function lastWritten(speed: Speed): WrittenDocument | undefined {
  if (!speed.options.draftAhead) return loadWritten(speed.writtenPath);
  speed.drafting = startDraft(speed.writtenPath);
  return speed.drafting.last;
}

/**
 * The counts of the blocks a resident does not remember: the last document's counts, else the
 * cache's; a block the cache has no count for is counted from its file's early count, else
 * against the same block of the last document (a resident process has each block's last text
 * and count), else whole.
 */
async function countFresh(
  speed: Speed,
  fresh: Block[],
  options: { hashes: string[]; onProgress?: (share: number) => void },
): Promise<CountResult> {
  const { run, resident, tokenizer } = speed;
  const { cache } = run;
  const memo = resident?.blocks;
  // Texts and parts read when used (`lazyList`): a lazy block's text is not held by the lists.
  const early = earlyKnown(
    tokenizer,
    fresh.map((b) => b.source),
    lazyList(fresh.length, (i) => textParts(fresh[i])),
  );
  const diff = !cache.enabled
    ? undefined
    : memo
    ? earlierInMemo(memo, fresh, cache, tokenizer)
    : earlierIn(speed.last, fresh, cache, tokenizer);
  return await countKnown(lazyList(fresh.length, (i) => fresh[i].text), {
    tokenizer: run.config.budget.tokenizer,
    cache,
    workers: run.workers,
    hashes: options.hashes,
    counted: lastCounts(speed.last, tokenizer),
    known: async (index, text, counter) =>
      await early.known(index, text, counter) ?? await diff?.(index, text(), counter),
    onProgress: options.onProgress,
  }).finally(() => early.done());
}

/** What a resident's block memo holds of a block: its hash, length and count, for this text. */
function remembered(
  known: ((block: Block) => BlockMemo | undefined) | undefined,
  block: Block,
  tokenizer: Tokenizer,
): BlockMemo | undefined {
  const same = known?.(block);
  return same?.tokenizer === tokenizer ? same : undefined;
}

/** What the resident's file order reads: its memos, and this build's lookup of its blocks. */
function keptOf(speed: Speed, resident: Resident) {
  const { orders, blocks, derived, fromRecord } = resident;
  return { orders, blocks, derived, fromRecord, known: speed.known };
}

/**
 * Place the blocks (`placeBlocks`), a resident's known blocks with the hash, length and count it
 * remembers (same text, same tokenizer), and remember the others for the next build.
 */
async function placeRemembered(
  blocks: Block[],
  options: {
    tokenizer: Tokenizer;
    counts: Map<string, number>;
    memo?: Memo<BlockMemo>;
    /** What `memo` knows of each block (`remembered()`), when there is a memo. */
    known?: Array<BlockMemo | undefined>;
    encodings: Array<{ sha256: string; length: number } | undefined>;
    /** A resident's memo of values made from records: a block placed the same is given again. */
    fromRecord?: RecordFn;
  },
): Promise<PlacedBlock[]> {
  const { tokenizer, counts, memo } = options;
  const known = options.known ?? [];
  known.forEach((m) => m && !counts.has(m.sha256) && counts.set(m.sha256, m.tokens));
  const { fromRecord } = options;
  const placed = await placeBlocks(blocks, {
    tokenizer,
    tokenCache: counts,
    encodings: blocks.map((_, i) => known[i] ?? options.encodings[i]),
    place: fromRecord && ((block, at) => placedAgain(block, at, fromRecord)),
  });
  placed.forEach(({ sha256, length, tokens }, i) => {
    if (!known[i]) {
      // A lazy block's record, not its text (`_same_text.ts`).
      memo?.set(blocks[i].id, withText({ sha256, length, tokens, tokenizer }, blocks[i]));
    }
  });
  return placed;
}

/**
 * The placed block an earlier build made of `block` (the same record: a resident gives an
 * unchanged file's block again) while its place is the same (the blocks before an edited one),
 * else a new one, kept for the next build: so its manifest entry and that entry's JSON are the
 * last build's too (`manifest_json.ts`).
 */
function placedAgain(block: Block, at: Placement, fromRecord: RecordFn): PlacedBlock {
  const kept = fromRecord(block, "placed", () => ({ last: undefined as PlacedBlock | undefined }));
  const last = kept.last;
  if (
    last && last.offset === at.offset && last.length === at.length && last.sha256 === at.sha256 &&
    last.tokens === at.tokens
  ) {
    countWork("blocks placed again", 1);
    return last;
  }
  return kept.last = copyLazy(block, at);
}

/**
 * The count of a block's text by its sha256 as the last document recorded it, by the same
 * tokenizer (a warm build has most blocks again: their counts need no cache read).
 */
function lastCounts(
  last: WrittenDocument | undefined,
  tokenizer: Tokenizer,
): ((sha256: string) => number | undefined) | undefined {
  const tokens = last?.tokens;
  if (!last || tokens?.tokenizer !== tokenizer) return undefined;
  let bySha: Map<string, number> | undefined;
  return (sha256) => {
    bySha ??= new Map(last.hashes.map((h, i) => [h, tokens.counts[i]]));
    return bySha.get(sha256);
  };
}

/** Persist: the cache, content keys and stat index, after the build for a resident. */
async function persistLater(speed: Speed): Promise<void> {
  const { cache } = speed.run;
  const { index, kept } = speed;
  if (!cache.enabled) return;
  await later(speed, async () => {
    await saveCache(speed.run);
    moveKeptTexts(speed);
    if (index?.changed()) await saveStatIndex(index.result());
    const { memo } = speed;
    if (memo?.used.size) await saveTextMemo(memoPath(speed.indexPath), memo);
  });
  if (kept && index) kept.keep(index.result());
}

/**
 * A resident's renders kept with their texts in this build's spill (a cold build's: its cache's
 * pack was written after it) read them from the pack from now on, where it has them: the spill
 * file, the size of the tree's texts, is removed once every text in it is moved (`moveTo`),
 * and the process holds the pack alone on disk.
 */
function moveKeptTexts(speed: Speed): void {
  const { spill, keptSpilled, run: { cache } } = speed;
  speed.keptSpilled = undefined;
  if (!spill || !keptSpilled) return;
  for (const { file, output, cacheKey } of keptSpilled) {
    if (cacheKey === undefined) continue;
    // The rendered file and its output share one record, unless a view made its own copy.
    for (const backing of new Set([textBacking(output), textBacking(file)])) {
      if (!backing) continue;
      packedRenderText(cache, cacheKey, (text, place) => {
        const bytes = text.bytes();
        return bytes && spill.moveTo(backing, bytes, place) ? backing : undefined;
      });
    }
  }
}

/**
 * Once a `slop build`'s blocks are hashed (no resident), the document they make hashed on a worker
 * from the last document's file while this thread counts, places and writes the caches, unless
 * its hashes were taken with the blocks' (`hash_ahead.ts`).
 */
function hashAhead(
  speed: Speed,
  blocks: Block[],
  found: Array<{ sha256: string; length: number } | undefined>,
): void {
  if (speed.resident || speed.wholeHashes || !speed.last) return;
  // Each block hashed (a resident's known blocks are not: it resumes the hashes instead).
  const encodings = found.filter((e) => e !== undefined);
  if (encodings.length !== blocks.length) return;
  const lengths = encodings.map((e) => e.length);
  // The blocks' bytes as the document has them (`streamDocument` reads only their parts).
  const { pieces } = streamDocument(blocks as PlacedBlock[]);
  const end = prefixEnd(blocks);
  const prefix = lengths.slice(0, end).reduce((n, length) => n + length, 0);
  const hashes = encodings.map((e) => e.sha256);
  // A count asked again (another set of blocks) gets its own hashing.
  speed.hashing?.stop();
  speed.hashing = startHashAhead({ lengths, pieces }, hashes, speed.last, prefix);
}

/**
 * Manifest: the document's hashes as the count stage took them, or taken on a worker meanwhile,
 * or resumed by a resident.
 */
function manifestResumed(
  speed: Speed,
  files: RenderedFile[],
  { document, placed }: Pick<Written, "document" | "placed">,
): Manifest | Promise<Manifest> {
  speed.hashes = placed.map((b) => b.sha256);
  const { warnings } = speed.run;
  const counted = placed === speed.counted;
  // Taken with the blocks' hashes, unless the budget placed other blocks since.
  const taken = counted ? speed.wholeHashes : undefined;
  const hashing = speed.hashing;
  speed.hashing = undefined;
  const manifest = (hashes?: { prefix: string; total: string }) =>
    buildManifest(files, placed, {
      document,
      warnings,
      hashes: hashes ?? resumedHashes(speed, document, placed),
      // A kept render's entry is the same object from build to build (its JSON made once).
      fromRecord: speed.run.fromRecord,
    });
  if (!hashing) return manifest(taken);
  if (!counted) hashing.stop();
  return counted ? hashing.result().then(manifest) : manifest(taken);
}

/**
 * A resident rebuild's document hashes: resumed after the leading blocks the last build hashed,
 * the blocks the last document has read from its file; `undefined` without a resident.
 */
function resumedHashes(
  speed: Speed,
  document: StreamedDocument,
  placed: PlacedBlock[],
): { prefix: string; total: string } | undefined {
  const { resident, hashes } = speed;
  if (!resident) return lastDocumentHashes(speed, document, placed);
  const hashesOf = (doc: Uint8Array[] | StreamedDocument) => {
    const { prefix, total, states } = resumedDocumentHashes(doc, prefixLength(placed), {
      parts: hashes,
      previous: resident.hashes,
    });
    if (states) resident.hashes = states;
    return { prefix, total };
  };
  try {
    return hashesOf(withWrittenBlocks(document, hashes, speed.last));
  } catch {
    // The last document changed while it was read: hashed from the texts.
    return hashesOf(document);
  }
}

/**
 * A build's document hashes with the blocks the last document has read from its file (a
 * megabyte at a time, not text by text from the cache's pack): the same bytes the emit stage
 * copies from it. `undefined` without a last document, or when it changed while it was read
 * (the manifest hashes the blocks' texts).
 */
function lastDocumentHashes(
  speed: Speed,
  document: StreamedDocument,
  placed: PlacedBlock[],
): { prefix: string; total: string } | undefined {
  const { last, hashes } = speed;
  if (!last) return undefined;
  try {
    return documentHashes(withWrittenBlocks(document, hashes, last), prefixLength(placed));
  } catch {
    return undefined;
  }
}

/**
 * Emit: the document is written ahead to a hidden temp file, patched from the last document; a
 * build prepared ahead links it and adds the output's path to the manifest's JSON when asked.
 */
async function emitPatched(speed: Speed, written: Written, write: boolean): Promise<Output> {
  const { run, resident, hashes } = speed;
  const { config, cache } = run;
  // The last document's same leading bytes are copied, not written again (from its draft, when
  // it was copied while the build ran).
  const last = speed.drafting && write ? await withDraft(speed.drafting, speed.last) : speed.last;
  const patch = (path: string, document: Uint8Array[] | StreamedDocument) =>
    last !== undefined && writePatched(path, document, hashes, last);
  const writeNow = () => writeAhead(written.document, config.output, patch);
  // A resident's build may be published later (prepared ahead): its manifest's JSON is made now.
  // Else it is written in pieces as it is published (never one string, the largest thing a large
  // tree's build held: bench/README.md, "Compact per-file state").
  let ahead = !write ? undefined : {
    manifestJson: resident ? keptManifestJson(written.manifest, resident.fromRecord) : undefined,
    document: await writeNow(),
  };
  const publish = async (write: boolean) => {
    if (ahead?.document && !write) dropAhead(ahead.document);
    if (!write) return undefined;
    const output = await publishOutput(run, written, {
      ahead: await stillAhead(ahead?.document, writeNow),
      manifestJson: ahead?.manifestJson,
      // A resident's old documents are removed after the build returns: the kernel's freeing of a
      // big tree's last document (its pages, its blocks) is not on the rebuild's path.
      prune: (work) => later(speed, work),
    });
    // Published: the manifest's JSON (about 500 bytes a file) is not needed again.
    ahead = undefined;
    const stamp = fileStamp(output.document);
    // With each block's count: the next build takes the counts of the blocks it has again.
    const tokens = { tokenizer: speed.tokenizer, counts: written.placed.map((b) => b.tokens) };
    // With each block's name: the next build takes the hash and length of a block it has again.
    const names = resident
      ? undefined
      : written.placed === speed.counted && speed.names
      ? speed.names
      : written.placed.map(blockName);
    const document = stamp
      ? { hashes, lengths: written.document.lengths, path: output.document, stamp, tokens, names }
      : undefined;
    if (resident) resident.keepDocument(document);
    else if (cache.enabled && document) await saveWritten(speed.writtenPath, document);
    return output;
  };
  return { publish, discard: () => ahead?.document && dropAhead(ahead.document) };
}

/**
 * The document written ahead while it is still the file written, else written (patched) now: a
 * build prepared without writing, or whose temp file was swept meanwhile (an hour old).
 */
async function stillAhead(
  ahead: WrittenAhead | undefined,
  write: () => Promise<WrittenAhead | undefined>,
): Promise<WrittenAhead | undefined> {
  if (ahead && fileStamp(ahead.path) === ahead.stamp) return ahead;
  if (ahead) removeQuietly(ahead.path);
  return await write();
}

/**
 * The sha256 and length of a block's UTF-8 bytes, hashed in pieces: the bytes are made where the
 * document is written, not held (the size of the document) while blocks are counted.
 */
function encodeBlock(block: Block, whole?: DocumentHasher): { sha256: string; length: number } {
  whole?.next();
  // A file block part by part (`block_parts.ts`): its text is not copied whole.
  return hashText(byteParts(block) ?? textParts(block), undefined, whole?.hash);
}

/**
 * Scan a file the read stage left unread as it is read later (by a view), if it changed since its
 * hash was recorded: every text that enters a build is scanned for secrets.
 */
async function lateScan(
  file: SourceFile,
  changed: boolean,
  rules: Record<string, string>,
  late: Map<SourceFile, SecretFinding[]>,
): Promise<void> {
  if (!changed || file.text === undefined) return;
  const findings = await redactSources([file], rules);
  if (findings.length) late.set(file, findings);
}
