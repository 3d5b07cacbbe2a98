/**
 * One block of a manifest's JSON, found by its id without parsing the whole
 * manifest. A warm rebuild after a one-file edit counts that file's block by
 * difference from the last document's (`count_diff.ts`), and the last
 * manifest lists every block: on a big tree it is tens of MB of JSON, which a
 * build parsed whole (an object a block) to find one block.
 * The manifest is written by `JSON.stringify(manifest, null, 2)` (as UTF-8):
 * in its `blocks` array each block is an object whose keys are indented by six
 * spaces, and no string holds a raw line break, so the line
 * `      "id": <the id as JSON>,` names that block and nothing else, and the
 * object runs from the `{` before it to the first line `    }` after it. A
 * block whose fields are not those of a block gives `undefined`; a manifest
 * laid out otherwise (no such `blocks` line: `laidOut` of
 * {@linkcode manifestBlockIn}) is for the caller to parse whole. The bytes are
 * searched, not decoded: a big tree's manifest decoded whole cost more than the
 * rest of the lookup. The caller checks the block's bytes against its sha256
 * in any case.
 *
 * @module
 */

/** Where a block lies in its document and the sha256 of its bytes. */
export interface BlockPlace {
  offset: number;
  length: number;
  sha256: string;
}

import { readAt } from "../pipeline/helpers.ts";

const encoder = new TextEncoder();
const BLOCKS = encoder.encode('\n  "blocks": [\n');
const OPEN = encoder.encode("\n    {");
const CLOSE = encoder.encode("\n    }");

/**
 * A search of the manifest file at `path` for blocks by id, laid out as slop writes it (see the
 * module's notes): `laidOut` is whether it has the `blocks` line (without it the caller parses
 * the file whole), and `block(id)` the block `id`, or `undefined` when it has none or cannot be
 * read. The file is searched a megabyte at a time, as bytes (UTF-8, the id encoded the same
 * way): a big tree's manifest is not held or decoded whole, only the block's own object, read
 * from a window around its id line. The first id line after the `blocks` line is the block's:
 * the arrays after `blocks` (the cache breakpoints) name blocks too, but only of blocks listed
 * before them, and their objects have no `offset` (they give `undefined`).
 *
 * @example
 * ```ts
 * import { manifestBlockIn } from "./_manifest_block.ts";
 * manifestBlockIn("/no/such/manifest.json").laidOut; // false
 * ```
 */
export function manifestBlockIn(path: string): {
  laidOut: boolean;
  block: (id: string) => BlockPlace | undefined;
} {
  let from = -1;
  try {
    using file = Deno.openSync(path);
    from = indexInFile(file, BLOCKS, 0);
  } catch {
    // Not laid out: the caller's whole read fails the same way.
  }
  const block = (id: string) => {
    try {
      using file = Deno.openSync(path);
      const key = indexInFile(file, idLine(id), from);
      if (key < 0) return undefined;
      // The block's object lies around its id line: a window of the file holds it.
      const start = Math.max(from, key - WINDOW);
      const window = new Uint8Array(Math.min(file.statSync().size, key + WINDOW) - start);
      if (!readAt(file, start, window)) return undefined;
      return blockAt(window, { from: from - start, key: key - start, id });
    } catch {
      return undefined;
    }
  };
  return { laidOut: from >= 0, block };
}

/** Bytes read on each side of an id line for its block's object (a block is a few lines). */
const WINDOW = 64 * 1024;
/** Bytes of a manifest file searched at a time. */
const CHUNK = 1024 * 1024;

/** Where `needle` first occurs in the file at or after `from`, or -1, a chunk at a time. */
function indexInFile(file: Deno.FsFile, needle: Uint8Array, from: number): number {
  const size = file.statSync().size;
  // Each chunk overlaps the next by the needle's length less one: a needle across two is found.
  const chunk = new Uint8Array(Math.min(CHUNK + needle.length - 1, Math.max(0, size - from)));
  for (let at = from; at < size; at += CHUNK) {
    const view = chunk.subarray(0, Math.min(chunk.length, size - at));
    if (!readAt(file, at, view)) return -1;
    const found = indexOfBytes(view, needle, 0);
    if (found >= 0) return at + found;
    if (at + view.length >= size) break;
  }
  return -1;
}

/** The line that names block `id` in the manifest's `blocks`, as UTF-8. */
function idLine(id: string): Uint8Array {
  return encoder.encode(`\n      "id": ${JSON.stringify(id)},\n`);
}

/** The block whose id line starts at `key` (its object after `from`, the `blocks` line). */
function blockAt(
  bytes: Uint8Array,
  { from, key, id }: { from: number; key: number; id: string },
): BlockPlace | undefined {
  const open = lastIndexOfBytes(bytes, OPEN, key);
  const close = indexOfBytes(bytes, CLOSE, key);
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

/**
 * Where `needle` first occurs in `bytes` at or after `from`, or -1 (Horspool's search: a
 * mismatch skips ahead by the needle's last byte's distance, most of a 50-byte id line).
 */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const last = needle.length - 1;
  const skip = new Int32Array(256).fill(needle.length);
  for (let i = 0; i < last; i++) skip[needle[i]] = last - i;
  for (let at = from; at + last < bytes.length; at += skip[bytes[at + last]]) {
    let k = last;
    while (k >= 0 && bytes[at + k] === needle[k]) k--;
    if (k < 0) return at;
  }
  return -1;
}

/** Where `needle` last starts before `before` in `bytes`, or -1 (a block's few lines back). */
function lastIndexOfBytes(bytes: Uint8Array, needle: Uint8Array, before: number): number {
  for (let at = Math.min(before - 1, bytes.length - needle.length); at >= 0; at--) {
    let k = 0;
    while (k < needle.length && bytes[at + k] === needle[k]) k++;
    if (k === needle.length) return at;
  }
  return -1;
}
