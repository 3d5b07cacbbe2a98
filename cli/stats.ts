/**
 * `slop stats`: tokens by section and the top N files, per tokenizer
 * (o200k, cl100k), and the stable-prefix share, from the latest output or a
 * fresh build.
 *
 * @module
 */

import { flagNumber } from "./_flags.ts";
import { join } from "node:path";
import {
  computeStats,
  type ComputeStatsOptions,
  type ContextStats,
  TOKENIZERS,
} from "../report/stats.ts";
import { ConfigError } from "../pipeline/config.ts";
import { formatBytes, printError, printWarning } from "./_output.ts";
import { printablePath } from "../pipeline/helpers.ts";
import { formatCount } from "../pipeline/figures.ts";
import { latestOrBuild, type SourceFlags } from "./_latest.ts";
import { shownPath } from "../pipeline/paths.ts";
import { progressBar } from "./_progress.ts";

/** Flags of `slop stats`. */
export interface StatsFlags extends SourceFlags {
  /** How many files to list (`--top`). @default {10} */
  top?: string | number;
  /** Print the stats as JSON (`--json`). */
  json?: boolean;
}

/**
 * Run `slop stats`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runStats } from "./stats.ts";
 * // const code = await runStats({ top: 5 });
 * ```
 */
export async function runStats(flags: StatsFlags): Promise<number> {
  const top = flagNumber(flags.top ?? "10");
  if (!Number.isInteger(top) || top < 0) {
    printError(`Invalid --top "${flags.top}": expected a whole number`);
    return 2;
  }
  let stats: ContextStats;
  let from: string;
  // A build made now shows its progress on a terminal, as `slop build` does; a warning clears it.
  const bar = progressBar({ enabled: Deno.stderr.isTerminal() });
  const warn = (message: string) => {
    bar.clear();
    printWarning(message);
  };
  try {
    ({ stats, from } = await loadStats({ ...flags, onProgress: bar.update, warn }));
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError ? 2 : 1;
  } finally {
    bar.done();
  }
  if (flags.json) {
    console.log(JSON.stringify({ ...stats, files: stats.files.slice(0, top) }, null, 2));
  } else console.log(statsText(stats, { top, from }));
  return 0;
}

/** The stats of a document, and where it came from. */
export interface LoadedStats {
  /** Tokens by section and file, the stable prefix. */
  stats: ContextStats;
  /** The latest output's document (relative to here when under it), or "a fresh build (not written)". */
  from: string;
}

/**
 * The stats of the latest output, or of a fresh build (see `latestOrBuild`):
 * what `slop stats` prints and the MCP server's `token_stats` tool returns;
 * `options.onBlock` is told how far the count of its blocks got.
 *
 * @example
 * ```ts
 * import { loadStats } from "./stats.ts";
 * // const { stats, from } = await loadStats({ build: true });
 * ```
 */
export async function loadStats(
  flags: SourceFlags,
  options: ComputeStatsOptions = {},
): Promise<LoadedStats> {
  const loaded = await latestOrBuild(flags);
  const stats = await computeStats(loaded.document, loaded.manifest, options);
  // The manifest's output path is relative to the root; shown relative to here.
  const path = join(loaded.config.root, loaded.manifest.output ?? "");
  const from = loaded.from === "latest"
    ? shownPath(path, flags.cwd)
    : "a fresh build (not written)";
  return { stats, from };
}

/** Options of {@linkcode statsText}. */
export interface StatsTextOptions {
  /** Files to list. @default {10} */
  top?: number;
  /** Where the document came from, for the first line. */
  from?: string;
}

/**
 * The human table of `slop stats`.
 *
 * @example
 * ```ts
 * import { statsText } from "./stats.ts";
 * // console.log(statsText(stats, { top: 5 }));
 * ```
 */
export function statsText(stats: ContextStats, options: StatsTextOptions = {}): string {
  const top = options.top ?? 10;
  const lines: string[] = [];
  if (options.from) lines.push(`slop stats: ${options.from}`);
  const rows: string[][] = [["", "bytes", ...TOKENIZERS]];
  rows.push([
    "total",
    formatBytes(stats.bytes),
    ...TOKENIZERS.map((t) => formatCount(stats.total[t])),
  ]);
  rows.push([
    `stable prefix (${Math.round(stats.prefix.share * 100)}%)`,
    formatBytes(stats.prefix.bytes),
    ...TOKENIZERS.map((t) => formatCount(stats.prefix.tokens[t])),
  ]);
  for (const s of stats.sections) {
    rows.push([
      `  ${s.section} (${s.stability})`,
      formatBytes(s.bytes),
      ...TOKENIZERS.map((t) => formatCount(s.tokens[t])),
    ]);
  }
  lines.push(...table(rows));
  const shown = stats.files.filter((f) => f.bytes > 0).slice(0, top);
  if (shown.length) {
    lines.push("", `top ${shown.length} files by o200k tokens:`);
    lines.push(...table([
      ["path", "view", "bytes", ...TOKENIZERS],
      ...shown.map((f) => [
        printablePath(f.path),
        f.view,
        formatBytes(f.bytes),
        ...TOKENIZERS.map((t) => formatCount(f.tokens[t])),
      ]),
    ]));
  }
  if (stats.breakpoints.length) {
    lines.push("", `cache breakpoints at bytes ${stats.breakpoints.map(formatCount).join(", ")}`);
  }
  return lines.join("\n");
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ")
      .trimEnd()
  );
}
