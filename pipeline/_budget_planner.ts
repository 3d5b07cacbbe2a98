/**
 * The budget's planner: the steps of a round, the remembered steps replayed, in the files' step
 * order and down the ladder (part of `budget.ts`, which measures and takes steps back).
 *
 * @module
 */

import { askedViews, firstAsked, LADDER, LISTED } from "./_budget_ladder.ts";
import { headingsOver, listFromTail, listHead, type TailRound } from "./_budget_listing.ts";
import { changeCounts, stepOrder } from "./_budget_order.ts";
import {
  type Applied,
  estimateOf,
  type PlanOptions,
  type PlanState,
  planState,
  prepareOnMiss,
  resetEstimates,
  takeStep,
} from "./_budget_state.ts";
import { findViewMode } from "./registry.ts";
import { focusOf, loadFocusGlobs } from "./transform.ts";
import type { RenderedFile, StepDown } from "./types.ts";

/** A budget's planner: its rounds of steps and its replay of the remembered ones. */
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

/**
 * The planner of a budget's steps over `files` (stepped in place), whose block tokens are
 * `tokens`: the files that may step, in their step order, and the ladder's views the registry has.
 *
 * @example
 * ```ts
 * import { planner } from "./_budget_planner.ts";
 * // const plan = await planner(files, measure.tokens, options);
 * // try {
 * //   const steps = await plan.step(over, measure.tokens);
 * // } finally {
 * //   plan.done();
 * // }
 * ```
 */
export async function planner(
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

/**
 * Whether the round lists files, decided from the last file back ({@linkcode listFromTail}: the
 * files that stay are rendered, those listed are not), and took its steps. Certain when even the
 * files' headings are over the room. Else tried when the room is less than what is over (the
 * views must shed more than half of the candidates' tokens, as with a budget a hundredth of the
 * tree), until the files stepped from the tail held more than `over` tokens: the ladder, were no
 * file listed, renders at least that much from the head (each step saves at most its file's
 * tokens), so a try that gives up costs a few times the ladder's least; one that lists spares the
 * ladder's renders of every file it lists, in every view. The steps are the ladder's either way
 * (`listHead` lists the same files from the tail); the warnings of a try that gives up are
 * dropped, as the ladder tells them again.
 */
async function listedFirst(state: PlanState, round: TailRound, over: number): Promise<boolean> {
  if (await headingsOver(state, round.candidates, round.room)) {
    return await listFromTail(state, round);
  }
  if (round.room >= over) return false;
  const unmute = state.renders.mute();
  let listed = false;
  try {
    listed = await listFromTail(state, { ...round, upTo: over });
  } finally {
    const warnings = unmute();
    if (listed) warnings.forEach(state.options.transform.warn);
  }
  return listed;
}

/** How a planner takes steps: the files in their step order, the views down the ladder. */
interface RoundPlan {
  candidates: string[];
  targets: string[];
  take: (path: string, target: string, steps: Applied[]) => Promise<number>;
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
  if (await listedFirst(state, { candidates, room, steps }, over)) return steps;
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
