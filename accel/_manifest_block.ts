/**
 * One block of a manifest's JSON, found by its id without parsing the whole
 * manifest. A warm rebuild after a one-file edit counts that file's block by
 * difference from the last document's (`count_diff.ts`), and the last
 * manifest lists every block: on a big tree it is tens of MB of JSON, which a
 * build parsed whole (an object a block) to find one block.
 * The manifest is written by `JSON.stringify(manifest, null, 2)` (as UTF-8): in its
 * `blocks` array each block is an object whose keys are indented by six
 * spaces, and no string holds a raw line break, so the line
 * `      "id": <the id as JSON>,` names that block and nothing else, and the
 * object runs from the `{` before it to the first line `    }` after it. A
 * block whose fields are not those of a block gives `undefined`; a manifest
 * laid out otherwise (no such `blocks` line, {@linkcode laidOut}) is for the
 * caller to parse whole. The caller checks the block's bytes against its
 * sha256 in any case.
 *
 * @module
 */

/** Where a block lies in its document and the sha256 of its bytes. */
export interface BlockPlace {
  offset: number;
  length: number;
  sha256: string;
}

import { Buffer } from "node:buffer";

const BLOCKS = '\n  "blocks": [\n';
const BLOCKS_END = "\n  ]";

/**
 * Whether a manifest's JSON bytes are laid out as slop writes it (its `blocks`
 * array on lines of their own), so that {@linkcode manifestBlock} can find a
 * block in it.
 *
 * @example
 * ```ts
 * import { laidOut } from "./_manifest_block.ts";
 * const bytes = (value: unknown, indent?: number) =>
 *   new TextEncoder().encode(JSON.stringify(value, null, indent));
 * laidOut(bytes({ version: 1, blocks: [{ id: "a" }] }, 2)); // true
 * laidOut(bytes({ blocks: [{ id: "a" }] })); // false
 * ```
 */
export function laidOut(bytes: Uint8Array): boolean {
  return bufferOf(bytes).includes(BLOCKS);
}

/**
 * The block `id` of a manifest's JSON bytes laid out as slop writes it (see
 * {@linkcode laidOut}), or `undefined` when it has none. The bytes are searched
 * as they are (UTF-8, the id encoded the same way): only the block's own
 * object is decoded, not the tens of MB of a big tree's manifest.
 *
 * @example
 * ```ts
 * import { manifestBlock } from "./_manifest_block.ts";
 * const manifest = {
 *   version: 1,
 *   blocks: [{ id: "files:a.py", section: "files", offset: 0, length: 5, sha256: "ab", tokens: 2 }],
 * };
 * const bytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
 * manifestBlock(bytes, "files:a.py"); // { offset: 0, length: 5, sha256: "ab" }
 * ```
 */
export function manifestBlock(bytes: Uint8Array, id: string): BlockPlace | undefined {
  const text = bufferOf(bytes);
  const from = text.indexOf(BLOCKS);
  if (from < 0) return undefined;
  const to = text.indexOf(BLOCKS_END, from + BLOCKS.length - 1);
  const key = text.indexOf(`\n      "id": ${JSON.stringify(id)},\n`, from);
  if (key < 0 || (to >= 0 && key > to)) return undefined;
  const open = text.lastIndexOf("\n    {", key);
  const close = text.indexOf("\n    }", key);
  if (open < from || close < 0) return undefined;
  try {
    const block = JSON.parse(decoder.decode(bytes.subarray(open + 5, close + 6)));
    if (
      block?.id !== id || !Number.isInteger(block.offset) || !Number.isInteger(block.length) ||
      typeof block.sha256 !== "string"
    ) return undefined;
    return { offset: block.offset, length: block.length, sha256: block.sha256 };
  } catch {
    return undefined;
  }
}

/** A block's object, decoded as a whole manifest read as text is. */
const decoder = new TextDecoder();

/** The bytes as a `Buffer` over the same memory (its searches take strings as UTF-8), not copied. */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
