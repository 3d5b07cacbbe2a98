/**
 * One copy of each shown file's text: a file block holds its file's rendered
 * text (heading, fence, text, fence), so once the block is composed the
 * file's text is taken as a slice of the block's string (V8 keeps a slice of
 * a flat string as a view into it, not a copy). The file's own string, the
 * size of the project for `full` views, is then let go: without this, a
 * build holds every text twice from compose to the end. Content is
 * unchanged: a slice is only taken where the block holds the equal text.
 * Early token counts (`_precount.ts`) are moved onto the same strings.
 *
 * @module
 */

import type { Block, RenderedFile } from "./types.ts";
import { rebasePrecount } from "./_precount.ts";
import { takeParts, textParts } from "./_block_parts.ts";

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
 * const files = [{ path: "a.py", text }] as import("./types.ts").RenderedFile[];
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
    // `_block_parts.ts`), so there is nothing to share.
    if (takeParts(block, file) && textParts(block).includes(text)) continue;
    // Flattens the block's string (its bytes are made from it anyway) and finds the text in it.
    const at = block.text.indexOf(text);
    if (at < 0) continue;
    file.text = block.text.slice(at, at + text.length);
    moved.set(file.path, file.text);
  }
  if (moved.size) rebasePrecount(tokenizer, moved);
}
