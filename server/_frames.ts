/**
 * The build server's wire format, both ways on one Unix socket: frames of a
 * kind byte, a 4-byte big-endian length and that many bytes. A message is
 * JSON (a request, a status, the exit code); stdout and stderr frames carry
 * the bytes the client writes to its own streams. What it buys is part of
 * the server's (`serve.ts`): a build handed over a socket, not run in a
 * process of its own.
 *
 * @module
 */

/** What a frame holds. */
export type FrameKind = "message" | "stdout" | "stderr";

/** One frame read from a connection. */
export interface Frame {
  kind: FrameKind;
  data: Uint8Array;
}

const KINDS: FrameKind[] = ["message", "stdout", "stderr"];

/** The largest frame written (larger payloads are split; a message never is). */
const MAX_FRAME = 1 << 20;

/** Something frames are written to (a connection). */
export interface FrameWriter {
  write(p: Uint8Array): Promise<number>;
}

/**
 * Write `data` as frames of `kind` (split in pieces of at most 1 MiB, but
 * never a message).
 *
 * @example
 * ```ts
 * import { writeFrame } from "./_frames.ts";
 * // await writeFrame(conn, "stdout", new TextEncoder().encode("hello\n"));
 * ```
 */
export async function writeFrame(
  to: FrameWriter,
  kind: FrameKind,
  data: Uint8Array,
): Promise<void> {
  const piece = kind === "message" ? Math.max(data.length, 1) : MAX_FRAME;
  let at = 0;
  do {
    const part = data.subarray(at, at + piece);
    const frame = new Uint8Array(5 + part.length);
    frame[0] = KINDS.indexOf(kind);
    new DataView(frame.buffer).setUint32(1, part.length);
    frame.set(part, 5);
    for (let written = 0; written < frame.length;) {
      written += await to.write(frame.subarray(written));
    }
    at += part.length;
  } while (at < data.length);
}

/**
 * Write a JSON message.
 *
 * @example
 * ```ts
 * import { writeMessage } from "./_frames.ts";
 * // await writeMessage(conn, { type: "exit", code: 0 });
 * ```
 */
export function writeMessage(to: FrameWriter, message: unknown): Promise<void> {
  return writeFrame(to, "message", new TextEncoder().encode(JSON.stringify(message)));
}

/** Something frames are read from (a connection's `read`, not its stream). */
export interface FrameReader {
  read(p: Uint8Array): Promise<number | null>;
}

/** Bytes asked of the connection at a time. */
const CHUNK = 64 * 1024;

/**
 * The frames read from a connection, in order, until it ends; an error when
 * it ends inside a frame or a frame has an unknown kind. It reads with
 * `read()`, not the connection's `readable` stream: Deno loads its streams
 * implementation on first use, a large part of a client's start (bench/README.md, "Speed against
 * Repomix").
 *
 * @example
 * ```ts
 * import { readFrames } from "./_frames.ts";
 * // for await (const frame of readFrames(conn)) console.log(frame.kind);
 * ```
 */
export async function* readFrames(from: FrameReader): AsyncGenerator<Frame> {
  // Chunks not yet framed, joined only once a whole frame is there (a 1 MiB frame comes in
  // many chunks).
  let pending: Uint8Array[] = [];
  let size = 0;
  let need = 5;
  for (;;) {
    const chunk = new Uint8Array(CHUNK);
    const n = await from.read(chunk);
    if (n === null) break;
    pending.push(chunk.subarray(0, n));
    size += n;
    while (size >= need) {
      let buffer = pending.length === 1 ? pending[0] : joined(pending);
      pending = [buffer];
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) {
        need = 5 + length;
        break;
      }
      const kind = KINDS[buffer[0]];
      if (!kind) throw new Error(`Unknown frame kind ${buffer[0]}`);
      yield { kind, data: buffer.slice(5, 5 + length) };
      buffer = buffer.subarray(5 + length);
      pending = buffer.length ? [buffer] : [];
      size = buffer.length;
      need = 5;
    }
  }
  if (size) throw new Error("The connection ended inside a frame");
}

/**
 * A frame's JSON message.
 *
 * @example
 * ```ts
 * import { readMessage } from "./_frames.ts";
 * readMessage({ kind: "message", data: new TextEncoder().encode('{"type":"stop"}') }); // { type: "stop" }
 * ```
 */
export function readMessage(frame: Frame): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(frame.data));
}

/**
 * The chunks as one array. Not `concatBytes` of `pipeline/helpers.ts`: the client reads frames,
 * and importing that module loaded much of the pipeline into every client (bench/README.md, "The
 * build server's warm answer").
 */
function joined(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
