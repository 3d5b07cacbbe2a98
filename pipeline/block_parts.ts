/**
 * A file block's text is its heading and opening fence, the file's text and
 * the closing fence joined (`plugins/sections/_render.ts`). V8 keeps such a
 * join as a pair of pointers, not a copy, until something reads its
 * characters: then it copies the whole into one new string (flattens it), a
 * second copy of each shown file, and the file's own string is left to the
 * collector. So the parts a block was joined from are kept with it, and the
 * stages that read every block whole (hashing, early token counts, writing
 * the document) read them part by part: the file's text stays the only copy.
 * A block whose text is no longer the one joined (a plugin replaced it) is
 * read as it is. Parts never split a surrogate pair, so each part's UTF-8 is
 * that part of the join's.
 *
 * @module
 */

import type { RenderedFile } from "./types.ts";
import { joinedFileBlock } from "./helpers.ts";
import { textBacking } from "./lazy_text.ts";

export { joinFileBlock } from "./helpers.ts";

/** What a text was joined from (the joined text, compared by identity with the block's). */
interface Joined {
  text: string;
  parts: string[];
}

/** On a block (copied with it by object spread, left out of JSON). */
const PARTS: unique symbol = Symbol("slop.blockParts");

/**
 * Keep with `block` the parts its text was joined from, when its text is
 * still `file`'s block as joined; returns whether it was.
 *
 * @example
 * ```ts
 * import { joinFileBlock, takeParts, textParts } from "./block_parts.ts";
 * const file = { path: "a.py" } as import("./types.ts").RenderedFile;
 * const block = { text: joinFileBlock(file, ["# a\n", "x = 1\n", ""]) };
 * takeParts(block, file); // true
 * textParts(block); // ["# a\n", "x = 1\n", ""]
 * ```
 */
export function takeParts(block: { text: string }, file: RenderedFile): boolean {
  // A lazy file block reads its parts itself (`textParts`).
  if (textBacking(block)) return true;
  const joined = joinedFileBlock(file);
  if (!joined || joined.text !== block.text) return false;
  (block as { [PARTS]?: Joined })[PARTS] = joined;
  return true;
}

/**
 * The parts of a block's text, or the text alone when they are not known
 * (or its text was replaced since).
 *
 * @example
 * ```ts
 * import { textParts } from "./block_parts.ts";
 * textParts({ text: "x" }); // ["x"]
 * ```
 */
export function textParts(block: { text: string }): string[] {
  // A lazy file block (`lazyFileBlock`): its parts read again, the file's text from where it is kept.
  const lazy = textBacking(block)?.parts?.();
  if (lazy) return lazy;
  const joined = (block as { [PARTS]?: Joined })[PARTS];
  return joined && joined.text === block.text ? joined.parts : [block.text];
}
