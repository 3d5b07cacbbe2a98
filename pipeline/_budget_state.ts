/**
 * A budget planner's state and its one step: a file rendered in a view down the ladder, counted,
 * and put in place of the file (part of `budget.ts`; the planner is `_budget_planner.ts`).
 *
 * @module
 */

import { stepSource } from "./_budget_source.ts";
import { prepareSteps, type StepRenders, stepRenders, type StepView } from "./_budget_ahead.ts";
import { LISTED, otherKind, RANK, rankOf } from "./_budget_ladder.ts";
import type { FitOptions } from "./_budget_options.ts";
import { findViewMode } from "./registry.ts";
import { cachedTokens } from "./_cached_tokens.ts";
import { transformFiles } from "./transform.ts";
import type { RenderedFile, SourceFile, StepDown } from "./types.ts";

/** A step taken: what it was, where, and the file before it (to take it back). */
export interface Applied {
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
export interface PlanOptions extends FitOptions {
  /** Told of the tokens each step taken saved (estimated). */
  saved?: (tokens: number) => void;
}

/** What a planner's steps share: the files (stepped in place), what was tried, the estimates. */
export interface PlanState {
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
 * A planner's state, its step renders batched ahead of the planner's order.
 *
 * @example
 * ```ts
 * import { planState } from "./_budget_state.ts";
 * // const state = planState(files, { index, sources, options, candidate, targets });
 * ```
 */
export function planState(
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

/**
 * Get the step views ready (the code views keep their threads between the batches) once
 * {@linkcode PREPARE_MISSES} steps were not in the cache: a rebuild whose steps are cached but an
 * edited file's starts no thread. Returns the function that tells them the steps are over.
 *
 * @example
 * ```ts
 * import { prepareOnMiss } from "./_budget_state.ts";
 * // const done = prepareOnMiss(state, targets, candidates);
 * // ... the steps ...
 * // done();
 * ```
 */
export function prepareOnMiss(
  state: PlanState,
  targets: string[],
  candidates: string[],
): () => void {
  const { registry } = state.options;
  let done: (() => void) | undefined;
  let over = false;
  let misses = 0;
  state.rendered = (file) => {
    // Renders after the steps are over (a step taken back) get nothing ready: no one would
    // release it, and the views would hold their threads (and the process) for nothing.
    if (over || done || file.cache !== "miss" || ++misses < PREPARE_MISSES) return;
    const views = targets.map((v) => findViewMode(registry, v)).filter((p) => p !== undefined);
    const chars = (path: string) => state.sources.get(path)?.size ?? 0;
    const files = candidates.map((path) => ({ path, chars: chars(path) }));
    done = prepareSteps(views, files, { warn: state.options.transform.warn });
  };
  return () => {
    over = true;
    done?.();
  };
}

/** Steps rendered, not taken from the cache, before the step views get ready. */
const PREPARE_MISSES = 8;

/**
 * The estimates of a planner's state set to `tokens` (the document as last measured).
 *
 * @example
 * ```ts
 * import { resetEstimates } from "./_budget_state.ts";
 * // resetEstimates(state, measure.tokens);
 * ```
 */
export function resetEstimates(state: PlanState, tokens: Map<string, number>): void {
  state.estimate.clear();
  for (const [path, n] of tokens) state.estimate.set(path, n);
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
 * Step `path` down to `target`; the tokens saved (estimated), or 0 when it was not taken (also
 * when `reaching` is given and the render is in another view).
 *
 * @example
 * ```ts
 * import { takeStep } from "./_budget_state.ts";
 * // const saved = await takeStep(state, { path: "big.py", target: "skeleton", steps });
 * ```
 */
export async function takeStep(
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
 *
 * @example
 * ```ts
 * import { estimateOf } from "./_budget_state.ts";
 * // const tokens = await estimateOf(state, "big.py");
 * ```
 */
export async function estimateOf(state: PlanState, path: string): Promise<number> {
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
