/**
 * The document as UTF-8 bytes, from each block's own encoding, piece by
 * piece: far cheaper than encoding the joined string (one non-Latin-1
 * character makes the whole joined string two-byte, and slow to encode), and
 * never held whole (the size of the document).
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import type { PlacedBlock } from "./types.ts";
import { encodePieces, pieceBuffer } from "./text_hash.ts";
import { textParts } from "./block_parts.ts";
import { byteParts } from "./lazy_text.ts";
import { countWork } from "./_work_count.ts";

/** A document as its blocks' texts, encoded piece by piece as it is hashed and written. */
export interface StreamedDocument {
  /** Each block's length in UTF-8 bytes. */
  lengths: number[];
  /**
   * The UTF-8 bytes of the blocks from block `from` up to (not including) block `to`, in
   * pieces: each piece is valid until the next is asked for (one buffer is reused).
   */
  pieces(from?: number, to?: number): Generator<Uint8Array>;
}

/**
 * The document of placed blocks, never held as bytes: hashed and written a
 * piece at a time from the blocks' texts (a resident process, `slop watch`,
 * hashes and writes only from the first block that changed).
 *
 * @example
 * ```ts
 * import { streamDocument } from "./document.ts";
 * const doc = streamDocument([{ id: "a", section: "a", stability: "stable", text: "é\n", offset: 0, length: 3, sha256: "", tokens: 1 }]);
 * [...doc.pieces()][0].length; // 3
 * ```
 */
export function streamDocument(blocks: PlacedBlock[]): StreamedDocument {
  return {
    lengths: blocks.map((b) => b.length),
    *pieces(from = 0, to = blocks.length) {
      const buffer = pieceBuffer();
      for (let i = from; i < to; i++) {
        // A file block part by part (`block_parts.ts`): its text is not copied whole; a lazy
        // text's bytes are written as they are kept (`lazy_text.ts`), not decoded and encoded.
        for (const part of byteParts(blocks[i]) ?? textParts(blocks[i])) {
          if (typeof part === "string") yield* encodePieces(part, buffer);
          else yield part;
        }
      }
    },
  };
}

/**
 * The sha256 of a document's first `prefixBytes` and of the whole, hashed
 * piece by piece (a resident process resumes them from its last document's:
 * `accel/resumed_hashes.ts`).
 *
 * @example
 * ```ts
 * import { documentHashes } from "./document.ts";
 * documentHashes([new Uint8Array([97])], 1).total.length; // 64
 * ```
 */
export function documentHashes(
  document: Uint8Array[] | StreamedDocument,
  prefixBytes: number,
): { prefix: string; total: string } {
  const run = prefixHashing(prefixBytes);
  for (const piece of Array.isArray(document) ? document : document.pieces()) {
    hashPiece(run, piece);
  }
  return hashingDone(run);
}

/**
 * A new hashing of a document whose first `prefixBytes` bytes are its stable prefix: feed it the
 * document's pieces in order with {@linkcode hashPiece}, then take {@linkcode hashingDone}.
 *
 * @example
 * ```ts
 * import { hashingDone, hashPiece, prefixHashing } from "./document.ts";
 * const run = prefixHashing(1);
 * hashPiece(run, new Uint8Array([97, 98]));
 * hashingDone(run).prefix.length; // 64
 * ```
 */
export function prefixHashing(prefixBytes: number): PrefixHashing {
  const hasher = createHash("sha256");
  // An empty prefix's hash is known before any byte comes.
  const prefix = prefixBytes === 0 ? hasher.copy().digest("hex") : "";
  return { hasher, seen: 0, prefixBytes, prefix };
}

/**
 * The prefix's and the whole document's sha256 (hex) once every piece is hashed; a prefix that
 * reaches the document's end is the whole.
 *
 * @example
 * ```ts
 * import { hashingDone, prefixHashing } from "./document.ts";
 * hashingDone(prefixHashing(0)).total.length; // 64
 * ```
 */
export function hashingDone(run: PrefixHashing): { prefix: string; total: string } {
  return { prefix: run.prefix || run.hasher.copy().digest("hex"), total: run.hasher.digest("hex") };
}

/** A document's hashing under way: {@linkcode hashPiece}'s state. */
export interface PrefixHashing {
  /** The hash of the bytes so far. */
  hasher: Hash;
  /** How many bytes it has taken. */
  seen: number;
  /** Where the prefix ends, in bytes. */
  prefixBytes: number;
  /** The prefix's sha256 (hex) once its bytes are all in, else "". */
  prefix: string;
}

/**
 * Hash the document's next piece, taking the prefix's hash where it ends (also inside the piece).
 *
 * @example
 * ```ts
 * import { createHash } from "node:crypto";
 * import { hashPiece } from "./document.ts";
 * const run = { hasher: createHash("sha256"), seen: 0, prefixBytes: 1, prefix: "" };
 * hashPiece(run, new Uint8Array([97, 98]));
 * run.prefix; // the sha256 of "a"
 * ```
 */
export function hashPiece(run: PrefixHashing, piece: Uint8Array): void {
  const { hasher } = run;
  countWork("bytes hashed", piece.length);
  const cut = run.prefixBytes - run.seen;
  if (!run.prefix && cut > 0 && cut < piece.length) {
    hasher.update(piece.subarray(0, cut));
    run.prefix = hasher.copy().digest("hex");
    hasher.update(piece.subarray(cut));
  } else hasher.update(piece);
  run.seen += piece.length;
  if (!run.prefix && run.seen === run.prefixBytes) run.prefix = hasher.copy().digest("hex");
}

/** The document's hashes taken block by block (see {@linkcode documentHasher}). */
export interface DocumentHasher {
  /** Where each block's bytes go, in document order, after {@linkcode DocumentHasher.next}. */
  hash: Hash;
  /** Called before each block's bytes are added. */
  next(): void;
  /** The stable prefix's and the whole document's sha256 (once, after the last block). */
  done(): { prefix: string; total: string };
}

/**
 * The hashes {@linkcode documentHashes} gives, taken while the blocks are
 * hashed one by one anyway (for their own sha256): the same encoding of each
 * block feeds both, so the document is not encoded and hashed a second time.
 * `prefixEnd` is the index of the first block after the stable prefix.
 *
 * @example
 * ```ts
 * import { documentHasher } from "./document.ts";
 * const hasher = documentHasher(0);
 * hasher.done().total.slice(0, 8); // "e3b0c442"
 * ```
 */
export function documentHasher(prefixEnd: number): DocumentHasher {
  const hash = createHash("sha256");
  let at = 0;
  let prefix: string | undefined;
  return {
    hash,
    next() {
      if (at++ === prefixEnd) prefix = hash.copy().digest("hex");
    },
    done() {
      prefix ??= hash.copy().digest("hex");
      return { prefix, total: hash.digest("hex") };
    },
  };
}

/** Bytes a chunk of {@linkcode documentChunks} gathers before it is given. */
const CHUNK_BYTES = 1 << 20;

/**
 * A streamed document's bytes in chunks of about 1 MB, for a writer that
 * takes its bytes one write at a time (stdout, a connection): small blocks
 * are gathered, and the document is never joined or encoded whole. Each
 * chunk is a view of one buffer, valid until the next is asked for (write it
 * before asking).
 *
 * @example
 * ```ts
 * import { documentChunks, streamDocument } from "./document.ts";
 * const doc = streamDocument([{ id: "a", section: "a", stability: "stable", text: "hi\n", offset: 0, length: 3, sha256: "", tokens: 1 }]);
 * [...documentChunks(doc)].map((c) => c.length); // [3]
 * ```
 */
export function* documentChunks(document: StreamedDocument): Generator<Uint8Array> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  let used = 0;
  for (const piece of document.pieces()) {
    if (used + piece.length > buffer.length && used) {
      yield buffer.subarray(0, used);
      used = 0;
    }
    // A piece is a view of the stream's own buffer, valid until the next: given or copied now.
    if (piece.length > buffer.length) yield piece;
    else {
      buffer.set(piece, used);
      used += piece.length;
    }
  }
  if (used) yield buffer.subarray(0, used);
}
