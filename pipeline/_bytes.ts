/**
 * Byte helpers of the pipeline's internals.
 *
 * @module
 */

/**
 * The parts joined into one new array.
 *
 * @example
 * ```ts
 * import { concatBytes } from "./_bytes.ts";
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The bytes of base64 text, read as `node:buffer`'s `Buffer.from(text, "base64")` reads it:
 * up to the first `=`, characters outside base64 (and base64url's `-` `_`) skipped, a lone
 * last character dropped.
 *
 * @example
 * ```ts
 * import { decodeBase64 } from "./_bytes.ts";
 * decodeBase64("aGk="); // Uint8Array [104, 105]
 * ```
 */
export function decodeBase64(text: string): Uint8Array {
  const padding = text.indexOf("=");
  let digits = (padding === -1 ? text : text.slice(0, padding))
    .replace(/[^A-Za-z0-9+/_-]/g, "")
    .replaceAll("-", "+")
    .replaceAll("_", "/");
  if (digits.length % 4 === 1) digits = digits.slice(0, -1);
  return Uint8Array.fromBase64(digits, { lastChunkHandling: "loose" });
}
