/**
 * One copy of each shown file's text: a file block holds its file's rendered
 * text (heading, fence, text, fence), so once the block is composed the
 * file's text is taken as a slice of the block's string (V8 keeps a slice of
 * a flat string as a view into it, not a copy). The file's own string, the
 * size of the project for `full` views, is then let go: without this, a
 * build holds every text twice from compose to the end. Content is
 * unchanged: a slice is only taken where the block holds the equal text.
 * Early token counts (`precount.ts`) are moved onto the same strings.
 *
 * @module
 */

import type { Block, RenderedFile } from "../pipeline/types.ts";
import { rebasePrecount } from "./precount.ts";
import { derived } from "../pipeline/helpers.ts";
import { takeParts, textParts } from "../pipeline/block_parts.ts";

/** Shorter texts are copied by a slice anyway (and cost little twice). */
const MIN_CHARS = 1024;

/**
 * Replace each shown file's `text` with the equal slice of its block's text
 * (same characters, one copy in memory), and move the early counts of
 * `tokenizer` onto them.
 *
 * @example
 * ```ts
 * import { shareFileTexts } from "./_share_text.ts";
 * const text = "x = 1\n".repeat(200);
 * const files = [{ path: "a.py", text }] as import("../pipeline/types.ts").RenderedFile[];
 * const blocks = [{ id: "files:a.py", section: "files", stability: "stable" as const, source: "a.py", text: `### a.py\n\n\`\`\`python\n${text}\`\`\`\n\n` }];
 * shareFileTexts(blocks, files, "o200k");
 * files[0].text === text; // true (equal characters)
 * ```
 */
export function shareFileTexts(blocks: Block[], files: RenderedFile[], tokenizer: string): void {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const moved = new Map<string, string>();
  for (const block of blocks) {
    if (block.section !== "files" || block.source === undefined) continue;
    const file = byPath.get(block.source);
    const text = file?.text;
    if (!file || text === undefined || text.length < MIN_CHARS) continue;
    // Joined from the file's text and kept as its parts: the text is not copied (see
    // `block_parts.ts`), so there is nothing to share.
    if (takeParts(block, file) && textParts(block).includes(text)) continue;
    // A resident process (slop watch) takes the slice of an unchanged block once: the same
    // string each build, so what is derived from the file's text later is found, not recomputed.
    const shared = derived(block.text, `share\0${file.path}`, () => ({
      text,
      slice: sliceOf(block.text, text),
    }));
    const slice = shared.text === text ? shared.slice : sliceOf(block.text, text);
    if (slice === undefined) continue;
    file.text = slice;
    moved.set(file.path, file.text);
  }
  if (moved.size) rebasePrecount(tokenizer, moved);
}

/** The slice of `block` equal to `text`, if it holds it. */
function sliceOf(block: string, text: string): string | undefined {
  // Flattens the block's string (its bytes are made from it anyway) and finds the text in it.
  const at = block.indexOf(text);
  return at < 0 ? undefined : block.slice(at, at + text.length);
}
