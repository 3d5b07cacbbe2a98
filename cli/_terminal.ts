/**
 * Where a command's output goes: this process's stdout and stderr, or a
 * build server's connection to the client that asked for the build (which
 * writes the bytes to its own stdout and stderr).
 *
 * @module
 */

/** A command's output streams. */
export interface Terminal {
  /** Write bytes or text to stdout, all of it. */
  stdout(data: string | Uint8Array): Promise<void>;
  /** Write text to stderr, all of it. */
  stderr(text: string): void;
  /** Whether stderr is a terminal (a progress bar is drawn only then). */
  stderrIsTerminal: boolean;
}

/** Something bytes are written to, a part at a time (a file, a connection). */
export interface ByteWriter {
  write(p: Uint8Array): Promise<number>;
}

/** Something bytes are written to synchronously, a part at a time. */
export interface ByteWriterSync {
  writeSync(p: Uint8Array): number;
}

/**
 * Write all of `bytes` (a write may take only part of them).
 */
async function writeAll(to: ByteWriter, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await to.write(bytes.subarray(written));
}

/**
 * Write all of `bytes` synchronously.
 *
 * @example
 * ```ts
 * import { writeAllSync } from "./_terminal.ts";
 * writeAllSync(Deno.stderr, new TextEncoder().encode("hello\n"));
 * ```
 */
export function writeAllSync(to: ByteWriterSync, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += to.writeSync(bytes.subarray(written));
}

/**
 * Write all of `bytes` to this process's stdout. A reader that went away
 * (`slop build --stdout | head`: a broken pipe) ends the output quietly, as
 * `git log | head` does: the rest has no one to go to, and a stack trace or an
 * error for it would be noise.
 *
 * @example
 * ```ts
 * import { writeStdout } from "./_terminal.ts";
 * await writeStdout(new TextEncoder().encode("hello\n"));
 * ```
 */
export async function writeStdout(bytes: Uint8Array): Promise<void> {
  try {
    await writeAll(Deno.stdout, bytes);
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw new StdoutError(error);
  }
}

/**
 * {@linkcode writeStdout}, synchronously.
 *
 * @example
 * ```ts
 * import { writeStdoutSync } from "./_terminal.ts";
 * writeStdoutSync(new TextEncoder().encode("hello\n"));
 * ```
 */
export function writeStdoutSync(bytes: Uint8Array): void {
  try {
    writeAllSync(Deno.stdout, bytes);
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw new StdoutError(error);
  }
}

/**
 * A write to this process's stdout that failed for another reason than a reader gone (a full
 * disk, `/dev/full`, an I/O error): no bug in slop, and the output is cut short. Its message is
 * the line to print (a command that prints its errors' messages prints it as it is).
 */
class StdoutError extends Error {
  constructor(cause: unknown) {
    super(failedWrite(cause instanceof Error ? cause.message : String(cause)), { cause });
  }
}

/**
 * The line to print for `error` when it is a failed write to this process's stdout, by
 * {@linkcode writeStdout} or `console.log` (whose failure Deno throws from its `print`): where
 * stdout goes and the system's reason; undefined for any other error.
 *
 * @example
 * ```ts
 * import { stdoutFailure } from "./_terminal.ts";
 * stdoutFailure(new Error("boom")); // undefined
 * ```
 */
export function stdoutFailure(error: unknown): string | undefined {
  if (error instanceof StdoutError) return error.message;
  if (!(error instanceof Error)) return undefined;
  const printed = /^\s+at (?:Object\.)?print \(ext:core\//m.test(error.stack ?? "") &&
    /\(os error \d+\)/.test(error.message);
  return printed ? failedWrite(error.message) : undefined;
}

/** The line for a failed write to stdout, from the system's message. */
function failedWrite(message: string): string {
  const reason = message.replace(/ \(os error \d+\)[^]*$/, "");
  return `Cannot write to stdout${stdoutTarget()}: ${reason}; what was printed is cut short`;
}

/** Where stdout goes, quoted, when it is a file or device (` ("/dev/full")`); else nothing. */
function stdoutTarget(): string {
  try {
    const target = Deno.readLinkSync("/proc/self/fd/1");
    return target.startsWith("/") ? ` ("${target}")` : "";
  } catch {
    return ""; // not Linux, or no /proc
  }
}

/**
 * This process's stdout and stderr.
 *
 * @example
 * ```ts
 * import { processTerminal } from "./_terminal.ts";
 * processTerminal().stderr("slop: hello\n");
 * ```
 */
export function processTerminal(): Terminal {
  return {
    stdout: (data) => writeStdout(typeof data === "string" ? new TextEncoder().encode(data) : data),
    stderr: (text) => writeAllSync(Deno.stderr, new TextEncoder().encode(text)),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  };
}
