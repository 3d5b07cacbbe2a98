/**
 * The document as UTF-8 bytes, from each block's own encoding, piece by
 * piece: far cheaper than encoding the joined string (one non-Latin-1
 * character makes the whole joined string two-byte, and slow to encode), and
 * never held whole (the size of the document).
 *
 * @module
 */

import type { PlacedBlock } from "./types.ts";
import { encodePieces, pieceBuffer } from "./text_hash.ts";
import { textParts } from "./block_parts.ts";

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
 * import { streamDocument } from "./_document.ts";
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
        // A file block part by part (`block_parts.ts`): its text is not copied whole.
        for (const part of textParts(blocks[i])) yield* encodePieces(part, buffer);
      }
    },
  };
}
