/**
 * The `history` section: `## Discussion History`, one `### Discussion
 * Excerpt N` per message (`role: content`), joined by `---`. Volatile, so
 * it always sits after the stable prefix. Large data URLs and base64 blobs
 * in messages become short references, and a long discussion is compacted
 * into a checkpoint (see `_compaction.ts`). Three blocks: the heading, the
 * checkpoint in effect and the live tail, so a new message leaves the first
 * two byte-identical.
 *
 * @module
 */

import type { Block, SectionPlugin } from "../../pipeline/types.ts";
import { dedupNote, dedupText } from "../../pipeline/helpers.ts";
import { type HistoryEntry, loadHistory } from "./_history.ts";

// The parser of history files, for the conversation harvest (`knowledge/`).
export { parseHistory } from "./_history.ts";
import { type Checkpoint, checkpointMessage, compactHistory } from "./_compaction.ts";
import { headingPath, nestedMarkdown } from "./_render.ts";
import { markdownLines, openingFence } from "../markdown_fences.ts";

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
    // A message's code block ends with it; a role is one line.
    const text = nestedMarkdown(
      typeof entry === "string"
        ? entry.trim()
        : said(headingPath(entry.role || "Unknown"), entry.content.trim()),
    );
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
      let checkpointText: string | undefined;
      let recent: HistoryEntry[] = entries;
      let start = 1;
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
          checkpointText = renderCheckpoint(result.checkpoint);
          recent = result.recent;
          start = covered + 1;
        }
      }
      return historyBlocks({ checkpoint: checkpointText, recent, start, notes });
    },
  };
}

/** What {@linkcode historyBlocks} lays out. */
export interface HistoryParts {
  /** The rendered checkpoint in effect, if any. */
  checkpoint?: string;
  /** Messages shown verbatim (after the checkpoint). */
  recent: HistoryEntry[];
  /** Excerpt number of the first verbatim message. @default {1} */
  start?: number;
  /** Manifest notes, set on the heading block. */
  notes?: string[];
}

/**
 * The history as blocks: the heading (`history`), the checkpoint in effect
 * (`history:checkpoint`) and the live tail of verbatim messages
 * (`history:recent`). A new message only grows the tail, so the heading and
 * checkpoint blocks keep their bytes until the next checkpoint is made; the
 * bytes are those of the history rendered as one text.
 */
function historyBlocks(parts: HistoryParts): Block[] {
  const block = (id: string, text: string): Block => ({
    id,
    section: "history",
    stability: "volatile",
    text,
  });
  const notes = parts.notes?.length ? { notes: parts.notes } : {};
  const out: Block[] = [{
    ...block("history", "## Discussion History\n\n"),
    heading: true,
    ...notes,
  }];
  const hasRecent = parts.recent.length > 0;
  if (parts.checkpoint !== undefined) {
    out.push(block("history:checkpoint", parts.checkpoint + (hasRecent ? "\n\n---\n\n" : "\n\n")));
  }
  if (hasRecent) {
    out.push(block("history:recent", renderHistory(parts.recent, parts.start ?? 1) + "\n\n"));
  }
  return out;
}

/**
 * A checkpoint as the first excerpt: the seed's user message that carries
 * the summary of messages 1-N.
 */
function renderCheckpoint(checkpoint: Checkpoint): string {
  const message = checkpointMessage(checkpoint);
  return `### Discussion Checkpoint (Excerpts 1-${checkpoint.num_messages_compressed})\n\n` +
    nestedMarkdown(said(message.role, message.content));
}

/**
 * `role: content`, as the seed writes a message; a message that starts with a code fence starts
 * on the next line, where the fence opens a code block (after `role: ` it would be text, and its
 * closing fence would open one instead).
 */
function said(role: string, content: string): string {
  return `${role}:${openingFence(markdownLines(content)[0]) ? "\n" : " "}${content}`;
}
