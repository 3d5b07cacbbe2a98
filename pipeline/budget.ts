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
 * This file fits, measures and takes steps back; its parts: the ladder of views
 * (`_budget_ladder.ts`), the order files step in (`_budget_order.ts`), the
 * planner (`_budget_planner.ts`) with its state and one step (`_budget_state.ts`)
 * and its listing (`_budget_listing.ts`), the step renders batched ahead
 * (`_budget_ahead.ts`), the measures (`_budget_measure.ts`) and the options
 * (`_budget_options.ts`).
 *
 * @module
 */

import { levelOf } from "./_budget_ladder.ts";
import type { FitOptions } from "./_budget_options.ts";
import { planner } from "./_budget_planner.ts";
import type { Applied } from "./_budget_state.ts";
import {
  agrees,
  assembledMeasure,
  countedMeasure,
  type Measure,
  sumTokens,
} from "./_budget_measure.ts";
import type { BudgetReport, PlacedBlock, RenderedFile } from "./types.ts";
import { formatCount } from "./figures.ts";

export { LADDER, LISTED, rankOf } from "./_budget_ladder.ts";
export { changeCounts } from "./_budget_order.ts";
export type { FitOptions } from "./_budget_options.ts";

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
      `Token budget of ${formatCount(budget)} cannot be met: the document has ${
        formatCount(total)
      } tokens with every file ` +
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
