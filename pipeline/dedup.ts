/**
 * Content dedup: large data URLs and base64 blobs are replaced by short
 * references (`[data:image/png;base64, 48213 bytes, sha256 ab12cd34ef56…]`),
 * the way the seed's file tools overwrite a data URL response with a compact
 * reference. A reference depends only on the content, so the document stays
 * byte-identical between runs. Files opt out with `dedup: false`.
 *
 * @module
 */

import type { FileEntry, ViewOutput } from "./types.ts";
import { dedupNote, dedupText } from "./_blob_dedup.ts";

export { DEDUP_MIN_CHARS, dedupNote, dedupText, mayDedup } from "./_blob_dedup.ts";
export type { DedupOptions, DedupReplacement, DedupResult } from "./_blob_dedup.ts";

/**
 * Dedup a view's output unless the file's entry opts out (`dedup: false`);
 * each replacement adds a manifest note.
 *
 * @example
 * ```ts
 * import { dedupOutput } from "./dedup.ts";
 * dedupOutput({ text: "short" }, { path: "a.md" }); // { text: "short" }
 * ```
 */
export function dedupOutput(out: ViewOutput, entry: FileEntry): ViewOutput {
  if (entry.dedup === false) return out;
  const { text, replacements } = dedupText(out.text);
  if (!replacements.length) return out;
  return { ...out, text, notes: [...(out.notes ?? []), ...replacements.map((r) => dedupNote(r))] };
}
