/**
 * The stat index's journal: what a build changed in the index, appended to a
 * file beside it, instead of the whole index written again. A warm rebuild of
 * a big tree reads one or a few files anew, and the index holds a record for
 * each of its files (6.7 MB of JSON for 44,040 files): writing it whole took
 * most of the index's cost. The index file (the base) has an id; each journal
 * line names the base it follows, the moment its build began reading, the
 * records it read anew and the paths it dropped, with a CRC-32 of the line.
 * When a journal grows past a quarter of its base, or a build changes more
 * than a few records, the index is written whole again and the journal
 * removed.
 *
 * What may go wrong costs reads, never a wrong record: a line that is cut
 * short, damaged, of another base or of other rules ends the journal there
 * (the records after it are not taken, and the next save writes the index
 * whole); a record is taken only if the file was not racily clean when its
 * build began reading; a journal whose base was replaced is not read.
 *
 * @module
 */

import { crc32 } from "node:zlib";
import { readSettingTextSync, STATE_FILE_LIMIT } from "../pipeline/helpers.ts";

/** What is recorded of a file: fingerprint and content hash. */
export interface StatRecord {
  dev: number;
  ino: number;
  size: number;
  /** Modification time, ms. */
  mtime: number;
  /** Change time, ms (whole seconds from Deno). */
  ctime: number;
  /** sha256 of the bytes (before any redaction). */
  sha256: string;
  /**
   * Why the file was skipped for what its bytes hold (binary, a Git LFS pointer, a generated
   * header: `skipByText` of `pipeline/read.ts`), so an unchanged one is skipped again unread.
   */
  skip?: TextSkip;
}

/** A skip its bytes decided: the reason, and whether it is a generated file's. */
export interface TextSkip {
  reason: string;
  /** A generated file's skip: a build whose config names the file reads it whole. */
  generated: boolean;
}

/** The files an index was read from and written to, shared by the indexes made from it. */
export interface IndexDisk {
  /** The base's id (`""`: none written or read yet). */
  id: string;
  /** The base's length, characters. */
  bytes: number;
  /** The journal's length, characters. */
  journal: number;
  /** A journal line could not be taken: the next save writes the index whole. */
  damaged: boolean;
}

/** One journal line as parsed. */
interface JournalLine {
  base: string;
  rules: string;
  readStart: number;
  records: Array<[string, StatRecord]>;
  dropped: string[];
}

/** Past this share of its base, a journal is folded into the base by a whole write. */
const JOURNAL_SHARE = 4;
/** Past this many changed records (or an eighth of the index), a build writes the index whole. */
const MOST_CHANGES = 512;

/**
 * Where an index's journal lives: beside it.
 *
 * @example
 * ```ts
 * import { journalPath } from "./_stat_journal.ts";
 * journalPath("/p/.slop/cache/stat/ab.json"); // "/p/.slop/cache/stat/ab.json.journal"
 * ```
 */
export function journalPath(indexPath: string): string {
  return `${indexPath}.journal`;
}

/**
 * Apply the journal of the base `disk` names to `files` (read from the base, judged against
 * `readStart`), and return the read start of the last line taken. A line not taken ends the
 * journal and marks `disk` damaged. Every record taken, the base's too once a line is taken, was
 * settled (not racily clean) when its own build began reading: what the index's latest read start
 * says of all of them.
 *
 * @example
 * ```ts
 * import { applyJournal } from "./_stat_journal.ts";
 * const disk = { id: "x", bytes: 10, journal: 0, damaged: false };
 * applyJournal("/no/such/index.json", { disk, rules: "r", readStart: 5, settled: () => true }, new Map()); // 5
 * ```
 */
export function applyJournal(
  indexPath: string,
  base: {
    disk: IndexDisk;
    rules: string;
    readStart: number;
    settled: (record: StatRecord, readStart: number) => boolean;
  },
  files: Map<string, StatRecord>,
): number {
  const { disk, rules, settled } = base;
  let text: string;
  try {
    // As the other state files: never a FIFO waited on, nor a file past the limit read.
    text = readSettingTextSync(journalPath(indexPath), STATE_FILE_LIMIT);
  } catch (error) {
    // No journal: the base is the index. One that cannot be read is replaced at the next save.
    if ((error as { code?: string })?.code !== "ENOENT") disk.damaged = true;
    return base.readStart;
  }
  disk.journal = text.length;
  let readStart = base.readStart;
  let taken = 0;
  for (let from = 0; from < text.length;) {
    const end = text.indexOf("\n", from);
    const line = end < 0 ? undefined : parseLine(text.slice(from, end));
    if (!line || line.base !== disk.id || line.rules !== rules) {
      disk.damaged = true;
      break;
    }
    if (!taken++) {
      for (const [path, record] of files) if (!settled(record, readStart)) files.delete(path);
    }
    for (const path of line.dropped) files.delete(path);
    for (const [path, record] of line.records) {
      if (settled(record, line.readStart)) files.set(path, record);
      else files.delete(path);
    }
    readStart = line.readStart;
    from = end + 1;
  }
  return readStart;
}

/**
 * The journal line of what `files` changed against `before` (records read anew, paths
 * dropped), or `undefined` when the index is better written whole: no base to follow, a
 * damaged journal, too many changes, or a journal grown past its share of the base.
 *
 * @example
 * ```ts
 * import { journalLine } from "./_stat_journal.ts";
 * const disk = { id: "", bytes: 0, journal: 0, damaged: false };
 * journalLine({ disk, rules: "r", readStart: 1, files: new Map(), before: new Map() }); // undefined
 * ```
 */
export function journalLine(
  index: {
    disk: IndexDisk;
    rules: string;
    readStart: number;
    files: Map<string, StatRecord>;
    before: Map<string, StatRecord>;
  },
): string | undefined {
  const { disk, files, before } = index;
  if (!disk.id || disk.damaged) return undefined;
  const most = Math.min(MOST_CHANGES, Math.ceil(files.size / 8));
  const paths: string[] = [];
  const fields: number[] = [];
  const hashes: string[] = [];
  const skips: Array<number | string> = [];
  for (const [path, record] of files) {
    // A record taken from the last index is the same object: only those read anew differ.
    if (before.get(path) === record) continue;
    if (paths.length >= most) return undefined;
    if (record.skip) skips.push(paths.length, record.skip.reason, record.skip.generated ? 1 : 0);
    paths.push(path);
    fields.push(record.dev, record.ino, record.size, record.mtime, record.ctime);
    hashes.push(record.sha256);
  }
  const dropped: string[] = [];
  if (before.size + paths.length !== files.size) {
    for (const path of before.keys()) {
      if (files.has(path)) continue;
      if (dropped.length >= most) return undefined;
      dropped.push(path);
    }
  }
  const json = JSON.stringify({
    base: disk.id,
    rules: index.rules,
    readStart: index.readStart,
    paths,
    fields,
    hashes,
    skips,
    dropped,
  });
  const line = `${crc32(json).toString(16).padStart(8, "0")} ${json}\n`;
  return disk.journal + line.length > disk.bytes / JOURNAL_SHARE ? undefined : line;
}

/** A line's fields, or `undefined` when its checksum or any field is not as written. */
function parseLine(line: string): JournalLine | undefined {
  const json = line.slice(9);
  if (line[8] !== " " || crc32(json).toString(16).padStart(8, "0") !== line.slice(0, 8)) {
    return undefined;
  }
  try {
    const data = JSON.parse(json);
    const { base, rules, readStart, paths, fields, hashes, skips, dropped } = data ?? {};
    if (
      typeof base !== "string" || typeof rules !== "string" || !Number.isFinite(readStart) ||
      !Array.isArray(paths) || !Array.isArray(fields) || !Array.isArray(hashes) ||
      !Array.isArray(skips) || !Array.isArray(dropped) || fields.length !== 5 * paths.length ||
      hashes.length !== paths.length || !dropped.every((p) => typeof p === "string")
    ) return undefined;
    const records: Array<[string, StatRecord]> = [];
    for (let i = 0; i < paths.length; i++) {
      const [dev, ino, size, mtime, ctime] = fields.slice(5 * i, 5 * i + 5);
      if (
        typeof paths[i] !== "string" || typeof hashes[i] !== "string" ||
        ![dev, ino, size, mtime, ctime].every(Number.isFinite)
      ) return undefined;
      records.push([paths[i], { dev, ino, size, mtime, ctime, sha256: hashes[i] }]);
    }
    for (let i = 0; i + 2 < skips.length; i += 3) {
      const record = records[skips[i]]?.[1];
      if (!record || typeof skips[i + 1] !== "string") return undefined;
      record.skip = { reason: skips[i + 1], generated: skips[i + 2] === 1 };
    }
    return { base, rules, readStart, records, dropped };
  } catch {
    return undefined;
  }
}
