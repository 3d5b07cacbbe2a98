/**
 * The document's hashes taken on a thread of their own: once a `slop build`'s blocks are
 * counted, the document they make is mostly the last document's bytes (a one-file edit), and a
 * worker reads those from its file and hashes them in order with the few new blocks' bytes,
 * while this thread writes the caches. The manifest then waits for the answer instead of
 * hashing the whole document itself: the same hashes (`documentHashes()`), off the build's
 * thread. The answer is taken only while the last document is still the file read (its stamp
 * before and after); otherwise, or when the worker fails, there is none and the manifest hashes
 * the document itself. A build that fails stops the worker (`stop()`).
 *
 * @module
 */

import type { StreamedDocument } from "../pipeline/document.ts";
import { countWork, fileStamp } from "../pipeline/helpers.ts";
import { type WrittenDocument, writtenSegments } from "./patch_write.ts";

/** A document's hashes under way on a worker. */
export interface HashAhead {
  /** The hashes, or `undefined`: the worker failed, or the last document changed meanwhile. */
  result(): Promise<{ prefix: string; total: string } | undefined>;
  /** Stop the worker (a build that failed, or took other blocks). */
  stop(): void;
}

/**
 * Start hashing `document` (whose blocks' sha256 are `hashes`) on a worker, from the last
 * written document's file where it has the blocks; `undefined` when the last document cannot
 * be used (then hash it here).
 *
 * @example
 * ```ts
 * import { startHashAhead } from "./hash_ahead.ts";
 * import { streamDocument } from "../pipeline/document.ts";
 * startHashAhead(streamDocument([]), [], undefined, 0); // undefined: no last document
 * ```
 */
export function startHashAhead(
  document: StreamedDocument,
  hashes: string[],
  previous: WrittenDocument | undefined,
  prefixBytes: number,
): HashAhead | undefined {
  const segments = writtenSegments(document, hashes, previous);
  if (!segments || !previous) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_hash_worker.ts", import.meta.url).href, { type: "module" });
  } catch {
    return undefined;
  }
  countWork("document hashed ahead", 1);
  const { path, stamp } = previous;
  let settle: (hashes: { prefix: string; total: string } | undefined) => void = () => {};
  const answer = new Promise<{ prefix: string; total: string } | undefined>((resolve) => {
    settle = (hashes) => {
      worker.terminate();
      resolve(hashes);
    };
  });
  worker.onerror = (event) => {
    event.preventDefault();
    settle(undefined);
  };
  worker.onmessage = (event: MessageEvent<{ prefix?: string; total?: string }>) => {
    const { prefix, total } = event.data;
    // Read while the file was the one written (a change since gives it a new stamp).
    const same = fileStamp(path) === stamp;
    settle(prefix && total && same ? { prefix, total } : undefined);
  };
  // The bytes of its own are handed over, not copied.
  const moved = segments.flatMap((s) => s instanceof Uint8Array ? [s.buffer as ArrayBuffer] : []);
  worker.postMessage({ path, segments, prefixBytes }, moved);
  return { result: () => answer, stop: () => settle(undefined) };
}
