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
 * shared prefix). First the {@linkcode MAX_FIT_FILES} best-ranked files in
 * their own view, tried by expected recall per token (`_task_fit.ts`: a
 * file's chance of being needed falls with its place in the ranking, its
 * cost is its tokens; one that does not fit is passed over), then the
 * passed-over ones of the first {@linkcode MAX_TASK_FILES} as skeletons and
 * outlines with what is left, then the rest of those named in a list; a view
 * no richer than the map's is not repeated. The section shows its files in
 * ranking order, and the task text comes last. Without a budget the section
 * shows the first {@linkcode UNBUDGETED_FILES} ranked files in their own
 * view.
 *
 * @module
 */

import { rankFiles, type RankOptions } from "./rank.ts";
import {
  CO_CHANGE_COMMITS,
  coChangeFromLog,
  type HistoryCommit,
  recentHistory,
} from "./co_change.ts";
import { composeBlocks } from "./compose.ts";
import { orderBlocks } from "./order.ts";
import { formatBlocks } from "./formats.ts";
import { placeBlocks } from "./emit.ts";
import { failOnSecrets, redactBlocks, redactSources, redactText } from "./secrets.ts";
import { findViewMode, loadViewModes, type Registry } from "./registry.ts";
import {
  chooseView,
  focusOf,
  loadFocusGlobs,
  transformFiles,
  type TransformOptions,
} from "./transform.ts";
import { LISTED, rankOf, totalTokens } from "./budget.ts";
import { cachedTokens } from "./_cached_tokens.ts";
import { fitOrder } from "./_task_fit.ts";
import { keptFiles } from "./_task_map.ts";
import { sha256Hex } from "./helpers.ts";
import { extensionOf } from "./extension.ts";
import { type BuildRun, transformOptions } from "./stages.ts";
import type { Cache } from "./cache.ts";
import type { Assembled, BuildOptions } from "./build_options.ts";
import type {
  BuildState,
  CompleteFn,
  DeriveFn,
  ManifestTask,
  OrderContext,
  PlacedBlock,
  RenderedFile,
  ResolvedConfig,
  SecretFinding,
  SourceFile,
  Store,
  TaskEntry,
  ViewModePlugin,
} from "./types.ts";

/** The share of the budget the task section may take when `budget.taskShare` is not set. */
export const DEFAULT_TASK_SHARE = 0.5;

/** The most tokens the map takes when `budget.mapTokens` is not set. */
export const DEFAULT_MAP_TOKENS = 16_000;

/** How many ranked files a task section without a budget shows in their own view. */
export const UNBUDGETED_FILES = 10;

/** How many ranked files the task section names at most in its list (and steps down to skeletons). */
export const MAX_TASK_FILES = 50;

/**
 * How many ranked files a budgeted task section tries in full (a larger budget holds more than
 * the list names): at 128k the first 100 often leave room that small files ranked after them fill.
 */
const MAX_FIT_FILES = 200;

/** The list's heading as the section writes it (an estimate: the document is checked). */
const LIST_HEADING = "Also relevant, most relevant first:\n\n";

/** Views a task file steps down through after its own view, most detailed first. */
const TASK_LADDER = ["skeleton", "outline"];

/** Views that only condense the text: a task shows such a file in `full` instead. */
const CONDENSED = new Set(["full", "skeleton", "outline", "summary", "llm_summary"]);

/**
 * The map's part of a task build's budget `B`: `B × (1 - budget.taskShare)`,
 * at most `budget.mapTokens` ({@linkcode DEFAULT_TASK_SHARE},
 * {@linkcode DEFAULT_MAP_TOKENS}); it depends on the budget only.
 *
 * @example
 * ```ts
 * import { mapTokens } from "./task.ts";
 * mapTokens({ tokens: 32000 }); // 16000
 * mapTokens({ tokens: 128000 }); // 16000
 * mapTokens({ tokens: 8000, taskShare: 0.25 }); // 6000
 * ```
 */
export function mapTokens(budget: ResolvedConfig["budget"]): number | undefined {
  if (budget.tokens === undefined) return undefined;
  const share = budget.taskShare ?? DEFAULT_TASK_SHARE;
  return Math.min(Math.floor(budget.tokens * (1 - share)), budget.mapTokens ?? DEFAULT_MAP_TOKENS);
}

/**
 * The task section's share of a task build's budget: what the map leaves
 * ({@linkcode mapTokens}); 1 without a budget.
 *
 * @example
 * ```ts
 * import { taskShareOf } from "./task.ts";
 * import type { ResolvedConfig } from "./types.ts";
 * taskShareOf({ budget: { tokens: 64000 } } as ResolvedConfig); // 0.75
 * ```
 */
export function taskShareOf(config: ResolvedConfig): number {
  const tokens = config.budget.tokens;
  return tokens === undefined ? 1 : 1 - mapTokens(config.budget)! / tokens;
}

/**
 * The config the map is fitted with: with a task and a budget, the budget is
 * the map's part ({@linkcode mapTokens}); otherwise the config itself.
 *
 * @example
 * ```ts
 * import { mapConfig } from "./task.ts";
 * import type { ResolvedConfig } from "./types.ts";
 * const config = { task: "fix the parser", budget: { tokens: 32000 } } as ResolvedConfig;
 * mapConfig(config).budget.tokens; // 16000
 * ```
 */
export function mapConfig(config: ResolvedConfig): ResolvedConfig {
  if (config.task === undefined || config.budget.tokens === undefined) return config;
  return { ...config, budget: { ...config.budget, tokens: mapTokens(config.budget) } };
}

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

/** The share of the map's tokens that goes first to often-changed files in full when `budget.mapFull` is not set. */
export const DEFAULT_MAP_FULL = 1;

/**
 * The files a task build's map keeps in full (never stepped down by the budget): the files
 * changed most in the recent git history, per token, within `budget.mapFull` of the map's
 * tokens ({@linkcode mapTokens}) less what the map holds that cannot step down (other sections,
 * focus and `forceFull` files). Empty without a task or a budget, outside git, or with
 * `mapFull: 0`. It depends on the tree, its history, the config and the budget, never on the
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
  const skeleton = findViewMode(registry, "skeleton");
  const isCode = (path: string) =>
    skeleton?.accepts?.(path, sources.get(path)?.text ?? "") ??
      skeleton?.extensions?.includes(lowerExtension(path)) ?? false;
  const candidates = stepping.map((f) => ({
    path: f.path,
    tokens: tokens.get(f.path)!,
    code: isCode(f.path),
  }));
  const history = map.history ?? await taskHistory(config);
  const changes = coChangeFromLog(history, candidates.map((c) => c.path));
  return new Set(keptFiles(candidates, changes, Math.floor(room * share) - fixed));
}

/** A path's extension with its dot, lowercased (`""` for none). */
function lowerExtension(path: string): string {
  return extensionOf(path.slice(path.lastIndexOf("/") + 1)).toLowerCase();
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
  const raw = config.task ?? "";
  const warn = options.transform.warn;
  // The task text is scanned like any input before anything else sees it.
  const redaction = await redactText(raw, "task", { rules: config.secrets.rules });
  const secrets: SecretFinding[] = redaction.findings.map((f) => ({ path: "task", ...f }));
  failOnSecrets(secrets, config.secrets.failOnSecret, warn);
  const text = redaction.text;
  const budget = config.budget.tokens ?? Infinity;
  const assemble = assembler(state, options);

  const sources = new Map(options.sources.map((s) => [s.path, s]));
  secrets.push(...await loadUnread(options.sources, config));
  const candidates = await taskCandidates(state, text, { ...options, byPath: sources });

  // The section without files: its headings and the task text.
  const entries: TaskEntry[] = [];
  state.task = { text, entries };
  placed = await assemble();
  const limits = sectionLimits(placed, config);
  entries.push(
    ...await chooseEntries(candidates, limits, placed, {
      ...options,
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
      `Token budget of ${budget} cannot be met with the task: the document has ` +
        `${totalTokens(placed)} tokens with the task text and no task files`,
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

/**
 * Files a warm build did not read (unchanged since the last build) are read now: the ranking
 * needs every text. Redacted as when read; a file changed since then is scanned again. Returns
 * the secrets found in the files read.
 */
async function loadUnread(
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

/** The files the task may show, best first: ranked against the task text as `slop rank` ranks. */
async function taskCandidates(
  state: BuildState,
  text: string,
  options: FitTaskOptions & { byPath: Map<string, SourceFile> },
): Promise<Array<{ path: string; score: number }>> {
  const { config } = state;
  // Every file of the build, as `slop rank` sees them: by path only when it has no text.
  const inputs = options.sources.map((s) =>
    s.text !== undefined && !s.error && !s.skip ? { path: s.path, text: s.text } : { path: s.path }
  );
  const files = new Map(state.files.map((f) => [f.path, f]));
  // Ranked as `slop rank` ranks: the config's weights, git co-change as a tie-breaker, the names
  // each file defines as the `skeleton` view reads them (the symbol graph).
  await loadViewModes(options.registry, ["skeleton"]);
  const skeleton = findViewMode(options.registry, "skeleton");
  const history = options.history ?? await taskHistory(config);
  const ranked = await rankFiles(inputs, text, {
    weights: config.rank?.weights,
    // `--no-cache`: no store, so no text is hashed for it.
    ...rankNames(skeleton, options.transform.cache?.enabled ? options.transform.cache : undefined),
    coChange: coChangeFromLog(history, inputs.map((f) => f.path)),
    history,
    root: config.root,
  });
  return ranked
    .filter((r) => r.score > 0 && isCandidate(files.get(r.path), options.byPath.get(r.path)))
    .slice(0, config.budget.tokens === undefined ? MAX_TASK_FILES : MAX_FIT_FILES);
}

/**
 * The ranking's names from the `skeleton` view: kept in `store` (the build's cache: a warm build
 * parses no file again), the view's threads got ready only once a file is parsed (not when every
 * name comes from the store), then kept until the ranking has all names. What a task build and
 * `slop rank` hand to `rankFiles`.
 *
 * @example
 * ```ts
 * import { rankNames } from "./task.ts";
 * import { rankFiles } from "./rank.ts";
 * import { skeletonViewMode } from "../plugins/view_modes/skeleton.ts";
 * const files = [{ path: "a.py", text: "def retry():\n    pass\n" }];
 * await rankFiles(files, "fix retry", rankNames(skeletonViewMode(), undefined));
 * ```
 */
export function rankNames(
  skeleton: ViewModePlugin | undefined,
  store: Store | undefined,
): Pick<RankOptions, "definitions" | "prepareDefinitions"> {
  const names = skeleton?.definitions;
  if (!names) return {};
  let files: Array<{ path: string; chars: number }> | undefined;
  let release: (() => void) | void;
  const parsing = () => {
    if (files && !release) release = skeleton.prepare?.(files) ?? (() => {});
  };
  return {
    definitions: (path, text) => names({ path, text: text ?? "" }, { store, parsing }),
    prepareDefinitions: (asked) => {
      files = asked;
      return () => {
        files = undefined;
        release?.();
      };
    },
  };
}

/** The most tokens and bytes the document may have once the task section is in. */
interface Limits {
  tokens: number;
  bytes: number;
}

/**
 * What the document may hold with the task section, given it without the section's files
 * (`placed`): the budget, the section at most its share of the budget in tokens, and at most its
 * share of the document in bytes (the map before it holds the rest) while the map has its share.
 */
function sectionLimits(placed: PlacedBlock[], config: ResolvedConfig): Limits {
  const budget = config.budget.tokens ?? Infinity;
  const share = taskShareOf(config);
  const mapBytes = bytesOf(placed.slice(0, placed.findIndex((b) => b.id === "task")));
  // In bytes only while the map has its share: past `mapTokens` the budget is the task's.
  const byBytes = share < 1 && share <= (config.budget.taskShare ?? DEFAULT_TASK_SHARE);
  const other = placed.filter((b) => b.section !== "task");
  return {
    tokens: Math.min(budget, Math.floor(budget * share) + totalTokens(other)),
    bytes: byBytes ? bytesOf(other) + Math.floor(mapBytes * share / (1 - share)) : Infinity,
  };
}

/** What {@linkcode chooseEntries} works with besides the candidates. */
interface ChooseContext extends Omit<FitTaskOptions, "sources"> {
  config: ResolvedConfig;
  /** The files as the map shows them, by path. */
  files: Map<string, RenderedFile>;
  /** The sources, by path. */
  sources: Map<string, SourceFile>;
}

/**
 * The section's entries, in ranking order. With a budget: first the candidates in their own view,
 * tried in the order {@linkcode fitOrder} gives (expected recall per token; one that does not fit
 * is passed over), then the passed-over ones as skeletons, then as outlines, with what is left;
 * then the rest named while the list fits. Without one: the first {@linkcode UNBUDGETED_FILES}
 * that render in their own view. Costs are estimated per block (`### path` and a fence); the
 * caller checks the assembled document.
 */
async function chooseEntries(
  candidates: Array<{ path: string; score: number }>,
  limits: Limits,
  placed: PlacedBlock[],
  ctx: ChooseContext,
): Promise<TaskEntry[]> {
  const { config, files, sources } = ctx;
  const budgeted = config.budget.tokens !== undefined;
  const left = {
    tokens: limits.tokens - totalTokens(placed),
    bytes: limits.bytes - bytesOf(placed),
  };
  const isFocus = focusOf(config, [...sources.keys()]);
  const chosen: TaskEntry[] = candidates.map(({ path, score }) => {
    const current = files.get(path)!;
    const mapView = current.status === "rendered" ? current.view : LISTED;
    return { path, score, where: mapView === LISTED ? "listed" : "map", view: mapView };
  });
  // Each candidate in its own view (`full` for the views that only condense the text).
  const own = (entry: TaskEntry) => {
    const view = chooseView(sources.get(entry.path)!, config, isFocus(entry.path));
    return prepareView(entry, CONDENSED.has(view) ? "full" : view, ctx);
  };
  if (!budgeted) {
    let shown = 0;
    for (const entry of chosen) {
      if (shown >= UNBUDGETED_FILES) break;
      const ready = await own(entry);
      if (!ready) continue;
      place(entry, ready);
      shown++;
    }
    return chosen;
  }
  const ready = [];
  for (const entry of chosen) ready.push(await own(entry));
  for (const i of fitOrder(ready.map((r) => r?.cost.tokens))) {
    if (fits(left, ready[i]!.cost)) place(chosen[i], ready[i]!, left);
  }
  for (const view of TASK_LADDER) {
    for (const entry of chosen.slice(0, MAX_TASK_FILES)) {
      if (entry.where === "task") continue;
      const next = await prepareView(entry, view, ctx);
      if (next && fits(left, next.cost)) place(entry, next, left);
    }
  }
  return await listEntries(chosen, { left, tokenizer: config.budget.tokenizer });
}

/** A file rendered in a task view, with its block's cost. */
interface Prepared {
  file: RenderedFile;
  cost: Limits;
}

/** The entry's file in `view`, when the view renders it richer than the entry's view now. */
async function prepareView(
  entry: TaskEntry,
  view: string,
  ctx: ChooseContext,
): Promise<Prepared | undefined> {
  if (rankOf(view) >= rankOf(entry.view) || !findViewMode(ctx.registry, view)) return undefined;
  const file = await render(ctx.sources.get(entry.path)!, view, ctx.config, ctx);
  if (!file || rankOf(file.view) >= rankOf(entry.view)) return undefined;
  const text = `### ${file.path}\n\n\`\`\`\n${file.text}\n\`\`\`\n\n`;
  return { file, cost: await costOf(text, ctx.config.budget.tokenizer, ctx.transform.cache) };
}

/** Show the entry's file in the task section as prepared, its cost taken from what is `left`. */
function place(entry: TaskEntry, ready: Prepared, left?: Limits): void {
  if (left) take(left, ready.cost);
  Object.assign(entry, { where: "task", view: ready.file.view, file: ready.file });
}

/**
 * The chosen entries that stay: those shown in the task section, and those named in its list
 * while each line (the first with the list's heading) fits in what is `left`, which it takes.
 */
async function listEntries(
  chosen: TaskEntry[],
  room: { left: Limits; tokenizer: ResolvedConfig["budget"]["tokenizer"] },
): Promise<TaskEntry[]> {
  const { left, tokenizer } = room;
  const entries: TaskEntry[] = [];
  let heading = true;
  for (const [i, entry] of chosen.entries()) {
    if (entry.where !== "task") {
      if (i >= MAX_TASK_FILES) continue;
      const line = entry.where === "map"
        ? `- ${entry.path} (${entry.view}, in the map above)\n`
        : `- ${entry.path}\n`;
      const cost = await costOf(heading ? `${LIST_HEADING}${line}\n` : line, tokenizer);
      if (!fits(left, cost)) continue;
      take(left, cost);
      heading = false;
    }
    entries.push(entry);
  }
  return entries;
}

/** Whether `cost` fits in what is `left`. */
function fits(left: Limits, cost: Limits): boolean {
  return cost.tokens <= left.tokens && cost.bytes <= left.bytes;
}

/** Take `cost` from what is `left`. */
function take(left: Limits, cost: Limits): void {
  left.tokens -= cost.tokens;
  left.bytes -= cost.bytes;
}

/** Tokens and UTF-8 bytes of a text (its tokens kept in `cache`, when given, by its sha256). */
async function costOf(
  text: string,
  tokenizer: ResolvedConfig["budget"]["tokenizer"],
  cache?: Cache,
) {
  return {
    tokens: await cachedTokens(text, { tokenizer, cache }),
    bytes: utf8.encode(text).length,
  };
}

const utf8 = new TextEncoder();

/** Bytes of placed blocks. */
function bytesOf(blocks: PlacedBlock[]): number {
  return blocks.reduce((n, b) => n + b.length, 0);
}

function round(share: number): number {
  return Math.round(share * 1e4) / 1e4;
}

/** A file the task may name: rendered or stepped down by the budget, with text, not `none`. */
function isCandidate(file: RenderedFile | undefined, source: SourceFile | undefined): boolean {
  if (!file || source?.text === undefined || source.error || source.skip) return false;
  if (source.entry.autoAggregate === false || source.entry.view === "none") return false;
  return file.status === "rendered" || file.view === LISTED;
}

/** The file rendered in `view`, or undefined when the view cannot render it. */
async function render(
  source: SourceFile,
  view: string,
  config: ResolvedConfig,
  options: Pick<FitTaskOptions, "registry" | "transform">,
): Promise<RenderedFile | undefined> {
  const [out] = await transformFiles([source], config, options.registry, {
    ...options.transform,
    onFile: undefined,
    viewOf: () => view,
  });
  return out?.status === "rendered" && out.text !== undefined ? out : undefined;
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
