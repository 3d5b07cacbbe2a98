/**
 * A file's bytes as text, or why they are not text:
 *
 * - UTF-8, a leading byte order mark dropped;
 * - UTF-16 in either byte order when the file starts with its byte order mark (`FF FE` little
 *   endian, `FE FF` big endian), as editors on Windows save text; without a mark, when its NULs
 *   are the high bytes of mostly ASCII text (see {@linkcode utf16Unmarked});
 * - an older 8-bit or East Asian encoding (Latin-1, Windows-1251, Shift_JIS, GB18030, EUC-KR,
 *   ...) when the bytes are not UTF-8 but read as text: few control characters, no NUL. The
 *   encoding is detected by chardet from the lines that hold non-ASCII bytes; when the detector
 *   names none that decodes the bytes, they are read as Windows-1252, which decodes any byte.
 *   Old code often has comments in such encodings (`Größe`, `日本語`); skipping those files lost
 *   code a user asked for.
 *
 * A NUL byte (outside UTF-16), or more than one control character in a hundred bytes, makes the
 * file binary. The result depends on the bytes alone, so every build reads a file the same way.
 *
 * @module
 */

import { loadChardet } from "../deps.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: false });
const utf16be = new TextDecoder("utf-16be", { fatal: true, ignoreBOM: false });

/** Bytes of non-ASCII lines the detector looks at: enough to tell encodings apart, and fast. */
const SAMPLE_BYTES = 64 * 1024;

/** Decoded text, or the reason the bytes are binary. */
export type Decoded = { text: string } | { binary: string };

/**
 * Decode a file's bytes by the rules above.
 *
 * @example
 * ```ts
 * import { decodeText } from "./_text_decode.ts";
 * await decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0])); // { text: "hi" }
 * await decodeText(new Uint8Array([0x68, 0, 0x69])); // { binary: "binary file" }
 * await decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])); // { text: "café" } (Latin-1)
 * ```
 */
export async function decodeText(bytes: Uint8Array): Promise<Decoded> {
  const bom = bytes.length >= 2 ? (bytes[0] << 8) | bytes[1] : -1;
  if (bom === 0xfffe || bom === 0xfeff) return utf16(bytes, bom === 0xfffe ? utf16le : utf16be);
  if (bytes.includes(0)) return utf16Unmarked(bytes) ?? { binary: "binary file" };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    if (!readsAsText(bytes)) return { binary: "binary file (not valid UTF-8)" };
    return { text: await decodeLegacy(bytes) };
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

/**
 * UTF-16 text without a byte order mark (as `working-tree-encoding=UTF-16LE` in `.gitattributes`
 * checks files out, and as some Windows tools save them), told from a binary by its NULs: nearly
 * every NUL in the high byte of a code unit (odd offsets little endian, even ones big endian; a
 * character such as U+4E00 has a NUL low byte), no U+0000 character, whole
 * code units and paired surrogates, at least half the units ASCII or Latin-1 (under U+0100), and
 * no more control characters than a text has (one in a hundred). `undefined` when the bytes are
 * not such text.
 */
function utf16Unmarked(bytes: Uint8Array): Decoded | undefined {
  if (bytes.length % 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) i % 2 ? odd++ : even++;
  }
  // ASCII text has a NUL in every other byte: half the units at least, nearly all on one side
  // (a character whose low byte is 0, as U+4E00 and U+0100 are, has one on the other).
  if (Math.min(even, odd) * 8 > Math.max(even, odd)) return undefined;
  if (Math.max(even, odd) * 4 < bytes.length) return undefined;
  let text: string;
  try {
    text = (odd > even ? utf16le : utf16be).decode(bytes);
  } catch {
    return undefined;
  }
  if (text.includes("\0")) return undefined;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && (c < 9 || c > 13) && c !== 0x1b) || c === 0x7f) controls++;
  }
  return controls * 100 <= text.length ? { text } : undefined;
}

/**
 * Whether bytes that are not UTF-8 look like text: at most one control character (other than
 * tab, line ends, form feed and escape) in a hundred bytes. A binary without NULs has about one
 * in ten.
 */
function readsAsText(bytes: Uint8Array): boolean {
  let controls = 0;
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 11 && byte !== 12 && byte !== 13) {
      if (byte !== 0x1b) controls++;
    } else if (byte === 0x7f) controls++;
  }
  return controls * 100 <= bytes.length;
}

/** Text in the encoding chardet finds, or Windows-1252 when it finds none that decodes. */
async function decodeLegacy(bytes: Uint8Array): Promise<string> {
  const chardet = await loadChardet();
  for (const { name } of chardet.analyse(nonAsciiLines(bytes))) {
    // Mostly UTF-8 with a few stray bytes: the stray bytes become U+FFFD, the rest stays right.
    if (name === "UTF-8") return new TextDecoder("utf-8").decode(bytes);
    const decoder = decoderFor(name);
    if (!decoder) continue;
    try {
      return decoder.decode(bytes);
    } catch {
      // Not this encoding after all (the sample was only part of the file): try the next one.
    }
  }
  return new TextDecoder("windows-1252").decode(bytes);
}

/** A strict decoder for an encoding chardet names, when the runtime has one. */
function decoderFor(name: string): TextDecoder | undefined {
  // UTF-16 and UTF-32 without a mark are not told from binaries here (see decodeText).
  if (/^UTF-(16|32)/.test(name)) return undefined;
  try {
    return new TextDecoder(name, { fatal: true });
  } catch {
    return undefined;
  }
}

/** The lines that hold a byte over 0x7F, joined, up to {@linkcode SAMPLE_BYTES}. */
function nonAsciiLines(bytes: Uint8Array): Uint8Array {
  const sample = new Uint8Array(Math.min(bytes.length, SAMPLE_BYTES));
  let length = 0;
  let start = 0;
  while (start < bytes.length && length < sample.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length - 1;
    const line = bytes.subarray(start, end + 1);
    if (line.some((byte) => byte > 0x7f)) {
      const take = line.subarray(0, sample.length - length);
      sample.set(take, length);
      length += take.length;
    }
    start = end + 1;
  }
  return sample.subarray(0, length);
}
