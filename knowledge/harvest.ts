/**
 * The knowledge harvest: classify conversation files, estimate the input
 * tokens and cost (dry run, the default), and with `apply` ask the model to
 * distill each conversation into the category files, record every outcome
 * in the sha256-keyed ledger, reclaim (delete) only conversations whose
 * harvest succeeded and only with `reclaim`, then regenerate the digest.
 * With `harvest: false` and `reclaim`, conversations are deleted without
 * asking the model (`deleted-unharvested` in the ledger).
 *
 * A run is idempotent: a line a category file already has is not appended
 * again, and when writing the items fails halfway, the model's answer is kept
 * in the ledger entry (`pending`) and appended by the next run instead of a
 * new answer, so nothing is appended twice.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { CompleteFn, ResolvedConfig } from "../pipeline/types.ts";
import { createRegistry, registerUserPlugins, type Registry } from "../pipeline/registry.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { estimateTokens, inputPrice, summarizeTranscript } from "./estimate.ts";
import {
  type Conversation,
  findConversations,
  hashFile,
  readConversation,
} from "./_conversations.ts";
import { appendHarvest } from "./_append.ts";
import { basicScrubber, type SecretScrubber } from "./_secrets.ts";
import { type DigestResult, regenerateDigest } from "./digest.ts";
import {
  type Ledger,
  type LedgerEntry,
  type LedgerStatus,
  readLedger,
  writeLedger,
} from "./ledger.ts";
import {
  buildHarvestPrompt,
  HARVEST_MAX_ATTEMPTS,
  type HarvestInput,
  type HarvestItems,
  loadHarvestPrompt,
  parseHarvestJson,
} from "./prompt.ts";
import { ITEM_CATEGORIES, type ItemCategory } from "./store.ts";

export type { SecretScrubber } from "./_secrets.ts";
export { basicScrubber } from "./_secrets.ts";
export { inputPrice, splitTranscript, SUMMARY_CHUNK_BYTES } from "./estimate.ts";
export type { InputPrice } from "./estimate.ts";

/** Conversations above this size are summarized first. */
export const SUMMARIZE_THRESHOLD_BYTES = 64 * 1024;

/** Conversations above this size are kept and never sent. */
export const MAX_HARVEST_SOURCE_BYTES = 1024 * 1024;

/** The harvest prompt, relative to the config's folder. */
const HARVEST_PROMPT_FILE = "slop/prompts/harvest-conversation.md";

/**
 * What the harvest does with a conversation: `harvest`, `summarize` (then
 * harvest), `done` (the ledger already has it), `duplicate` (same bytes as
 * an earlier file of this run), `too-large`, `unreadable` (no message in a
 * format slop reads).
 */
export type HarvestAction =
  | "harvest"
  | "summarize"
  | "done"
  | "duplicate"
  | "too-large"
  | "unreadable";

/** One classified conversation. */
export interface PlannedConversation {
  /** Path for messages. */
  label: string;
  /** Absolute path. */
  path: string;
  /** sha256 of the bytes. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** What the harvest does with it. */
  action: HarvestAction;
  /** Estimated input tokens of the model calls (harvest and summarize only). */
  tokens: number;
  /** For `duplicate`: the label of the first file with the same bytes. */
  duplicateOf?: string;
  /** Why it is `unreadable`, or lines that were skipped. */
  problems: string[];
}

/** The outcome of one conversation under `apply`. */
export interface HarvestOutcome {
  /** Path for messages. */
  label: string;
  /** Ledger status, or `skipped` for conversations not sent. */
  status: LedgerStatus | "skipped";
  /** Items appended per category. */
  items?: Record<ItemCategory, number>;
  /** Why it failed. */
  error?: string;
}

/** Options of {@linkcode harvestKnowledge}. */
export interface HarvestOptions {
  /** Ask the model and write (otherwise a dry run). @default {false} */
  apply?: boolean;
  /** With `apply`, delete conversations whose harvest succeeded. @default {false} */
  reclaim?: boolean;
  /**
   * `false`: ask no model; with `apply` and `reclaim`, delete the conversations
   * that would be harvested, recorded as `deleted-unharvested` (the seed's
   * `--no-harvest`). Too-large and unreadable files are kept. @default {true}
   */
  harvest?: boolean;
  /** The model call (`completer(registry, config)`); required with `apply`. */
  complete?: CompleteFn;
  /** Replaces secrets in prompts and knowledge lines. @default {basicScrubber(config.secrets.rules)} */
  scrub?: SecretScrubber;
  /** USD per million input tokens, for the estimate; unset: the provider's model table. */
  pricePerMillion?: number;
  /** The plugins, for the provider's model table. @default {the built-ins and `config.plugins`} */
  registry?: Registry;
  /** Progress lines (`harvested: a.jsonl`). */
  log?: (line: string) => void;
  /** The clock for ledger times. @default {() => new Date()} */
  now?: () => Date;
}

/** What {@linkcode harvestKnowledge} did or would do. */
export interface HarvestReport {
  /** Every conversation found, in path order, with its action. */
  plan: PlannedConversation[];
  /** Warnings: each `knowledge.conversations` glob that matches no file. */
  warnings: string[];
  /** Conversations per action. */
  counts: Record<HarvestAction, number>;
  /** Bytes of the conversations to send (harvest + summarize). */
  inputBytes: number;
  /** Estimated input tokens (o200k) of every model call. */
  inputTokens: number;
  /** Estimated cost in USD, when a price is known. */
  cost?: { usd: number; perMillion: number; model?: string };
  /** Whether `apply` ran. */
  applied: boolean;
  /** Whether the model is asked (`harvest` option; `false` for `--no-harvest`). */
  harvest: boolean;
  /** Outcomes, in path order (with `apply`). */
  outcomes: HarvestOutcome[];
  /** Items appended per category (with `apply`). */
  items: Record<ItemCategory, number>;
  /** Labels of deleted conversations, and their bytes. */
  reclaimed: { labels: string[]; bytes: number };
  /** With a dry run: conversations `--reclaim` would delete (already harvested). */
  reclaimable: { labels: string[]; bytes: number };
  /** Whether the prompt file was created by this run. */
  promptCreated: boolean;
  /** Absolute prompt path. */
  promptPath: string;
  /** Absolute ledger path. */
  ledgerPath: string;
  /** The digest regeneration (with `apply`). */
  digest?: DigestResult;
}

function emptyCounts(): Record<ItemCategory, number> {
  return Object.fromEntries(ITEM_CATEGORIES.map((c) => [c, 0])) as Record<ItemCategory, number>;
}

function classify(
  conversation: Conversation,
  ledger: Ledger,
  seen: Map<string, string>,
): { action: HarvestAction; duplicateOf?: string } {
  if (conversation.size > MAX_HARVEST_SOURCE_BYTES) return { action: "too-large" };
  const first = seen.get(conversation.sha256);
  if (first !== undefined) return { action: "duplicate", duplicateOf: first };
  const status = ledger.entries[conversation.sha256]?.status;
  if (status === "harvested" || status === "deleted-unharvested") return { action: "done" };
  if (!conversation.transcript) return { action: "unreadable" };
  if (conversation.size > SUMMARIZE_THRESHOLD_BYTES) return { action: "summarize" };
  return { action: "harvest" };
}

/**
 * Ask the model for one conversation's items: up to
 * {@linkcode HARVEST_MAX_ATTEMPTS} answers, the retry carrying the seed's
 * suffix. Throws when every answer is invalid or the call fails.
 */
async function askHarvest(
  complete: CompleteFn,
  input: HarvestInput,
): Promise<HarvestItems> {
  let lastError: unknown;
  for (let attempt = 0; attempt < HARVEST_MAX_ATTEMPTS; attempt++) {
    const prompt = buildHarvestPrompt(input, { retry: attempt > 0 });
    const answer = await complete({ prompt, maxTokens: 4096 });
    try {
      return parseHarvestJson(answer);
    } catch (error) {
      lastError = error;
    }
  }
  const detail = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(`Harvest output invalid after ${HARVEST_MAX_ATTEMPTS} attempts: ${detail}`);
}

async function sha256Of(path: string): Promise<string | undefined> {
  try {
    return await hashFile(path);
  } catch {
    return undefined;
  }
}

/**
 * Run the harvest over the config's `knowledge.conversations`.
 *
 * @example Dry run
 * ```ts
 * import { harvestKnowledge } from "./harvest.ts";
 * import { loadConfig } from "../pipeline/config.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const report = await harvestKnowledge(config);
 * console.log(report.counts, report.inputTokens);
 * ```
 */
export async function harvestKnowledge(
  config: ResolvedConfig,
  options: HarvestOptions = {},
): Promise<HarvestReport> {
  const base = config.configPath ? dirname(config.configPath) : config.root;
  const scrub = options.scrub ?? basicScrubber(config.secrets.rules);
  const promptPath = join(base, HARVEST_PROMPT_FILE);
  const apply = options.apply === true;
  const noHarvest = options.harvest === false;
  if (apply && !noHarvest && !options.complete) {
    throw new Error(`No model to ask: pass "complete" (the configured provider) to apply`);
  }
  // The prompt is written on first use: not when no model is asked.
  const { template, created } = await loadHarvestPrompt(promptPath, {
    create: apply && !noHarvest,
  });
  const run: HarvestRun = {
    config,
    dir: config.knowledge.dir,
    scrub,
    log: options.log ?? (() => {}),
    now: options.now ?? (() => new Date()),
    template,
    ledger: await readLedger(config.knowledge.dir),
    noHarvest,
  };
  const found = await planConversations(run, base);
  const report = planReport(run, found, { options, promptPath, created });
  if (!apply) {
    markReclaimable(run, report);
    return report;
  }
  const outcomes = await applyPlan(run, found, { complete: options.complete!, report });
  if (options.reclaim) await reclaim(run, { report, outcomes });
  report.digest = await regenerateDigest(run.dir);
  return report;
}

/** What one harvest run works with. */
interface HarvestRun {
  config: ResolvedConfig;
  /** `knowledge.dir`. */
  dir: string;
  scrub: SecretScrubber;
  log: (line: string) => void;
  now: () => Date;
  /** The harvest prompt's template. */
  template: string;
  /** The ledger as read, updated as the run goes. */
  ledger: Ledger;
  /** `harvest: false`: no model is asked. */
  noHarvest: boolean;
}

/** The conversations found, planned, and the scrubbed transcripts of those to send. */
interface FoundConversations {
  plan: PlannedConversation[];
  conversations: Conversation[];
  /** Each conversation's scrubbed transcript when it is sent, else "". */
  transcripts: string[];
  /** The indexes of the `knowledge.conversations` globs that match no file. */
  unmatched: number[];
}

/** Find, read and classify the conversations of `knowledge.conversations`, in path order. */
async function planConversations(run: HarvestRun, base: string): Promise<FoundConversations> {
  const { ledger, noHarvest, template } = run;
  const found: FoundConversations = { plan: [], conversations: [], transcripts: [], unmatched: [] };
  const seen = new Map<string, string>();
  for (
    const path of await findConversations(run.config.knowledge.conversations, base, found.unmatched)
  ) {
    const conversation = await readConversation(path, base, {
      maxBytes: MAX_HARVEST_SOURCE_BYTES,
    });
    const { action, duplicateOf } = classify(conversation, ledger, seen);
    if (!seen.has(conversation.sha256)) seen.set(conversation.sha256, conversation.label);
    const transcript = run.scrub(conversation.transcript).text;
    // No model call for the items of a run that failed to write them, nor with harvest: false.
    const asks = !noHarvest && !ledger.entries[conversation.sha256]?.pending;
    found.plan.push({
      label: conversation.label,
      path,
      sha256: conversation.sha256,
      bytes: conversation.size,
      action,
      tokens: asks
        ? await estimateTokens(action, { template, name: conversation.name, content: transcript })
        : 0,
      duplicateOf,
      problems: conversation.problems,
    });
    found.conversations.push(conversation);
    // Keep only the transcripts that will be sent.
    found.transcripts.push(action === "harvest" || action === "summarize" ? transcript : "");
  }
  return found;
}

/** The report of a plan before anything is applied: counts, input size, tokens and cost. */
function planReport(
  run: HarvestRun,
  { plan, unmatched }: FoundConversations,
  { options, promptPath, created }: {
    options: HarvestOptions;
    promptPath: string;
    created: boolean;
  },
): HarvestReport {
  const { config } = run;
  const globs = config.knowledge.conversations;
  const counts = Object.fromEntries(
    (["harvest", "summarize", "done", "duplicate", "too-large", "unreadable"] as const).map((
      a,
    ) => [a, plan.filter((p) => p.action === a).length]),
  ) as Record<HarvestAction, number>;
  const sent = plan.filter((p) => p.action === "harvest" || p.action === "summarize");
  const inputTokens = sent.reduce((n, p) => n + p.tokens, 0);
  const price = options.pricePerMillion !== undefined
    ? { perMillion: options.pricePerMillion, model: config.provider.model }
    : inputPrice(options.registry ?? pluginRegistry(config), config.provider);
  return {
    plan,
    warnings: unmatched.map((i) =>
      `No conversation matches "${globs[i]}" (knowledge.conversations[${i}])`
    ),
    counts,
    inputBytes: sent.reduce((n, p) => n + p.bytes, 0),
    inputTokens,
    cost: price && {
      usd: (inputTokens / 1_000_000) * price.perMillion,
      perMillion: price.perMillion,
      model: price.model,
    },
    applied: options.apply === true,
    harvest: !run.noHarvest,
    outcomes: [],
    items: emptyCounts(),
    reclaimed: { labels: [], bytes: 0 },
    reclaimable: { labels: [], bytes: 0 },
    promptCreated: created,
    promptPath,
    ledgerPath: join(run.dir, "ledger.json"),
  };
}

/** A dry run's list of the conversations `--reclaim` would delete. */
function markReclaimable(run: HarvestRun, report: HarvestReport): void {
  const { noHarvest } = run;
  // Copies of a conversation that --no-harvest deletes go with it (as --apply --reclaim does).
  const deleted = new Set<string>();
  for (const p of report.plan) {
    const copy = noHarvest && p.action === "duplicate" && deleted.has(p.sha256);
    if (reclaimable(p, run.ledger, noHarvest) || copy) {
      deleted.add(p.sha256);
      report.reclaimable.labels.push(p.label);
      report.reclaimable.bytes += p.bytes;
    }
  }
}

/** Harvest each planned conversation in turn, recording each in the ledger; the outcomes by path. */
async function applyPlan(
  run: HarvestRun,
  { plan, conversations, transcripts }: FoundConversations,
  { complete, report }: { complete: CompleteFn; report: HarvestReport },
): Promise<Map<string, HarvestOutcome>> {
  const { ledger, log, now, noHarvest } = run;
  const outcomes = new Map<string, HarvestOutcome>();
  for (const [i, p] of plan.entries()) {
    if (p.action === "too-large") {
      ledger.entries[p.sha256] = ledgerEntry(p, "too-large", now());
      await writeLedger(run.dir, ledger);
      report.outcomes.push({ label: p.label, status: "too-large" });
      log(`kept (too large): ${p.label}`);
      continue;
    }
    if (p.action !== "harvest" && p.action !== "summarize" || noHarvest) {
      const outcome: HarvestOutcome = { label: p.label, status: "skipped" };
      report.outcomes.push(outcome);
      outcomes.set(p.path, outcome);
      if (noHarvest && (p.action === "harvest" || p.action === "summarize")) continue;
      log(
        p.action === "done"
          ? `already harvested: ${p.label}`
          : p.action === "duplicate"
          ? `duplicate of ${p.duplicateOf}: ${p.label}`
          : `skipped (${p.problems[0] ?? "no conversation messages"}): ${p.label}`,
      );
      continue;
    }
    const outcome = await harvestOne(run, p, {
      complete,
      conversation: conversations[i],
      transcript: transcripts[i],
    });
    if (outcome.items) { for (const c of ITEM_CATEGORIES) report.items[c] += outcome.items[c]; }
    report.outcomes.push(outcome);
    await writeLedger(run.dir, ledger);
  }
  return outcomes;
}

/** Ask the model for one conversation's items and append them; its outcome (in the ledger too). */
async function harvestOne(
  run: HarvestRun,
  p: PlannedConversation,
  { complete, conversation, transcript }: {
    complete: CompleteFn;
    conversation: Conversation;
    transcript: string;
  },
): Promise<HarvestOutcome> {
  const { ledger, scrub, now, log } = run;
  // The answer of a run that failed to write it: appended again, lines already there skipped.
  let items = ledger.entries[p.sha256]?.pending;
  const resumed = items !== undefined;
  try {
    if (!items) {
      const content = p.action === "summarize"
        ? scrub(await summarizeTranscript(complete, transcript)).text
        : transcript;
      items = scrubItems(
        await askHarvest(complete, { template: run.template, name: conversation.name, content }),
        scrub,
      );
      // Kept before writing: a run stopped halfway (even killed) resumes from this answer.
      ledger.entries[p.sha256] = ledgerEntry(p, "harvest-failed", now(), {
        error: "Stopped while appending the items",
        pending: items,
      });
      await writeLedger(run.dir, ledger);
    }
    const appended = await appendHarvest(items, {
      dir: run.dir,
      root: run.config.root,
      provenance: { source: conversation.name, date: conversation.date },
      scrub,
    });
    ledger.entries[p.sha256] = ledgerEntry(p, "harvested", now(), { items: appended });
    log(`harvested${resumed ? " (the last run's answer)" : ""}: ${p.label}`);
    return { label: p.label, status: "harvested", items: appended };
  } catch (error) {
    const message = scrub(error instanceof Error ? error.message : String(error)).text;
    ledger.entries[p.sha256] = ledgerEntry(p, "harvest-failed", now(), {
      error: message,
      pending: items,
    });
    log(`harvest failed: ${p.label}: ${message}`);
    return { label: p.label, status: "harvest-failed", error: message };
  }
}

/** Delete the conversations that may go (re-hashed first), recording each in the ledger. */
async function reclaim(
  run: HarvestRun,
  { report, outcomes }: { report: HarvestReport; outcomes: Map<string, HarvestOutcome> },
): Promise<void> {
  const { ledger, log, now } = run;
  for (const p of report.plan) {
    if (!reclaimable(p, ledger, run.noHarvest)) continue;
    // Delete only the bytes that were harvested (or planned): re-hash right before removing.
    if (await sha256Of(p.path) !== p.sha256) continue;
    await Deno.remove(p.path);
    const entry = ledger.entries[p.sha256];
    if (entry?.status === "harvested" || entry?.status === "deleted-unharvested") {
      entry.deleted = true;
      log(`reclaimed: ${p.label}`);
    } else {
      ledger.entries[p.sha256] = ledgerEntry(p, "deleted-unharvested", now(), { deleted: true });
      const outcome = outcomes.get(p.path);
      if (outcome) outcome.status = "deleted-unharvested";
      log(`reclaimed without a harvest: ${p.label}`);
    }
    report.reclaimed.labels.push(p.label);
    report.reclaimed.bytes += p.bytes;
  }
  await writeLedger(run.dir, ledger);
}

/**
 * Whether `reclaim` deletes a conversation: its content was harvested; with
 * `harvest: false`, also one that would be harvested or was reclaimed
 * unharvested before. Too-large and unreadable files are always kept.
 */
/**
 * A ledger entry for a planned conversation, its keys in the order of
 * {@linkcode LedgerEntry} (the ledger file's bytes depend on it); `deleted`
 * defaults to false, absent `items`, `error` and `pending` are left out.
 */
function ledgerEntry(
  p: PlannedConversation,
  status: LedgerStatus,
  at: Date,
  more: Partial<Pick<LedgerEntry, "items" | "deleted" | "error" | "pending">> = {},
): LedgerEntry {
  return {
    path: p.path,
    status,
    at: at.toISOString(),
    ...(more.items ? { items: more.items } : {}),
    deleted: more.deleted ?? false,
    ...(more.error !== undefined ? { error: more.error } : {}),
    ...(more.pending ? { pending: more.pending } : {}),
  };
}

function reclaimable(p: PlannedConversation, ledger: Ledger, noHarvest: boolean): boolean {
  if (p.action === "too-large" || p.action === "unreadable") return false;
  const status = ledger.entries[p.sha256]?.status;
  if (status === "harvested") return true;
  if (!noHarvest) return false;
  return status === "deleted-unharvested" || p.action === "harvest" || p.action === "summarize";
}

/** The items with every text field scrubbed (they may be kept in the ledger). */
function scrubItems(items: HarvestItems, scrub: SecretScrubber): HarvestItems {
  const out = {} as HarvestItems;
  for (
    const [category, rows] of Object.entries(items) as Array<
      [ItemCategory, HarvestItems[ItemCategory]]
    >
  ) {
    out[category] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, typeof v === "string" ? scrub(v).text : v]),
      )
    );
  }
  return out;
}

function pluginRegistry(config: ResolvedConfig): Registry {
  const registry = createRegistry(defaultPlugins());
  registerUserPlugins(registry, config.plugins);
  return registry;
}
