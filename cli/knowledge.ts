/**
 * `slop knowledge digest` and `slop knowledge harvest [--apply] [--reclaim] [--no-harvest]`.
 *
 * @module
 */

import { flagNumber } from "./_flags.ts";
import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { createRegistry, freeze, registerUserPlugins } from "../pipeline/registry.ts";
import { completer } from "../pipeline/llm.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { regenerateDigest } from "../knowledge/digest.ts";
import { type HarvestAction, harvestKnowledge, type HarvestReport } from "../knowledge/harvest.ts";
import { ITEM_CATEGORIES } from "../knowledge/store.ts";
import { formatBytes, printError, printWarning } from "./_output.ts";
import { formatDollars } from "../pipeline/figures.ts";
import { shownPath } from "../pipeline/paths.ts";

/** Flags of `slop knowledge digest`. */
export interface DigestFlags {
  /** Config file (`--config`). */
  config?: string;
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
}

/** Flags of `slop knowledge harvest`. */
export interface HarvestFlags extends DigestFlags {
  /** Ask the model and write (`--apply`); otherwise a dry run. */
  apply?: boolean;
  /** Delete conversations whose harvest succeeded (`--reclaim`, with `--apply`). */
  reclaim?: boolean;
  /** `false` (`--no-harvest`): ask no model; with `--apply --reclaim`, delete unharvested. */
  harvest?: boolean;
  /** USD per million input tokens for the estimate (`--price`). */
  price?: string;
}

function fail(error: unknown): number {
  printError(error instanceof Error ? error.message : String(error));
  return error instanceof ConfigError ? 2 : 1;
}

/**
 * Run `slop knowledge digest`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runKnowledgeDigest } from "./knowledge.ts";
 * // const code = await runKnowledgeDigest({});
 * ```
 */
export async function runKnowledgeDigest(flags: DigestFlags): Promise<number> {
  try {
    const config = await loadConfig({ config: flags.config });
    const result = await regenerateDigest(config.knowledge.dir, { rules: config.secrets.rules });
    if (flags.quiet) return 0;
    if (result.status === "written") {
      const cut = result.truncated ? ", truncated to fit" : "";
      console.log(`slop: wrote ${shownPath(result.path)} (${formatBytes(result.bytes)}${cut})`);
    } else {
      const what = result.status === "deleted" ? `deleted ${shownPath(result.path)}` : "no digest";
      console.log(`slop: every section is empty: ${what} (no {knowledge} block)`);
    }
    return 0;
  } catch (error) {
    return fail(error);
  }
}

const ACTION_LABELS: Record<HarvestAction, string> = {
  harvest: "harvest",
  summarize: "summarize first",
  done: "already harvested",
  duplicate: "duplicate",
  "too-large": "too-large",
  unreadable: "unreadable",
};

/** What a dry run of `slop knowledge harvest` would do: each conversation, the cost, the reclaim. */
function dryRunLines(report: HarvestReport): string[] {
  const lines: string[] = [];
  for (const p of report.plan) {
    const extra = p.action === "duplicate"
      ? `, same as ${p.duplicateOf}`
      : p.tokens
      ? `, ~${p.tokens} tokens`
      : p.action === "unreadable" && p.problems.length
      ? `, ${p.problems[0]}`
      : "";
    lines.push(`  ${ACTION_LABELS[p.action]}: ${p.label} (${formatBytes(p.bytes)}${extra})`);
  }
  const cost = report.cost
    ? `, ~${formatDollars(report.cost.usd)} at $${report.cost.perMillion} per million input tokens`
    : ", cost unknown: pass --price USD_PER_MILLION";
  lines.push(
    report.harvest
      ? `harvest candidates: ${
        formatBytes(report.inputBytes)
      } (~${report.inputTokens} input tokens${cost})`
      : `harvest candidates: ${formatBytes(report.inputBytes)} (nothing is sent: --no-harvest)`,
  );
  lines.push(
    `reclaim candidates: ${report.reclaimable.labels.length} (${
      formatBytes(report.reclaimable.bytes)
    }; deleted only with --apply --reclaim${
      report.harvest ? "" : ", without a harvest for those not harvested yet"
    })`,
  );
  lines.push(report.harvest ? "dry run; pass --apply to harvest" : "dry run; nothing is sent");
  return lines;
}

/**
 * The human report of a harvest (dry run or applied).
 */
function harvestText(report: HarvestReport): string {
  const lines: string[] = [];
  const counts = (Object.keys(ACTION_LABELS) as HarvestAction[])
    .map((a) => `${ACTION_LABELS[a]}: ${report.counts[a]}`).join(", ");
  lines.push(`conversations: ${report.plan.length} (${counts})`);
  if (!report.applied) return [...lines, ...dryRunLines(report)].join("\n");
  const failed = report.outcomes.filter((o) => o.status === "harvest-failed").length;
  if (failed) lines.push(`harvest failed: ${failed} (kept; run again to retry)`);
  const unharvested = report.outcomes.filter((o) => o.status === "deleted-unharvested").length;
  lines.push(
    `reclaimed: ${report.reclaimed.labels.length} (${formatBytes(report.reclaimed.bytes)}` +
      `${unharvested ? `, ${unharvested} without a harvest` : ""})`,
  );
  lines.push(
    `harvested items: ${ITEM_CATEGORIES.map((c) => `${c}:${report.items[c]}`).join(", ")}`,
  );
  if (report.promptCreated) {
    lines.push(`prompt: ${shownPath(report.promptPath)} (created; edit it)`);
  }
  const digest = report.digest;
  if (digest) {
    lines.push(
      digest.status === "written"
        ? `digest: ${shownPath(digest.path)} (${formatBytes(digest.bytes)})`
        : "digest: none (every section is empty)",
    );
  }
  lines.push(`ledger: ${shownPath(report.ledgerPath)}`);
  return lines.join("\n");
}

/**
 * Run `slop knowledge harvest`; resolves to the exit code (1 when a
 * conversation's harvest failed).
 *
 * @example
 * ```ts
 * import { runKnowledgeHarvest } from "./knowledge.ts";
 * // const code = await runKnowledgeHarvest({ apply: false });
 * ```
 */
export async function runKnowledgeHarvest(flags: HarvestFlags): Promise<number> {
  let price: number | undefined;
  if (flags.price !== undefined) {
    price = flagNumber(flags.price, { fraction: true });
    if (!Number.isFinite(price) || price < 0) {
      printError(`Invalid --price "${flags.price}": expected USD per million input tokens`);
      return 2;
    }
  }
  if (flags.harvest === false && flags.apply && !flags.reclaim) {
    printError(
      `--no-harvest deletes conversations without harvesting them: pass --reclaim with --apply to confirm`,
    );
    return 2;
  }
  if (flags.reclaim && !flags.apply) {
    printError(`--reclaim deletes only with --apply; showing the dry run`);
  }
  let report: HarvestReport;
  try {
    const config = await loadConfig({ config: flags.config });
    if (!config.knowledge.conversations.length) {
      const problem = `set "knowledge.conversations" to globs of conversation files`;
      // Without a config file, one sentence says so and how to make one.
      throw config.configPath
        ? new ConfigError(shownPath(config.configPath), [`No conversations to harvest: ${problem}`])
        : new ConfigError("zero-config", [
          "No conversations to harvest without a config file: `slop init` writes one, where you " +
          problem,
        ], { alone: true });
    }
    // Asking with no provider would only record a failed harvest per conversation.
    if (flags.apply && flags.harvest !== false && !config.provider.name) {
      throw new ConfigError(config.configPath ? shownPath(config.configPath) : "zero-config", [
        `No provider to harvest with: set "provider.name" (or pass --no-harvest --apply --reclaim ` +
        `to delete the conversations unharvested)`,
      ]);
    }
    const registry = createRegistry(defaultPlugins());
    registerUserPlugins(registry, config.plugins);
    freeze(registry);
    report = await harvestKnowledge(config, {
      apply: flags.apply,
      reclaim: flags.reclaim,
      harvest: flags.harvest,
      complete: flags.apply && flags.harvest !== false ? completer(registry, config) : undefined,
      pricePerMillion: price,
      registry,
      log: flags.quiet ? undefined : (line) => console.log(line),
    });
  } catch (error) {
    return fail(error);
  }
  if (!flags.quiet) {
    console.log(harvestText(report));
    for (const w of report.warnings) printWarning(w);
  }
  return report.outcomes.some((o) => o.status === "harvest-failed") ? 1 : 0;
}
