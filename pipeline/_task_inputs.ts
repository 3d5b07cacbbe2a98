/**
 * What the task stage works from besides the build's blocks: the options
 * `fitTask` is handed, the recent git history read once per task build (for
 * the map's kept files and the ranking), and the texts of files a warm build
 * left unread (the ranking needs every text). Both the stage and its ranking
 * part read these, so they live apart from either.
 *
 * @module
 */

import { CO_CHANGE_COMMITS, type HistoryCommit, recentHistory } from "./co_change.ts";
import { redactSources } from "./secrets.ts";
import type { Registry } from "./registry.ts";
import type { TransformOptions } from "./transform.ts";
import type {
  CompleteFn,
  DeriveFn,
  OrderContext,
  ResolvedConfig,
  SecretFinding,
  SourceFile,
} from "./types.ts";

/** The recent first-parent history a task build reads once, newest commit first: the paths each commit changed and its message. */
export type TaskHistory = HistoryCommit[];

/**
 * The recent first-parent history of the project's repository (the last
 * `CO_CHANGE_COMMITS` commits), read once per task build: the map's kept
 * files ({@linkcode mapKept}) and the ranking's co-change signal
 * ({@linkcode fitTask}) both count changes in it, and the ranking's history
 * signal reads its messages. Empty without a task, outside git or with no
 * commits.
 *
 * @example
 * ```ts
 * import { taskHistory } from "./task.ts";
 * import type { ResolvedConfig } from "./types.ts";
 * const history = await taskHistory({ task: "fix", root: Deno.cwd() } as ResolvedConfig);
 * history[0]?.paths; // the paths the newest commit changed
 * ```
 */
export async function taskHistory(
  config: ResolvedConfig,
  options: { warn?: (message: string) => void } = {},
): Promise<TaskHistory> {
  if (config.task === undefined) return [];
  return await recentHistory(config.root, CO_CHANGE_COMMITS, options);
}

/** Options of {@linkcode fitTask}. */
export interface FitTaskOptions {
  /** The sources the files were rendered from (their texts, secrets redacted). */
  sources: SourceFile[];
  /** The frozen registry. */
  registry: Registry;
  /** The ordering rules' context of the build. */
  order: OrderContext;
  /** Transform options (warn, complete, timeout, cache) for rendering a file in a task view. */
  transform: TransformOptions & { complete: CompleteFn };
  /** Token counts of texts the build counted already, by sha256 (see `placeBlocks`). */
  tokenCache?: Map<string, number>;
  /** The build's memo of values made from texts (`BuildRun.derived`). @default {undefined} made now */
  derived?: DeriveFn;
  /** The recent history for the co-change and history signals ({@linkcode taskHistory}); none: read from git. */
  history?: TaskHistory;
}

/**
 * Files a warm build did not read (unchanged since the last build) are read now: the ranking
 * needs every text. Redacted as when read; a file changed since then is scanned again. Returns
 * the secrets found in the files read.
 *
 * @example
 * ```ts
 * import { loadUnread } from "./_task_inputs.ts";
 * // const secrets = await loadUnread(sources, config); // every source has its text now
 * ```
 */
export async function loadUnread(
  sources: SourceFile[],
  config: ResolvedConfig,
): Promise<SecretFinding[]> {
  const secrets: SecretFinding[] = [];
  for (const source of sources) {
    const changed = await source.load?.().catch(() => false);
    // Changed since it was found clean: scanned again before anything sees it.
    if (changed && source.text !== undefined) {
      secrets.push(...await redactSources([source], config.secrets.rules));
    }
  }
  return secrets;
}
