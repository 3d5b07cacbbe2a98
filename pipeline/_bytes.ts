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
