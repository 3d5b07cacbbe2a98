/**
 * History compaction, as in the seed's compressing context manager: when a
 * discussion has more than `threshold` messages (a checkpoint counts as one),
 * all but the `keep` most recent are summarized by the provider into a
 * checkpoint, and the context shows the checkpoint then the rest verbatim.
 *
 * Checkpoints are replayed as if messages had arrived one by one, so they form
 * a chain that only ever grows: the first covers messages `1..threshold+1-keep`,
 * each next one summarizes the previous checkpoint plus the messages after it
 * once the discussion again exceeds the threshold. Adding a message never
 * invalidates an earlier checkpoint.
 *
 * Each checkpoint is stored in `<stateDir>/checkpoints/<sha256>.json` as
 * `{num_messages_compressed, summary}`, keyed by the sha256 of the messages
 * it compressed; the history file is never modified. A rebuild reuses stored
 * checkpoints without asking the model; when the model cannot be reached the
 * last checkpoint of the chain that is stored is used, and the messages after
 * it are shown verbatim.
 *
 * @module
 */

import { sha256Hex, writeAtomic } from "../../pipeline/helpers.ts";
import { join } from "../../pipeline/paths.ts";
import type { CompleteFn, ResolvedConfig } from "../../pipeline/types.ts";
import type { HistoryEntry } from "./_history.ts";
import { readSettingText, readSettingTextSync, STATE_FILE_LIMIT } from "../../pipeline/helpers.ts";

/** The seed's summarizer prompt (overridden by the file at `compaction.prompt`). */
export const COMPACTION_PROMPT = "You are a context summarizer, creating MINIMAL conversation " +
  "digests which can be used to CONTINUE the conversation at a later date. TOKEN EFFICIENCY is " +
  "a HIGH PRIORITY. Summaries will only be seen by LLMs and should USE ANY AND ALL " +
  "ABBREVIATIONS to keep them as CONCISE as possible, while PRESERVING IMPORTANT DETAILS of the " +
  "CONVERSATION.";

/** The seed's checkpoint message prefix. */
const CHECKPOINT_PREFIX =
  "We are continuing an earlier conversation. The remainder of this message is a summary: ";

/** A stored checkpoint (the seed's snake_case keys). */
export interface Checkpoint {
  /** How many of the discussion's leading messages the summary covers. */
  num_messages_compressed: number;
  /** The summary. */
  summary: string;
}

/** The outcome of {@linkcode compactHistory}. */
export interface Compaction {
  /** The checkpoint in effect, if any. */
  checkpoint?: Checkpoint;
  /** sha256 key of the checkpoint in effect. */
  key?: string;
  /** Messages after the checkpoint, shown verbatim. */
  recent: HistoryEntry[];
  /** Model calls made by this build. */
  requests: number;
  /** Checkpoints of the chain the build needed but could not make. */
  missing: number;
  /** Why a checkpoint could not be made (the provider's error). */
  error?: string;
}

/** What {@linkcode compactHistory} needs besides the messages. */
export interface CompactionContext {
  /** The resolved config (`compaction`, `stateDir`, `provider`). */
  config: ResolvedConfig;
  /** Asks the provider. */
  complete: CompleteFn;
}

/**
 * The message counts after which each checkpoint of the chain is made, for a
 * discussion of `total` messages.
 *
 * @example
 * ```ts
 * import { checkpointBounds } from "./_compaction.ts";
 * checkpointBounds(81, 80, 24); // [57]
 * checkpointBounds(137, 80, 24); // [57, 113]
 * ```
 */
export function checkpointBounds(total: number, threshold: number, keep: number): number[] {
  const bounds: number[] = [];
  let covered = 0;
  for (;;) {
    // The first time the context (checkpoint + messages after it) exceeds the threshold.
    const head = covered ? 1 : 0;
    const trigger = covered + threshold - head + 1;
    if (trigger > total) return bounds;
    covered = trigger - keep;
    bounds.push(covered);
  }
}

/**
 * Compact a discussion: reuse stored checkpoints, make the missing ones
 * through the provider, fall back to the last stored one when it fails.
 *
 * @example
 * ```ts
 * import { compactHistory } from "./_compaction.ts";
 * // const { checkpoint, recent } = await compactHistory(entries, { config, complete });
 * ```
 */
export async function compactHistory(
  entries: HistoryEntry[],
  ctx: CompactionContext,
): Promise<Compaction> {
  const { threshold, keep } = ctx.config.compaction;
  const dir = join(ctx.config.stateDir, "checkpoints");
  let checkpoint: Checkpoint | undefined;
  let key: string | undefined;
  let requests = 0;
  const bounds = checkpointBounds(entries.length, threshold, keep);
  for (const [i, bound] of bounds.entries()) {
    const from = checkpoint?.num_messages_compressed ?? 0;
    const compressed = [
      ...(checkpoint ? [checkpointMessage(checkpoint)] : []),
      ...entries.slice(from, bound),
    ];
    const next = hashMessages(compressed);
    let found = readCheckpoint(dir, next);
    if (!found) {
      try {
        const summary = await summarize(compressed, ctx);
        requests++;
        found = { num_messages_compressed: bound, summary };
        await writeCheckpoint(dir, next, found);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          checkpoint,
          key,
          recent: entries.slice(checkpoint?.num_messages_compressed ?? 0),
          requests,
          missing: bounds.length - i,
          error: message,
        };
      }
    }
    checkpoint = found;
    key = next;
  }
  return {
    checkpoint,
    key,
    recent: entries.slice(checkpoint?.num_messages_compressed ?? 0),
    requests,
    missing: 0,
  };
}

/**
 * The seed's checkpoint message: a user message that carries the summary.
 *
 * @example
 * ```ts
 * import { checkpointMessage } from "./_compaction.ts";
 * checkpointMessage({ num_messages_compressed: 57, summary: "u asked X" }).role; // "User"
 * ```
 */
export function checkpointMessage(checkpoint: Checkpoint): { role: string; content: string } {
  return { role: "User", content: CHECKPOINT_PREFIX + checkpoint.summary };
}

/**
 * sha256 (hex) of messages in a canonical JSON form (`[role, content]` pairs,
 * strings as they are).
 *
 * @example
 * ```ts
 * import { hashMessages } from "./_compaction.ts";
 * hashMessages([{ role: "User", content: "hi" }]).length; // 64
 * ```
 */
export function hashMessages(entries: HistoryEntry[]): string {
  const canonical = entries.map((e) => typeof e === "string" ? e : [e.role, e.content]);
  return sha256Hex(JSON.stringify(canonical));
}

/** One message as the summarizer reads it. */
function transcriptLine(entry: HistoryEntry): string {
  return typeof entry === "string" ? entry.trim() : `${entry.role}: ${entry.content.trim()}`;
}

async function summarize(messages: HistoryEntry[], ctx: CompactionContext): Promise<string> {
  const system = await readPrompt(ctx.config.compaction.prompt);
  const prompt = `Summarize this conversation (${messages.length} messages):\n\n` +
    messages.map(transcriptLine).join("\n\n---\n\n");
  const summary = (await ctx.complete({ system, prompt, maxTokens: 2048 })).trim();
  if (!summary) throw new Error("The model returned an empty summary");
  return summary;
}

async function readPrompt(path: string): Promise<string> {
  try {
    const text = (await readSettingText(path, { textOnly: true })).trim();
    return text || COMPACTION_PROMPT;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return COMPACTION_PROMPT;
    throw new Error(`Cannot read the compaction prompt "${path}": ${(error as Error).message}`);
  }
}

function readCheckpoint(dir: string, key: string): Checkpoint | undefined {
  try {
    const data = JSON.parse(readSettingTextSync(join(dir, `${key}.json`), STATE_FILE_LIMIT));
    if (
      typeof data?.summary === "string" && Number.isInteger(data?.num_messages_compressed)
    ) {
      return { num_messages_compressed: data.num_messages_compressed, summary: data.summary };
    }
  } catch {
    // Missing or unreadable: made again.
  }
  return undefined;
}

async function writeCheckpoint(dir: string, key: string, checkpoint: Checkpoint): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await writeAtomic(join(dir, `${key}.json`), JSON.stringify(checkpoint, null, 2) + "\n");
}
