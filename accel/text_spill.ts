/**
 * The texts of one build kept in a temporary file instead of the heap: each
 * text is written once, as UTF-8, when it is read or rendered, and its
 * `text` property reads it back when a stage uses it (`pipeline/lazy_text.ts`).
 * What a build holds then grows with the number of files, not with the
 * tree's size (bench/README.md, "Monorepo scale").
 *
 * A build spills when asked to (`SLOP_SPILL_AFTER_MB`, see
 * {@linkcode spillAfterFromEnv}), and only past a size: the first characters
 * of texts offered stay in memory (a build that small holds them as it always
 * did, at no cost), the texts offered after them go to the file. Reading a
 * text again costs its decoding each time: bench/README.md ("Monorepo scale")
 * has what it costs and saves.
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

import { lazyText, type TextBacking, textBacking } from "../pipeline/lazy_text.ts";

/** Files rendering at once when their texts are in a spill (`TransformOptions.window`). */
export const SPILL_WINDOW = 64;

/** Characters of texts offered to a spill that stay in memory before it writes any. */
export const SPILL_AFTER_CHARS = 64 * 1024 * 1024;

/**
 * The spill a build asks for in its environment: `SLOP_SPILL_AFTER_MB=N` keeps the texts past
 * their first N million characters in a spill file; unset (or not a number): none.
 *
 * @example
 * ```ts
 * import { spillAfterFromEnv } from "./text_spill.ts";
 * spillAfterFromEnv({ SLOP_SPILL_AFTER_MB: "64" }); // 67108864
 * spillAfterFromEnv({}); // false
 * ```
 */
export function spillAfterFromEnv(
  env: Record<string, string | undefined> = envOf(),
): number | false {
  const mb = Number(env.SLOP_SPILL_AFTER_MB ?? "");
  return env.SLOP_SPILL_AFTER_MB?.trim() && Number.isFinite(mb) && mb >= 0
    ? Math.floor(mb * 1024 * 1024)
    : false;
}

function envOf(): Record<string, string | undefined> {
  try {
    return { SLOP_SPILL_AFTER_MB: Deno.env.get("SLOP_SPILL_AFTER_MB") };
  } catch {
    return {}; // no permission to read the environment: no spill
  }
}

/** Texts shorter than this stay in memory. */
export const SPILL_MIN_CHARS = 1024;

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
  /** Bytes written. */
  bytes: number;
}

/** A build's spill file. */
export interface TextSpill {
  /** Make `target.text` lazy, kept in the spill file (when it is long enough). */
  spill(target: { text?: string }): void;
  /** Whether texts of `chars` more characters than those offered so far would be spilled. */
  spills(chars: number): boolean;
  /**
   * Let go of the texts read last (a stage is done: the next reads other texts, or the same in
   * another order), so that between stages the build holds none.
   */
  forget(): void;
  /** Close the file; texts read later open it again, once each. */
  close(): void;
  /** What was written and read so far. */
  stats: SpillStats;
}

/** Options of {@linkcode openSpill}. */
export interface SpillOptions {
  /**
   * Characters of texts offered that stay in memory before the spill writes any.
   * @default {SPILL_AFTER_CHARS} 64M
   */
  after?: number;
  /**
   * The folder the spill file is made in.
   * @default {undefined} the system's temporary folder
   */
  dir?: string;
}

interface SpillState {
  after: number;
  dir?: string;
  /** Characters of texts offered so far (shared ones not counted). */
  offered: number;
  /** The file, made when the first text is written. */
  path?: string;
  file?: Deno.FsFile;
  closed?: boolean;
  end: number;
  /** Where texts are encoded and decoded. */
  buffer: Uint8Array;
  /** Where a text's bytes are read (`TextBacking.bytes`: valid until the next are read). */
  bytes: Uint8Array;
  /** The texts read or kept last, with their records (see {@linkcode RECENT_CHARS}). */
  recent: Map<TextBacking, string>;
  recentChars: number;
  stats: SpillStats;
}

const encoder = new TextEncoder();
// A leading U+FEFF is text kept as it was written (a second byte order mark), not a mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Spill files of this process, removed when it exits. */
const made = new Set<string>();
let removing = false;

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
    stats: { written: 0, shared: 0, reads: 0, rawReads: 0, bytes: 0 },
    after: options.after ?? SPILL_AFTER_CHARS,
    dir: options.dir,
    offered: 0,
  };
  return {
    spill: (target) => spillText(state, target),
    spills: (chars) => state.offered + chars > state.after,
    forget() {
      state.recent.clear();
      state.recentChars = 0;
    },
    close() {
      state.closed = true;
      state.file?.close();
      state.file = undefined;
      state.recent.clear();
      state.recentChars = 0;
    },
    stats: state.stats,
  };
}

/** Make the spill file (removed when the process exits) and open it. */
function create(state: SpillState): Deno.FsFile {
  const path = state.path = Deno.makeTempFileSync({ prefix: "slop_texts_", dir: state.dir });
  made.add(path);
  if (!removing) {
    removing = true;
    globalThis.addEventListener("unload", () => made.forEach((p) => removeQuietly(p)));
  }
  return Deno.openSync(path, { read: true, write: true });
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Gone already.
  }
}

function spillText(state: SpillState, target: { text?: string }): void {
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
  remember(state, backing, text);
  lazyText(target, backing);
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

/** Append `text`'s UTF-8 to the spill file; its record reads it back. */
function write(state: SpillState, text: string): TextBacking {
  const room = text.length * 3;
  if (state.buffer.length < room) state.buffer = new Uint8Array(room);
  const { written } = encoder.encodeInto(text, state.buffer);
  const file = state.file ??= create(state);
  file.seekSync(state.end, Deno.SeekMode.Start);
  for (let at = 0; at < written;) at += file.writeSync(state.buffer.subarray(at, written));
  const offset = state.end;
  state.end += written;
  state.stats.written++;
  state.stats.bytes += written;
  const backing: SpilledText = Object.create(SPILLED);
  backing.state = state;
  backing.offset = offset;
  backing.size = written;
  backing.length = text.length;
  return backing;
}

/** A text in the spill: where its UTF-8 bytes are. */
interface SpilledText extends TextBacking {
  state: SpillState;
  offset: number;
  size: number;
}

/** What every spilled text does (one set of functions, not closures per text). */
const SPILLED: ThisType<SpilledText> & Pick<TextBacking, "read" | "bytes"> = {
  read() {
    const { state } = this;
    const known = state.recent.get(this);
    if (known !== undefined) return known;
    const read = readBack(state, this.offset, this.size);
    if (state.file) remember(state, this, read);
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
  return decoder.decode(readBytes(state, offset, length, state.buffer));
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
