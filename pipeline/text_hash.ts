/**
 * Long texts as UTF-8 without their whole copy: a text is encoded (as
 * `TextEncoder` does) into a reused buffer in pieces, never cut inside a
 * surrogate pair, so its sha256 or its bytes written to a file are those of
 * the whole encoding; its UTF-8 length is the sum of its pieces' lengths.
 * Encoding a string at once makes a buffer of its size (held, or left for
 * the garbage collector), and a concatenation makes another copy of the text.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import { Buffer } from "node:buffer";
import { countWork } from "./_work_count.ts";

/** Characters encoded per piece. */
const PIECE = 64 * 1024;
const encoder = new TextEncoder();
/** Where pieces are encoded (3 bytes per UTF-16 unit at most); reused, so nothing is left to collect. */
const scratch = pieceBuffer();

/**
 * The sha256 (hex) of the UTF-8 bytes of `parts` joined, as `sha256(parts.join(""))`.
 *
 * @example
 * ```ts
 * import { sha256Parts } from "./text_hash.ts";
 * sha256Parts(["a", "b"]) === sha256Parts(["ab"]); // true
 * ```
 */
export function sha256Parts(parts: string[]): string {
  return hashText(parts).sha256;
}

/**
 * The UTF-8 length of a text as `TextEncoder` encodes it (a lone surrogate as
 * U+FFFD, 3 bytes), measured by the runtime without encoding it: a sixth of
 * the CPU of encoding it piece by piece into a reused buffer and adding the
 * pieces' lengths (a warm build measures every block of the document), and
 * many times less than a loop over the UTF-16 units in JavaScript.
 *
 * @example
 * ```ts
 * import { utf8Length } from "./text_hash.ts";
 * utf8Length("é🙂"); // 6
 * ```
 */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The sha256 (hex) and the UTF-8 length of a text, from one pass over its
 * encoding in pieces: `{ sha256: sha256Parts([text]), length: utf8Length(text) }`.
 * Given parts, of their join. With `into`, the pieces go into that hash, which is left open
 * (`sha256` is then empty). With `also`, they go into that hash too (left open): one encoding
 * of the text feeds two hashes (a block's own and the whole document's).
 *
 * @example
 * ```ts
 * import { hashText } from "./text_hash.ts";
 * hashText("é").length; // 2
 * ```
 */
export function hashText(
  text: string | Array<string | Uint8Array>,
  into?: Hash,
  also?: Hash,
): { sha256: string; length: number } {
  const hash = into ?? createHash("sha256");
  let length = 0;
  for (const part of typeof text === "string" ? [text] : text) {
    // A part given as its UTF-8 bytes (a lazy text's, `lazy_text.ts`) is hashed as it is.
    for (const piece of typeof part === "string" ? encodePieces(part, scratch) : [part]) {
      hash.update(piece);
      also?.update(piece);
      length += piece.length;
    }
  }
  countWork("bytes hashed", also ? 2 * length : length);
  // A hash passed in is left open for more (its caller digests it).
  return { sha256: into ? "" : hash.digest("hex"), length };
}

/**
 * `head` followed by the UTF-8 of `text`, in one buffer: the text is encoded in place after the
 * head (joining head and text first would copy the text once more).
 *
 * @example
 * ```ts
 * import { headAndText } from "./text_hash.ts";
 * headAndText(new Uint8Array([123]), "é").length; // 3
 * ```
 */
export function headAndText(head: Uint8Array, text: string): Uint8Array {
  const out = new Uint8Array(head.length + utf8Length(text));
  out.set(head);
  encoder.encodeInto(text, out.subarray(head.length));
  return out;
}

/**
 * The UTF-8 bytes of `text` in pieces encoded into `into` (at least `3 * (64 KiB + 1)` bytes):
 * each piece is a view of `into`, valid until the next is asked for. A piece never ends inside
 * a surrogate pair, so the pieces joined are the text's encoding.
 *
 * @example
 * ```ts
 * import { encodePieces, pieceBuffer } from "./text_hash.ts";
 * [...encodePieces("abc", pieceBuffer())].map((p) => p.length); // [3]
 * ```
 */
export function* encodePieces(text: string, into: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + PIECE, text.length);
    // A high surrogate stays with the character after it (a pair is one code point).
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    const { written } = encoder.encodeInto(text.slice(start, end), into);
    yield into.subarray(0, written);
    start = end;
  }
}

/**
 * A buffer for {@linkcode encodePieces}.
 *
 * @example
 * ```ts
 * import { pieceBuffer } from "./text_hash.ts";
 * pieceBuffer().length > 0; // true
 * ```
 */
export function pieceBuffer(): Uint8Array {
  return new Uint8Array(3 * (PIECE + 1));
}
