/**
 * The texts of one build kept in a temporary file instead of the heap: each
 * text is written once, as UTF-8, when it is read or rendered, and its
 * `text` property reads it back when a stage uses it (`pipeline/lazy_text.ts`).
 * What a build holds then grows with the number of files, not with the
 * tree's size (bench/README.md, "Monorepo scale").
 *
 * A build spills only past a size (64M characters by default; `SLOP_SPILL_AFTER_MB`,
 * see {@linkcode spillAfterFromEnv}): the first characters of texts offered
 * stay in memory (a build that small holds them as it always did, at no
 * cost), the texts offered after them go to the file. Reading a
 * text again costs its decoding each time, and each decoded copy is garbage
 * once used: a spill that writes texts asks for a full collection every
 * {@linkcode COLLECT_EVERY_CHARS} characters written or read back and at the
 * end of each stage that wrote or read back any (V8 would let its heap grow
 * to several times what the build holds first). bench/README.md ("Monorepo scale") has what it costs and saves.
 *
 * A text a cache's pack holds already (a warm build's cached render) is not
 * written: it is read from the pack where it is (`keepAt`). Each kept text
 * notes what its block's fence needs (`TextBacking.marks`), so that the
 * files section need not read it back.
 *
 * A source and the file rendered from it in full share one record: the text
 * read last is remembered (one text, the largest file at most), and keeping
 * the same text again gives its record instead of writing it twice. Texts
 * shorter than {@linkcode SPILL_MIN_CHARS} stay in memory (a record costs
 * more than they do), as do texts with unpaired surrogates (UTF-8 cannot
 * give them back as they were).
 *
 * @module
 */

import {
  lazyText,
  type TextBacking,
  textBacking,
  type TextMarks,
  textMarks,
} from "../pipeline/lazy_text.ts";
import { countWork, readAt, removeQuietly } from "../pipeline/helpers.ts";
import { bidiControlBytes } from "../pipeline/bidi_controls.ts";
import { collectGarbage } from "./collect.ts";
import type { PackPlace } from "../pipeline/cache.ts";
import type { KeptBytes } from "../pipeline/transform.ts";
import { memoized, memoizedIf, type TextMemo } from "./text_memo.ts";
import { isAscii, isUtf8 } from "node:buffer";
import { crc32 } from "node:zlib";

/** Files rendering at once when their texts are in a spill (`KeptRenderOptions.window`, `kept_renders.ts`). */
export const SPILL_WINDOW = 64;

/** Characters of texts offered to a spill that stay in memory before it writes any. */
const SPILL_AFTER_CHARS = 64 * 1024 * 1024;

/**
 * The spill of a build, from its environment: by default the texts past their first
 * {@linkcode SPILL_AFTER_CHARS} (64M) characters go to a spill file, so a tree smaller than that
 * spills nothing; `SLOP_SPILL_AFTER_MB=N` moves the threshold to N million characters (0: every
 * text), `SLOP_SPILL_AFTER_MB=off`: none.
 *
 * @example
 * ```ts
 * import { spillAfterFromEnv } from "./text_spill.ts";
 * spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "16" }); // 16777216
 * spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "off" }); // false
 * spillAfterFromEnv({}); // 67108864
 * ```
 */
export function spillAfterFromEnv(
  env: Record<string, string | undefined> = envOf(),
): number | false {
  const value = env.SLOP_SPILL_AFTER_MB?.trim();
  if (value === undefined || value === "") return SPILL_AFTER_CHARS;
  if (value.toLowerCase() === "off") return false;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb < 0) {
    throw new Error(
      `SLOP_SPILL_AFTER_MB must be a number of millions of characters or "off", got "${value}"`,
    );
  }
  return Math.floor(mb * 1024 * 1024);
}

function envOf(): Record<string, string | undefined> {
  try {
    return { SLOP_SPILL_AFTER_MB: Deno.env.get("SLOP_SPILL_AFTER_MB") };
  } catch {
    return {}; // no permission to read the environment: the default
  }
}

/**
 * Characters of texts let go (written to the spill) or read back (decoded) between two full
 * collections a spilling build asks for: each is garbage once used, and V8 lets its heap grow to
 * several times what it holds before it collects on its own (bench/README.md, "Monorepo scale").
 */
const COLLECT_EVERY_CHARS = 128 * 1024 * 1024;

/** Texts shorter than this stay in memory. */
const SPILL_MIN_CHARS = 1024;

/**
 * The texts read last that are kept, at most: the stages read a file's text several times in a
 * row (and the files rendering at once, {@linkcode SPILL_WINDOW}, between awaits), and a rendered
 * text that is its source's own is found among them (kept once).
 */
const RECENT_TEXTS = 128;
/** ... and at most this many characters of them (the last one is kept whatever its size). */
const RECENT_CHARS = 32 * 1024 * 1024;

/** What a build's spill did (for tests and the bench). */
export interface SpillStats {
  /** Texts written. */
  written: number;
  /** Texts kept that shared the record of the text read or kept last. */
  shared: number;
  /** Texts read back (decoded). */
  reads: number;
  /** Texts read back as bytes (decoded or not). */
  rawReads: number;
  /** Texts kept where a cache's pack has them (`keepAt`), not written. */
  kept: number;
  /** Texts written, then moved to where a cache's pack has them (`moveTo`). */
  moved: number;
  /** Bytes written. */
  bytes: number;
  /** Full collections asked for (see {@linkcode COLLECT_EVERY_CHARS}). */
  collections: number;
}

/** A build's spill file. */
export interface TextSpill {
  /**
   * Make `target.text` lazy, kept in the spill file (when it is long enough). With `recent:
   * false`, the text is not kept among those read last: nothing reads it again before the stage
   * ends (a read stage's texts), and one kept past its use outlives the young generation's
   * collections, garbage that only a full collection of the build's heap frees.
   */
  spill(target: { text?: string }, options?: { recent?: boolean }): void;
  /**
   * A text kept where it already is instead of written again: `text`, its UTF-8 as read (and
   * checked) at `place` in a cache's pack file (a warm build's cached renders), read only when
   * its measure is not remembered; kept so under the threshold too (it costs no memory). `undefined`
   * when it stays in memory (decode it then: it is short, or the spill closed, or its bytes could
   * not be read).
   */
  keepAt(text: KeptBytes, place: PackPlace): TextBacking | undefined;
  /**
   * A text this spill wrote, found where a cache's pack holds it now (`bytes`, its UTF-8 as read
   * and checked at `place`: a resident's cold build, whose pack is written after it): the same
   * record reads it from the pack from now on, so what holds the record (a kept render, a block)
   * still knows it. Once every text the spill wrote is moved and the spill is closed, its file
   * is closed and removed. `false` when `backing` is not a text of this spill, or not those bytes'.
   */
  moveTo(backing: TextBacking, bytes: Uint8Array, place: PackPlace): boolean;
  /** Whether `backing` is a text this spill wrote and has not moved (read from its file). */
  holds(backing: TextBacking | undefined): boolean;
  /** Whether texts of `chars` more characters than those offered so far would be spilled. */
  spills(chars: number): boolean;
  /**
   * Tell the spill the characters of the texts the build holds in all (its files' sizes, once
   * read): what a stage's end lets go of is weighed against them ({@linkcode SpillOptions.settleShare}).
   */
  expect(chars: number): void;
  /**
   * Let go of the texts read last (a stage is done: the next reads other texts, or the same in
   * another order), so that between stages the build holds none.
   */
  forget(): void;
  /**
   * Close the file; texts read later open it again, once each. With `keepOpen` (a resident
   * process, whose memos keep this build's texts for its next builds): no more texts are
   * written, and the file stays open for reads until no text kept in it is left (then it is
   * closed and removed), or its owner ends ({@linkcode dropSpillsOf}). With `drop` (a build that
   * failed: none of its texts is read again): the file is closed and removed now.
   */
  close(options?: { keepOpen?: boolean; drop?: boolean }): void;
  /** What was written and read so far. */
  stats: SpillStats;
  /** The memo it was opened with ({@linkcode SpillOptions.memo}). */
  memo?: TextMemo;
}

/** Options of {@linkcode openSpill}. */
export interface SpillOptions {
  /**
   * Characters of texts offered that stay in memory before the spill writes any.
   * @default {SPILL_AFTER_CHARS} 64M
   */
  after?: number;
  /**
   * Characters of texts written or read back after which the spill asks for a full collection
   * (and at each `forget` after any); `Infinity`: never.
   * @default {COLLECT_EVERY_CHARS} 128M
   */
  collectEvery?: number;
  /**
   * Characters of texts written or read back since the last collection that make a stage's end
   * (`forget`) ask for one. A resident's rebuild writes the few texts it changed: a collection of
   * its heap at each stage's end would cost more than the garbage it frees (bench/README.md,
   * "Monorepo scale").
   * @default {1} any
   */
  settleAfter?: number;
  /**
   * A share of the characters of the build's texts (those offered so far, or those it expects in
   * all, {@linkcode TextSpill.expect}, the more of the two) that a stage's end must have
   * let go of (besides {@linkcode SpillOptions.settleAfter}) to ask for a collection: what is
   * left is then at most that share of the texts, and a rebuild that let go of a few texts (of
   * a big tree's thousands) does not mark the whole heap twice for them (bench/README.md,
   * "Monorepo scale").
   * @default {0} none
   */
  settleShare?: number;
  /**
   * What runs a full collection; returns whether it could.
   * @default {collectGarbage} `accel/collect.ts`
   */
  collector?: () => boolean;
  /**
   * Values made from texts kept where a cache's pack has them, remembered between builds by the
   * texts' names (`text_memo.ts`).
   * @default {undefined} none: each is made again
   */
  memo?: TextMemo;
  /**
   * What keeps the spill's texts past its build (a resident process): its spill files, while
   * left, are closed and removed by {@linkcode dropSpillsOf} (as it ends).
   * @default {undefined} none: the file is removed as the process exits
   */
  owner?: object;
  /**
   * The folder the spill file is made in.
   * @default {undefined} the system's temporary folder
   */
  dir?: string;
  /**
   * Where a warning goes: the spill file cannot be made or written (the disk is full), so the
   * build's texts from then on stay in memory.
   * @default {undefined} none
   */
  warn?: (message: string) => void;
}

interface SpillState {
  after: number;
  owner?: object;
  dir?: string;
  /** Characters of texts offered so far (shared ones not counted). */
  offered: number;
  /**
   * The checks of the texts kept unread (`PackPlace.check`): a seed and a crc32 each, at twice a
   * text's `check` (two numbers in one array, not an object per text).
   */
  checks?: Uint32Array;
  /** Checks in `checks`. */
  checked?: number;
  /** The file, made when the first text is written. */
  path?: string;
  file?: Deno.FsFile;
  /** The file and its path, closed and removed once the spill is let go of. */
  left?: SpillFile;
  closed?: boolean;
  /** Why the file could not be made or written (then no more texts are written). */
  failed?: string;
  warn?: (message: string) => void;
  /** What the texts moved to a pack read with (`moveTo`): this state without its file. */
  moved?: SpillState;
  end: number;
  /** Where texts are encoded and decoded. */
  buffer: Uint8Array;
  /** Where a text's bytes are read (`TextBacking.bytes`: valid until the next are read). */
  bytes: Uint8Array;
  /** The texts read or kept last, with their records (see {@linkcode RECENT_CHARS}). */
  recent: Map<TextBacking, string>;
  recentChars: number;
  /** Characters of texts written or read back since the last collection. */
  loose: number;
  /** Those that make a collection due. */
  collectEvery: number;
  /** Those that make a collection due at a stage's end. */
  settleAfter: number;
  /** The share of the texts' characters (offered, or expected) that does too (the larger). */
  settleShare: number;
  /** The characters of texts the build expects to hold in all ({@linkcode TextSpill.expect}). */
  expected: number;
  collector: () => boolean;
  stats: SpillStats;
  memo?: TextMemo;
  /** The pack files the spill borrowed (`keepAt`), closed with its file when it is dropped. */
  borrowed?: Set<Deno.FsFile>;
}

const encoder = new TextEncoder();
// A leading U+FEFF is text kept as it was written (a second byte order mark), not a mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Spill files of this process, removed when it exits. */
const made = new Set<string>();
let removing = false;

/** A new spill's counts: nothing written, read or moved yet. */
function noStats(): SpillStats {
  return {
    written: 0,
    shared: 0,
    reads: 0,
    rawReads: 0,
    kept: 0,
    moved: 0,
    bytes: 0,
    collections: 0,
  };
}

/**
 * Open a spill file (in the system's temporary folder, removed when the
 * process exits).
 *
 * @example
 * ```ts
 * import { openSpill } from "./text_spill.ts";
 * const spill = openSpill();
 * const file = { text: "x = 1\n".repeat(500) };
 * spill.spill(file);
 * file.text.length; // 3000
 * spill.close();
 * ```
 */
export function openSpill(options: SpillOptions = {}): TextSpill {
  const state: SpillState = {
    end: 0,
    buffer: new Uint8Array(64 * 1024),
    bytes: new Uint8Array(64 * 1024),
    recent: new Map(),
    recentChars: 0,
    stats: noStats(),
    loose: 0,
    collectEvery: options.collectEvery ?? COLLECT_EVERY_CHARS,
    settleAfter: options.settleAfter ?? 1,
    settleShare: options.settleShare ?? 0,
    expected: 0,
    collector: options.collector ?? collectGarbage,
    after: options.after ?? SPILL_AFTER_CHARS,
    owner: options.owner,
    dir: options.dir,
    warn: options.warn,
    offered: 0,
    memo: options.memo,
  };
  return {
    spill: (target, options) => spillText(state, target, options?.recent ?? true),
    keepAt: (text, place) => keepAt(state, text, place),
    moveTo: (backing, bytes, place) => moveTo(state, backing, bytes, place),
    holds: (backing) =>
      backing !== undefined && Object.getPrototypeOf(backing) === SPILLED &&
      (backing as SpilledText).state === state,
    spills: (chars) => state.offered + chars > state.after,
    expect(chars) {
      state.expected = Math.max(state.expected, chars);
    },
    forget() {
      state.recent.clear();
      state.recentChars = 0;
      // A stage is done: the texts it wrote or read back are garbage (when there were any; a
      // collection only past 1M characters was tried: bench/README.md, "Monorepo scale").
      const texts = Math.max(state.offered, state.expected);
      if (state.loose >= Math.max(state.settleAfter, texts * state.settleShare)) {
        collect(state);
      }
    },
    close(options = {}) {
      state.closed = true;
      if (options.drop) dropAll(state);
      else if (!options.keepOpen) {
        state.file?.close();
        state.file = undefined;
      }
      state.recent.clear();
      state.recentChars = 0;
    },
    stats: state.stats,
    memo: state.memo,
  };
}

/** Make the spill file (removed when the process exits) and open it. */
function create(state: SpillState): Deno.FsFile {
  const dir = state.dir ?? Deno.env.get("TMPDIR") ?? "/tmp";
  removeStaleSpills(dir);
  // Named with the process's id, so that a later build can tell a killed build's file.
  const prefix = `slop_texts_${Deno.pid}_`;
  const path = state.path = Deno.makeTempFileSync({ prefix, dir: state.dir });
  made.add(path);
  const file = Deno.openSync(path, { read: true, write: true });
  // No text kept in it is left (a resident's memos let go of them): the file is closed, removed.
  const owned = state.owner && ownedFiles(state.owner);
  state.left = { path, file, owned, spill: new WeakRef(state) };
  owned?.add(state.left);
  spillsLeft.register(state, state.left, state.left);
  if (!removing) {
    removing = true;
    globalThis.addEventListener("unload", () => made.forEach((p) => removeQuietly(p)));
  }
  return file;
}

/** A spill file, for when its spill is let go of (what is closed and removed then). */
interface SpillFile {
  path: string;
  file: Deno.FsFile;
  /** The files of the spill's owner ({@linkcode SpillOptions.owner}). */
  owned?: Set<SpillFile>;
  /** The spill, while a text kept in it (or its build) is left. */
  spill?: WeakRef<object>;
}

/** The spill files of each owner that are left. */
const owners = new WeakMap<object, Set<SpillFile>>();

function ownedFiles(owner: object): Set<SpillFile> {
  let files = owners.get(owner);
  if (!files) owners.set(owner, files = new Set());
  return files;
}

/**
 * Remove the spill files of `owner` ({@linkcode SpillOptions.owner}) that are left: a resident
 * process that ends. A file no text of which is left is closed too; one whose texts are still
 * held (a build's result, read after its resident closed) loses its name now and stays open for
 * them: it is closed once they are collected, or as the process exits.
 *
 * @example
 * ```ts
 * import { dropSpillsOf, openSpill } from "./text_spill.ts";
 * const owner = {};
 * const spill = openSpill({ after: 0, owner });
 * const file = { text: "x = 1\n".repeat(500) };
 * spill.spill(file);
 * spill.close({ keepOpen: true });
 * dropSpillsOf(owner); // the file is removed
 * ```
 */
export function dropSpillsOf(owner: object): void {
  const files = owners.get(owner);
  if (!files?.size) return;
  // Spills whose texts are garbage are told apart from those still held.
  collectGarbage();
  for (const left of [...files]) {
    if (left.spill?.deref()) {
      removeQuietly(left.path);
      made.delete(left.path);
      continue;
    }
    spillsLeft.unregister(left);
    closeAndRemove(left);
  }
}

/**
 * The spill files of `owner` ({@linkcode SpillOptions.owner}) left on disk, and their bytes.
 *
 * @example
 * ```ts
 * import { openSpill, spillsOf } from "./text_spill.ts";
 * const owner = {};
 * openSpill({ after: 0, owner }).spill({ text: "x = 1\n".repeat(500) });
 * spillsOf(owner); // { files: 1, bytes: 3000 }
 * ```
 */
export function spillsOf(owner: object): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const { path } of owners.get(owner) ?? []) {
    try {
      bytes += Deno.statSync(path).size;
      files++;
    } catch {
      // Removed already (its name dropped as its resident closed).
    }
  }
  return { files, bytes };
}

/** Closes and removes the file of a spill no text of which is left. */
const spillsLeft = new FinalizationRegistry<SpillFile>(closeAndRemove);

function closeAndRemove(left: SpillFile): void {
  const { path, file } = left;
  left.owned?.delete(left);
  try {
    file.close();
  } catch {
    // Closed already (the build closed it).
  }
  removeQuietly(path);
  made.delete(path);
}

/** The folders whose killed builds' spill files this process has removed. */
const swept = new Set<string>();

/**
 * Remove the spill files of builds that were killed (a `kill -9` or an out-of-memory kill runs no
 * exit handler, and a big tree's spill file is hundreds of megabytes): a file named with the id
 * of a process that no longer runs. Where the process table cannot be read (no `/proc`), none
 * is removed. Once per folder and process.
 */
function removeStaleSpills(dir: string): string[] {
  if (swept.has(dir)) return [];
  swept.add(dir);
  const removed: string[] = [];
  try {
    if (!Deno.statSync("/proc/self").isDirectory) return removed;
    for (const entry of Deno.readDirSync(dir)) {
      const pid = /^slop_texts_(\d+)_/.exec(entry.name)?.[1];
      if (!pid || !entry.isFile || pid === String(Deno.pid) || runs(pid)) continue;
      const path = `${dir.replace(/\/+$/, "")}/${entry.name}`;
      try {
        Deno.removeSync(path);
        removed.push(path);
      } catch {
        // Another user's, or gone already.
      }
    }
  } catch {
    // No process table, or the folder cannot be listed: nothing to remove.
  }
  return removed;
}

function runs(pid: string): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

function spillText(state: SpillState, target: { text?: string }, recent: boolean): void {
  if (textBacking(target)) return;
  const text = target.text;
  if (text === undefined || text.length < SPILL_MIN_CHARS) return;
  for (const [backing, recent] of state.recent) {
    if (recent.length !== text.length || recent !== text) continue;
    state.stats.shared++;
    return lazyText(target, backing);
  }
  if (state.closed || (state.offered += text.length) <= state.after || !text.isWellFormed()) {
    return;
  }
  const backing = write(state, text);
  // The file could not be written (a full disk): the text stays in memory.
  if (!backing) return;
  if (recent) remember(state, backing, text);
  lazyText(target, backing);
  loosen(state, text.length);
}

/** `chars` more characters of texts are garbage once used: a full collection when enough are. */
function loosen(state: SpillState, chars: number): void {
  if ((state.loose += chars) >= state.collectEvery) collect(state);
}

function collect(state: SpillState): void {
  state.loose = 0;
  if (state.collectEvery === Infinity) return;
  if (state.collector()) {
    state.stats.collections++;
    countWork("collections", 1);
  }
}

/**
 * Remember `text` as read last: the newest first out of {@linkcode RECENT_TEXTS}
 * texts and {@linkcode RECENT_CHARS} characters (the last one always kept).
 */
function remember(state: SpillState, backing: TextBacking, text: string): void {
  const { recent } = state;
  if (recent.has(backing)) return;
  recent.set(backing, text);
  state.recentChars += text.length;
  for (const [old, oldText] of recent) {
    if (recent.size <= 1 || (recent.size <= RECENT_TEXTS && state.recentChars <= RECENT_CHARS)) {
      break;
    }
    recent.delete(old);
    state.recentChars -= oldText.length;
  }
}

/**
 * Append `text`'s UTF-8 to the spill file; its record reads it back. `undefined` when the file
 * cannot be made or written (a full disk): a warning, and no text is written from then on.
 */
function write(state: SpillState, text: string): TextBacking | undefined {
  if (state.failed !== undefined) return undefined;
  const room = text.length * 3;
  if (state.buffer.length < room) state.buffer = new Uint8Array(room);
  const { written } = encoder.encodeInto(text, state.buffer);
  try {
    const file = state.file ??= create(state);
    file.seekSync(state.end, Deno.SeekMode.Start);
    for (let at = 0; at < written;) at += file.writeSync(state.buffer.subarray(at, written));
  } catch (error) {
    writeFailed(state, error);
    return undefined;
  }
  const offset = state.end;
  state.end += written;
  state.stats.written++;
  state.stats.bytes += written;
  // One literal (its fields held in the object itself), then its functions' prototype.
  const backing = {
    state,
    offset,
    size: written,
    byteLength: written,
    length: text.length,
    // The files section fences the text by these: its block is made without reading it back.
    marks: textMarks(text),
    values: undefined,
    // Set once the text is moved to a pack (`moveTo`).
    holder: undefined,
  };
  return Object.setPrototypeOf(backing, SPILLED) as SpilledText;
}

/**
 * The spill file could not be made or written: the build goes on with its texts in memory (told
 * once); the texts written before stay readable. A partly written text is overwritten by none.
 */
function writeFailed(state: SpillState, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  state.failed = reason;
  const where = state.path ?? state.dir ?? Deno.env.get("TMPDIR") ?? "/tmp";
  state.warn?.(
    `Cannot write the texts spill file "${where}": ${reason}: this build keeps the rest of its ` +
      `texts in memory (TMPDIR names the folder, SLOP_SPILL_AFTER_MB when texts are spilled)`,
  );
}

/** A text in the spill: where its UTF-8 bytes are. */
interface SpilledText extends TextBacking {
  state: SpillState;
  offset: number;
  size: number;
  /** Values made from the text (`derive`), kept with its record: a resident's next builds use them. */
  values?: Map<string, string>;
  /** The pack file it reads from once moved there (`moveTo`). */
  holder?: PackHolder;
}

/** What every spilled text does (one set of functions, not closures per text). */
const SPILLED: ThisType<SpilledText> & Pick<TextBacking, "read" | "bytes" | "derive"> = {
  derive(salt, compute) {
    const values = this.values ??= new Map();
    let value = values.get(salt);
    if (value === undefined) values.set(salt, value = compute());
    return value;
  },
  read() {
    const { state } = this;
    const known = state.recent.get(this);
    if (known !== undefined) return known;
    const read = readBack(state, this.offset, this.size);
    // A closed spill's texts (an earlier build's, a resident's) are not remembered: no build
    // lets go of them (`forget`).
    if (!state.closed) remember(state, this, read);
    loosen(state, read.length);
    return read;
  },
  bytes() {
    const { state } = this;
    // One buffer for every text's bytes: a new one each was memory the allocator kept.
    if (state.bytes.length < this.size) state.bytes = new Uint8Array(this.size);
    return readBytes(state, this.offset, this.size, state.bytes);
  },
};

function readBack(state: SpillState, offset: number, length: number): string {
  state.stats.reads++;
  if (state.buffer.length < length) state.buffer = new Uint8Array(length);
  return decoded(readBytes(state, offset, length, state.buffer));
}

/** A kept text's bytes decoded (a copy of the text that is garbage once used), counted as work. */
function decoded(bytes: Uint8Array): string {
  countWork("texts decoded", 1);
  return decoder.decode(bytes);
}

/** Read `length` bytes at `offset` into `into` (the file opened again once closed). */
function readBytes(
  state: SpillState,
  offset: number,
  length: number,
  into: Uint8Array,
): Uint8Array {
  state.stats.rawReads++;
  const file = state.file ?? Deno.openSync(state.path!, { read: true });
  try {
    file.seekSync(offset, Deno.SeekMode.Start);
    for (let at = 0; at < length;) {
      const n = file.readSync(into.subarray(at, length));
      if (n === null) throw new Error(`[slop] The spill file "${state.path}" ended early`);
      at += n;
    }
  } finally {
    if (file !== state.file) file.close();
  }
  return into.subarray(0, length);
}

/** A borrowed pack file, held by the texts kept in it: closed once none is left. */
interface PackHolder {
  file: Deno.FsFile;
  /** `PackPlace.check.damaged` of the texts kept unread in it. */
  damaged?: () => void;
}

/** The holder of each borrowed pack file while a text kept in it is left. */
const holders = new Map<Deno.FsFile, WeakRef<PackHolder>>();

/** Closes a pack file once its holder is gone (unless a new one holds it by then). */
const packsLeft = new FinalizationRegistry<Deno.FsFile>((file) => {
  if (holders.get(file)?.deref()) return;
  holders.delete(file);
  try {
    file.close();
  } catch {
    // Closed already.
  }
});

/** The holder of a borrowed pack file: one per file, held by every text kept in it. */
function holderOf(file: Deno.FsFile): PackHolder {
  let holder = holders.get(file)?.deref();
  if (!holder) {
    holder = { file };
    holders.set(file, new WeakRef(holder));
    packsLeft.register(holder, file);
  }
  return holder;
}

function keepAt(state: SpillState, text: KeptBytes, place: PackPlace): TextBacking | undefined {
  const { size } = text;
  // Kept where the pack has it whatever the threshold: such a text costs no memory and no write,
  // and a block of it is known by its name in the next build (its text neither read nor hashed).
  if (state.closed || size < SPILL_MIN_CHARS) return;
  const measures = measured(state, text, place.sha256);
  if (!measures) return;
  const file = place.borrow();
  if (!file) return;
  (state.borrowed ??= new Set()).add(file);
  const { length, marks } = measures;
  const holder = holderOf(file);
  // One literal, as a spilled text's (`Object.create` then eight fields put half of them in a
  // property array of their own: about 54 bytes a text more).
  const backing = Object.setPrototypeOf({
    state,
    holder,
    offset: place.offset,
    name: place.sha256,
    size,
    byteLength: size,
    length,
    marks,
    check: place.check ? keepCheck(state, place.check, holder) : -1,
  }, PACKED) as PackedText;
  state.offered += backing.length;
  state.stats.kept++;
  return backing;
}

/** Note a text's check (`PackPlace.check`) in `state.checks`: its index. */
function keepCheck(
  state: SpillState,
  check: NonNullable<PackPlace["check"]>,
  holder: PackHolder,
): number {
  holder.damaged ??= check.damaged;
  const at = state.checked ?? 0;
  if (!state.checks || state.checks.length < 2 * at + 2) {
    const grown = new Uint32Array(Math.max(1024, 4 * at));
    if (state.checks) grown.set(state.checks);
    state.checks = grown;
  }
  state.checks[2 * at] = check.seed;
  state.checks[2 * at + 1] = check.crc32;
  state.checked = at + 1;
  return at;
}

/**
 * A kept text's UTF-16 length and marks: remembered by its name (its record's sha256, checked or
 * vouched for by the pack's stamp, and where it starts in it: the same bytes in every build) from
 * the build that measured them, else measured from its bytes, three passes over them (`measure`).
 */
function measured(
  state: SpillState,
  text: KeptBytes,
  name: string,
): { length: number; marks: TextMarks } | undefined {
  const { memo } = state;
  const fromBytes = () => {
    const bytes = text.bytes();
    return bytes && measure(state, bytes);
  };
  const measures = memo ? memoizedIf(memo, name, "measure", fromBytes) : fromBytes();
  return measures === undefined ? undefined : parseMeasure(measures);
}

/**
 * The UTF-16 length and marks of the text whose UTF-8 is `bytes`, as one short string
 * (`length backticks lineEnded [count line codes]`, the last three of its bidirectional
 * controls): a text of well-formed UTF-8 is not decoded (a decoded copy is garbage, and a build
 * that made any asked for a collection).
 */
function measure(state: SpillState, bytes: Uint8Array): string {
  countWork("bytes measured", bytes.length);
  const ascii = isAscii(bytes);
  const length = ascii ? bytes.length : utf16Length(bytes);
  const text = length === undefined ? decoded(bytes) : undefined;
  if (text !== undefined) loosen(state, text.length);
  const { backticks, lineEnded, bidi } = text === undefined
    ? byteMarks(bytes, ascii)
    : textMarks(text);
  const head = `${text?.length ?? length} ${backticks} ${lineEnded ? 1 : 0}`;
  return bidi ? `${head} ${bidi.count} ${bidi.line} ${bidi.codes.join(",")}` : head;
}

/** The length and marks {@linkcode measure} wrote. */
function parseMeasure(measured: string): { length: number; marks: TextMarks } {
  // Cut by position: nearly every text's measures are three fields (no bidirectional controls),
  // read without an array and three strings each.
  const one = measured.indexOf(" "), two = measured.indexOf(" ", one + 1);
  const three = measured.indexOf(" ", two + 1);
  const end = three < 0 ? measured.length : three;
  const marks: TextMarks = {
    backticks: Number(measured.slice(one + 1, two)),
    lineEnded: end === two + 2 && measured.charCodeAt(two + 1) === 49,
  };
  if (three >= 0) {
    const [count, line, codes] = measured.slice(three + 1).split(" ");
    marks.bidi = { count: Number(count), line: Number(line), codes: codes.split(",").map(Number) };
  }
  return { length: Number(measured.slice(0, one)), marks };
}

/**
 * The UTF-16 length of the text whose UTF-8 is `bytes` (not ASCII), without decoding it: one
 * unit a character, two for one past U+FFFF (a four-byte sequence), so the bytes that start a
 * character and those that start a four-byte one. `undefined` when the bytes are not well-formed
 * UTF-8 (decoding would put U+FFFD in and change the count).
 */
function utf16Length(bytes: Uint8Array): number | undefined {
  if (!isUtf8(bytes)) return undefined;
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if ((byte & 0xc0) !== 0x80) length += byte >= 0xf0 ? 2 : 1;
  }
  return length;
}

/**
 * {@linkcode textMarks} of a text from its UTF-8 bytes: a backtick and a line feed are one byte
 * each, and no other character's bytes hold theirs (the bidirectional controls read from their
 * bytes too: `bidiControlBytes`).
 */
function byteMarks(bytes: Uint8Array, ascii: boolean): TextMarks {
  let backticks = 0;
  for (let i = bytes.indexOf(96); i >= 0; i = bytes.indexOf(96, i)) {
    const start = i;
    while (bytes[++i] === 96);
    backticks = Math.max(backticks, i - start);
  }
  const marks: TextMarks = {
    backticks,
    lineEnded: bytes.length === 0 || bytes[bytes.length - 1] === 10,
  };
  // A control is three bytes that are not ASCII: an ASCII text has none (not looked for).
  const bidi = ascii ? undefined : bidiControlBytes(bytes);
  if (bidi) marks.bidi = bidi;
  return marks;
}

/** A text kept in a cache's pack file: where its UTF-8 bytes are. */
interface PackedText extends TextBacking {
  state: SpillState;
  holder: PackHolder;
  /** Its record's sha256 and where it starts in it (`PackPlace.sha256` as the view cache names it). */
  name: string;
  offset: number;
  size: number;
  /** Where its check is in `state.checks` (`PackPlace.check`: its bytes were not read yet), else -1. */
  check: number;
}

/** What every text kept in a pack does (one set of functions, not closures per text). */
const PACKED: ThisType<PackedText> & Pick<TextBacking, "read" | "bytes" | "derive" | "named"> = {
  derive(salt, compute) {
    const { memo } = this.state;
    return memo ? memoized(memo, this.name, salt, compute) : compute();
  },
  read() {
    const { state } = this;
    const known = state.recent.get(this);
    if (known !== undefined) return known;
    if (state.buffer.length < this.size) state.buffer = new Uint8Array(this.size);
    state.stats.reads++;
    const read = decoded(readPacked(this, state.buffer));
    if (!state.closed) remember(state, this, read);
    loosen(state, read.length);
    return read;
  },
  bytes() {
    const { state } = this;
    if (state.bytes.length < this.size) state.bytes = new Uint8Array(this.size);
    return readPacked(this, state.bytes);
  },
  // Its record's sha256 and where it starts (its name), and its size: the same bytes in any build.
  named() {
    return `${this.name} ${this.size}`;
  },
};

/**
 * What every text moved from the spill to a pack does (`moveTo`): read from the pack, its values
 * (`derive`) kept with it as they were.
 */
const MOVED: ThisType<SpilledText> & Pick<TextBacking, "read" | "bytes" | "derive"> = {
  derive: SPILLED.derive,
  read: PACKED.read,
  bytes: PACKED.bytes,
};

function moveTo(
  state: SpillState,
  backing: TextBacking,
  bytes: Uint8Array,
  place: PackPlace,
): boolean {
  const text = backing as SpilledText;
  const kind = Object.getPrototypeOf(backing);
  if (kind === MOVED && text.state === state.moved) return true;
  if (kind !== SPILLED || text.state !== state || text.size !== bytes.length) return false;
  const file = place.borrow();
  if (!file) return false;
  // In place: the record is what the memos hold. Its state is the spill's without the file, so
  // that the spill (and its file) is let go of once no text still in it is held.
  state.moved ??= {
    ...state,
    file: undefined,
    path: undefined,
    left: undefined,
    closed: true,
    recent: new Map(),
    recentChars: 0,
    moved: undefined,
  };
  text.state = state.moved;
  text.holder = holderOf(file);
  text.offset = place.offset;
  Object.setPrototypeOf(text, MOVED);
  // Every text it wrote is read from a pack now: the file goes at once (not when the collector
  // finds the spill unheld).
  if (++state.stats.moved === state.stats.written && state.closed) dropFile(state);
  return true;
}

/**
 * Close and remove the spill's file, and close the pack files it borrowed, now: its build failed,
 * so none of its texts is read again (not when the collector finds them unheld).
 */
function dropAll(state: SpillState): void {
  dropFile(state);
  for (const file of state.borrowed ?? []) {
    holders.delete(file);
    try {
      file.close();
    } catch {
      // Closed already.
    }
  }
  state.borrowed = undefined;
}

/** Close and remove the spill's file now (no text in it is left to read). */
function dropFile(state: SpillState): void {
  const { left } = state;
  state.file = undefined;
  state.left = undefined;
  if (!left) return;
  spillsLeft.unregister(left);
  closeAndRemove(left);
}

function readPacked(
  text: Pick<PackedText, "state" | "holder" | "offset" | "size" | "check">,
  into: Uint8Array,
): Uint8Array {
  text.state.stats.rawReads++;
  countWork("kept bytes read", text.size);
  const out = into.subarray(0, text.size);
  if (!readAt(text.holder.file, text.offset, out)) {
    throw new Error(`[slop] A cache pack ended early at byte ${text.offset}`);
  }
  const at = text.check;
  const checks = text.state.checks;
  if (at >= 0 && checks && crc32(out, checks[2 * at]) !== checks[2 * at + 1]) {
    // Written behind its stamp (in place, its times set back): this build cannot go on with a
    // text it took unread; the next one checks the pack record by record.
    text.holder.damaged?.();
    throw new Error(
      `[slop] A cache pack was changed at byte ${text.offset} after this build trusted it: build again`,
    );
  }
  return out;
}
