/**
 * A file's bytes as text, or why they are not text: UTF-8 (a leading byte order mark dropped), or
 * UTF-16 in either byte order when the file starts with its byte order mark (`FF FE` little
 * endian, `FE FF` big endian), as editors on Windows save text. Strict: bytes that do not decode,
 * or text holding a NUL character, are binary.
 *
 * @module
 */

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: false });
const utf16be = new TextDecoder("utf-16be", { fatal: true, ignoreBOM: false });

/** Decoded text, or the reason the bytes are binary. */
export type Decoded = { text: string } | { binary: string };

/**
 * Decode a file's bytes by the rules above.
 *
 * @example
 * ```ts
 * import { decodeText } from "./_text_decode.ts";
 * decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0])); // { text: "hi" }
 * decodeText(new Uint8Array([0x68, 0, 0x69])); // { binary: "binary file" }
 * ```
 */
export function decodeText(bytes: Uint8Array): Decoded {
  const bom = bytes.length >= 2 ? (bytes[0] << 8) | bytes[1] : -1;
  if (bom === 0xfffe || bom === 0xfeff) return utf16(bytes, bom === 0xfffe ? utf16le : utf16be);
  if (bytes.includes(0)) return { binary: "binary file" };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { binary: "binary file (not valid UTF-8)" };
  }
}

/** UTF-16 text behind its byte order mark: whole code units, paired surrogates, no NUL. */
function utf16(bytes: Uint8Array, decoder: TextDecoder): Decoded {
  const reason = { binary: "binary file (not valid UTF-16 after its byte order mark)" };
  if (bytes.length % 2) return reason;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return reason;
  }
  // UTF-32's little-endian mark starts like UTF-16's; its text, like a binary's, holds NULs.
  return text.includes("\0") ? reason : { text };
}
