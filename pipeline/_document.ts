/**
 * The document as UTF-8 bytes, from each block's own encoding: far cheaper
 * than encoding the joined string (one non-Latin-1 character makes the whole
 * joined string two-byte, and slow to encode).
 *
 * @module
 */

import type { Block } from "./types.ts";
import { concatBytes } from "./_bytes.ts";

const encoder = new TextEncoder();

/**
 * The document as each block's UTF-8 bytes, in order (from their encodings
 * when given): written and hashed part by part, never joined in memory.
 *
 * @example
 * ```ts
 * import { documentParts } from "./_document.ts";
 * documentParts([{ id: "a", section: "a", stability: "stable", text: "é\n" }])[0].length; // 3
 * ```
 */
export function documentParts(blocks: Block[], encoded?: Uint8Array[]): Uint8Array[] {
  return encoded ?? blocks.map((b) => encoder.encode(b.text));
}

/**
 * UTF-8 bytes of the concatenated block texts (from their encodings when
 * given), joined in one array: a copy of the whole document, so large
 * documents use {@linkcode documentParts}.
 *
 * @example
 * ```ts
 * import { documentBytes } from "./_document.ts";
 * documentBytes([{ id: "a", section: "a", stability: "stable", text: "é\n" }]).length; // 3
 * ```
 */
export function documentBytes(blocks: Block[], encoded?: Uint8Array[]): Uint8Array {
  return concatBytes(documentParts(blocks, encoded));
}
