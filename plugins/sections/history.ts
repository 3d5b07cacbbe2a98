/**
 * The `history` section: `## Discussion History`, one `### Discussion
 * Excerpt N` per message (`role: content`), joined by `---`. Volatile, so
 * it always sits after the stable prefix. Large data URLs and base64 blobs
 * in messages become short references, and a long discussion is compacted
 * into a checkpoint (see `_compaction.ts`).
 *
 * @module
 */

import type { SectionPlugin } from "../../pipeline/types.ts";
import { dedupNote, dedupText } from "../../pipeline/dedup.ts";
import { type HistoryEntry, loadHistory } from "./_history.ts";
import { type Checkpoint, checkpointMessage, compactHistory } from "./_compaction.ts";

/** Options of {@linkcode historySection} (none yet). */
export type HistoryOptions = Record<never, never>;

/**
 * Render history entries as the seed's excerpts.
 *
 * @example
 * ```ts
 * import { renderHistory } from "./history.ts";
 * renderHistory([{ role: "User", content: "hi" }]);
 * // "### Discussion Excerpt 1\n\nUser: hi"
 * ```
 */
export function renderHistory(entries: HistoryEntry[], start = 1): string {
  return entries.map((entry, i) => {
    const text = typeof entry === "string"
      ? entry.trim()
      : `${entry.role || "Unknown"}: ${entry.content.trim()}`;
    return `### Discussion Excerpt ${start + i}\n\n${text}`;
  }).join("\n\n---\n\n");
}

/**
 * The `history` section plugin.
 *
 * @example
 * ```ts
 * import { historySection } from "./history.ts";
 * historySection().name; // "slop:history"
 * ```
 */
export function historySection(_options: HistoryOptions = {}): SectionPlugin {
  return {
    kind: "section",
    name: "slop:history",
    async compose(state, ctx) {
      const loaded = await loadHistory(state.config, ctx.warn);
      if (!loaded.length) return [];
      const notes: string[] = [];
      const entries = loaded.map((entry, i) => {
        const deduped = dedupText(typeof entry === "string" ? entry : entry.content);
        if (!deduped.replacements.length) return entry;
        notes.push(...deduped.replacements.map((r) => dedupNote(r, `message ${i + 1}, `)));
        return typeof entry === "string" ? deduped.text : { ...entry, content: deduped.text };
      });
      let body = renderHistory(entries);
      const { compaction } = state.config;
      if (compaction.enabled && entries.length > compaction.threshold) {
        const result = await compactHistory(entries, {
          config: state.config,
          complete: ctx.complete,
        });
        const covered = result.checkpoint?.num_messages_compressed ?? 0;
        if (result.error) {
          ctx.warn(
            `History compaction: cannot make a checkpoint (${result.error}): ` +
              (result.checkpoint
                ? `used the last stored checkpoint (messages 1-${covered})`
                : "no stored checkpoint") +
              `; ${result.recent.length} messages shown verbatim`,
          );
        }
        if (result.checkpoint) {
          const how = result.error ? "last stored" : result.requests ? "made" : "reused";
          notes.push(
            `compaction: checkpoint of messages 1-${covered} (${how}, sha256 ${
              result.key!.slice(0, 12)
            }…); ${result.recent.length} messages verbatim`,
          );
          const recent = result.recent.length ? [renderHistory(result.recent, covered + 1)] : [];
          body = [renderCheckpoint(result.checkpoint), ...recent].join("\n\n---\n\n");
        }
      }
      return [{
        id: "history",
        section: "history",
        stability: "volatile",
        text: `## Discussion History\n\n${body}\n\n`,
        ...(notes.length ? { notes } : {}),
      }];
    },
  };
}

/**
 * A checkpoint as the first excerpt: the seed's user message that carries
 * the summary of messages 1-N.
 *
 * @example
 * ```ts
 * import { renderCheckpoint } from "./history.ts";
 * renderCheckpoint({ num_messages_compressed: 57, summary: "u: fix X; ai: done" });
 * // "### Discussion Checkpoint (Excerpts 1-57)\n\nUser: We are continuing ..."
 * ```
 */
export function renderCheckpoint(checkpoint: Checkpoint): string {
  const message = checkpointMessage(checkpoint);
  return `### Discussion Checkpoint (Excerpts 1-${checkpoint.num_messages_compressed})\n\n` +
    `${message.role}: ${message.content}`;
}
