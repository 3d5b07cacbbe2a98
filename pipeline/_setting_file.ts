/**
 * Reading a file slop reads for itself, not to bundle it (a `.gitignore` outside git, `slop.lock`,
 * the slices file, `.beads/issues.jsonl`, a history file, a prompt template, a `.git` file): such a
 * path may name a FIFO, a socket or a device (`.gitignore -> /dev/zero`), and reading one waits for
 * a writer that never comes, or never ends. So each is opened without waiting, judged by what was
 * opened, and read a chunk at a time up to a limit. Bundled files are checked in the read stage
 * (`not a regular file`). A part of `helpers.ts`, which re-exports it.
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { sep } from "./_path.ts";
import { concatBytes } from "./_bytes.ts";

/** Why a path that is no regular file is not read. */
export const NOT_REGULAR =
  "it is not a regular file (a FIFO, socket or device), which slop does not read: " +
  "put a file in its place";

/** The error a setting path that is no regular file throws; its message is {@linkcode NOT_REGULAR}. */
class NotRegularFileError extends Error {
  constructor() {
    super(NOT_REGULAR);
    this.name = "NotRegularFileError";
  }
}

/**
 * A setting file's text. A missing file throws `Deno.errors.NotFound` and a folder
 * `Deno.errors.IsADirectory`, as `Deno.readTextFile` does; anything else that is not a regular
 * file (followed through symbolic links) throws a `NotRegularFileError` without being
 * opened.
 *
 * @example
 * ```ts
 * import { readSettingText } from "./helpers.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "dist/\n");
 * await readSettingText(path); // "dist/\n"
 * await readSettingText("/dev/zero").catch((e) => e.message); // "it is not a regular file (…"
 * ```
 */
export async function readSettingText(
  path: string,
  options: SettingReadOptions = {},
): Promise<string> {
  const text = asRead.decode(await readSettingBytes(path, options));
  const binary = options.textOnly ? binaryReason(text) : undefined;
  if (binary) throw new Error(binary);
  return text;
}

/**
 * A setting file's bytes, read as {@linkcode readSettingText} reads them (`textOnly` aside), for a
 * caller that decodes them itself: the knowledge store reads its category files as project files
 * are read, in whatever encoding they were saved.
 *
 * @example
 * ```ts
 * import { readSettingBytes } from "./helpers.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeFile(path, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
 * await readSettingBytes(path); // Uint8Array [99, 97, 102, 233]
 * ```
 */
export async function readSettingBytes(
  path: string,
  options: Pick<SettingReadOptions, "within"> = {},
): Promise<Uint8Array> {
  try {
    checkRegular(await Deno.stat(path));
    if (options.within !== undefined && await leadsOut(path, options.within)) {
      throw new Error(LEADS_OUT);
    }
    // Opened without waiting and judged by what was opened: a FIFO put in its place since the
    // look would hold the open, a file grown past what a text can hold would be read whole.
    const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await file.stat();
      if (info.isDirectory()) throw new Deno.errors.IsADirectory("it is a folder");
      if (!info.isFile()) throw new NotRegularFileError();
      const over = overSettingLimit();
      if (info.size > SETTING_LIMIT) throw new Error(over);
      // The size looked at and a byte more at first, then what it grew by since.
      const bytes = boundedBytes(SETTING_LIMIT, info.size + 1, over);
      for (
        let into = bytes.next();
        bytes.took((await file.read(into, 0, into.length, null)).bytesRead);
      ) {
        into = bytes.next();
      }
      return bytes.all();
    } finally {
      await file.close();
    }
  } catch (error) {
    throw plainReadError(nodeError(error));
  }
}

/**
 * The text of a regular file of at most `limit` bytes (UTF-8), read at once, as
 * {@linkcode readSettingText} reads it: for a caller that cannot wait (the git folders, a
 * package.json looked at while a command starts). Throws an `Error` saying it is no regular file
 * (a folder neither), or that it holds more than `limit` bytes; a failed open throws `node:fs`'s.
 *
 * @example
 * ```ts
 * import { readSettingTextSync } from "./helpers.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "gitdir: ../g\n");
 * readSettingTextSync(path, 4096); // "gitdir: ../g\n"
 * ```
 */
export function readSettingTextSync(path: string, limit: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error("it is not a regular file (a FIFO, socket or device)");
    // Refused by its size, unread (a state file grown to gigabytes, or a sparse one).
    if (info.size > limit) throw new Error(`it holds over ${limit} bytes`);
    const bytes = boundedBytes(limit, CHUNK, `it holds over ${limit} bytes`);
    for (let into = bytes.next(); bytes.took(readSync(fd, into, 0, into.length, null));) {
      into = bytes.next();
    }
    return asRead.decode(bytes.all());
  } finally {
    closeSync(fd);
  }
}

/**
 * The most bytes of a state file slop reads back (the order memory, the stat index, a record of
 * the last build): one larger (a file grown to gigabytes, a sparse one) is refused unread and
 * taken as no record, as a damaged one is.
 *
 * @example
 * ```ts
 * import { readSettingTextSync, STATE_FILE_LIMIT } from "./helpers.ts";
 * // const text = readSettingTextSync(".slop/order/context.json", STATE_FILE_LIMIT);
 * ```
 */
export const STATE_FILE_LIMIT = 256 * 1024 * 1024;

/** How many bytes a read asks for after the first. */
const CHUNK = 1 << 16;

/**
 * The bytes of a file read a chunk at a time, at most `limit` of them: `next()` is the buffer the
 * next read fills (`first` bytes, then {@linkcode CHUNK}, never past a byte over the limit),
 * `took(n)` keeps the `n` bytes it read and says whether to read again (a read of none is the
 * end), throwing `over` once the bytes pass the limit, and `all()` gives them in one array.
 *
 * @example
 * ```ts
 * import { boundedBytes } from "./_setting_file.ts";
 * const bytes = boundedBytes(4, 4, "too long");
 * bytes.next().set([1, 2]);
 * bytes.took(2); // true
 * bytes.all(); // Uint8Array [1, 2]
 * ```
 */
export function boundedBytes(limit: number, first: number, over: string) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let buffer = new Uint8Array(0);
  return {
    next(): Uint8Array {
      buffer = new Uint8Array(Math.min(total === 0 ? first : CHUNK, limit + 1 - total));
      return buffer;
    },
    took(n: number): boolean {
      if (n === 0) return false;
      chunks.push(buffer.subarray(0, n));
      total += n;
      if (total > limit) throw new Error(over);
      return true;
    },
    all(): Uint8Array {
      return chunks.length === 1 ? chunks[0] : concatBytes(chunks);
    },
  };
}

// Decoded as `Deno.readTextFile` does: a leading U+FEFF is kept (a digest's text reaches the
// document, a template's hash keys the summary cache), invalid bytes become U+FFFD.
const asRead = new TextDecoder("utf-8", { ignoreBOM: true });

/** Options of {@linkcode readSettingText}. */
export interface SettingReadOptions {
  /**
   * The project's root, for a file slop reads from the project by default (the beads list, the
   * knowledge digest): one that a symbolic link leads out of it is not read, as a project file
   * would not be (its text would reach the document). @default {undefined} not checked
   */
  within?: string;
  /**
   * The file's text reaches the document or a model (the knowledge digest, a prompt template):
   * one that holds a NUL byte, or whose bytes are not UTF-8 and hold more than one control
   * character in a hundred, is refused as `binary file`, as a project file would be skipped
   * (its bytes went into the prompt as they were). @default {false}
   */
  textOnly?: boolean;
}

/**
 * Why `text` (decoded with U+FFFD for bytes that are not UTF-8) is no text: the rule of project
 * files (`_text_decode.ts`), on the decoded text; undefined for text.
 *
 * @example
 * ```ts
 * import { binaryReason } from "./_setting_file.ts";
 * binaryReason("a\0b"); // "binary file"
 * binaryReason("# Notes\n"); // undefined
 * ```
 */
export function binaryReason(text: string): string | undefined {
  if (text.includes("\0")) return "binary file";
  if (!text.includes("\uFFFD")) return undefined;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && (c < 9 || c > 13) && c !== 0x1b) || c === 0x7f) controls++;
  }
  return controls * 100 > text.length ? "binary file (not valid UTF-8)" : undefined;
}

/** Why a setting file a link leads out of the root is not read. */
const LEADS_OUT = "a symbolic link leads it out of the root (set allowOutsideRoot to allow it)";

/** Whether `path`, under `root` by its name, is elsewhere by its real path. */
async function leadsOut(path: string, root: string): Promise<boolean> {
  const real = await Deno.realPath(path);
  const realRoot = await Deno.realPath(root).catch(() => root);
  return real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/**
 * The most bytes of a setting file read: about the longest text V8 holds as one string
 * (2^29 - 24 characters); a `.gitignore` or `slop.lock` that large is refused by its size, unread.
 */
const SETTING_LIMIT = 512 * 1024 * 1024;

function overSettingLimit(): string {
  return `it holds over ${SETTING_LIMIT} bytes, more than slop reads of a setting file`;
}

/** A `node:fs` call's error as Deno's own (`NotFound`, `PermissionDenied`), which callers test for. */
function nodeError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return new Deno.errors.NotFound("No such file or directory (os error 2)");
  if (code === "EACCES") return new Deno.errors.PermissionDenied("Permission denied (os error 13)");
  if (code === "EISDIR") return new Deno.errors.IsADirectory("Is a directory (os error 21)");
  return error;
}

/**
 * The same kind of error in plain words for a message that names the file itself: Deno's system
 * errors end with their code, the call and the absolute path (`Is a directory (os error 21):
 * readfile '/tmp/…'`), which the callers' messages (`Cannot read ".beads/issues.jsonl": …`) showed
 * as written. A folder is `it is a folder`.
 */
function plainReadError(error: unknown): unknown {
  const node = nodeReadError(error);
  if (node !== error) return node;
  if (!(error instanceof Error) || !/ \(os error \d+\)/.test(error.message)) return error;
  const reason = error instanceof Deno.errors.IsADirectory
    ? "it is a folder"
    : error.message.replace(/ \(os error \d+\).*$/s, "").replace(/^./, (c) => c.toLowerCase());
  const Kind = error.constructor as new (message: string, options?: ErrorOptions) => Error;
  return new Kind(reason, { cause: error });
}

/**
 * An error of `node:fs`'s own (`EINVAL: invalid argument, read`: a file of /proc read at an odd
 * size) as `cannot read it: <reason>`, the cause kept; any other error as it is.
 *
 * @example
 * ```ts
 * import { nodeReadError } from "./_setting_file.ts";
 * const error = nodeReadError(new Error("EINVAL: invalid argument, read"));
 * (error as Error).message; // "cannot read it: invalid argument"
 * ```
 */
export function nodeReadError(error: unknown): unknown {
  const node = error instanceof Error && /^E[A-Z0-9]+: ([^,]+), \w+( '[^]*')?$/.exec(error.message);
  return node ? new Error(`cannot read it: ${node[1]}`, { cause: error }) : error;
}

/**
 * Throw when the FIFO (or socket) at `path` has no program reading it within `waitMs`: opened to
 * write without waiting, it is refused (`ENXIO`) until a reader opens it, where a plain open
 * would wait for a reader for good (a FIFO put where slop keeps a state file). A reader started
 * just before slop (`cat page &`) has that long to open it. A device, or a FIFO a program reads,
 * passes at once. The open file is held until the returned function is called: the caller opens
 * the path to write meanwhile (at once, a reader being there), and the reader, which would take
 * this one's close as the end of what is written, waits for the caller's.
 *
 * @example
 * ```ts
 * import { checkReader } from "./_setting_file.ts";
 * const release = checkReader("/dev/null");
 * Deno.writeTextFileSync("/dev/null", "x");
 * release();
 * ```
 */
export function checkReader(path: string, waitMs = 10_000): () => void {
  const start = Date.now();
  while (true) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENXIO") return () => {}; // the write says why
      if (Date.now() - start < waitMs) {
        // A synchronous pause: the writers that call this are synchronous too.
        Atomics.wait(PAUSE, 0, 0, 20);
        continue;
      }
      throw new Error(
        `it is a FIFO or a socket that no program opened to read in ${waitMs / 1000} s, which ` +
          "slop would wait on for good: put a file in its place",
      );
    }
    return () => closeSync(fd);
  }
}

/** What {@linkcode checkReader} waits on to pause (never woken: each wait times out). */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Throw a `NotRegularFileError` when `info` (of a stat that follows links) is neither a
 * file nor a folder.
 *
 * @example
 * ```ts
 * import { checkRegular } from "./helpers.ts";
 * import assert from "node:assert/strict";
 * checkRegular(Deno.statSync(".")); // a folder: passes
 * assert.throws(() => checkRegular(Deno.statSync("/dev/null"))); // a device: NotRegularFileError
 * ```
 */
export function checkRegular(info: Deno.FileInfo): void {
  if (isSpecial(info)) throw new NotRegularFileError();
}

/**
 * Whether `info` is neither a file nor a folder: a device (`/dev/null`), a FIFO or a socket.
 *
 * @example
 * ```ts
 * import { isSpecial } from "./_setting_file.ts";
 * isSpecial(Deno.statSync("/dev/null")); // true
 * ```
 */
export function isSpecial(info: Deno.FileInfo): boolean {
  return !info.isFile && !info.isDirectory;
}
