/**
 * The document as UTF-8 bytes, joined from each block's own encoding: far
 * cheaper than encoding the joined string (one non-Latin-1 character makes
 * the whole joined string two-byte, and slow to encode).
 *
 * @module
 */

import type { Block } from "./types.ts";

const encoder = new TextEncoder();

/**
 * UTF-8 bytes of the concatenated block texts (from their encodings when given).
 *
 * @example
 * ```ts
 * import { documentBytes } from "./_document.ts";
 * documentBytes([{ id: "a", section: "a", stability: "stable", text: "é\n" }]).length; // 3
 * ```
 */
export function documentBytes(blocks: Block[], encoded?: Uint8Array[]): Uint8Array {
  const parts = encoded ?? blocks.map((b) => encoder.encode(b.text));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
