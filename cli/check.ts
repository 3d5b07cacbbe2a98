/**
 * `slop check`: compare the stable prefix with the committed `slop.lock`;
 * `--update` re-pins, `--max-invalidated` sets a budget, `--determinism`
 * builds twice in shuffled, re-zoned processes and compares bytes.
 *
 * @module
 */

import { ConfigError, type ConfigFlags, displayPath, loadConfig } from "../pipeline/config.ts";
import { formatLock, type LockDiff, LockError } from "../pipeline/lock.ts";
import { checkPrefix, type PrefixCheck } from "../pipeline/pin.ts";
import { writeAtomic } from "../pipeline/emit.ts";
import { errorText } from "../pipeline/error_text.ts";
import { formatCount, formatDollars } from "../pipeline/figures.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import {
  countedRedactions,
  formatBytes,
  printError,
  printWarning,
  shownMessage,
} from "./_output.ts";
import { checkDeterminism } from "./_determinism.ts";
import { parentConfig, parentConfigWarning } from "./_parent_config.ts";
import { SecretsFoundError } from "../pipeline/secrets.ts";
import { PLAIN_EVERY_MS, progressBar } from "./_progress.ts";
import { commandErrorText } from "./_error_message.ts";

/** Flags of `slop check`. */
export interface CheckFlags {
  config?: string;
  stateDir?: string;
  persona?: string;
  preset?: string;
  /** Re-pin: write the current prefix to the lock. */
  update?: boolean;
  /** `PERCENT%` or `TOKENS`: pass when the invalidated prefix is within it. */
  maxInvalidated?: string;
  /** Build twice with shuffled listings and another TZ, compare bytes. */
  determinism?: boolean;
  /** Exit 1 when a secret is found, as `secrets.failOnSecret` (`--fail-on-secret`). */
  failOnSecret?: boolean;
  /** Print the result as JSON. */
  json?: boolean;
  quiet?: boolean;
}

/** A `--max-invalidated` budget. */
export interface Budget {
  /** `percent` of the pinned prefix tokens, or absolute `tokens`. */
  unit: "percent" | "tokens";
  /** The limit. */
  value: number;
}

/**
 * Parse `--max-invalidated`: `5%` or `2000`.
 *
 * @example
 * ```ts
 * import { parseBudget } from "./check.ts";
 * parseBudget("5%"); // { unit: "percent", value: 5 }
 * ```
 */
export function parseBudget(text: string): Budget | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]);
  if (m[2]) return value <= 100 ? { unit: "percent", value } : undefined;
  return Number.isInteger(value) ? { unit: "tokens", value } : undefined;
}

/**
 * Whether a divergence is within a budget.
 *
 * @example
 * ```ts
 * import { withinBudget } from "./check.ts";
 * // withinBudget(diff, { unit: "percent", value: 5 });
 * ```
 */
export function withinBudget(diff: LockDiff, budget: Budget): boolean {
  if (budget.unit === "tokens") return diff.invalidatedTokens <= budget.value;
  const share = diff.pinnedTokens ? (diff.invalidatedTokens / diff.pinnedTokens) * 100 : 0;
  return share <= budget.value;
}

/**
 * Run `slop check`; resolves to the exit code (0 match or within budget,
 * 1 mismatch or missing lock, 2 bad usage or config).
 *
 * @example
 * ```ts
 * import { runCheck } from "./check.ts";
 * // const code = await runCheck({ update: true });
 * ```
 */
export async function runCheck(flags: CheckFlags): Promise<number> {
  let budget: Budget | undefined;
  if (flags.maxInvalidated !== undefined) {
    budget = parseBudget(flags.maxInvalidated);
    if (!budget) {
      printError(
        `Invalid --max-invalidated "${flags.maxInvalidated}": expected PERCENT% (0-100) or TOKENS`,
      );
      return 2;
    }
  }
  const configFlags: ConfigFlags = {
    config: flags.config,
    stateDir: flags.stateDir,
    persona: flags.persona,
    preset: flags.preset,
  };
  // The report names the lock and blocks the config names: a key written there is redacted.
  const print = flags.json ? console.error : console.log;
  const say = flags.quiet ? () => {} : (line: string) => print(shownMessage(line));
  let check: PrefixCheck;
  let lockName: string;
  try {
    const config = await loadConfig(configFlags);
    if (flags.failOnSecret) config.secrets.failOnSecret = true;
    lockName = displayPath(config.lock, Deno.cwd());
    // Run in a folder below the project's config, the lock is this folder's, not the project's.
    const above = config.configPath || flags.config || flags.quiet ? "" : parentConfig(config.root);
    if (above) printWarning(parentConfigWarning(above));
    if (flags.determinism && !await buildsAgree(configFlags, say)) return 1;
    // Its build shows its progress as `slop build` does; a warning clears the bar first.
    const bar = progressBar({
      enabled: !flags.quiet && Deno.stderr.isTerminal(),
      plainEveryMs: flags.quiet ? 0 : PLAIN_EVERY_MS,
    });
    // The build's redactions counted in one line: `slop build` names them.
    const warnings = countedRedactions((message) => {
      bar.clear();
      printWarning(message);
    });
    check = await checkPrefix(config, {
      builtins: defaultPlugins(),
      onWarning: (w) => flags.quiet || warnings.onWarning(w),
      onProgress: bar.update,
    }).finally(bar.done);
    warnings.done();
    if (flags.update) return await pinLock(config.lock, { check, lockName, flags, say });
  } catch (error) {
    // The findings as data too, for a script or the GitHub Action (ci/action.ts).
    if (error instanceof SecretsFoundError && flags.json) {
      const secrets = error.findings.map(({ path, line, rule }) => ({ path, line, rule }));
      console.log(shownMessage(JSON.stringify({ secrets }, null, 2)));
    }
    printError(commandErrorText(error));
    // A lock that cannot be read is bad input, like a bad config.
    return error instanceof ConfigError || error instanceof LockError ? 2 : 1;
  }
  if (flags.json) console.log(JSON.stringify(checkSummary(check, lockName), null, 2));
  return verdict(check, { lockName, flags, budget, say });
}

/** `slop check --update`: write the lock this build made and say what it pinned; exit code 0. */
async function pinLock(
  lock: string,
  { check, lockName, flags, say }: {
    check: PrefixCheck;
    lockName: string;
    flags: CheckFlags;
    say: (line: string) => void;
  },
): Promise<number> {
  await writeAtomic(lock, formatLock(check.current)).catch((error) => {
    // The system's reason (`writeAtomic()`'s cause), with the lock as the messages name it.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = errorText(cause).replace(/ \(os error \d+\).*$/s, "");
    throw new Error(
      `Cannot write the lock "${lockName}": ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` +
        ": run slop check --update as a user who may write it and its folder",
    );
  });
  const t = check.current.total;
  say(
    `slop check: pinned ${check.current.lines.length} blocks, ${formatBytes(t.bytes)}, ` +
      `${formatCount(t.tokens)} ${check.current.tokenizer ?? "o200k"} tokens in ${lockName}` +
      (check.diff ? " (was different)" : ""),
  );
  // The comparison with the lock as it was, and the prefix now pinned.
  if (flags.json) console.log(JSON.stringify(checkSummary(check, lockName), null, 2));
  return 0;
}

/** Print what a prefix check found; the exit code. */
function verdict(
  check: PrefixCheck,
  { lockName, flags, budget, say }: {
    lockName: string;
    flags: CheckFlags;
    budget?: Budget;
    say: (line: string) => void;
  },
): number {
  if (!check.pinned && flags.determinism) {
    say(`slop check: no lock "${lockName}" yet: the prefix was not compared`);
    return 0;
  }
  const report = checkReport(check, lockName, updateCommand(flags));
  if (!check.pinned) {
    printError(report);
    return 1;
  }
  const diff = check.diff;
  if (!diff) {
    say(report);
    return 0;
  }
  const passing = budget && withinBudget(diff, budget);
  if (passing) {
    say(report);
    say(`within --max-invalidated ${flags.maxInvalidated}: passing`);
    return 0;
  }
  if (!flags.quiet) console.error(shownMessage(report));
  if (budget) console.error(`over --max-invalidated ${flags.maxInvalidated}`);
  return 1;
}

/** Build twice (shuffled listings, other TZ and locale); print where the two differ, if they do. */
async function buildsAgree(
  configFlags: ConfigFlags,
  say: (line: string) => void,
): Promise<boolean> {
  const report = await checkDeterminism(configFlags);
  if (!report.same) {
    printError(
      `Not deterministic: two builds differ at byte ${report.offset}` +
        (report.block
          ? ` (block "${report.block}"${report.view ? `, ${viewNote(report.view)}` : ""})`
          : "") +
        ` (${report.bytes[0]} vs ${report.bytes[1]} bytes)` +
        (report.changed
          ? `; first block whose content differs: "${report.changed.block}"` +
            (report.changed.view ? ` (${viewNote(report.changed.view)})` : "")
          : ""),
    );
    return false;
  }
  say(
    `slop check: deterministic: two builds with shuffled listings, other TZ and locale, ` +
      `no cache, gave the same ${formatBytes(report.bytes[0])}`,
  );
  return true;
}

/** What `slop check --json` prints (and the MCP server's `check_prefix` tool returns). */
export interface CheckSummary {
  /** The lock's path as shown (relative to the working directory when under it). */
  lock: string;
  /** Whether there is a committed lock. */
  pinned: boolean;
  /** The first difference, when the prefix differs from the lock. */
  diff?: LockDiff;
  /** What the invalidated tokens cost per provider, when it differs. */
  costs?: PrefixCheck["costs"];
  /** The current stable prefix: blocks, bytes, tokens (counted as the lock counts). */
  total: PrefixCheck["current"]["total"];
  /** The tokenizer of `total`'s and the diff's token counts: the lock's (`budget.tokenizer` when none). */
  tokenizer: PrefixCheck["tokenizer"];
}

/**
 * The plain data of a prefix check.
 *
 * @example
 * ```ts
 * import { checkSummary } from "./check.ts";
 * // checkSummary(await checkPrefix(config, options), "slop.lock").pinned; // true
 * ```
 */
export function checkSummary(check: PrefixCheck, lockName: string): CheckSummary {
  const { compared, pinned, diff, costs, tokenizer } = check;
  return { lock: lockName, pinned: !!pinned, diff, costs, total: compared.total, tokenizer };
}

/**
 * The human report of a prefix check against its lock: a match, a missing
 * lock, or the divergence with the cost of the next call per provider.
 *
 * @example
 * ```ts
 * import { checkReport } from "./check.ts";
 * // console.log(checkReport(check, "slop.lock"));
 * ```
 */
export function checkReport(
  check: PrefixCheck,
  lockName: string,
  update = "slop check --update",
): string {
  if (!check.pinned) {
    return `No lock "${lockName}": run \`${update}\` to pin the stable prefix`;
  }
  const t = check.pinned.total;
  const now = check.current.tokenizer ?? "o200k";
  // A lock pinned before `budget.tokenizer` changed: compared in its own counts.
  const recount = now === check.tokenizer
    ? ""
    : `\n  ${lockName} counts ${check.tokenizer} tokens, ` +
      `budget.tokenizer "${now}": run \`${update}\` to count in ${now}`;
  if (!check.diff) {
    return `slop check: the stable prefix matches ${lockName} ` +
      `(${check.pinned.lines.length} blocks, ${formatBytes(t.bytes)}, ${
        formatCount(t.tokens)
      } ${check.tokenizer} tokens)` + recount;
  }
  const report = describeDiff(check.diff, lockName, {
    pinnedBytes: t.bytes,
    update,
    tokenizer: check.tokenizer,
  });
  if (!check.costs) return report + recount;
  const cost = check.costs.map((c) =>
    `${c.provider.replace(/^slop:/, "")} ${c.model} ${formatDollars(c.dollars)}`
  );
  const lines = report.split("\n");
  lines.splice(5, 0, `  cost of the next call: +${cost.join(", +")}`);
  return lines.join("\n") + recount;
}

/**
 * The human report of a divergence.
 */
function describeDiff(
  diff: LockDiff,
  lockName: string,
  { pinnedBytes, update, tokenizer }: { pinnedBytes: number; update: string; tokenizer: string },
): string {
  const short = (h?: string) => h?.slice(0, 12) ?? "-";
  const bytes = (n?: number) => n === undefined ? "-" : formatCount(n);
  const where = diff.file
    ? `section ${diff.section}, file ${diff.file}`
    : `section ${diff.section}`;
  let what: string;
  const { before, after } = diff;
  if (diff.kind === "changed") {
    what = `content changed: sha256 ${short(before?.sha256)} -> ${short(after?.sha256)}, ` +
      `${bytes(before?.bytes)} -> ${bytes(after?.bytes)} bytes` +
      (before && after && before.index !== after.index ? `, now block #${after.index + 1}` : "");
  } else if (diff.kind === "added") {
    what = `added (not in the lock), sha256 ${short(after?.sha256)}, ${bytes(after?.bytes)} bytes`;
  } else if (diff.kind === "removed") {
    what = `removed (was block #${(before?.index ?? 0) + 1}, sha256 ${short(before?.sha256)})`;
  } else {
    what = `moved from block #${(before?.index ?? 0) + 1} to #${(after?.index ?? 0) + 1}`;
  }
  const share = diff.pinnedTokens
    ? ((diff.invalidatedTokens / diff.pinnedTokens) * 100).toFixed(1)
    : "0.0";
  const c = diff.counts;
  return [
    `slop check: the stable prefix differs from ${lockName}`,
    `  first divergent block: #${diff.index + 1} "${diff.id}" (${where})`,
    `  byte offset: ${formatCount(diff.offset)} of ${formatCount(pinnedBytes)} pinned bytes`,
    `  what changed: ${what}`,
    `  invalidated: ${formatCount(diff.invalidatedTokens)} of ${
      formatCount(diff.pinnedTokens)
    } ${tokenizer} prefix tokens (${share}%)`,
    `  all differences: ${c.changed} changed, ${c.added} added, ${c.removed} removed, ${c.moved} moved`,
    `when the change is intended, run \`${update}\` to re-pin and commit ${lockName} with it`,
  ].join("\n");
}

/**
 * The command that re-pins this check's lock: a persona's or preset's is its own.
 *
 * @example
 * ```ts
 * import { updateCommand } from "./check.ts";
 * updateCommand({ persona: "reviewer" }); // "slop check --persona reviewer --update"
 * ```
 */
export function updateCommand(flags: CheckFlags): string {
  const parts = ["slop check"];
  if (flags.config) parts.push(`--config ${flags.config}`);
  if (flags.persona) parts.push(`--persona ${flags.persona}`);
  if (flags.preset) parts.push(`--preset ${flags.preset}`);
  return [...parts, "--update"].join(" ");
}

/** The view of a differing block; a model's answer differs by nature when asked again. */
function viewNote(view: string): string {
  const model = view === "llm_summary"
    ? ": the model was asked again in the build without the cache"
    : "";
  return `view "${view}"${model}`;
}
