/**
 * sha256 of a long text without its whole UTF-8 copy: the text is encoded
 * (as `TextEncoder` does) and hashed in pieces, never cut inside a surrogate
 * pair, which gives the hash of the whole text's UTF-8 bytes. Hashing a string at once makes a
 * buffer of its size (left for the garbage collector), and a concatenation
 * makes another copy of the text.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** Characters hashed per piece. */
const PIECE = 64 * 1024;
const encoder = new TextEncoder();
/** Where pieces are encoded (3 bytes per UTF-16 unit at most); reused, so nothing is left to collect. */
const scratch = new Uint8Array(3 * (PIECE + 1));

/**
 * The sha256 (hex) of the UTF-8 bytes of `parts` joined, as `sha256(parts.join(""))`.
 *
 * @example
 * ```ts
 * import { sha256Parts } from "./_text_hash.ts";
 * sha256Parts(["a", "b"]) === sha256Parts(["ab"]); // true
 * ```
 */
export function sha256Parts(parts: string[]): string {
  const hash = createHash("sha256");
  for (const text of parts) {
    for (let start = 0; start < text.length;) {
      let end = Math.min(start + PIECE, text.length);
      // A high surrogate stays with the character after it (a pair is one code point).
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
      const { written } = encoder.encodeInto(text.slice(start, end), scratch);
      hash.update(scratch.subarray(0, written));
      start = end;
    }
  }
  return hash.digest("hex");
}
