/**
 * The plain helpers every plugin may use, built-in or not: hashing, cache
 * keys, atomic writes, path and glob checks, the plugin error, model table
 * look-up, a concurrency limit and blob dedup. Dependency-free (only `node:`
 * modules and the plugin types): importing it loads no pipeline stage. User
 * plugins import the same names from `mod.ts`; built-in plugins import this
 * file, `types.ts` and `tokens.ts` only (`tests/core/boundaries_test.ts` keeps
 * it so).
 *
 * @module
 */

import { createHash, hash } from "node:crypto";
import { Buffer } from "node:buffer";
import { basename, dirname, join } from "./_path.ts";
import { checkReader, isSpecial } from "./_setting_file.ts";
import { lazyText, type TextBacking, textBacking, textLength } from "./lazy_text.ts";

export { concatBytes, readAt } from "./_bytes.ts";
export {
  binaryReason,
  checkRegular,
  NOT_REGULAR,
  readSettingBytes,
  readSettingText,
  readSettingTextSync,
  type SettingReadOptions,
  STATE_FILE_LIMIT,
} from "./_setting_file.ts";
export { type InputReadOptions, readInputBytes } from "./_input_file.ts";
export { endsWithSlop, stopChild } from "./_child_reaper.ts";
export { marksOf, type TextMarks, textMarks } from "./lazy_text.ts";
export { bidiNoteOf } from "./bidi_controls.ts";
export { countWork, tallyWork } from "./_work_count.ts";
export { formatCount, formatDollars } from "./figures.ts";
export { isCodeFile, isNumberRow, isNumberTables } from "./number_tables.ts";
export { DEDUP_MIN_CHARS, dedupNote, dedupText, mayDedup } from "./_blob_dedup.ts";
export type { DedupOptions, DedupReplacement, DedupResult } from "./_blob_dedup.ts";

import type { Block, ModelInfo, RenderedFile } from "./types.ts";

/**
 * The sha256 of a text (its UTF-8 bytes) or of bytes, as 64 hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./helpers.ts";
 * sha256Hex("").slice(0, 8); // "e3b0c442"
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  // A short text (a cache key's parts) in one call: half the time of a hash object's three (a
  // warm build of a big tree makes two keys a file); a long one through the object, which takes
  // its bytes without a copy.
  return data.length < ONE_CALL_MAX
    ? hash("sha256", data, "hex")
    : createHash("sha256").update(data).digest("hex");
}

/** Characters or bytes {@linkcode sha256Hex} hashes in one call, not through a hash object. */
const ONE_CALL_MAX = 4096;

/**
 * JSON with object keys sorted at every level and `undefined` properties
 * left out: the same data always gives the same text.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./helpers.ts";
 * canonicalJson({ b: [1, { d: 1, c: 2 }], a: undefined }); // '{"b":[1,{"c":2,"d":1}]}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  // An array (a cache key's parts) element by element: its strings and numbers are written
  // without the replacer, which JSON.stringify would call for each (most of a key's cost).
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      out += (i ? "," : "") +
        (typeof v === "object" && v !== null ? canonicalJson(v) : JSON.stringify(v) ?? "null");
    }
    return out + "]";
  }
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  }) ?? "null";
}

/**
 * A cache key from parts: the sha256 of their canonical JSON (object keys
 * sorted, so `{a, b}` and `{b, a}` give the same key).
 *
 * @example
 * ```ts
 * import { cacheKey } from "./helpers.ts";
 * cacheKey(["view", { b: 1, a: 2 }]) === cacheKey(["view", { a: 2, b: 1 }]); // true
 * ```
 */
export function cacheKey(parts: unknown[]): string {
  return sha256Hex(canonicalJson(parts));
}

/**
 * Write a text file through a hidden temp file and a rename, so a reader
 * never sees half of it; the temp file is removed when the write fails.
 * `written` is called with the temp file's path once it is complete, before
 * the rename (to take its stamp: the rename keeps its inode and times).
 *
 * @example
 * ```ts
 * import { writeAtomic } from "./helpers.ts";
 * // await writeAtomic(".slop/checkpoints/ab12.json", "{}\n");
 * ```
 */
export async function writeAtomic(
  path: string,
  text: string,
  written?: (tmp: string) => void,
): Promise<void> {
  if (isSpecialFile(path)) {
    let release = () => {};
    try {
      release = checkReader(path);
      await Deno.writeTextFile(path, text);
    } catch (error) {
      throw writeError(path, error);
    } finally {
      release();
    }
    return;
  }
  // Hidden, so a temp file left by a killed process never looks like an output.
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(tmp, text);
    written?.(tmp);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw writeError(path, error);
  }
}

/**
 * Whether `path` (links followed) is there and is neither a plain file nor a folder: a device
 * such as `/dev/null`, a FIFO or a socket. Such a target is written in place: renaming a temp
 * file over it would replace the device itself (as root, `--out /dev/null` would leave a plain
 * file at `/dev/null` for every other program). A FIFO no program reads is refused first.
 */
function isSpecialFile(path: string): boolean {
  try {
    return isSpecial(Deno.statSync(path));
  } catch {
    return false;
  }
}

/**
 * Remove the file (or empty folder) at `path` if it is there; a path already gone, or one another
 * process removed first, is no error. For temp files, claims and sockets a build or server leaves.
 *
 * @example
 * ```ts
 * import { removeQuietly } from "./helpers.ts";
 * removeQuietly("/tmp/no-such-file"); // nothing happens
 * ```
 */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Never made, or removed already.
  }
}

/**
 * {@linkcode writeAtomic}, synchronously: for small files written on a build's path (a manifest,
 * a mark), where each awaited file operation would wait for a task turn.
 *
 * @example
 * ```ts
 * import { writeAtomicSync } from "./helpers.ts";
 * // writeAtomicSync(".slop/out/context_001.json", "{}\n");
 * ```
 */
export function writeAtomicSync(path: string, text: string): void {
  throughTempSync(path, (tmp) => Deno.writeTextFileSync(tmp, text));
}

/**
 * Make `path` by `write`ing a hidden temp file beside it and renaming that into place; the temp
 * file is removed when either fails, and the error names `path`. A device or FIFO is written in
 * place ({@linkcode isSpecialFile}).
 */
function throughTempSync(path: string, write: (tmp: string) => void): void {
  if (isSpecialFile(path)) {
    let release = () => {};
    try {
      release = checkReader(path);
      return write(path);
    } catch (error) {
      throw writeError(path, error);
    } finally {
      release();
    }
  }
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    write(tmp);
    Deno.renameSync(tmp, path);
  } catch (error) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // Never made.
    }
    throw writeError(path, error);
  }
}

/** Bytes of text gathered before they are written ({@linkcode writeAtomicPiecesSync}). */
const PIECE_BYTES = 1 << 20;

/**
 * Write the pieces of a text to `path` through a temp file and a rename (as
 * {@linkcode writeAtomicSync} does), never joined: each piece is encoded into one 1 MB buffer
 * as it comes, so no piece outlives the next few and none is kept long enough to be moved to
 * V8's old generation (where it would wait for a full collection).
 *
 * @example
 * ```ts
 * import { writeAtomicPiecesSync } from "./helpers.ts";
 * const path = (await Deno.makeTempDir()) + "/a.txt";
 * writeAtomicPiecesSync(path, ["one ", "two\n"]);
 * Deno.readTextFileSync(path); // "one two\n"
 * ```
 */
export function writeAtomicPiecesSync(path: string, pieces: Iterable<string>): void {
  throughTempSync(path, (tmp) => {
    const file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
    try {
      writePieces(file, pieces);
    } finally {
      file.close();
    }
  });
}

/** Characters of small pieces joined before they are encoded (one encoding for many). */
const JOIN_CHARS = 64 * 1024;

/**
 * `pieces` encoded into one buffer, written each time it may not take the next; small pieces are
 * joined up to {@linkcode JOIN_CHARS} characters first (a manifest's are a few hundred each).
 */
function writePieces(file: Deno.FsFile, pieces: Iterable<string>): void {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(PIECE_BYTES);
  let used = 0;
  let joined = "";
  const flush = (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  };
  const encode = (piece: string) => {
    // At most 3 bytes a UTF-16 unit: a piece that may not fit goes after a flush, or alone.
    if (used + 3 * piece.length > buffer.length) {
      flush(buffer.subarray(0, used));
      used = 0;
    }
    if (3 * piece.length > buffer.length) flush(encoder.encode(piece));
    else used += encoder.encodeInto(piece, buffer.subarray(used)).written;
  };
  for (const piece of pieces) {
    joined += piece;
    if (joined.length >= JOIN_CHARS) {
      encode(joined);
      joined = "";
    }
  }
  encode(joined);
  flush(buffer.subarray(0, used));
}

/** The same kind of error, saying which file could not be written (not the temp file's rename). */
function writeError(path: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const reason = error.message.replace(/ \(os error \d+\).*$/s, "");
  const message = `Cannot write "${path}": ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  const Kind = error.constructor as new (message: string, options?: ErrorOptions) => Error;
  return new Kind(message, { cause: error });
}

/**
 * Compare paths by code point, independent of locale.
 *
 * @example
 * ```ts
 * import { comparePaths } from "./helpers.ts";
 * ["b.ts", "B.ts", "a.ts"].sort(comparePaths); // ["B.ts", "a.ts", "b.ts"]
 * ```
 */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const GLOB_CHARS = /[*?[\]{}!()]/;

/**
 * A path as slop shows it (a heading, the build summary, a table): control
 * characters (a newline in a file name would end the heading or the line) are
 * written as escapes (`\n`, `\t`, `\x1b`), and so are the invisible
 * characters that change how a name reads: bidi overrides and isolates
 * (`\u{202e}` shows `txt.exe` as `exe.txt`), marks, the zero-width space and
 * line or paragraph separators. A backslash that would read as the start of
 * such an escape (or of a heading's `\x20` or `\#`) is doubled, so that a
 * name that spells an escape (`a\nb.txt` with a real backslash) never shows as
 * another name; other backslashes stay as they are (`back\slash.py`).
 *
 * @example
 * ```ts
 * import { printablePath } from "./helpers.ts";
 * printablePath("a\nb.txt"); // "a\\nb.txt"
 * printablePath("\u202eevil.md"); // "\\u{202e}evil.md"
 * printablePath("a\\nb.txt"); // "a\\\\nb.txt"
 * ```
 */
export function printablePath(path: string): string {
  return path.replace(READS_AS_ESCAPE, "\\\\").replace(CONTROL_CHARS, (c) => {
    const code = c.charCodeAt(0);
    return CONTROL_ESCAPES[c] ??
      (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`);
  });
}

/**
 * A path as the text of a markdown heading: {@linkcode printablePath}, a space
 * that starts or ends it written `\x20` (markdown trims a heading's blanks:
 * `x ` read as `x`), and a closing run of `#` escaped (`### notes #` reads as
 * `notes`, `### #` as no name at all).
 *
 * @example
 * ```ts
 * import { headingText } from "./helpers.ts";
 * headingText("notes #"); // "notes \\#"
 * headingText("x "); // "x\\x20"
 * ```
 */
export function headingText(path: string): string {
  return edgeBlanksShown(printablePath(path)).replace(/(^| )(#+)$/, "$1\\$2");
}

/**
 * A printable path with the spaces that start or end it written `\x20` (a list item or heading
 * drops them).
 *
 * @example
 * ```ts
 * import { edgeBlanksShown } from "./helpers.ts";
 * edgeBlanksShown(" a b "); // "\\x20a b\\x20"
 * ```
 */
export function edgeBlanksShown(shown: string): string {
  return shown.replace(/^ +| +$/g, (run) => "\\x20".repeat(run.length));
}

// C0 and C1 controls, DEL; the bidi marks, embeddings, overrides and isolates; zero-width
// space, the word joiner and BOM; line and paragraph separators. Not the zero-width joiner and
// non-joiner: Persian and Indic words and emoji sequences need them.
const CONTROL_CHARS =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;
const CONTROL_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
// A backslash before what would make it read as an escape: another backslash, an escape's letter,
// a `#` or a space (a heading's `\#` and `\x20`), the name's end, or a character escaped above.
const READS_AS_ESCAPE =
  // deno-lint-ignore no-control-regex
  /\\(?=[\\nrtxu# ]|$|[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff])/g;

/**
 * True when the entry path is a glob pattern.
 *
 * @example
 * ```ts
 * import { isGlob } from "./helpers.ts";
 * isGlob("src/**"); // true
 * ```
 */
export function isGlob(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/**
 * Normalise an entry path: forward slashes, no `.` segments or repeated
 * slashes, `..` taken back where it can be (`src/../b.md` is `b.md`), and at
 * most one trailing slash, so that a file named two ways is one path.
 *
 * @example
 * ```ts
 * import { normalizeEntryPath } from "./helpers.ts";
 * normalizeEntryPath("./docs\\a.md"); // "docs/a.md"
 * normalizeEntryPath("src//lib/./../a.ts"); // "src/a.ts"
 * ```
 */
export function normalizeEntryPath(path: string): string {
  return normalizeSegments(path.replaceAll("\\", "/"));
}

/** {@linkcode normalizeEntryPath} of a `/`-separated path (a backslash is a letter here). */
function normalizeSegments(p: string): string {
  const absolute = p.startsWith("/");
  const trailing = p.length > 1 && p.endsWith("/");
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length && out[out.length - 1] !== "..") out.pop();
    else if (segment === ".." && absolute) continue;
    else out.push(segment);
  }
  const joined = (absolute ? "/" : "") + out.join("/");
  if (!out.length) return joined;
  return trailing ? joined + "/" : joined;
}

/**
 * An entry path as {@linkcode normalizeEntryPath} makes it, but for one with a backslash that
 * names a listed file, or a folder of listed files, as written: on Linux and macOS a backslash is
 * a letter of a name (`a\\b.py`), elsewhere a separator. An absolute path is looked up under `root`.
 *
 * @example
 * ```ts
 * import { entryPathIn } from "./helpers.ts";
 * entryPathIn("a\\b.py", new Set(["a\\b.py"])); // "a\\b.py"
 * entryPathIn("docs\\a.md", new Set(["docs/a.md"])); // "docs/a.md"
 * ```
 */
export function entryPathIn(path: string, listed: Set<string>, root?: string): string {
  if (path.includes("\\")) {
    const literal = normalizeSegments(path);
    // The listed paths are root-relative; a path from the command line is absolute.
    const rel = root && literal.startsWith(root + "/") ? literal.slice(root.length + 1) : literal;
    const folder = rel.replace(/\/$/, "");
    if (listed.has(folder) || [...listed].some((p) => p.startsWith(folder + "/"))) return literal;
  }
  return normalizeEntryPath(path);
}

/**
 * A block of the files section that holds one file (not the heading).
 *
 * @example
 * ```ts
 * import { isFileBlock } from "./helpers.ts";
 * isFileBlock({ id: "files:a.ts", section: "files", stability: "stable", text: "", source: "a.ts" }); // true
 * ```
 */
export function isFileBlock(block: Block): boolean {
  return block.section === "files" && block.source !== undefined && !block.heading;
}

/**
 * An error raised inside a plugin hook, carrying where it happened.
 *
 * @example
 * ```ts
 * import { PluginError } from "./helpers.ts";
 * new PluginError("my:view", "render", "Cannot parse \"a.py\"").message; // "[plugin my:view] Cannot parse \"a.py\""
 * ```
 */
export class PluginError extends Error {
  /** Plugin name. */
  plugin: string;
  /** Hook name. */
  hook: string;
  /** File path the hook was working on, if any. */
  path?: string;

  /**
   * @param plugin Plugin name.
   * @param hook Hook name.
   * @param message What went wrong.
   * @param options Path and cause.
   */
  constructor(
    plugin: string,
    hook: string,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(`[plugin ${plugin}] ${message}`, { cause: options.cause });
    this.name = "PluginError";
    this.plugin = plugin;
    this.hook = hook;
    this.path = options.path;
  }
}

/**
 * A render stopped by a clock rather than by anything its input decides (a parse past its
 * deadline, a thread that gave no answer in time). What the file would show then depends on the
 * machine's speed and load, so the build fails with this error instead of rendering the file
 * otherwise (a file's error block, a fallback view): the same inputs give the same bytes on any
 * machine, or no document.
 *
 * @example
 * ```ts
 * import { ClockError, isClockError } from "./helpers.ts";
 * isClockError(new Error("wrapped", { cause: new ClockError("too slow") })); // true
 * ```
 */
export class ClockError extends Error {
  /** @param message What ran out of time, naming the file. */
  constructor(message: string) {
    super(message);
    this.name = "ClockError";
  }
}

/**
 * Whether `error`, or an error it was caused by, is a {@linkcode ClockError}.
 *
 * @example
 * ```ts
 * import { ClockError, isClockError } from "./helpers.ts";
 * isClockError(new ClockError("late")); // true
 * isClockError(new Error("late")); // false
 * ```
 */
export function isClockError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof ClockError) return true;
  }
  return false;
}

/**
 * Find a model in a table: the exact id, else the longest id the model
 * starts with (`claude-sonnet-4-5-20250929` finds `claude-sonnet-4-5`).
 *
 * @example
 * ```ts
 * import { lookupModel } from "./helpers.ts";
 * const table = {
 *   "gpt-5": {
 *     minCacheTokens: 1024, ttls: ["5m"], breakpoints: false, tokenizer: "o200k" as const,
 *     prices: { input: 1.25, output: 10, cacheRead: 0.125 },
 *   },
 * };
 * lookupModel(table, "gpt-5-2025-08-07")?.model; // "gpt-5-2025-08-07"
 * ```
 */
export function lookupModel(
  table: Record<string, Omit<ModelInfo, "model">>,
  model: string,
): ModelInfo | undefined {
  if (Object.hasOwn(table, model)) return { model, ...table[model] };
  const keys = Object.keys(table).filter((k) => model.startsWith(k)).sort((a, b) =>
    b.length - a.length
  );
  return keys.length ? { model, ...table[keys[0]] } : undefined;
}

/**
 * A value made from `text` alone, the plain way: `compute()`, every time. It is the build's
 * `DeriveFn` (`BuildRun.derived`, a section's `ctx.derived`) unless a speed layer hands its memo
 * in its place (`accel/derived_memo.ts`: a long-running process makes each value once per text).
 *
 * @example
 * ```ts
 * import { derived } from "./helpers.ts";
 * derived("text", "salt", () => "value"); // "value"
 * ```
 */
export function derived<T = string>(_text: string, _salt: string, compute: () => T): T {
  return compute();
}

/** The parts of each file's block as {@linkcode joinFileBlock} joined them. */
const joinedBlocks = new WeakMap<RenderedFile, { text: string; parts: string[] }>();

/**
 * Join `parts` (with `+`: V8 keeps the result as pointers to them) and note
 * them as the parts of `file`'s block, so the build reads the block part by
 * part instead of V8 copying it whole (see `pipeline/block_parts.ts`).
 *
 * @example
 * ```ts
 * import { joinFileBlock } from "./helpers.ts";
 * const file = { path: "a.py" } as import("./types.ts").RenderedFile;
 * joinFileBlock(file, ["### a.py\n\n", "x = 1\n", "\n"]); // "### a.py\n\nx = 1\n\n"
 * ```
 */
export function joinFileBlock(file: RenderedFile, parts: string[]): string {
  let text = "";
  for (const part of parts) text += part;
  // Parts are encoded one by one: a surrogate pair split between two would encode otherwise.
  const split = parts.some((part, i) =>
    i > 0 && isHigh(parts[i - 1].charCodeAt(parts[i - 1].length - 1)) && isLow(part.charCodeAt(0))
  );
  if (split) joinedBlocks.delete(file);
  else joinedBlocks.set(file, { text, parts });
  return text;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * What {@linkcode joinFileBlock} joined last for `file`, if anything.
 *
 * @example
 * ```ts
 * import { joinedFileBlock } from "./helpers.ts";
 * joinedFileBlock({ path: "a.py" } as import("./types.ts").RenderedFile); // undefined
 * ```
 */
export function joinedFileBlock(file: RenderedFile): { text: string; parts: string[] } | undefined {
  return joinedBlocks.get(file);
}

/**
 * Note `joined` (what {@linkcode joinedFileBlock} gave for an earlier file of the same text) as
 * the parts of `file`'s block: a resident process (`slop watch`) gives the next build's file the
 * block it made before.
 *
 * @example
 * ```ts
 * import { joinedFileBlock, joinFileBlock, noteFileBlock } from "./helpers.ts";
 * const before = { path: "a.py" } as import("./types.ts").RenderedFile;
 * joinFileBlock(before, ["# a\n", "x = 1\n", ""]);
 * const now = { path: "a.py" } as import("./types.ts").RenderedFile;
 * noteFileBlock(now, joinedFileBlock(before)!);
 * joinedFileBlock(now)?.parts.length; // 3
 * ```
 */
export function noteFileBlock(file: RenderedFile, joined: { text: string; parts: string[] }): void {
  joinedBlocks.set(file, joined);
}

/**
 * Whether `file`'s text is kept out of memory and read when used (a speed
 * layer's, see `pipeline/lazy_text.ts`): its block should be a
 * {@linkcode lazyFileBlock}, so the block does not hold the text either.
 *
 * @example
 * ```ts
 * import { isLazyText } from "./helpers.ts";
 * isLazyText({ path: "a.py", text: "x" } as import("./types.ts").RenderedFile); // false
 * ```
 */
export function isLazyText(file: RenderedFile): boolean {
  return textBacking(file) !== undefined;
}

/**
 * Make `block.text` the join of `head`, `file.text` and `tail`, read each
 * time it is used: the block holds the two short parts and the file, never
 * the file's text (see {@linkcode isLazyText}). The stages that hash, count
 * and write blocks read it part by part (`pipeline/block_parts.ts`).
 *
 * @example
 * ```ts
 * import { lazyFileBlock } from "./helpers.ts";
 * const file = { path: "a.py", text: "x = 1\n" } as import("./types.ts").RenderedFile;
 * const block = { id: "files:a.py", text: "" };
 * const fence = "`".repeat(3);
 * lazyFileBlock(block, file, [`### a.py\n\n${fence}py\n`, `${fence}\n\n`]);
 * block.text; // the heading, the fence, "x = 1\n" and the closing fence
 * ```
 */
export function lazyFileBlock(
  block: { text?: string },
  file: RenderedFile,
  [head, tail]: [string, string],
): void {
  const backing: FileBlockText = Object.create(FILE_BLOCK_TEXT);
  backing.head = head;
  backing.file = file;
  backing.tail = tail;
  lazyText(block, backing);
}

/** A lazy file block's text: its two short parts and its file (whose text is lazy). */
interface FileBlockText extends TextBacking {
  head: string;
  file: RenderedFile;
  tail: string;
}

/** What every lazy file block's text does (one set of functions, not a closure per block). */
const FILE_BLOCK_TEXT: ThisType<FileBlockText> & Omit<TextBacking, "length" | "byteLength"> & {
  readonly length: number;
  readonly byteLength: number | undefined;
} = {
  read() {
    return this.head + (this.file.text ?? "") + this.tail;
  },
  get length() {
    return this.head.length + textLength(this.file) + this.tail.length;
  },
  // Known when the file's text knows its own (the two short parts are measured).
  get byteLength() {
    const middle = textBacking(this.file)?.byteLength;
    return middle === undefined
      ? undefined
      : Buffer.byteLength(this.head, "utf8") + middle + Buffer.byteLength(this.tail, "utf8");
  },
  // The file's text (the second part) is read when that part is read, and the parts carry its
  // record: code that knows that text (early counts) need not read it.
  parts() {
    const file = this.file;
    const out = Object.assign([this.head, "", this.tail], { backing: textBacking(file) });
    Object.defineProperty(out, 1, { get: () => file.text ?? "", enumerable: true });
    return out;
  },
  // The file's text as the bytes it is kept as, while it is the lazy text it was.
  byteParts() {
    const bytes = textBacking(this.file)?.bytes?.();
    return bytes ? [this.head, bytes, this.tail] : this.parts!();
  },
  // The same heading and fence around the same record of a file's text: the same text, unread.
  sameAs(other: TextBacking) {
    const that = other as FileBlockText;
    const record = textBacking(this.file);
    return Object.getPrototypeOf(other) === FILE_BLOCK_TEXT && record !== undefined &&
      that.head === this.head && that.tail === this.tail && textBacking(that.file) === record;
  },
  // Its file's text's name, with the two short parts around it (the whole block's bytes).
  named() {
    const inner = textBacking(this.file)?.named?.();
    return inner === undefined ? undefined : `${inner}\0${this.head}\0${this.tail}`;
  },
};

/**
 * The stamp of a file (inode, size, modification time, status change time), or `undefined` when
 * it is gone. The status change time is the kernel's, set on every write, `touch -d` or rename:
 * a file rewritten in place to the same size with its modification time put back (`cp -p`,
 * `touch -d`) has another stamp.
 *
 * @example
 * ```ts
 * import { fileStamp } from "./helpers.ts";
 * fileStamp("/no/such/file"); // undefined
 * ```
 */
export function fileStamp(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return `${info.ino}:${info.size}:${info.mtime?.getTime()}:${info.ctime?.getTime()}`;
  } catch {
    return undefined;
  }
}

/**
 * `work`'s result, or a rejection with `late()`'s error when it has not settled within `ms`
 * milliseconds; the timer is cleared either way, so it never holds the process.
 *
 * @example
 * ```ts
 * import { settleWithin } from "./helpers.ts";
 * await settleWithin(Promise.resolve(1), 100, () => new Error("too slow")); // 1
 * ```
 */
export async function settleWithin<T>(
  work: Promise<T>,
  ms: number,
  late: () => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Run at most `n` tasks at once (at least one); the rest wait in arrival order: a provider's
 * requests, a view's model calls.
 *
 * @example
 * ```ts
 * import { limiter } from "./helpers.ts";
 * const limit = limiter(2);
 * await Promise.all([1, 2, 3].map((n) => limit(async () => n)));
 * ```
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  const max = Math.max(1, Math.floor(n));
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

/** The longest delay a timer takes, in ms (see `timer_limit.ts`). */
export { MAX_TIMER_MS } from "./timer_limit.ts";

/**
 * Whether anything is at `path` (a link is looked at itself, not followed).
 *
 * @example
 * ```ts
 * import { pathExists } from "./helpers.ts";
 * pathExists(Deno.cwd()); // true
 * pathExists("/no/such/path"); // false
 * ```
 */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
