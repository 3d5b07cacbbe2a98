/**
 * Reading a file a user names on the command line, which may be a pipe (`--task-file
 * <(gh issue view 12)`, a FIFO another program writes): opened without waiting, judged by what
 * was opened, and read a chunk at a time up to a limit. A FIFO no program opens for writing is
 * given up on after a wait, where an open that waits would wait for good; a device (`/dev/zero`,
 * `/dev/tty`), a socket and a file of `/proc` that has no bytes without waiting are refused, unread.
 * A part of `helpers.ts`, which re-exports it.
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { boundedBytes, nodeReadError } from "./_setting_file.ts";

/** Options of {@linkcode readInputBytes}. */
export interface InputReadOptions {
  /** The most bytes read; more throws. */
  limit: number;
  /** How long a FIFO may go without a program opening it to write, in ms. @default {10000} */
  writerWaitMs?: number;
  /** What the limit is, for the error past it (`a task's text`). @default {"slop reads of it"} */
  limitName?: string;
}

/**
 * A named input's bytes: a regular file's, or a pipe's until its writer closes it. Throws
 * `Deno.errors.NotFound` for a missing path and `Deno.errors.IsADirectory` for a folder (as
 * `Deno.readFile` does), and an `Error` in plain words for the rest: a device, a socket, a link
 * loop, a FIFO nothing writes to, more than `limit` bytes.
 *
 * @example
 * ```ts
 * import { readInputBytes } from "./helpers.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "fix it");
 * (await readInputBytes(path, { limit: 100 })).length; // 6
 * await readInputBytes("/dev/zero", { limit: 100 }).catch((e) => e.message); // "it is a device …"
 * ```
 */
export async function readInputBytes(
  path: string,
  { limit, writerWaitMs = 10_000, limitName = "slop reads of it" }: InputReadOptions,
): Promise<Uint8Array> {
  const fd = openInput(path);
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new Deno.errors.IsADirectory("it is a folder");
    if (info.isCharacterDevice() || info.isBlockDevice()) throw new Error(DEVICE);
    if (info.isFile() && info.size > limit) throw new Error(overLimit(limit, limitName));
    const chunks = boundedBytes(limit, CHUNK, overLimit(limit, limitName));
    if (info.isFIFO()) await readPipe(fd, chunks, writerWaitMs);
    else readFile(fd, chunks);
    return chunks.all();
  } catch (error) {
    throw nodeReadError(error);
  } finally {
    closeSync(fd);
  }
}

/** Why a device is not read. */
const DEVICE = "it is a device (such as /dev/zero or a terminal), which slop does not read: " +
  "put the text in a file";

function overLimit(limit: number, name: string): string {
  return `it holds over ${limit} bytes, more than ${name}`;
}

/** Open `path` to read without waiting (a FIFO's open waits for a writer), errors in plain words. */
function openInput(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") throw new Deno.errors.NotFound("file not found");
    if (code === "EACCES" || code === "EPERM") {
      throw new Deno.errors.PermissionDenied(
        "permission denied: the user slop runs as may not read it",
      );
    }
    if (code === "ELOOP") throw new Error("symbolic link loop");
    // A socket, or a device with nothing behind it (`/dev/tty` without a terminal).
    if (code === "ENXIO") {
      throw new Error(
        "it is a socket or a device, which slop does not read: put the text in a file",
      );
    }
    if (code === "ENAMETOOLONG") throw new Error("file name too long");
    throw error;
  }
}

/** Bytes read a chunk at a time, at most a limit of them (`boundedBytes`). */
type Chunks = ReturnType<typeof boundedBytes>;

/** A regular file's bytes; one that has none without waiting (`/proc/kmsg`) is refused. */
function readFile(fd: number, chunks: Chunks): void {
  try {
    for (let into = chunks.next(); chunks.took(readSync(fd, into, 0, into.length, null));) {
      into = chunks.next();
    }
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EAGAIN") throw error;
    throw new Error(
      "it gives no bytes without waiting (a file of /proc), which slop does not read",
    );
  }
}

/** How long a read of a pipe sleeps when it has nothing to read yet, in ms. */
const POLL_MS = 20;

/**
 * A FIFO's bytes until its writer closes it. A read without waiting tells the cases apart:
 * bytes; none and `EAGAIN`, a writer that has not written yet (waited for, as `cat` would);
 * none and no error, no writer (before any came: waited for up to `writerWaitMs`; after one
 * came: the end).
 */
async function readPipe(fd: number, chunks: Chunks, writerWaitMs: number): Promise<void> {
  const start = Date.now();
  let writer = false;
  while (true) {
    let n: number;
    try {
      const into = chunks.next();
      n = readSync(fd, into, 0, into.length, null);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EAGAIN") throw error;
      writer = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    if (n > 0) writer = true;
    if (!chunks.took(n)) {
      if (writer) return;
      if (Date.now() - start > writerWaitMs) {
        throw new Error(
          `it is a FIFO that no program opened to write in ${writerWaitMs / 1000} s ` +
            "(slop reads a FIFO while another program writes it)",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** How many bytes a read asks for. */
const CHUNK = 1 << 16;
