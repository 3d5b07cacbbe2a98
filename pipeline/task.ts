/**
 * The task stage: with a task (`slop build --task TEXT`), rank the files for
 * it and choose what the task section (`plugins/sections/task.ts`) shows,
 * after the repository map that does not depend on the task.
 *
 * The document is the map, then the task section. The map is the files
 * section as every build makes it; with a budget it is fitted by the budget
 * stage to its part of the budget ({@linkcode mapTokens}: `1 - taskShare` of
 * it, at most `mapTokens`), which depends on the files and the budget, never
 * on the task. So two tasks on the same tree share the map byte for byte, and
 * with it the stable prefix that providers cache.
 *
 * The task section takes the rest of the budget, and no more of the document
 * in bytes than its share (so at 32k at least half of each document is the
 * shared prefix). First the best-ranked files in their own view (100, and
 * up to `MAX_FIT_FILES` when the room is large: `triedEnough`), tried by
 * expected recall per token (`_task_fit.ts`: a
 * file's chance of being needed falls with its place in the ranking, its
 * cost is its tokens; one that does not fit is passed over), then the
 * passed-over ones of the first {@linkcode MAX_TASK_FILES} as skeletons and
 * outlines with what is left, then the rest of those named in a list; a view
 * no richer than the map's is not repeated. The section shows its files in
 * ranking order, and the task text comes last. Without a budget the section
 * shows the first {@linkcode UNBUDGETED_FILES} ranked files in their own
 * view.
 *
 * The steps run in order, the parts each in a module of its own: the budget's
 * split between map and section (`_task_budget.ts`), the history read once
 * and the texts a warm build left unread (`_task_inputs.ts`), the map's kept
 * files ({@linkcode mapKept}, chosen in `_task_map.ts`), then
 * {@linkcode fitTask}: the candidates ranked for the task (`_task_rank.ts`),
 * the section's room (`_task_room.ts`) and its entries (`_task_choose.ts`),
 * and the document assembled again until it fits ({@linkcode withTask} for
 * a build).
 *
 * @module
 */

import { coChangeFromLog } from "./co_change.ts";
import { composeBlocks } from "./compose.ts";
import { orderBlocks } from "./order.ts";
import { formatBlocks } from "./formats.ts";
import { placeBlocks } from "./emit.ts";
import { failOnSecrets, redactBlocks, redactText } from "./secrets.ts";
import { findViewMode, loadViewModes, type Registry } from "./registry.ts";
import { focusOf, loadFocusGlobs } from "./transform.ts";
import { totalTokens } from "./budget.ts";
import { keptFiles } from "./_task_map.ts";
import { mapTokens, roomForTaskText, taskShareOf } from "./_task_budget.ts";
import { cachedTokens } from "./_cached_tokens.ts";
import { formatCount } from "./figures.ts";
import { type FitTaskOptions, loadUnread, type TaskHistory, taskHistory } from "./_task_inputs.ts";
import { codeTest, taskCandidates } from "./_task_rank.ts";
import { bytesOf, sectionLimits } from "./_task_room.ts";
import { chooseEntries } from "./_task_choose.ts";
import { sha256Hex } from "./helpers.ts";
import { type BuildRun, transformOptions } from "./stages.ts";
import type { Assembled, BuildOptions } from "./build_options.ts";
import type {
  BuildState,
  ManifestTask,
  PlacedBlock,
  RenderedFile,
  ResolvedConfig,
  SecretFinding,
  SourceFile,
  TaskEntry,
} from "./types.ts";

export {
  DEFAULT_MAP_TOKENS,
  DEFAULT_TASK_SHARE,
  mapConfig,
  mapTokens,
  MAX_TASK_FILES,
  roomForTaskText,
  taskShareOf,
  UNBUDGETED_FILES,
} from "./_task_budget.ts";
export { type FitTaskOptions, type TaskHistory, taskHistory } from "./_task_inputs.ts";
export { rankNames } from "./_task_rank.ts";

/**
 * The run a task build fits its map and its section with: its own, or, when the task's text is
 * longer than the task's part of the budget, one whose budget gives the map less
 * ({@linkcode roomForTaskText}), with a warning that this build's map is not the one other tasks
 * share. A budget is a limit: the text is never cut, the map gives way.
 *
 * @example
 * ```ts
 * import { withTaskTextRoom } from "./task.ts";
 * // const taskRun = await withTaskTextRoom(run); // run itself for a short task
 * ```
 */
export async function withTaskTextRoom<R extends Pick<BuildRun, "config" | "cache" | "warn">>(
  run: R,
): Promise<R> {
  const { config } = run;
  if (config.task === undefined || config.budget.tokens === undefined) return run;
  const text = await cachedTokens(config.task.trim(), {
    tokenizer: config.budget.tokenizer,
    cache: run.cache,
  });
  const budget = roomForTaskText(config.budget, text);
  if (budget === config.budget) return run;
  run.warn(
    `the task's text (${formatCount(text)} tokens) leaves the repository map ${
      formatCount(budget.mapTokens!)
    } of its ${
      formatCount(mapTokens(config.budget)!)
    } tokens: this build's map and cached prefix differ from other tasks' on this tree`,
  );
  return { ...run, config: { ...config, budget } };
}

/** The share of the map's tokens that goes first to often-changed files in full when `budget.mapFull` is not set. */
export const DEFAULT_MAP_FULL = 1;

/**
 * The files a task build's map keeps in full (never stepped down by the budget): the files
 * changed most in the recent git history, per token, within `budget.mapFull` of the map's
 * tokens ({@linkcode mapTokens}) less what the map holds that cannot step down (other sections,
 * focus and `forceFull` files). Empty without a task or a budget, or with `mapFull: 0`; the files
 * no commit of the history changed come after the changed ones, each counted as changed once, as
 * when one commit added them all (with no history, outside git or before the first commit, that
 * is every file). It depends on the tree, its history, the config and the budget, never on the
 * task, so two tasks on the same tree share the map byte for byte (see `_task_map.ts`). The
 * history is `map.history` when given ({@linkcode taskHistory}), else read from git.
 *
 * @example
 * ```ts
 * import { mapKept } from "./task.ts";
 * // const keep = await mapKept(run, { files, placed, sources, history });
 * // keep.has("src/sessions.py"); // true when it is among the most changed files
 * ```
 */
export async function mapKept(
  run: { config: ResolvedConfig; registry: Registry },
  map: {
    files: RenderedFile[];
    placed: PlacedBlock[];
    sources: SourceFile[];
    history?: TaskHistory;
    /** Where the secrets found in files read here go (see below). */
    secrets?: SecretFinding[];
  },
): Promise<Set<string>> {
  const { config, registry } = run;
  const room = mapTokens(config.budget);
  const share = config.budget.mapFull ?? DEFAULT_MAP_FULL;
  if (config.task === undefined || room === undefined || share <= 0) return new Set();
  const sources = new Map(map.sources.map((s) => [s.path, s]));
  await loadFocusGlobs(config);
  const isFocus = focusOf(config, sources.keys());
  const tokens = new Map<string, number>();
  for (const b of map.placed) {
    if (b.source !== undefined && b.id === `files:${b.source}`) tokens.set(b.source, b.tokens);
  }
  // Files the budget may step down, in their view as it is, with their block's tokens.
  const stepping = map.files.filter((f) =>
    f.status === "rendered" && tokens.has(f.path) && !isFocus(f.path) &&
    !sources.get(f.path)?.entry.forceFull
  );
  const fixed = totalTokens(map.placed) - stepping.reduce((n, f) => n + tokens.get(f.path)!, 0);
  // A file this build did not read (unchanged since the last build) has no text yet, and a view
  // may tell code by it (a script by its `#!` line): read now, as a cold build has it (the task
  // section reads every file next, `loadUnread` in `fitTask`: no file is read twice).
  const unread = stepping.flatMap((f) => sources.get(f.path) ?? []);
  map.secrets?.push(...await loadUnread(unread, config));
  await loadViewModes(registry, ["skeleton"]);
  const isCode = codeTest(findViewMode(registry, "skeleton"), sources);
  const candidates = stepping.map((f) => ({
    path: f.path,
    tokens: tokens.get(f.path)!,
    code: isCode(f.path),
  }));
  const history = map.history ?? await taskHistory(config);
  // The map's changes leave large commits out, as measured: only the ranking counts them.
  const changes = coChangeFromLog(history, candidates.map((c) => c.path), { largeWeight: 0 });
  // The task section's room: what the budget leaves the section (the map's part aside).
  const sectionRoom = config.budget.tokens! - room;
  return new Set(keptFiles(candidates, changes, Math.floor(room * share) - fixed, { sectionRoom }));
}

/** What {@linkcode fitTask} returns. */
export interface FitTaskResult {
  /** The blocks of the document with its task section. */
  placed: PlacedBlock[];
  /** The task as the manifest records it. */
  task: ManifestTask;
  /** Secrets found in the task text (redacted in the document). */
  secrets: SecretFinding[];
}

/**
 * Rank the files for `state.config.task`, choose the task section's files
 * and views within what the budget leaves after `placed` (the document so
 * far: the map and the other sections), and assemble the document again
 * with the section. `state.task` is set to the choice.
 *
 * @example
 * ```ts
 * import { fitTask } from "./task.ts";
 * // const { placed, task } = await fitTask(state, placed, { sources, registry, order, transform });
 * // task.files[0]; // { path: "src/parser.ts", score: 4.2, where: "task", view: "full" }
 * ```
 */
export async function fitTask(
  state: BuildState,
  placed: PlacedBlock[],
  options: FitTaskOptions,
): Promise<FitTaskResult> {
  const { config } = state;
  const warn = options.transform.warn;
  const { text, secrets } = await redactTask(config, warn);
  const budget = config.budget.tokens ?? Infinity;
  const assemble = assembler(state, options);

  const sources = new Map(options.sources.map((s) => [s.path, s]));
  secrets.push(...await loadUnread(options.sources, config));
  // Read once: the ranking's co-change and history signals and the fit's tied tests read it.
  const history = options.history ?? await taskHistory(config);
  const candidates = await taskCandidates(state, text, { ...options, history, byPath: sources });

  // The section without files: its headings and the task text.
  const entries: TaskEntry[] = [];
  state.task = { text, entries };
  placed = await assemble();
  const limits = sectionLimits(placed, config);
  entries.push(
    ...await chooseEntries(candidates, limits, placed, {
      ...options,
      history,
      config,
      files: new Map(state.files.map((f) => [f.path, f])),
      sources,
    }),
  );
  placed = await assemble();
  // Estimates are per block and the list is one block: the last entries are taken back while the
  // section is over what it may hold.
  const over = () => totalTokens(placed) > limits.tokens || bytesOf(placed) > limits.bytes;
  while (over() && entries.length) {
    entries.pop();
    placed = await assemble();
  }
  if (totalTokens(placed) > budget) {
    warn(
      `Token budget of ${formatCount(budget)} cannot be met with the task: the document has ` +
        `${formatCount(totalTokens(placed))} tokens with the task text and no task files`,
    );
  }
  const section = placed.filter((b) => b.section === "task");
  const textBlock = section.find((b) => b.id === "task:text");
  return {
    placed,
    secrets,
    task: {
      sha256: textBlock ? sha256Hex(textBlock.text) : sha256Hex(text),
      tokens: totalTokens(section),
      ...(config.budget.tokens === undefined ? {} : { share: round(taskShareOf(config)) }),
      files: entries.map((e) => ({ path: e.path, score: e.score, where: e.where, view: e.view })),
    },
  };
}

/** The task text as redacted (it is scanned like any input before anything else sees it). */
async function redactTask(
  config: BuildState["config"],
  warn: (message: string) => void,
): Promise<{ text: string; secrets: SecretFinding[] }> {
  const redaction = await redactText(config.task ?? "", "task", { rules: config.secrets.rules });
  const secrets: SecretFinding[] = redaction.findings.map((f) => ({ path: "task", ...f }));
  failOnSecrets(secrets, config.secrets.failOnSecret, warn);
  return { text: redaction.text, secrets };
}

function round(share: number): number {
  return Math.round(share * 1e4) / 1e4;
}

/** Compose, redact, order, format and place the document with the current `state.task`. */
function assembler(state: BuildState, options: FitTaskOptions): () => Promise<PlacedBlock[]> {
  const { config } = state;
  // Sections and rules run again: their warnings were reported the first time.
  const quiet = () => {};
  return async () => {
    const blocks = await composeBlocks(state, options.registry, {
      warn: quiet,
      complete: options.transform.complete,
      derived: options.derived,
    });
    await redactBlocks(blocks, config.secrets.rules);
    const ordered = await orderBlocks(blocks, options.registry, { ...options.order, warn: quiet });
    const formatted = formatBlocks(ordered, state.files, config.output.format);
    return await placeBlocks(formatted, {
      tokenizer: config.budget.tokenizer,
      tokenCache: options.tokenCache,
    });
  };
}

/**
 * A build's blocks with the task section after the task-independent map, in
 * what the budget leaves ({@linkcode fitTask}); unchanged without a task.
 * `assembled.history` is the history the build read ({@linkcode taskHistory}),
 * so that it is read once.
 *
 * @example
 * ```ts
 * import { withTask } from "./task.ts";
 * // const assembled = await withTask(run, assembledWithoutTask, options);
 * ```
 */
export async function withTask(
  run: BuildRun,
  assembled: Assembled & { history?: TaskHistory },
  options: BuildOptions,
): Promise<Assembled> {
  const { config } = run;
  const { history, ...rest } = assembled;
  if (config.task === undefined) return rest;
  const { files, sources, orderContext } = rest;
  const state = { config, files, root: config.root, stateDir: config.stateDir };
  const task = await fitTask(state, assembled.placed, {
    sources,
    registry: run.registry,
    order: orderContext,
    transform: transformOptions(run),
    derived: run.derived,
    tokenCache: assembled.counted.counts,
    history,
  });
  assembled.findings.push(...task.secrets);
  const after = totalTokens(task.placed);
  const budget = assembled.budget &&
    {
      ...assembled.budget,
      tokens: config.budget.tokens!,
      after,
      met: after <= config.budget.tokens!,
    };
  options.timings?.mark("task");
  return { ...rest, placed: task.placed, budget, task: task.task };
}
