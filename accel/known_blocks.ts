/**
 * The blocks a warm build has again, known by name: a file block whose text is
 * a cached render kept in the cache's pack is named by that text's name (its
 * record's sha256, where it starts, its size) with its heading and fence
 * (`TextBacking.named`), and the last document's record keeps each block's
 * name beside its sha256, length and token count (`patch_write.ts`). A block
 * of the same name is the same bytes: its sha256 and length are the record's,
 * and its text is not read to hash it (a big tree's every kept text, read back
 * and hashed once more). The document's own hashes still take every byte
 * (`documentHashes()`).
 *
 * @module
 */

import { sha256Hex } from "../pipeline/helpers.ts";
import { textBacking } from "../pipeline/lazy_text.ts";
import type { WrittenDocument } from "./patch_write.ts";

/**
 * The name of a block's bytes (a sha256 of what names them, 32 hex digits), or `""` when its
 * text has no name (held in memory, read anew this build, replaced by a plugin).
 *
 * @example
 * ```ts
 * import { blockName } from "./known_blocks.ts";
 * blockName({ text: "x" }); // "": a text in memory has no name
 * ```
 */
export function blockName(block: { text?: string }): string {
  const named = textBacking(block)?.named?.();
  return named === undefined ? "" : sha256Hex(named).slice(0, 32);
}

/**
 * The sha256 and UTF-8 length of each named block as the last document's record has them (a
 * block of the same name), else `undefined`: none without a record of names and lengths.
 *
 * @example
 * ```ts
 * import { knownBlocks } from "./known_blocks.ts";
 * const last = { path: "/d.md", stamp: "1:2:3", hashes: ["ab"], lengths: [2], names: ["n1"] };
 * knownBlocks(["n1", "", "n2"], last); // [{ sha256: "ab", length: 2 }, undefined, undefined]
 * ```
 */
export function knownBlocks(
  names: string[],
  last: WrittenDocument | undefined,
): Array<{ sha256: string; length: number } | undefined> {
  const { hashes, lengths, names: before } = last ?? {};
  if (!hashes || !lengths || !before || before.length !== hashes.length) return [];
  const at = new Map<string, number>();
  before.forEach((name, i) => name && at.set(name, i));
  return names.map((name) => {
    const i = name ? at.get(name) : undefined;
    return i === undefined ? undefined : { sha256: hashes[i], length: lengths[i] };
  });
}
