/**
 * `slop rank --task TEXT`: the project's files ranked for a task, each with
 * its score and why (matched terms, path terms, graph neighbours, co-change).
 * Files come from the build's own resolve, read and secret-redaction stages,
 * so the ranking sees what a build would show.
 *
 * @module
 */

import { ConfigError, loadConfig } from "../pipeline/config.ts";
import { resolveTargets } from "../pipeline/resolve.ts";
import { readTargets } from "../pipeline/read.ts";
import { redactMessage, redactSources, redactText } from "../pipeline/secrets.ts";
import { type RankedFile, rankFiles, type RankInput } from "../pipeline/rank.ts";
import { coChangeFromLog, recentHistory } from "../pipeline/co_change.ts";
import { skeletonViewMode } from "../plugins/view_modes/skeleton.ts";
import { rankNames } from "../pipeline/task.ts";
import { openCache } from "../pipeline/cache.ts";
import { buildCacheOptions } from "../pipeline/run.ts";
import type { ResolvedConfig, Store } from "../pipeline/types.ts";
import { printablePath } from "../pipeline/helpers.ts";
import { printError, printWarning } from "./_output.ts";
import { flagNumber, taskFlag } from "./_flags.ts";
import { taskFilePaths, underRoot } from "./_own_output.ts";

/** Flags of `slop rank`. */
export interface RankFlags {
  /** Config file (`--config`). */
  config?: string;
  /** The task, as text (`--task`). */
  task?: string;
  /** A file holding the task (`--task-file`). */
  taskFile?: string;
  /** Files to list (`--top`); 0 lists every file. @default {20} */
  top?: string | number;
  /** Print the ranking as JSON (`--json`). */
  json?: boolean;
  /** Working directory. @default {Deno.cwd()} */
  cwd?: string;
}

/** The usage error of a task that is missing, empty or unreadable. */
class TaskError extends Error {}

/**
 * The files a build of `config` would show, as ranking input: resolved (ignore
 * rules, excludes, secret files left out) and read once, secrets redacted.
 * Files listed but not read (lockfiles, generated files), binary and unreadable
 * files come without text and rank by their path only. `onWarning` hears the resolution's
 * warnings.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../pipeline/config.ts";
 * import { rankInputs } from "./rank.ts";
 * const config = await loadConfig({ cwd: Deno.cwd() });
 * const files = await rankInputs(config);
 * ```
 */
export async function rankInputs(
  config: ResolvedConfig,
  options: { onWarning?: (message: string) => void } = {},
): Promise<RankInput[]> {
  const { targets, warnings } = await resolveTargets(config);
  // As a build says them (git could not list the files, an entry matched nothing, ...).
  for (const warning of warnings) options.onWarning?.(redactMessage(warning));
  const sources = await readTargets(targets, config);
  // Redacted before ranking: terms never come from a secret's value.
  await redactSources(sources, config.secrets.rules);
  return sources.map((
    s,
  ) => (s.text !== undefined && !s.error && !s.skip
    ? { path: s.path, text: s.text }
    : { path: s.path })
  );
}

/**
 * Run `slop rank`; resolves to the exit code (2 for a usage or config error).
 *
 * @example
 * ```ts
 * import { runRank } from "./rank.ts";
 * // const code = await runRank({ task: "cookies are lost on redirect", top: 5 });
 * ```
 */
export async function runRank(flags: RankFlags): Promise<number> {
  const top = flagNumber(flags.top ?? "20");
  if (!Number.isInteger(top) || top < 0) {
    printError(`Invalid --top "${flags.top}": expected a whole number`);
    return 2;
  }
  const cwd = flags.cwd ?? Deno.cwd();
  let ranked: RankedFile[];
  let task: string;
  try {
    task = await rankTask(flags, cwd);
    const config = await loadConfig({ cwd, config: flags.config });
    // The task's own file (an issue.md beside the code) is the task, not a file to rank for it.
    const taskFile = underRoot(taskFilePaths(flags.taskFile, cwd), config.root);
    if (taskFile.length) config.exclude = [...config.exclude, ...taskFile];
    // The task is printed back (`--json`) and its terms are reasons: redacted as a file is.
    task = (await redactText(task, "task", { rules: config.secrets.rules })).text;
    const files = await rankInputs(config, { onWarning: printWarning });
    // One `git log` for both history signals: what changed, and what the commits said.
    const history = await recentHistory(config.root, undefined, { warn: printWarning });
    ranked = await rankFiles(files, task, {
      weights: config.rank?.weights,
      coChange: coChangeFromLog(history, files.map((f) => f.path)),
      history,
      root: config.root,
      // The names a build stored (or the parse): read only, `slop rank` writes no state.
      ...rankNames(skeletonViewMode(), namesStore(config)),
    });
    // Listed: the files a build can show. Those it skips (a secrets file, a binary one, a
    // submodule's folder, a name that is not UTF-8) count in the ranking, as in a build's, but no
    // build shows them, so they are not listed.
    const readable = new Set(files.filter((f) => f.text !== undefined).map((f) => f.path));
    ranked = ranked.filter((file) => readable.has(file.path));
  } catch (error) {
    printError(redactMessage(error instanceof Error ? error.message : String(error)));
    return error instanceof ConfigError || error instanceof TaskError ? 2 : 1;
  }
  const shown = top === 0 ? ranked : ranked.slice(0, top);
  if (flags.json) {
    console.log(JSON.stringify({ task, files: shown }, null, 2));
  } else console.log(rankText(shown, ranked.length));
  return 0;
}

/**
 * The human listing of `slop rank`: rank, score and path, then the reasons.
 */
function rankText(shown: RankedFile[], total: number): string {
  const lines: string[] = [];
  const width = String(shown.length).length;
  for (const [i, file] of shown.entries()) {
    lines.push(
      `${String(i + 1).padStart(width)}. ${file.score.toFixed(3)}  ${printablePath(file.path)}`,
    );
    if (file.reasons.length) {
      const why = file.reasons.map((r) => `${r.kind} ${r.detail} +${r.score.toFixed(3)}`);
      lines.push(`${" ".repeat(width + 2)}${why.join(", ")}`);
    }
  }
  if (shown.length < total) lines.push(`(${total - shown.length} more; --top 0 lists all)`);
  return lines.join("\n");
}

/** The task of `--task` or `--task-file` (see `taskFlag`), trimmed: a ranking needs one. */
async function rankTask(flags: RankFlags, cwd: string): Promise<string> {
  let task: string | undefined;
  try {
    task = await taskFlag(flags, cwd);
  } catch (error) {
    throw new TaskError(error instanceof Error ? error.message : String(error));
  }
  if (task === undefined) throw new TaskError("No task: pass --task TEXT or --task-file PATH");
  return task.trim();
}

/**
 * The build's cache as a store of names that is only read: `slop rank` parses what no build
 * stored, and keeps it in this process only. Undefined with the cache off.
 */
function namesStore(config: ResolvedConfig): Store | undefined {
  if (!config.cache.enabled) return undefined;
  const cache = openCache(config.cache.dir, buildCacheOptions(config));
  return { get: (key) => cache.get(key), set: () => Promise.resolve() };
}
