/**
 * Token budgets: when the document is over `budget.tokens`, step files down
 * (full -> skeleton -> outline -> summary -> listed only) until it fits.
 *
 * The steps are deterministic: they depend only on the files, the config
 * and git history, never on time. Every file takes the first step before any
 * takes the second; inside a step the least important file goes first: not
 * a focus file, then rarely changed (git log), then large, then by path.
 * Focus and `forceFull` files are never stepped down, nor are other sections:
 * the stable prefix changes only where a file had to shrink. A step is kept
 * when it makes the file smaller; stepping stops as soon as the document fits
 * (steps are planned on estimated savings, checked on the real document, and
 * taken back, the last first, where the document fits without them).
 *
 * Files listed are decided from the end of that order: those before the last
 * one whose views, from it to the end, are over the room. They are listed
 * from the view they had, in one step (the last one keeps its steps); when
 * even the files' headings are over the room, the files that stay are stepped
 * from the last file back and those listed are never rendered in another view.
 *
 * Steps are sticky: the previous build's steps (remembered in the state dir,
 * see `_budget_memory.ts`) are taken first, in their order, when the
 * document is over the budget and each is still valid (same file, still a
 * candidate, same view before, and it still makes the file smaller); new
 * steps are planned only for what is still over, and the take-back drops
 * the newest first. A total that hovers around the budget therefore keeps
 * stepping the same files instead of a different one each build.
 *
 * @module
 */

import { gitOutput } from "./_git.ts";
import { configRefusal, warnRefusedOnce } from "./_git_history.ts";
import { stepSource } from "./_budget_source.ts";
import {
  FIRST_BATCH,
  MAX_BATCH,
  prepareSteps,
  type StepRenders,
  stepRenders,
  type StepView,
} from "./_budget_ahead.ts";
import { findViewMode, type Registry } from "./registry.ts";
import { extname } from "./paths.ts";
import { cachedTokens } from "./_cached_tokens.ts";
import { countTokens } from "./tokens.ts";
import { focusOf, loadFocusGlobs, transformFiles, type TransformOptions } from "./transform.ts";
import {
  agrees,
  assembledMeasure,
  countedMeasure,
  type Measure,
  sumTokens,
} from "./_budget_measure.ts";
import type {
  BudgetReport,
  PlacedBlock,
  RenderedFile,
  ResolvedConfig,
  SourceFile,
  StepDown,
} from "./types.ts";

/** The view name of a file stepped down to "listed only": in the manifest, not in the document. */
export const LISTED = "listed";

/** The steps, most detailed first. */
export const LADDER: string[] = ["full", "skeleton", "outline", "summary", LISTED];

/** How reduced each view already is (views not named here count as `full`). */
const RANK: Record<string, number> = {
  full: 0,
  custom: 0.5,
  masked: 0.5,
  cells: 0.5,
  skeleton: 1,
  outline: 2,
  summary: 3,
  llm_summary: 3,
  none: 4,
  [LISTED]: 4,
};

/** Options of {@linkcode fitBudget}. */
export interface FitOptions {
  /** The sources the files were rendered from. */
  sources: SourceFile[];
  /** The resolved config (`budget.tokens`, focus, tokenizer). */
  config: ResolvedConfig;
  /** The frozen registry. */
  registry: Registry;
  /** Transform options (warn, complete, timeout) for re-rendering a file. */
  transform: TransformOptions;
  /** Compose, order, format and place the blocks of the current files again. */
  assemble: () => Promise<PlacedBlock[]>;
  /**
   * A file's block tokens as `assemble` would place them (undefined: no block), when a step
   * changes only its file's block (markdown). Given, the steps are counted block by block and
   * the document is assembled once or twice to check the counts (falling back to assembling it
   * after every step when they are wrong), instead of after every step.
   * @default {undefined} assemble after every step
   */
  fileTokens?: (file: RenderedFile) => Promise<number | undefined>;
  /** Change counts by path (default: from `git log` under the root). */
  changes?: Map<string, number>;
  /** The previous build's steps, taken first while still valid and needed. @default {[]} */
  remembered?: StepDown[];
  /** Files never stepped down, as focus files (a task build's map: `mapKept`). @default {none} */
  keep?: ReadonlySet<string>;
  /**
   * Told as files step down, for progress reports: the tokens shed so far (estimated, never going
   * back) of the `over` tokens the document was over the budget. @default {undefined}
   */
  onProgress?: (shed: number, over: number) => void;
}

/** What {@linkcode fitBudget} returns. */
export interface FitResult {
  /** The blocks of the fitted document. */
  placed: PlacedBlock[];
  /** The budget report for the manifest and the summary. */
  report: BudgetReport;
  /** How many times the whole document was assembled (work counted by the tests). */
  assembled?: number;
}

/**
 * Step files down until the placed blocks fit `config.budget.tokens`.
 * `files` is updated in place (stepped files are replaced); warns when the
 * budget cannot be met.
 *
 * @example
 * ```ts
 * import { fitBudget } from "./budget.ts";
 * // const { placed, report } = await fitBudget(files, placed, { sources, config, registry, transform, assemble });
 * // report.steppedDown; // [{ path: "big.py", from: "full", to: "skeleton" }]
 * ```
 */
export async function fitBudget(
  files: RenderedFile[],
  placed: PlacedBlock[],
  options: FitOptions,
): Promise<FitResult> {
  const budget = options.config.budget.tokens ?? Infinity;
  const before = sumTokens(placed);
  let fitted: Fitted | undefined;
  if (options.fileTokens) {
    const initial = files.slice();
    fitted = await fitCounted(files, placed, { ...options, fileTokens: options.fileTokens });
    // The counts were wrong (a section or format that a step changes): as if never counted.
    if (!fitted) { for (const [i, file] of initial.entries()) files[i] = file; }
  }
  if (!fitted) {
    const measure = assembledMeasure(placed, options.assemble);
    // Without a check before taking steps back, the steps are always given.
    const applied = await fitSteps(files, measure, options) ?? [];
    // The order memory is saved from the last document ordered: the one kept, not the one put back.
    if (measure.stale) await measure.remeasure([]);
    fitted = { applied, placed: measure.placed(), assembled: measure.assembled };
  }
  const total = sumTokens(fitted.placed);
  const steppedDown = fitted.applied.map((a) => a.step);
  const report = { tokens: budget, before, after: total, met: total <= budget, steppedDown };
  if (!report.met) {
    options.transform.warn(
      `Token budget of ${budget} cannot be met: the document has ${total} tokens with every file ` +
        `stepped down as far as it goes (focus and forceFull files and other sections are kept)`,
    );
  }
  return { placed: fitted.placed, report, assembled: fitted.assembled };
}

/** The steps kept, the fitted document, and how many times it was assembled. */
interface Fitted {
  applied: Applied[];
  placed: PlacedBlock[];
  assembled: number;
}

/**
 * Fit with steps counted block by block; the document is assembled with all
 * the steps (and again when some were taken back) to check the counts.
 * Undefined when the assembled document is not what was counted.
 */
async function fitCounted(
  files: RenderedFile[],
  placed: PlacedBlock[],
  options: FitOptions & Required<Pick<FitOptions, "fileTokens">>,
): Promise<Fitted | undefined> {
  const measure = countedMeasure(files, placed, options.fileTokens);
  let checked: PlacedBlock[] | undefined;
  let taken = 0;
  // All the steps are taken (the most the document changes): checked before any is taken back.
  const check = async () => {
    checked = await options.assemble();
    measure.assembled++;
    return agrees(checked, measure, placed);
  };
  const applied = await fitSteps(files, measure, options, {
    beforeTakeBack: check,
    takenBack: () => taken++,
  });
  if (applied === undefined) return undefined;
  // No step: the document as it was placed (nothing to check).
  if (!applied.length) return { applied, placed, assembled: measure.assembled };
  if (taken && !await check()) return undefined;
  return { applied, placed: checked!, assembled: measure.assembled };
}

/**
 * The budget's steps on a measure: the remembered ones, then rounds of new
 * ones while over the budget, then the last ones taken back while the
 * document fits without them. Undefined when `beforeTakeBack` says the
 * measure is wrong.
 */
async function fitSteps(
  files: RenderedFile[],
  measure: Measure,
  options: FitOptions,
  hooks: { beforeTakeBack?: () => Promise<boolean>; takenBack?: () => void } = {},
): Promise<Applied[] | undefined> {
  const budget = options.config.budget.tokens ?? Infinity;
  const applied: Applied[] = [];
  const indexes = (steps: Applied[]) => steps.map((s) => s.index);
  if (measure.total > budget) {
    const shed = shedCounter(measure.total - budget, options);
    const plan = await planner(files, measure.tokens, { ...options, saved: shed });
    // In the try too: a build stopped during the replay (a cancelled MCP call) lets threads go.
    try {
      const kept = await plan.replay(options.remembered ?? [], measure.tokens);
      if (kept.length) {
        applied.push(...kept);
        await measure.remeasure(indexes(kept));
      }
      while (measure.total > budget) {
        const steps = await plan.step(measure.total - budget, measure.tokens);
        if (!steps.length) break;
        applied.push(...steps);
        await measure.remeasure(indexes(steps));
      }
    } finally {
      plan.done();
    }
    // Fitted: all that was over is shed, whatever the estimates said.
    if (measure.total <= budget) shed?.(Infinity);
  }
  if (applied.length && hooks.beforeTakeBack && !await hooks.beforeTakeBack()) return undefined;
  await takeBack(files, measure, { applied, budget, takenBack: hooks.takenBack });
  return applied;
}

/**
 * Take back the steps of `applied` (in place), the last first, that the document fits its
 * `budget` without.
 */
async function takeBack(
  files: RenderedFile[],
  measure: Measure,
  { applied, budget, takenBack }: { applied: Applied[]; budget: number; takenBack?: () => void },
): Promise<void> {
  // Estimates are rough: take back the steps, the last first, that the document fits without. A
  // step too large to take back (a long file stepped last) is kept, and the earlier steps of its
  // level are still tried (a file's view never goes back past a kept step of its own, and no
  // file stays a level further down than one of those taken back).
  const kept = new Set<number>();
  let level: number | undefined;
  let missed = 0;
  for (let i = applied.length - 1; i >= 0 && measure.total <= budget; i--) {
    const step = applied[i];
    if (level !== undefined && !step.restore && levelOf(step.step.from) !== level) break;
    if (kept.has(step.index)) continue;
    const stepped = files[step.index];
    const undo = measure.mark();
    // A file listed at once goes back to the view its steps reach (rendered now): the view it
    // would have been listed from, whose level it is at.
    const back = step.restore ? await step.restore() : { file: step.previous, steps: [] };
    const from = step.restore ? back.file.view : step.step.from;
    if (level !== undefined && levelOf(from) !== level) {
      files[step.index] = stepped;
      break;
    }
    files[step.index] = back.file;
    await measure.remeasure([step.index]);
    if (measure.total > budget) {
      files[step.index] = stepped;
      undo();
      // Each file listed at once is rendered to be tried: a few are, not the whole tree's.
      if (step.restore && ++missed >= MAX_RENDERED_TRIES) break;
      kept.add(step.index);
      level = levelOf(from);
      continue;
    }
    applied.splice(i, 1, ...back.steps);
    // The steps a file listed at once came back with are tried next, the last first, as the next
    // build's take-back tries them (they are the last steps of its memory): else that build takes
    // back what this one left, and an unchanged tree's document changes.
    i += back.steps.length;
    takenBack?.();
  }
}

/** The level of the ladder a view is at (`custom` and `masked` at `full`'s). */
function levelOf(view: string): number {
  return Math.floor(rankOf(view));
}

/**
 * Most files listed at once that the take-back renders and finds too large to take back, before
 * it stops (each is rendered in its views to be tried).
 */
const MAX_RENDERED_TRIES = 16;

/**
 * What a planner calls with the tokens each step saved: the running total, told to
 * `onProgress` when it grew (at most `over`); told once at 0 as the steps start.
 */
function shedCounter(over: number, options: FitOptions): ((saved: number) => void) | undefined {
  const tell = options.onProgress;
  if (!tell) return undefined;
  let shed = 0;
  tell(shed, over);
  return (saved) => {
    const next = Math.min(over, shed + saved);
    if (next <= shed) return;
    shed = next;
    tell(shed, over);
  };
}

/**
 * Sum of block tokens (the manifest's `total.tokens`).
 *
 * @example
 * ```ts
 * import { totalTokens } from "./budget.ts";
 * // totalTokens(result.blocks) === result.manifest.total.tokens
 * ```
 */
export function totalTokens(blocks: PlacedBlock[]): number {
  return sumTokens(blocks);
}

/** A step taken: what it was, where, and the file before it (to take it back). */
interface Applied {
  step: StepDown;
  index: number;
  previous: RenderedFile;
  /**
   * Set on a file listed from a view the ladder's reduced views could still shrink: taking the
   * step back puts the file in the view those steps reach (its steps returned with it), not back
   * in `previous`.
   */
  restore?: () => Promise<{ file: RenderedFile; steps: Applied[] }>;
}

/** A planner's options: the budget's, and what to tell of the tokens each step saves. */
interface PlanOptions extends FitOptions {
  /** Told of the tokens each step taken saved (estimated). */
  saved?: (tokens: number) => void;
}

interface Planner {
  /** The steps are over: the views may let their threads go. */
  done(): void;
  /** Apply steps until an estimated `over` tokens are saved; returns the steps taken. */
  step(over: number, tokens: Map<string, number>): Promise<Applied[]>;
  /** Apply the remembered steps that are still valid, in their order; returns the steps taken. */
  replay(steps: StepDown[], tokens: Map<string, number>): Promise<Applied[]>;
}

/** The change counts from git, for a plan given none (a log git refuses to read warns). */
function gitChanges(options: PlanOptions): Promise<Map<string, number>> {
  return changeCounts(options.config.root, undefined, { warn: options.transform.warn });
}

async function planner(
  files: RenderedFile[],
  tokens: Map<string, number>,
  options: PlanOptions,
): Promise<Planner> {
  const { config, registry } = options;
  await loadFocusGlobs(config);
  const focus = focusOf(config, options.sources.map((s) => s.path));
  const isFocus = (path: string) => focus(path) || options.keep?.has(path) === true;
  const sources = new Map(options.sources.map((s) => [s.path, s]));
  const changes = options.changes ?? await gitChanges(options);
  const index = new Map(files.map((f, i) => [f.path, i]));
  const candidates = stepOrder(files, { size: tokens, isFocus, sources, changes });
  const targets = LADDER.slice(1).filter((v) => v === LISTED || findViewMode(registry, v));
  const candidate = new Set(candidates);
  const state = planState(files, { index, sources, options, candidate, targets });
  const take = (path: string, target: string, steps: Applied[]) =>
    takeStep(state, { path, target, steps });
  const reset = (tokens: Map<string, number>) => resetEstimates(state, tokens);

  const done = prepareOnMiss(state, targets, candidates);
  return {
    done,
    step(over, tokens) {
      reset(tokens);
      return stepRound(state, { candidates, targets, take }, over, tokens);
    },
    async replay(remembered, tokens) {
      const steps: Applied[] = [];
      reset(tokens);
      const valid = remembered.filter((s) => candidate.has(s.path) && targets.includes(s.to));
      const order = valid.map((s) => ({ path: s.path, view: firstAsked(s, targets) }));
      for (const [i, { path, from, to }] of valid.entries()) {
        if (files[index.get(path)!].view !== from) continue;
        state.renders.fill(order, i);
        // Asked as the first build asked it, view by view down the ladder: the same view's
        // fallback, and so the same notes (a skeleton not taken, then an outline that fell back).
        let saved = 0;
        for (const asked of askedViews({ from, to }, targets)) {
          saved = await takeStep(state, { path, target: asked, steps, reaching: to });
          if (saved) break;
        }
        if (!saved && order[i].view !== to) await take(path, to, steps);
      }
      return steps;
    },
  };
}

/** How a planner takes steps: the files in their step order, the views down the ladder. */
interface RoundPlan {
  candidates: string[];
  targets: string[];
  take: (path: string, target: string, steps: Applied[]) => Promise<number>;
}

/** The estimates of a planner's state set to `tokens` (the document as last measured). */
function resetEstimates(state: PlanState, tokens: Map<string, number>): void {
  state.estimate.clear();
  for (const [path, n] of tokens) state.estimate.set(path, n);
}

/** One round of a planner's steps, until an estimated `over` tokens are saved. */
async function stepRound(
  state: PlanState,
  { candidates, targets, take }: RoundPlan,
  over: number,
  tokens: Map<string, number>,
): Promise<Applied[]> {
  const steps: Applied[] = [];
  // The candidates' tokens the document has room for.
  let room = -over;
  for (const path of candidates) room += await estimateOf(state, path);
  // So far over that files must be listed: the listed ones are decided from the last file
  // back (the files that stay are rendered, those listed are not).
  if (await headingsOver(state, candidates, room)) {
    if (await listFromTail(state, { candidates, room, steps })) return steps;
  }
  for (const target of targets) {
    if (target === LISTED && over > 0) {
      await listHead(state, { candidates, room, steps, start: tokens });
      return steps;
    }
    const order = candidates.map((path) => ({ path, view: target }));
    for (const [i, { path }] of order.entries()) {
      if (over <= 0) return steps;
      state.renders.fill(order, i);
      over -= await take(path, target, steps);
    }
  }
  return steps;
}

/**
 * The files that may step down, in the order they do: rendered, not in focus and not forced
 * full; least changed first, then the largest (block tokens), then by path.
 */
function stepOrder(
  files: RenderedFile[],
  context: {
    size: Map<string, number>;
    isFocus: (path: string) => boolean;
    sources: Map<string, SourceFile>;
    changes: Map<string, number>;
  },
): string[] {
  const { isFocus, sources, changes, size } = context;
  return files
    .filter((f) =>
      f.status === "rendered" && !isFocus(f.path) && !sources.get(f.path)?.entry.forceFull
    )
    .map((f) => f.path)
    .sort((a, b) =>
      (changes.get(a) ?? 0) - (changes.get(b) ?? 0) ||
      (size.get(b) ?? 0) - (size.get(a) ?? 0) ||
      (a < b ? -1 : a > b ? 1 : 0)
    );
}

/** What a planner's steps share: the files (stepped in place), what was tried, the estimates. */
interface PlanState {
  files: RenderedFile[];
  /** Each file's index in `files`, by path. */
  index: Map<string, number>;
  sources: Map<string, SourceFile>;
  options: PlanOptions;
  /** Steps tried (`path\0view`), each once. */
  tried: Set<string>;
  /** Block tokens now; a stepped file is estimated as its new body plus its heading and fence. */
  estimate: Map<string, number>;
  /** The step renders, a batch ahead of the steps (`_budget_ahead.ts`). */
  renders: StepRenders;
  /** Told of each file a step rendered. */
  rendered?: (file: RenderedFile) => void;
  /** The views of the ladder the registry has, `listed` last. */
  targets: string[];
  /** Each path's heading tokens (`### path`), the least its block can be, once counted. */
  headings: Map<string, number>;
}

/**
 * Get the step views ready (the code views keep their threads between the batches) once
 * {@linkcode PREPARE_MISSES} steps were not in the cache: a rebuild whose steps are cached but an
 * edited file's starts no thread. Returns the function that tells them the steps are over.
 */
function prepareOnMiss(state: PlanState, targets: string[], candidates: string[]): () => void {
  const { registry } = state.options;
  let done: (() => void) | undefined;
  let misses = 0;
  state.rendered = (file) => {
    if (done || file.cache !== "miss" || ++misses < PREPARE_MISSES) return;
    const views = targets.map((v) => findViewMode(registry, v)).filter((p) => p !== undefined);
    const chars = (path: string) => state.sources.get(path)?.size ?? 0;
    done = prepareSteps(views, candidates.map((path) => ({ path, chars: chars(path) })));
  };
  return () => done?.();
}

/** Steps rendered, not taken from the cache, before the step views get ready. */
const PREPARE_MISSES = 8;

/** A planner's state, its step renders batched ahead of the planner's order. */
function planState(
  files: RenderedFile[],
  context: Pick<PlanState, "index" | "sources" | "options" | "targets"> & {
    candidate: Set<string>;
  },
): PlanState {
  const { index, sources, options, candidate, targets } = context;
  const tried = new Set<string>();
  const state = {
    files,
    index,
    sources,
    options,
    tried,
    targets,
    estimate: new Map(),
    headings: new Map(),
  } as PlanState;
  // A step the planner may still render: a candidate, not tried, and a step down from its view.
  const wanted = ({ path, view }: StepView) =>
    view !== LISTED && candidate.has(path) && !tried.has(`${path}\0${view}`) &&
    rankOf(files[index.get(path)!].view) < RANK[view] &&
    !otherKind(options.registry, files[index.get(path)!].view, { path, view });
  state.renders = stepRenders({
    render: async (step, warn) => {
      const file = await renderStep(state, step, warn);
      if (file) state.rendered?.(file);
      return file;
    },
    wanted,
    bytes: (path) => sources.get(path)?.size ?? 0,
    warn: options.transform.warn,
  });
  return state;
}

/** The file rendered in `view` (listed: skipped); undefined when it does not render. */
async function renderStep(
  state: PlanState,
  step: StepView,
  warn: (message: string) => void,
): Promise<RenderedFile | undefined> {
  const { path, view } = step;
  const { config, registry } = state.options;
  const current = state.files[state.index.get(path)!];
  if (view === LISTED) {
    return {
      ...current,
      view: LISTED,
      status: "skipped",
      reason: "stepped down to fit the token budget",
      text: undefined,
    };
  }
  // Its text read again when the view needs it (the build let the texts go, `_budget_source.ts`).
  const source = stepSource(state.sources.get(path)!, config);
  const [out] = await transformFiles([source], config, registry, {
    ...state.options.transform,
    warn,
    onFile: undefined,
    viewOf: () => view,
  });
  return out.status === "rendered" ? out : undefined;
}

/**
 * The view a build without memory asks first to step a file from `from` to `to`: the next view of
 * the ladder. A view that does not take the file falls back (a skeleton of `.md` is a summary),
 * so a step from `full` to `summary` was most often asked as `skeleton`, and its notes say so; a
 * build that asked `summary` at once gave the same document with other notes.
 */
function firstAsked(step: StepDown, targets: string[]): string {
  if (step.to === LISTED) return step.to;
  return targets.find((view) => RANK[view] > rankOf(step.from)) ?? step.to;
}

/**
 * The views a build without memory asks, in turn, to step a file from `from` to `to`: those of the
 * ladder after `from`, up to `to` (see {@linkcode firstAsked}).
 */
function askedViews(step: Pick<StepDown, "from" | "to">, targets: string[]): string[] {
  if (step.to === LISTED) return [step.to];
  const asked = targets.filter((view) =>
    RANK[view] > rankOf(step.from) && RANK[view] <= RANK[step.to]
  );
  return asked.length ? asked : [step.to];
}

/**
 * Step `path` down to `target`; the tokens saved (estimated), or 0 when it was not taken (also
 * when `reaching` is given and the render is in another view).
 */
async function takeStep(
  state: PlanState,
  step: { path: string; target: string; steps: Applied[]; reaching?: string },
): Promise<number> {
  const { path, target, steps } = step;
  const { files, index, tried, estimate } = state;
  const tokenizer = state.options.config.budget.tokenizer;
  const current = files[index.get(path)!];
  const key = `${path}\0${target}`;
  if (tried.has(key) || rankOf(current.view) >= RANK[target]) return 0;
  if (otherKind(state.options.registry, current.view, { path, view: target })) return 0;
  tried.add(key);
  const next = await state.renders.render({ path, view: target });
  if (!next || rankOf(next.view) <= rankOf(current.view)) return 0;
  if (step.reaching !== undefined && next.view !== step.reaching) return 0;
  // Counted once: a warm build's steps find their counts in the build's cache.
  const counted = { tokenizer, cache: state.options.transform.cache };
  const old = await estimateOf(state, path);
  const now = next.text === undefined
    ? 0
    : await cachedTokens(`### ${path}\n\n\`\`\`\n${next.text}\n\`\`\`\n\n`, counted);
  const saved = old - now;
  if (saved <= 0) return 0;
  estimate.set(path, now);
  state.options.saved?.(saved);
  const note = `stepped down from ${current.view} to ${next.view} to fit the token budget`;
  const at = index.get(path)!;
  files[at] = { ...next, notes: [...(next.notes ?? []), note] };
  const taken: Applied = {
    step: { path, from: current.view, to: next.view },
    index: at,
    previous: current,
  };
  if (target === LISTED && rankOf(current.view) < RANK.summary) {
    taken.restore = () => reduced(state, { path, previous: current, old });
  }
  steps.push(taken);
  return saved;
}

/**
 * A file's block tokens as the round estimates them: its block's, or its text counted (a file
 * without a block of its own), kept as its estimate.
 */
async function estimateOf(state: PlanState, path: string): Promise<number> {
  const known = state.estimate.get(path);
  if (known !== undefined) return known;
  const { tokenizer } = state.options.config.budget;
  const text = state.files[state.index.get(path)!].text ?? "";
  // Counted once: a warm build's steps find their counts in the build's cache.
  const tokens = await cachedTokens(text, { tokenizer, cache: state.options.transform.cache });
  state.estimate.set(path, tokens);
  return tokens;
}

/**
 * A listed file put back in the view the ladder's steps reach from `previous` (rendered now, as
 * the steps render it), and those steps.
 */
async function reduced(
  state: PlanState,
  listed: { path: string; previous: RenderedFile; old: number },
): Promise<{ file: RenderedFile; steps: Applied[] }> {
  const { path, previous, old } = listed;
  const at = state.index.get(path)!;
  state.files[at] = previous;
  state.estimate.set(path, old);
  const steps: Applied[] = [];
  for (const target of state.targets) {
    if (target === LISTED) continue;
    state.tried.delete(`${path}\0${target}`);
    await takeStep(state, { path, target, steps });
  }
  return { file: state.files[at], steps };
}

/**
 * Whether the candidates' headings alone (`### path`, the least a block can be) are over
 * `room`: then some files must be listed, whatever views the others take.
 */
async function headingsOver(
  state: PlanState,
  candidates: string[],
  room: number,
): Promise<boolean> {
  const tokenizer = state.options.config.budget.tokenizer;
  let least = 0;
  for (const path of candidates) {
    if (least > room) return true;
    if (rankOf(state.files[state.index.get(path)!].view) >= RANK[LISTED]) continue;
    let heading = state.headings.get(path);
    if (heading === undefined) {
      heading = await countTokens(`### ${path}\n\n`, tokenizer);
      state.headings.set(path, heading);
    }
    least += Math.min(heading, state.estimate.get(path) ?? 0);
  }
  return least > room;
}

/**
 * The last of `candidates` (in their order) that a round lists: the files from it on, in the views
 * they reached, are over `room` (-1: none is listed).
 */
function lastListed(candidates: string[], estimate: Map<string, number>, room: number): number {
  let tokens = 0;
  for (let at = candidates.length - 1; at >= 0; at--) {
    tokens += estimate.get(candidates[at]) ?? 0;
    if (tokens > room) return at;
  }
  return -1;
}

/** List `candidates` up to `last`, in their order. */
async function listUpTo(state: PlanState, candidates: string[], last: number, steps: Applied[]) {
  for (let at = 0; at <= last; at++) {
    await takeStep(state, { path: candidates[at], target: LISTED, steps });
  }
}

/**
 * A round's listing, after its other steps: the files the ladder lists are those before the
 * last whose views from it on are over `room` ({@linkcode lastListed}). Those before that one are
 * listed from the view the round found them in, their other steps of the round dropped: the same
 * steps as {@linkcode listFromTail} takes without rendering them.
 */
async function listHead(
  state: PlanState,
  round: { candidates: string[]; room: number; steps: Applied[]; start: Map<string, number> },
): Promise<void> {
  const { candidates, room, steps, start } = round;
  const last = lastListed(candidates, state.estimate, room);
  const head = new Set(candidates.slice(0, Math.max(last, 0)));
  for (const step of steps.toReversed()) {
    if (!head.has(step.step.path)) continue;
    state.files[step.index] = step.previous;
    const was = start.get(step.step.path);
    if (was === undefined) state.estimate.delete(step.step.path);
    else state.estimate.set(step.step.path, was);
  }
  const kept = steps.filter((step) => !head.has(step.step.path));
  steps.splice(0, steps.length, ...kept);
  await listUpTo(state, candidates, last, steps);
}

/**
 * A round that lists files, planned from the last candidate back: the files are stepped through
 * the ladder's views a batch at a time (each batch's first views, then its second ones), until
 * those stepped are over `room`; that file and every one before it are listed, the others keep
 * their steps (in the ladder's order: every first step, then every second). The files listed
 * before the last are never rendered in another view, but for those of its batch (whose steps
 * are dropped). False (nothing stepped) when every file fits in the views it reaches: the round
 * takes the ladder's steps.
 */
async function listFromTail(
  state: PlanState,
  round: { candidates: string[]; room: number; steps: Applied[] },
): Promise<boolean> {
  const { candidates, room, steps } = round;
  const views = state.targets.filter((view) => view !== LISTED);
  const taken: Array<{ view: number; at: number; step: Applied }> = [];
  const asked: string[] = [];
  // Each file's place and estimate before its steps.
  const start = new Map<string, { at: number; was: number | undefined }>();
  let tokens = 0;
  let last = -1;
  for (let end = candidates.length, size = FIRST_BATCH; end > 0 && last < 0;) {
    const batch = candidates.slice(Math.max(0, end - size), end).reverse();
    for (const [i, path] of batch.entries()) {
      start.set(path, { at: end - 1 - i, was: state.estimate.get(path) });
    }
    for (const [view, target] of views.entries()) {
      const order = batch.map((path) => ({ path, view: target }));
      for (const [i, { path }] of order.entries()) {
        if (!state.tried.has(`${path}\0${target}`)) asked.push(`${path}\0${target}`);
        state.renders.fill(order, i);
        const mine: Applied[] = [];
        await takeStep(state, { path, target, steps: mine });
        for (const step of mine) taken.push({ view, at: end - 1 - i, step });
      }
    }
    for (const [i, path] of batch.entries()) {
      tokens += state.estimate.get(path) ?? 0;
      if (tokens > room) {
        last = end - 1 - i;
        break;
      }
    }
    end -= batch.length;
    size = Math.min(size * 2, MAX_BATCH);
  }
  // The files before the last listed, stepped with it in its batch, go back to how they were.
  const back = (at: number) => last < 0 || at < last;
  for (const { at, step } of taken.toReversed()) {
    if (back(at)) state.files[step.index] = step.previous;
  }
  for (const [path, { at, was }] of start) {
    if (!back(at)) continue;
    if (was === undefined) state.estimate.delete(path);
    else state.estimate.set(path, was);
  }
  if (last < 0) {
    for (const key of asked) state.tried.delete(key);
    return false;
  }
  const kept = taken.filter((t) => !back(t.at)).sort((a, b) => a.view - b.view || a.at - b.at);
  steps.push(...kept.map((t) => t.step));
  await listUpTo(state, candidates, last, steps);
  return true;
}

/**
 * Whether a step's view is made for other kinds of file than one a view made for its kind shows
 * (`cells`, for `.ipynb`): both list their endings and the step's leaves the file's out (the code
 * views), so it would only fall back to `summary` with a note that it does not support the file.
 */
function otherKind(registry: Registry, from: string, { path, view }: StepView): boolean {
  const ext = extname(path).toLowerCase();
  const own = findViewMode(registry, from)?.extensions;
  const step = findViewMode(registry, view)?.extensions;
  return !!ext && !!own?.includes(ext) && !!step && !step.includes(ext);
}

/**
 * How reduced a view is: 0 for `full` (and views not in the ladder), up to 4 for `listed`.
 *
 * @example
 * ```ts
 * import { rankOf } from "./budget.ts";
 * rankOf("skeleton"); // 1
 * ```
 */
export function rankOf(view: string): number {
  return RANK[view] ?? 0;
}

/**
 * How often each file changed in the last `commits` commits (`git log`),
 * by path relative to `root`; empty outside git. When git refuses a value of its
 * config (`color.diff.new = notacolor` fails every `git log`, not the listing),
 * `options.warn` gets git's line, which names the key.
 *
 * @example
 * ```ts
 * import { changeCounts } from "./budget.ts";
 * // (await changeCounts("/repo")).get("src/a.ts"); // 3
 * ```
 */
export async function changeCounts(
  root: string,
  commits = 200,
  options: { warn?: (message: string) => void } = {},
): Promise<Map<string, number>> {
  const answer = await gitOutput(
    // --no-renames: git's rename detection reads the files' contents, which a partial clone
    // (--filter=blob:none) has not fetched: git would fetch them, or fail offline. The counts of
    // the paths that exist are the same either way. -z: each path as it is, ended by a NUL (git
    // quotes a name with a quote, a backslash or a control character on a line of its own).
    ["log", `-n${commits}`, "-z", "--format=", "--name-only", "--no-renames", "--relative"],
    root,
  );
  const out = typeof answer === "object" && "out" in answer ? answer.out : undefined;
  // A log that fails for want of commits, or outside git, says nothing; one that fails on the
  // user's config would leave every budget unordered by history with no word.
  const refused = configRefusal(answer);
  if (refused) {
    warnRefusedOnce(options.warn, refused);
  }
  const counts = new Map<string, number>();
  for (const path of out?.split("\0") ?? []) {
    if (path) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return counts;
}
