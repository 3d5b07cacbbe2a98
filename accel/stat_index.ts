/**
 * The read stage's fast path: a record of each file the last build read (its
 * `lstat` fingerprint — device, inode, size, modification time, change time —
 * and the sha256 of its bytes), kept in the cache folder. A file whose
 * fingerprint is unchanged is neither read nor hashed: it enters the build
 * with the recorded hash and no text ("deferred"), and is read only if a
 * stage needs its bytes after all (a view cache miss, a secret scan, a view
 * whose cache key looks at the text), through its `load` ({@linkcode defer}).
 * {@linkcode readIndexed} is the read stage with it: files it knows
 * unchanged are taken from the record, the others read by the plain stage
 * (`pipeline/read.ts`) and recorded. A file skipped for what its bytes hold
 * (binary, a Git LFS pointer, a generated header) is recorded with its skip, and
 * an unchanged one is skipped again without being opened. A build that read
 * a few files anew appends their records to a journal beside the index
 * (`_stat_journal.ts`) rather than writing every record again.
 *
 * Racily clean files are read as git does: a file whose modification or
 * change time is not safely older than the moment the recording build began
 * reading ({@linkcode RACY_MS}, which covers coarse file-system clocks and
 * Deno's whole-second change times) may have changed again within the same
 * clock tick, so it is read and hashed again.
 *
 * @module
 */

import { join, sep } from "../pipeline/paths.ts";
import {
  leavesRoot,
  readByContent,
  readNamedGenerated,
  readTarget,
  sha256,
  sizedTarget,
  sizeLimit,
  skipByText,
  skippedFile,
  TEXT_SKIP_RULES_VERSION,
} from "../pipeline/read.ts";
import { type LookedReadOptions, readLooked } from "./read_looked.ts";
import type { ResolvedConfig, SourceFile, Target } from "../pipeline/types.ts";
import { type FileStat, fileStat } from "../pipeline/file_stat.ts";
import { PLAIN_TEXT_RULES_VERSION } from "../pipeline/data_files.ts";
import { recall, remember, type TextMemo } from "./text_memo.ts";
import { countWork, readSettingTextSync, STATE_FILE_LIMIT } from "../pipeline/helpers.ts";
import {
  applyJournal,
  type IndexDisk,
  journalLine,
  journalPath,
  type StatRecord,
  type TextSkip,
} from "./_stat_journal.ts";

// (the record's types live with the journal, which reads and writes them; exported from here)
export type { StatRecord, TextSkip };

/** Files changed this close (ms) to the recording build's read are read again. */
export const RACY_MS = 2000;

/**
 * The format written: version 3 keeps skips beside the records (`skips`), which a slop that reads
 * version 2 would take for files read whole, so it reads none of it (and judges every file again).
 * An index of an older format is read as none: its records were judged under text skip rules
 * unknown here.
 */
const FORMAT = "slop-stat-index/3";

/**
 * What an index's records were judged by (a skip kept, or a file read whole): an index under
 * other rules is read as none, and every file is judged again.
 */
const SKIP_RULES = `text-skips/${TEXT_SKIP_RULES_VERSION}`;

/** The index of one project, as read and as this build fills it. */
export interface StatIndex {
  /** Where it is kept (absent: in memory only, as `slop watch` keeps it). */
  path?: string;
  /** `Date.now()` when the recording build began reading. */
  readStart: number;
  /** Records by root-relative path. */
  files: Map<string, StatRecord>;
  /** The files it was read from or written to (the base's id and the journal's length). */
  disk?: IndexDisk;
  /**
   * The records of the index it was made from, until it is saved: a save appends what differs
   * to the journal (`_stat_journal.ts`) instead of writing every record.
   */
  before?: Map<string, StatRecord>;
}

/** One build's use of an index: looks files up and records what it reads. */
export interface StatSession {
  /** The record of `path` when its fingerprint is unchanged and not racy. */
  lookup(path: string, info: FileStat): StatRecord | undefined;
  /**
   * The record of a file that a watcher saw no change of since the index was made (see
   * {@linkcode statSession}'s `untouched`), when it is not racily clean: taken without an
   * `lstat`. `undefined` otherwise.
   */
  trusted(target: Target): StatRecord | undefined;
  /** Record a file read and hashed by this build (and the skip its bytes decided, if any). */
  record(path: string, info: FileStat, sha256: string, skip?: TextSkip): void;
  /** The index this build leaves: its targets' records, read now or carried over. */
  result(): StatIndex;
  /** Whether the result differs from the index the session started from (worth writing). */
  changed(): boolean;
}

/**
 * Where a project's index lives in a cache folder (one per root and config, like packs).
 *
 * @example
 * ```ts
 * import { statIndexPath } from "./stat_index.ts";
 * statIndexPath("/p/.slop/cache", "/p", "/p/slop.config.ts").startsWith("/p/.slop/cache/stat/"); // true
 * ```
 */
export function statIndexPath(cacheDir: string, root: string, configPath?: string): string {
  return join(cacheDir, "stat", `${sha256(`${root}\0${configPath ?? ""}`)}.json`);
}

/**
 * Read an index; a missing, damaged or foreign file gives an empty one.
 *
 * @example
 * ```ts
 * import { loadStatIndex } from "./stat_index.ts";
 * loadStatIndex("/no/such/index.json").files.size; // 0
 * ```
 */
export function loadStatIndex(path: string): StatIndex {
  const empty: StatIndex = { path, readStart: 0, files: new Map() };
  try {
    const text = readSettingTextSync(path, STATE_FILE_LIMIT);
    const data = JSON.parse(text);
    if (typeof data?.readStart !== "number") return empty;
    // Every record, a file read whole as much as one skipped, was judged under the index's
    // text skip rules: under others a file read whole may be one they skip.
    const files = data.format === FORMAT && data.skipRules === SKIP_RULES
      ? withSkips(recordsFrom(data), data)
      : undefined;
    if (!files) return empty;
    const id = typeof data.id === "string" ? data.id : "";
    const disk: IndexDisk = { id, bytes: text.length, journal: 0, damaged: false };
    // The records later builds appended (none when the base has no id: written by an older slop).
    const readStart = id
      ? applyJournal(path, { disk, rules: SKIP_RULES, readStart: data.readStart, settled }, files)
      : data.readStart;
    return { path, readStart, files, disk };
  } catch {
    return empty;
  }
}

/**
 * The records of an index as written now: the paths, five numbers a file (device, inode, size,
 * modification and change time) and the hashes, in three lists (a list of numbers or strings is
 * parsed and written in a third of the time an object with a key a file takes).
 */
function recordsFrom(
  data: { paths?: unknown; fields?: unknown; hashes?: unknown },
): Map<string, StatRecord> | undefined {
  const { paths, fields, hashes } = data;
  if (!Array.isArray(paths) || !Array.isArray(fields) || !Array.isArray(hashes)) return undefined;
  if (fields.length !== 5 * paths.length || hashes.length !== paths.length) return undefined;
  const files = new Map<string, StatRecord>();
  // By index, with no list made per file: a warm build reads every file's record.
  for (let i = 0, j = 0; i < paths.length; i++, j += 5) {
    const path = paths[i];
    const sha256 = hashes[i];
    const dev = fields[j], ino = fields[j + 1], size = fields[j + 2];
    const mtime = fields[j + 3], ctime = fields[j + 4];
    const numbers = Number.isFinite(dev) && Number.isFinite(ino) && Number.isFinite(size) &&
      Number.isFinite(mtime) && Number.isFinite(ctime);
    if (typeof path !== "string" || typeof sha256 !== "string" || !numbers) continue;
    files.set(path, { dev, ino, size, mtime, ctime, sha256 });
  }
  return files;
}

/**
 * The records with the skips kept beside them (`skips`: a path's place in `paths`, its reason and
 * 1 for a generated file's skip).
 */
function withSkips(
  files: Map<string, StatRecord> | undefined,
  data: { paths?: unknown; skips?: unknown },
): Map<string, StatRecord> | undefined {
  const { paths, skips } = data;
  if (!files || !Array.isArray(skips) || !Array.isArray(paths)) return files;
  for (let i = 0; i + 2 < skips.length; i += 3) {
    const path = paths[skips[i]];
    const record = typeof path === "string" ? files.get(path) : undefined;
    if (!record) continue;
    if (typeof skips[i + 1] === "string") {
      record.skip = { reason: skips[i + 1], generated: skips[i + 2] === 1 };
    } else files.delete(path);
  }
  return files;
}

/**
 * Write an index (temp file and rename; failures are ignored: it only saves time), its records
 * sorted by path.
 *
 * @example
 * ```ts
 * import { saveStatIndex } from "./stat_index.ts";
 * await saveStatIndex({ path: await Deno.makeTempFile(), readStart: 0, files: new Map() });
 * ```
 */
export async function saveStatIndex(index: StatIndex): Promise<void> {
  if (!index.path) return;
  const disk = index.disk ?? { id: "", bytes: 0, journal: 0, damaged: false };
  const { before } = index;
  index.before = undefined;
  const line = before &&
    journalLine({
      disk,
      rules: SKIP_RULES,
      readStart: index.readStart,
      files: index.files,
      before,
    });
  if (line !== undefined) {
    try {
      await Deno.writeTextFile(journalPath(index.path), line, { append: true });
      disk.journal += line.length;
      countWork("stat index characters written", line.length);
      return;
    } catch {
      // Written whole below.
    }
  }
  await saveWhole(index, index.path, disk);
}

/** Write an index whole with a new id, and remove the journal of the base it replaces. */
async function saveWhole(index: StatIndex, path: string, disk: IndexDisk): Promise<void> {
  const paths: string[] = [];
  const fields: number[] = [];
  const hashes: string[] = [];
  const skips: Array<number | string> = [];
  for (const [p, r] of sortedRecords(index.files)) {
    if (r.skip) skips.push(paths.length, r.skip.reason, r.skip.generated ? 1 : 0);
    paths.push(p);
    fields.push(r.dev, r.ino, r.size, r.mtime, r.ctime);
    hashes.push(r.sha256);
  }
  const id = crypto.randomUUID();
  const text = JSON.stringify({
    format: FORMAT,
    id,
    readStart: index.readStart,
    paths,
    fields,
    hashes,
    skips,
    skipRules: SKIP_RULES,
  });
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
    countWork("stat index characters written", text.length);
  } catch {
    await Deno.remove(tmp).catch(() => {});
    return;
  }
  // A journal left of the base replaced names that base's id: it would not be read in any case.
  await Deno.remove(journalPath(path)).catch(() => {});
  Object.assign(disk, { id, bytes: text.length, journal: 0, damaged: false });
  index.disk = disk;
}

/** The records by path, sorted (sorted only when they are not: a build's are, as resolved). */
function sortedRecords(files: Map<string, StatRecord>): Array<[string, StatRecord]> {
  const records = [...files];
  for (let i = 1; i < records.length; i++) {
    if (records[i - 1][0] > records[i][0]) {
      return records.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
  }
  return records;
}

/**
 * Whether a recorded file is unchanged: same fingerprint, and both its times
 * older than {@linkcode RACY_MS} before the recording build began reading.
 *
 * @example
 * ```ts
 * import { unchanged } from "./stat_index.ts";
 * // unchanged(record, lstatFile(path), index.readStart)
 * ```
 */
export function unchanged(record: StatRecord, info: FileStat, readStart: number): boolean {
  // Compared field by field (no fingerprint object per file: a rebuild looks at every file).
  return record.dev === (info.dev ?? 0) && record.ino === (info.ino ?? 0) &&
    record.size === info.size && record.mtime === info.mtime && record.ctime === info.ctime &&
    settled(record, readStart);
}

/** Both times safely older than the recording build's read (not racily clean). */
function settled(times: { mtime: number; ctime: number }, readStart: number): boolean {
  return times.mtime < readStart - RACY_MS && times.ctime < readStart - RACY_MS;
}

/** The record of a file read now: one literal, so its six fields are held in the object itself. */
function recordOf(info: FileStat, sha256: string, skip?: TextSkip): StatRecord {
  const { size, mtime, ctime } = info;
  const record: StatRecord = { dev: info.dev ?? 0, ino: info.ino ?? 0, size, mtime, ctime, sha256 };
  if (skip) record.skip = skip;
  return record;
}

/**
 * Start a build's use of an index (`undefined`: nothing recorded yet).
 * `untouched` says which targets a watcher saw no change of since the index
 * was made (a resident process, `slop watch`): their records are trusted
 * without looking at the files.
 *
 * @example
 * ```ts
 * import { loadStatIndex, statSession } from "./stat_index.ts";
 * const session = statSession(loadStatIndex("/no/such/index.json"));
 * session.result().files.size; // 0
 * ```
 */
export function statSession(
  previous: StatIndex | undefined,
  path?: string,
  untouched?: (target: Target) => boolean,
): StatSession {
  const readStart = Date.now();
  const files = new Map<string, StatRecord>();
  let recorded = false;
  let made: StatIndex | undefined;
  return {
    trusted(target) {
      const record = untouched && previous?.files.get(target.path);
      if (!record || !untouched(target) || !settled(record, previous!.readStart)) return undefined;
      files.set(target.path, record);
      return record;
    },
    lookup(p, info) {
      const record = previous?.files.get(p);
      if (!record || !unchanged(record, info, previous!.readStart)) return undefined;
      files.set(p, record);
      return record;
    },
    record(p, info, hash, skip) {
      // Without a device and inode (not Linux or macOS) a fingerprint is too weak: record nothing.
      if (info.ino === null || info.dev === null) return;
      files.set(p, recordOf(info, hash, skip));
      recorded = true;
    },
    // Nothing read anew: the previous index (and its older read start) still holds.
    result: () =>
      !recorded && previous && files.size === previous.files.size
        ? previous
        : (made ??= madeIndex(previous, path, { readStart, files })),
    changed: () => recorded || files.size !== (previous?.files.size ?? 0),
  };
}

/**
 * The index a session leaves (made once: a resident keeps the object its save wrote): its files
 * written as changes to the previous index's when it is the same file.
 */
function madeIndex(
  previous: StatIndex | undefined,
  path: string | undefined,
  made: { readStart: number; files: Map<string, StatRecord> },
): StatIndex {
  const at = path ?? previous?.path;
  const same = previous?.disk && previous.path === at;
  return same
    ? { path: at, ...made, disk: previous.disk, before: previous.files }
    : { path: at, ...made };
}

/**
 * What reads a build's unread sources: one `load` function shared by all of them, which finds its
 * file as `this` (a function made for each file, with its scope, held more than most of the file's
 * records: bench/README.md, "Compact per-file state").
 */
export interface UnreadLoader {
  /** Each unread source's `load` (see `SourceFile.load`): reads the file it is called on. */
  load: (this: SourceFile) => Promise<boolean>;
  /**
   * Told of each file read by `load` once its text is in place, with whether its content differs
   * from the recorded hash; `load` returns when it has. Set by the speed layer (the late scan).
   */
  onLoad?: (file: SourceFile, changed: boolean) => Promise<void>;
}

/**
 * The loader of a build's unread sources ({@linkcode defer}).
 *
 * @example
 * ```ts
 * import { unreadLoader } from "./stat_index.ts";
 * // const loader = unreadLoader(config); defer(file, loader); await file.load?.();
 * ```
 */
export function unreadLoader(config: ResolvedConfig): UnreadLoader {
  const loader: UnreadLoader = {
    load(this: SourceFile): Promise<boolean> {
      return loadUnread(this, config, loader);
    },
  };
  return loader;
}

/** Read an unread source in place; whether it changed since its hash was recorded. */
async function loadUnread(
  file: SourceFile,
  config: ResolvedConfig,
  loader: UnreadLoader,
): Promise<boolean> {
  const recorded = file.sha256;
  file.load = undefined;
  const {
    path,
    absPath,
    entry,
    explicit,
    imageLimit,
    judgeGenerated,
    compiledSource,
    dataLimit,
    translationOf,
  } = file;
  const target: Target = {
    path,
    absPath,
    entry,
    explicit,
    ...(imageLimit ? { imageLimit } : {}),
    ...(judgeGenerated ? { judgeGenerated } : {}),
    ...(compiledSource ? { compiledSource } : {}),
    ...(dataLimit ? { dataLimit } : {}),
    ...(translationOf ? { translationOf } : {}),
  };
  Object.assign(file, await readTarget(target, config));
  const changed = file.sha256 !== recorded;
  await loader.onLoad?.(file, changed);
  return changed;
}

/**
 * Mark a source as not read: its `load` (the loader's, called as the file's method) reads it when
 * a stage needs its text, and tells whether it changed since its hash was recorded (callers that
 * relied on the recorded hash, like the secret scan, must look again).
 *
 * @example
 * ```ts
 * import { defer, unreadLoader } from "./stat_index.ts";
 * // defer(file, unreadLoader(config)); ... if (file.load) await file.load();
 * ```
 */
export function defer(file: SourceFile, loader: UnreadLoader): void {
  file.load = loader.load;
}

/** Options of {@linkcode readIndexed}. */
export interface IndexedReadOptions extends LookedReadOptions {
  /** This build's session of the stat index. */
  index: StatSession;
  /** What reads the files left unread. @default {unreadLoader(config)} one for this read */
  loader?: UnreadLoader;
  /**
   * Values made from texts, by their hashes (`text_memo.ts`): the data limit of plain text its
   * text decides (`readByContent`) is taken from it, the file left unread, and noted in it when
   * the file is read. Without it such a file is read at each build.
   */
  memo?: TextMemo;
}

/**
 * The read stage with a stat index: a file the index knows unchanged (trusted, or with the same
 * `lstat` fingerprint) is taken with its recorded hash and no text (its `load` reads it when a
 * stage needs it); the others are read as the plain stage reads them (`readLooked`), each with the
 * `lstat` taken here, and recorded. The same files as `readTargets` gives, once their texts are loaded.
 *
 * @example
 * ```ts
 * import { readIndexed } from "./stat_index.ts";
 * // const sources = await readIndexed(targets, config, { index: statSession(loadStatIndex(path)) });
 * ```
 */
export async function readIndexed(
  targets: Target[],
  config: ResolvedConfig,
  options: IndexedReadOptions,
): Promise<SourceFile[]> {
  const { index } = options;
  const out = new Array<SourceFile>(targets.length);
  const left: number[] = [];
  const lstats = new Map<string, FileStat>();
  const known = { ...options, loader: options.loader ?? unreadLoader(config) };
  // Files known unchanged are taken at once (no task turn); the others are read in parallel.
  for (let i = 0; i < targets.length; i++) {
    const file = knownTarget(targets[i], config, known, lstats);
    if (file) out[i] = file;
    else left.push(i);
  }
  // Whether each file read is generated but named (not to be recorded) is judged as it is read,
  // its text at hand: `onRead` may keep the text out of memory, and reading it back here (a big
  // tree's every file) cost a decoded copy each.
  const namedGenerated = new WeakSet<SourceFile>();
  const read = await readLooked(left.map((i) => targets[i]), config, {
    lstats,
    onEach: options.onEach,
    onRead: (file) => {
      if (readNamedGenerated(file)) namedGenerated.add(file);
      options.onRead?.(file);
    },
  });
  read.forEach((file, n) => {
    out[left[n]] = file;
    const info = lstats.get(file.path);
    // A symbolic link's target's fingerprint is not recorded: it is always read. Nor is a
    // generated file read because the config names it: a build that does not skips it. A file
    // skipped for what its bytes hold is recorded with its skip: skipped again unread.
    const skip = skipByText(file);
    if (info && !info.isSymlink && skip) index.record(file.path, info, file.sha256, skip);
    else if (info && !info.isSymlink && !file.error && !namedGenerated.has(file)) {
      index.record(file.path, info, file.sha256);
      // The limit its text decides (plain text's, code's: none when code is not number
      // tables): the next build takes it unread.
      if (options.memo && readByContent(targets[left[n]], file.size)) {
        remember(options.memo, file.sha256, LIMIT_SALT, String(file.dataLimit ?? NO_LIMIT));
      }
    }
  });
  return out;
}

/**
 * A target the index knows unchanged, taken from its record; `undefined` for any other file
 * (read by `readLooked`), its `lstat`, when taken, put in `lstats` for the read.
 */
function knownTarget(
  target: Target,
  config: ResolvedConfig,
  { index, lstats: resolved, loader, memo }: IndexedReadOptions & { loader: UnreadLoader },
  lstats: Map<string, FileStat>,
): SourceFile | undefined {
  if (target.skip) return skippedFile(target);
  if (leavesRoot(target, config)) return undefined;
  const limit = sizeLimit(target, config);
  // A file a watcher saw no change of (slop watch) is taken as recorded, not even looked at.
  const trusted = index.trusted(target);
  if (trusted?.skip) return skippedAgain(target, trusted);
  if (trusted && trusted.size <= limit) {
    // Plain text whose data limit depends on its text is read unless its limit is remembered.
    const judged = withKnownLimit(target, trusted, memo);
    return judged && deferred(judged, loader, trusted);
  }
  let info = resolved?.get(target.path);
  try {
    // Most files are only looked at: a synchronous lstat costs far less.
    info ??= fileStat(Deno.lstatSync(target.absPath));
  } catch {
    return undefined; // the read says why
  }
  lstats.set(target.path, info);
  const rootPrefix = config.root.endsWith(sep) ? config.root : config.root + sep;
  const inside = config.allowOutsideRoot || target.absPath.startsWith(rootPrefix);
  // A symbolic link, folder, special or large file, or one outside the root: read.
  if (!info.isFile || info.isSymlink || info.size > limit || !inside) return undefined;
  const record = index.lookup(target.path, info);
  if (!record) return undefined;
  if (record.skip) return skippedAgain(target, record);
  const known = record.sha256;
  const judged = withKnownLimit(target, { sha256: known, size: info.size }, memo);
  return judged && deferred(judged, loader, { sha256: known, size: info.size, mtime: info.mtime });
}

/**
 * A file skipped for what its unchanged bytes hold, as the read stage skips it; `undefined` (read
 * it) for a generated file's skip when this build does not judge the file generated (its config
 * names it).
 */
function skippedAgain(target: Target, record: StatRecord): SourceFile | undefined {
  const { skip, sha256, size, mtime } = record;
  if (!skip || (skip.generated && !target.judgeGenerated)) return undefined;
  return {
    ...target,
    sha256,
    size,
    mtimeMs: mtime,
    error: { status: "skipped", reason: skip.reason },
  };
}

/** The memo's value for a text that has no data limit (code that is no number tables). */
const NO_LIMIT = "none";

/** What the memo's values of plain text's data limits are kept under, beside the text's hash. */
const LIMIT_SALT = `plain-text-limit/${PLAIN_TEXT_RULES_VERSION}`;

/**
 * A target unchanged since its record, with the data limit its text decides (`readByContent`)
 * taken from `memo` by its hash; `undefined` when its text decides it and the memo does not
 * know it (the file is read).
 */
function withKnownLimit(
  target: Target,
  { sha256, size }: Pick<StatRecord, "sha256" | "size">,
  memo: TextMemo | undefined,
): Target | undefined {
  if (!readByContent(target, size)) return sizedTarget(target, size);
  const known = memo && recall(memo, sha256, LIMIT_SALT);
  if (known === NO_LIMIT) {
    const { dataLimit: _, ...whole } = target;
    return whole;
  }
  const limit = known === undefined ? NaN : Number(known);
  return Number.isSafeInteger(limit) && limit > 0 ? { ...target, dataLimit: limit } : undefined;
}

/** A file as the stat index knows it: its recorded hash, no text (read later if needed). */
function deferred(
  target: Target,
  loader: UnreadLoader,
  { sha256, size, mtime }: Pick<StatRecord, "sha256" | "size" | "mtime">,
): SourceFile {
  const file = { ...target, sha256, size, mtimeMs: mtime };
  defer(file, loader);
  return file;
}
