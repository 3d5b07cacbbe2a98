/**
 * Document-hashing worker: receives `{ path, segments, prefixBytes }` (see `writtenSegments()` of
 * `patch_write.ts`), hashes the segments in order, a range of the file at `path` read a megabyte
 * at a time, and answers `{ prefix, total }` (the sha256 of the first `prefixBytes` and of the
 * whole, as `documentHashes()` gives them), or `{ error }` (a read that came up short). Started
 * by `hash_ahead.ts`.
 *
 * @module
 */

import { hashingDone, hashPiece, prefixHashing } from "../pipeline/document.ts";
import type { DocumentSegment } from "./patch_write.ts";

interface Job {
  path: string;
  segments: DocumentSegment[];
  prefixBytes: number;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  try {
    scope.postMessage(hashSegments(event.data));
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};

function hashSegments({ path, segments, prefixBytes }: Job): { prefix: string; total: string } {
  const run = prefixHashing(prefixBytes);
  using file = Deno.openSync(path);
  const buffer = new Uint8Array(1 << 20);
  for (const segment of segments) {
    if (segment instanceof Uint8Array) {
      hashPiece(run, segment);
      continue;
    }
    for (let read = 0; read < segment.length;) {
      const part = buffer.subarray(0, Math.min(buffer.length, segment.length - read));
      if (!readAt(file, segment.offset + read, part)) {
        throw new Error(`The last document "${path}" ended early`);
      }
      hashPiece(run, part);
      read += part.length;
    }
  }
  return hashingDone(run);
}

/**
 * Fill `into` from `offset` of `file`; `false` when the file ends first. The same as `readAt` of
 * pipeline/helpers.ts, kept here so the worker does not load helpers.ts and all it imports.
 */
function readAt(file: Deno.FsFile, offset: number, into: Uint8Array): boolean {
  file.seekSync(offset, Deno.SeekMode.Start);
  for (let at = 0; at < into.length;) {
    const n = file.readSync(into.subarray(at));
    if (!n) return false;
    at += n;
  }
  return true;
}
