/**
 * The harvest ledger, `ledger.json` in the knowledge folder: one entry per
 * conversation content, keyed by the sha256 of its bytes, recording what
 * the harvest did. It gates deletion: only a `harvested` entry allows a
 * conversation to be reclaimed.
 *
 * @module
 */

import { join } from "node:path";
import { writeText } from "./store.ts";
import { readSettingText } from "../pipeline/helpers.ts";
import { type HarvestItems, harvestItems } from "./prompt.ts";

/** The ledger file name inside the knowledge folder. */
const LEDGER_FILE = "ledger.json";

/**
 * `harvested`: items appended, the conversation may be reclaimed.
 * `harvest-failed`: the model call, its answer or writing the items failed; kept, retried next run.
 * `deleted-unharvested`: reclaimed without a harvest (`--no-harvest --reclaim`).
 * `too-large`: above the size limit; kept, never sent.
 */
export type LedgerStatus = "harvested" | "harvest-failed" | "deleted-unharvested" | "too-large";

/** One ledger entry. */
export interface LedgerEntry {
  /** The conversation's path when it was recorded. */
  path: string;
  /** What happened. */
  status: LedgerStatus;
  /** When (ISO 8601, UTC). */
  at: string;
  /** Items appended per category (harvested entries). */
  items?: Record<string, number>;
  /** Whether the conversation file was deleted. */
  deleted: boolean;
  /** Why the harvest failed. */
  error?: string;
  /**
   * The model's items (secrets scrubbed) when writing them failed: the next
   * run appends these instead of asking again, and lines already written
   * are not appended twice.
   */
  pending?: HarvestItems;
}

/** The whole ledger. */
export interface Ledger {
  /** Entries by the sha256 (hex) of the conversation's bytes. */
  entries: Record<string, LedgerEntry>;
}

/**
 * Read the ledger (an empty one when the file is missing). Throws, naming
 * the file, when it is not a ledger.
 *
 * @example
 * ```ts
 * import { readLedger } from "./ledger.ts";
 * // const ledger = await readLedger("slop/knowledge");
 * ```
 */
export async function readLedger(dir: string): Promise<Ledger> {
  const path = join(dir, LEDGER_FILE);
  let text: string;
  try {
    // Without waiting on a FIFO or reading a device without end (`pipeline/_setting_file.ts`).
    text = await readSettingText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { entries: {} };
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `Cannot parse the ledger "${path}": ${error instanceof Error ? error.message : error}`,
    );
  }
  const entries = (value as Ledger | null)?.entries;
  if (!entries || typeof entries !== "object" || Array.isArray(entries)) {
    throw new Error(`Cannot read the ledger "${path}": expected { "entries": { ... } }`);
  }
  return { entries: sanePending(entries) };
}

/**
 * The entries with each `pending` answer in the shape a harvest appends, or dropped when it is no
 * object (the model is asked again): a `pending` of another shape failed every run with `Cannot
 * read properties of undefined (reading 'flatMap')`, and was kept for the next.
 */
function sanePending(entries: Record<string, LedgerEntry>): Record<string, LedgerEntry> {
  const out: Record<string, LedgerEntry> = {};
  for (const [key, entry] of Object.entries(entries)) {
    if (!entry || typeof entry !== "object" || entry.pending === undefined) {
      out[key] = entry;
      continue;
    }
    const { pending, ...rest } = entry;
    const shaped = pending && typeof pending === "object" && !Array.isArray(pending);
    out[key] = shaped ? { ...rest, pending: harvestItems(pending) } : rest;
  }
  return out;
}

/**
 * Write the ledger atomically, entries sorted by hash (so diffs stay small).
 *
 * @example
 * ```ts
 * import { writeLedger } from "./ledger.ts";
 * // await writeLedger("slop/knowledge", { entries: {} });
 * ```
 */
export async function writeLedger(dir: string, ledger: Ledger): Promise<void> {
  const entries: Record<string, LedgerEntry> = {};
  for (const key of Object.keys(ledger.entries).sort()) entries[key] = ledger.entries[key];
  await writeText(join(dir, LEDGER_FILE), `${JSON.stringify({ entries }, null, 2)}\n`);
}
