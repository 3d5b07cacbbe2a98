/**
 * What a long-running process (`slop watch`) keeps between builds, so that a
 * rebuild after a one-file edit does that file's work and little else: the
 * opened cache (its pack read once) with the view entries it decoded, the
 * stat index in memory, the resolved file list (reused while only files of
 * that list were modified), and each block's hash, UTF-8 length and token
 * count by its text (not its bytes: the document is encoded again from the
 * first block that changed, in pieces). Every memo is keyed by what the slow path computes
 * from (a cache key, a block's whole text), so a build with a resident gives
 * the same bytes as one without; what a build does not use is dropped after
 * the next one. While it waits for the next edit, it copies the document it
 * wrote to a hidden draft, which the next build patches (the copy of a large
 * document is then off the rebuild's path).
 *
 * @module
 */

import { type Cache, type CacheOptions, openCache } from "../pipeline/cache.ts";
import { derivedMemo, recordMemo } from "./derived_memo.ts";
import type { DeriveFn, RecordFn } from "../pipeline/types.ts";
import type { StatIndex } from "./stat_index.ts";
import { join, sep } from "../pipeline/paths.ts";
import { type Draft, dropDraft, makeDraft, type WrittenDocument } from "./patch_write.ts";
import type { HashStates } from "./resumed_hashes.ts";
import type { KeptOrder } from "./kept_order.ts";
import type { Resolution } from "../pipeline/resolve.ts";
import type { RenderedMemo } from "./kept_renders.ts";
import type { ResolvedConfig, Target } from "../pipeline/types.ts";
import type { BlockMemo, Memo } from "../pipeline/memo.ts";
import { dropSpillsOf, spillsOf } from "./text_spill.ts";
import type { KeptMemo, MemoEntry } from "./_same_text.ts";

export type { BlockMemo, Memo };
// A file's stamp (inode, size, modification time), by which a resident's draft and kept orders
// are known unchanged; the build server knows its prepared files by it too.
export { fileStamp } from "../pipeline/helpers.ts";

/** State kept between the builds of one process. */
export interface Resident {
  /** The cache to build with (opened once per folder and settings). */
  cache(dir: string, options: CacheOptions): Cache;
  /**
   * The stat index the last build left (in memory), with which of `config`'s targets were not
   * changed since (by what {@linkcode Resident.changed} was told); `keep` records the index a
   * build leaves.
   */
  statIndex(config: ResolvedConfig): KeptStatIndex;
  /** The document the last build wrote, with its draft once made (see `patch_write.ts`). */
  lastDocument(): Promise<WrittenDocument | undefined>;
  /** Keep the document a build wrote, and start copying it ahead for the next build (a draft). */
  keepDocument(document: WrittenDocument | undefined): void;
  /**
   * Queue work a build leaves for after it returns (writing its cache, the ordering rules'
   * commits); a failure is passed to `onError`.
   */
  defer(work: () => Promise<void>, onError?: (error: unknown) => void): void;
  /**
   * The build has returned: start the queued work after the quiet time
   * ({@linkcode ResidentOptions.quietMs}), or once the current task is done.
   */
  release(): void;
  /**
   * Start the queued work and wait for it; with `hurry: false`, wait for it without starting it
   * sooner than {@linkcode ResidentOptions.quietMs} after the build returned.
   */
  settled(options?: { hurry?: boolean }): Promise<void>;
  /**
   * Finish the deferred work and remove what the process keeps on disk for a next build (the
   * draft, and the spill files its builds' texts are kept in: `text_spill.ts`, whose owner it is).
   */
  close(): Promise<void>;
  /** The sha256 states after each part of the last document. */
  hashes?: HashStates;
  /**
   * The ids of the files the secrets stage found clean (the list of the cache folder and scan's
   * rules and scanner named by `key`, as the last build read or stored it).
   */
  clean?: { key: string; ids: Set<string> };
  /** The last resolution, when nothing since can have changed it (a copy: targets are mutated). */
  resolution(config: ResolvedConfig): Resolution | undefined;
  /**
   * The last resolution kept, even when something may have changed it since (its merged
   * entries are given again to the files the same config entries match: see `resolve.ts`).
   */
  lastResolution(config: ResolvedConfig): Resolution | undefined;
  /** Keep a resolution for the next build (before side slices are attached). */
  keepResolution(config: ResolvedConfig, resolution: Resolution): void;
  /**
   * Say what changed since the last build: root-relative paths, and whether anything but
   * modifications happened (a file created, removed or renamed).
   */
  changed(paths: string[], structural: boolean): void;
  /**
   * Block hashes, lengths and counts by block id (valid while the text is the same); its entries
   * may be held by block record (`knownOnce()` of `_same_text.ts`).
   */
  blocks: KeptMemo<BlockMemo>;
  /** Files rendered from the cache, by file, entry, view, config and plugins (see `transform.ts`). */
  rendered: KeptMemo<RenderedMemo>;
  /** The order states the ordering rules' commits wrote, by path (see `order_memory.ts`). */
  orders: Map<string, KeptOrder>;
  /** Values made from texts (file blocks, content keys, lengths), by text (`derived_memo.ts`). */
  derived: DeriveFn;
  /**
   * Values made from records (an unchanged file's block, given again as the same record), by
   * record, held while the record is (`recordMemo()` of `derived_memo.ts`).
   */
  fromRecord: RecordFn;
  /**
   * Start a build with `config`: memos it does not use are dropped when the next one starts, or
   * as it ends when `config` is not the last build's (a config loaded again, another key): what
   * the old config used and the new one did not is never asked for again, and a big tree's renders
   * kept twice would double what the process holds.
   */
  begin(config?: ResolvedConfig): void;
  /** The entries the memos of renders and of blocks hold (both generations), for tests and stats. */
  held(): { rendered: number; blocks: number };
  /**
   * The spill files of its builds left on disk (`text_spill.ts`), and their bytes: a cold build's
   * is removed once its kept renders read their texts from the cache's pack.
   */
  spills(): { files: number; bytes: number };
}

/** A resident's stat index, as one build uses it. */
export interface KeptStatIndex {
  /** The index the last build left. */
  index?: StatIndex;
  /** Targets not changed since it was made (absent: unknown, every file is looked at). */
  unchanged?: (target: Target) => boolean;
  /** Keep the index this build leaves. */
  keep(index: StatIndex): void;
}

/** Options of {@linkcode resident}. */
export interface ResidentOptions {
  /**
   * How long the work a build leaves (its cache writes, the order's commit, the copy of its
   * document for the next build) waits after the build returns, unless a build, a prepare or
   * {@linkcode Resident.settled} asks for it sooner. A build server waits so that the client it
   * answered exits first: the writes and the copy running beside it slow its exit
   * (`bench/README.md`, "Numbers behind code choices"). 0: after the current task.
   *
   * @default {0}
   */
  quietMs?: number;
}

/**
 * The folders under the root whose changes `slop watch` ignores (state, output, cache, `.git`),
 * without a final separator: its watcher skips their events, so a resident never trusts it there.
 *
 * @example
 * ```ts
 * import { watchIgnoredDirs } from "./resident.ts";
 * // watchIgnoredDirs(config) -> ["/p/.slop", "/p/.slop/out", "/p/.slop/cache", "/p/.git"]
 * ```
 */
export function watchIgnoredDirs(config: ResolvedConfig): string[] {
  return [config.stateDir, config.output.dir, config.cache.dir, join(config.root, ".git")]
    .map((dir) => (dir.endsWith(sep) ? dir.slice(0, -1) : dir));
}

/**
 * `unchanged` for the targets a watch of `config.root` sees: files under the root, outside the
 * folders `slop watch` ignores ({@linkcode watchIgnoredDirs}); any other target is looked at.
 */
function watchedIn(
  config: ResolvedConfig,
  unchanged: (path: string) => boolean,
): (target: Target) => boolean {
  const inside = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);
  const root = inside(config.root);
  const ignored = watchIgnoredDirs(config).map(inside);
  return (target) =>
    target.absPath.startsWith(root) && !ignored.some((d) => target.absPath.startsWith(d)) &&
    unchanged(target.path);
}

/**
 * A memo of two generations: this build's and the previous build's entries; `drop` lets go of
 * the previous build's that this build did not use. One map, each entry marked with the last
 * build that used it: an entry used again is marked, not moved to a map of this build's (a big
 * tree's every render and block inserted into a new map at each rebuild, and the map grown to
 * hold them, were a tenth of a one-file edit's build: bench/README.md, "thirteenth session").
 */
function generations<T>(): KeptMemo<T> & Required<Pick<KeptMemo<T>, "entry" | "use">> & {
  turn(): void;
  drop(): void;
  size(): number;
} {
  const entries = new Map<string, MemoEntry<T>>();
  let build = 0;
  // Let go of the entries last used before build `oldest` (an entry held elsewhere is told so).
  const keepFrom = (oldest: number) => {
    // `forEach`: no entry pair made for each of a big tree's entries, as `for ... of` makes.
    entries.forEach((entry, key) => {
      if (entry.used >= oldest) return;
      entry.used = -1;
      entries.delete(key);
    });
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entry.used = build;
      return entry.value;
    },
    set(key, value) {
      // A new entry: one held elsewhere (`entry()`) keeps the value it was found with, let go of.
      const before = entries.get(key);
      if (before) before.used = -1;
      entries.set(key, { value, used: build });
    },
    entry: (key) => entries.get(key),
    use(entry) {
      if (entry.used < 0) return false;
      entry.used = build;
      return true;
    },
    turn() {
      keepFrom(build);
      build++;
    },
    drop() {
      keepFrom(build);
    },
    size: () => entries.size,
  };
}

/**
 * A resident for a process that builds again and again.
 *
 * @example
 * ```ts
 * import { resident } from "./resident.ts";
 * const state = resident();
 * // await build(config, { builtins, resident: state }); // again after each change
 * ```
 */
export function resident(options: ResidentOptions = {}): Resident {
  const work = deferredWork(options.quietMs ?? 0);
  let opened: { signature: string; cache: Cache } | undefined;
  // `current`: nothing since can have changed it.
  let kept: { config: ResolvedConfig; resolution: Resolution; current: boolean } | undefined;
  const memos = keptMemos();
  const changes: ChangeLog = { calls: 0, structuralAt: 0, changedAt: new Map() };
  const written: Written = { draft: Promise.resolve(undefined) };
  const self: Resident = {
    cache(dir, options) {
      const signature = JSON.stringify([dir, options.enabled ?? true, options.pack ?? ""]);
      if (opened?.signature !== signature) {
        opened = { signature, cache: openCache(dir, { ...options, lean: true }) };
      }
      return opened.cache;
    },
    resolution(config) {
      return kept?.current && kept.config === config ? copyResolution(kept.resolution) : undefined;
    },
    lastResolution(config) {
      return kept?.config === config ? kept.resolution : undefined;
    },
    keepResolution(config, resolution) {
      kept = { config, resolution: copyResolution(resolution), current: true };
    },
    statIndex: (config) => keptStatIndex(changes, config),
    changed(paths, structural) {
      noteChanges(changes, { paths, structural });
      if (kept?.current && !keepsListing(kept.resolution, { paths, structural })) {
        kept.current = false;
      }
    },
    async lastDocument() {
      work.hurry();
      return written.document && { ...written.document, draft: await written.draft };
    },
    keepDocument(next) {
      written.document = next;
      written.draft = nextDraft(written.draft, { next, later: work.later });
    },
    defer: work.defer,
    release() {
      memos.dropIfReloaded();
      work.release();
    },
    settled: work.settled,
    close: () => closeResident({ work, written, owner: self }),
    blocks: memos.blocks,
    rendered: memos.rendered,
    orders: new Map(),
    derived: memos.derived,
    fromRecord: recordMemo(),
    held: memos.held,
    spills: () => spillsOf(self),
    begin: memos.begin,
  };
  return self;
}

/**
 * A resident's memos of blocks, renders and what is derived from texts, two generations each; after
 * a build begun with another config than the last one, what that build did not use is dropped when
 * it is released, so that a config loaded again leaves one generation.
 */
function keptMemos() {
  const blocks = generations<BlockMemo>();
  const rendered = generations<RenderedMemo>();
  const fromTexts = derivedMemo();
  // The config of the last build begun, and whether the build running began with another one.
  let builtWith: ResolvedConfig | undefined;
  let reloaded = false;
  return {
    blocks,
    rendered,
    derived: fromTexts.derived,
    held: () => ({ rendered: rendered.size(), blocks: blocks.size() }),
    begin(config?: ResolvedConfig) {
      reloaded = config !== undefined && builtWith !== undefined && config !== builtWith;
      builtWith = config ?? builtWith;
      blocks.turn();
      rendered.turn();
      fromTexts.turn();
    },
    dropIfReloaded() {
      if (!reloaded) return;
      reloaded = false;
      blocks.drop();
      rendered.drop();
      fromTexts.drop();
    },
  };
}

/**
 * The work builds leave, run in order after a quiet time ({@linkcode ResidentOptions.quietMs}).
 * Once the work is asked for (`hurry`), until the next build returns (`release`), there is no
 * quiet time.
 */
function deferredWork(quietMs: number) {
  // The waits for the quiet time, by their wake-ups.
  const wakes = new Set<() => void>();
  let hurried = false;
  let deferred: Promise<void> = Promise.resolve();
  const queued: Array<() => Promise<void>> = [];
  const hurry = () => {
    hurried = true;
    [...wakes].forEach((wake) => wake());
  };
  const later = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakes.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, hurried ? 0 : quietMs);
      wakes.add(wake);
    });
  const start = () => {
    if (!queued.length) return;
    const works = queued.splice(0);
    deferred = deferred.then(later).then(async () => {
      for (const work of works) await work();
    });
  };
  return {
    hurry,
    later,
    defer(work: () => Promise<void>, onError?: (error: unknown) => void): void {
      queued.push(() => work().catch((error) => onError?.(error)));
    },
    release(): void {
      hurried = false;
      start();
    },
    settled(options: { hurry?: boolean } = {}): Promise<void> {
      if (options.hurry !== false) hurry();
      start();
      return deferred;
    },
    /** Start the queued work at once and wait for all of it. */
    async drain(): Promise<void> {
      hurry();
      start();
      await deferred;
    },
  };
}

/**
 * What was changed, numbered by call to `changed`: the stat index records the files as of the
 * call its build started after.
 */
interface ChangeLog {
  calls: number;
  structuralAt: number;
  changedAt: Map<string, number>;
  statIndex?: { index: StatIndex; config: ResolvedConfig; seen: number };
}

function noteChanges(
  changes: ChangeLog,
  { paths, structural }: { paths: string[]; structural: boolean },
): void {
  changes.calls++;
  if (structural) changes.structuralAt = changes.calls;
  else for (const path of paths) changes.changedAt.set(path, changes.calls);
}

/** The stat index the last build left, with the targets not changed since. */
function keptStatIndex(changes: ChangeLog, config: ResolvedConfig): KeptStatIndex {
  const seen = changes.calls;
  const last = changes.statIndex;
  const known = last && last.config === config && changes.structuralAt <= last.seen
    ? last
    : undefined;
  return {
    index: last?.index,
    unchanged: known &&
      watchedIn(config, (path) => (changes.changedAt.get(path) ?? 0) <= known.seen),
    keep(index) {
      changes.statIndex = { index, config, seen };
      for (const [path, at] of changes.changedAt) if (at <= seen) changes.changedAt.delete(path);
    },
  };
}

/**
 * Whether a resolution still lists the files after these changes: only modifications of listed
 * files keep the list, anything else may change it.
 */
function keepsListing(
  resolution: Resolution,
  { paths, structural }: { paths: string[]; structural: boolean },
): boolean {
  if (structural) return false;
  const listed = new Set(resolution.targets.map((t) => t.path));
  return paths.every((p) => listed.has(p) && !LISTING_FILE.test(p));
}

/** Files whose text decides which files are listed, or skipped: an edit lists them again. */
const LISTING_FILE = /(?:^|\/)\.git(?:ignore|attributes)$/;

/** A copy of a resolution whose targets a build may mutate. */
function copyResolution(resolution: Resolution): Resolution {
  return {
    ...resolution,
    targets: resolution.targets.map((t): Target => ({ ...t })),
    warnings: [...resolution.warnings],
  };
}

/** The document the last build wrote, and the draft of the next one (a copy of it). */
interface Written {
  document?: WrittenDocument;
  draft: Promise<Draft | undefined>;
}

/** Finish the deferred work, remove the last draft and the spill files of the resident's builds. */
async function closeResident(
  { work, written, owner }: { work: { drain(): Promise<void> }; written: Written; owner: object },
): Promise<void> {
  await work.drain();
  await dropLastDraft(written);
  dropSpillsOf(owner);
}

/** Remove the last draft from disk (a process that ends leaves none behind). */
async function dropLastDraft(written: Written): Promise<void> {
  const last = await written.draft;
  if (last) dropDraft(last);
  written.draft = Promise.resolve(undefined);
}

/**
 * The draft of the next document: a copy of `next`, made once the build has returned (not while
 * it still writes). The last draft was renamed into place by the build that wrote `next`, or is
 * not wanted.
 */
function nextDraft(
  before: Promise<Draft | undefined>,
  { next, later }: { next: WrittenDocument | undefined; later: () => Promise<void> },
): Promise<Draft | undefined> {
  return before.then(async (old) => {
    await later();
    if (old) dropDraft(old);
    return next && makeDraft(next);
  });
}
