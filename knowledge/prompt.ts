/**
 * The harvest prompt (user-editable, `slop/prompts/harvest-conversation.md`,
 * created on first use), the retry suffix, and the strict parser of the
 * model's JSON answer (a code fence is tolerated, nothing else).
 *
 * @module
 */

import { ITEM_CATEGORIES, type ItemCategory } from "./store.ts";
import { writeText } from "./store.ts";
import { readSettingText } from "../pipeline/helpers.ts";

/** Attempts per conversation when the answer is not valid JSON. */
export const HARVEST_MAX_ATTEMPTS = 2;

/** Appended to the prompt on the retry. */
export const RETRY_SUFFIX =
  "\nYour previous reply was not valid JSON. Return only the JSON object.\n";

/** The prompt written to `slop/prompts/harvest-conversation.md` on first use. */
export const DEFAULT_HARVEST_PROMPT = `# Harvest durable knowledge from a slop conversation

You are given one conversation (or a summary of one). Extract only knowledge that
stays useful after this conversation is deleted. Return only JSON in exactly this
form (no prose, no markdown fence):

{
  "facts": [{"statement": "...", "detail": ""}],
  "decisions": [{"statement": "...", "detail": "why"}],
  "tasks_done": [{"statement": "...", "detail": ""}],
  "tasks_open": [{"statement": "...", "detail": ""}],
  "questions": [{"statement": "...", "detail": ""}],
  "playbooks": [{"name": "...", "steps": "..."}],
  "files": [{"path": "/absolute/path/seen/in/the/conversation", "note": "..."}]
}

Category rules:
- facts: durable statements about systems, repositories, tools, environments, or
  constraints that were learned, not assumed.
- decisions: choices that were made, with the why in \`detail\`.
- tasks_done: concrete work completed in this conversation.
- tasks_open: work that was started, planned, or requested but not finished.
- questions: questions raised and never answered.
- playbooks: command sequences or processes that worked and are reusable; \`steps\`
  is the runnable sequence.
- files: a note tied to one specific file path (use the absolute path seen in
  the conversation).

General rules:
- Empty arrays are valid and expected: most conversations contain nothing durable.
  Do not invent items to fill categories.
- One item per distinct piece of knowledge; keep \`statement\` to one sentence.
- \`detail\` is optional context; omit it or use "" when the statement stands alone.
- Do not include conversation mechanics, tool output noise, retries, or one-off
  trivia (timestamps, token counts, transient errors).
- Never copy secrets (API keys, tokens, passwords, private keys) into any item.
`;

/** The prompt used to shrink a conversation above the summarize threshold, one part at a time. */
export const SUMMARY_PROMPT = `Summarize this part of a conversation for a later knowledge harvest.
Keep every durable fact, decision (with its reason), finished and unfinished task, unanswered
question, reusable command sequence and file path; drop chatter, tool output noise and secrets.
Answer in plain prose or bullets, no preamble.
`;

/**
 * Read the harvest prompt, writing the default first when the file is
 * missing. Resolves to the template text (trimmed) and whether it was created.
 *
 * @example
 * ```ts
 * import { loadHarvestPrompt } from "./prompt.ts";
 * // const { template } = await loadHarvestPrompt("slop/prompts/harvest-conversation.md");
 * ```
 */
export async function loadHarvestPrompt(
  path: string,
  options: { create?: boolean } = {},
): Promise<{ template: string; created: boolean }> {
  try {
    // Without waiting on a FIFO, and refused when binary: its text goes to a model.
    return { template: (await readSettingText(path, { textOnly: true })).trim(), created: false };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (options.create !== false) await writeText(path, DEFAULT_HARVEST_PROMPT);
  return { template: DEFAULT_HARVEST_PROMPT.trim(), created: options.create !== false };
}

/** What a harvest prompt is made of. */
export interface HarvestInput {
  /** The prompt template (the prompt file's text). */
  template: string;
  /** The conversation's name. */
  name: string;
  /** The transcript, or the summary of a long one. */
  content: string;
}

/**
 * The prompt for one conversation; on a retry the seed's suffix is appended.
 *
 * @example
 * ```ts
 * import { buildHarvestPrompt } from "./prompt.ts";
 * buildHarvestPrompt({ template: "Extract knowledge.", name: "chat-1", content: "User: hi" }, {
 *   retry: true,
 * });
 * ```
 */
export function buildHarvestPrompt(
  input: HarvestInput,
  options: { retry?: boolean } = {},
): string {
  const { template, name, content } = input;
  const prompt = `${template}\n\n## Conversation: ${name}\n\n${content.trim()}\n`;
  return options.retry ? prompt + RETRY_SUFFIX : prompt;
}

/** The parsed answer: one list per category (an absent or non-list category is empty). */
export type HarvestItems = Record<ItemCategory, Array<Record<string, unknown>>>;

const FENCE = /^```[A-Za-z]*[ \t]*\n([\s\S]*?)\n?```$/;

/**
 * Parse the model's answer: strict JSON, one surrounding code fence
 * tolerated. Throws `SyntaxError` on invalid JSON and `TypeError` when the
 * value is not an object. Items that are plain strings become
 * `{ statement }`; other non-object items are dropped.
 *
 * @example
 * ```ts
 * import { parseHarvestJson } from "./prompt.ts";
 * const fence = "`".repeat(3);
 * parseHarvestJson(`${fence}json\n{"facts":["x"]}\n${fence}`).facts; // [{ statement: "x" }]
 * ```
 */
export function parseHarvestJson(text: string): HarvestItems {
  let stripped = text.trim();
  const fence = FENCE.exec(stripped);
  if (fence) stripped = fence[1].trim();
  const payload = JSON.parse(stripped);
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
    throw new TypeError("The harvest output is not a JSON object");
  }
  return harvestItems(payload);
}

/**
 * The items of a harvest's JSON object, every category present: a string row is a statement, a
 * row that is no object is dropped. The model's answer and the ledger's `pending` items (which a
 * hand edit or another version may have left in another shape) both pass through it.
 *
 * @example
 * ```ts
 * import { harvestItems } from "./prompt.ts";
 * harvestItems({ facts: ["x", 5] }).facts; // [{ statement: "x" }]
 * ```
 */
export function harvestItems(payload: object): HarvestItems {
  const out = {} as HarvestItems;
  for (const category of ITEM_CATEGORIES) {
    const rows = (payload as Record<string, unknown>)[category];
    out[category] = Array.isArray(rows)
      ? rows.flatMap((row) =>
        typeof row === "string"
          ? [{ statement: row }]
          : row && typeof row === "object" && !Array.isArray(row)
          ? [row as Record<string, unknown>]
          : []
      )
      : [];
  }
  return out;
}
