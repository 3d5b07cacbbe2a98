/**
 * The budget's step renders, a batch at a time. The budget (`budget.ts`)
 * takes its steps one after another in a fixed order and stops as soon as
 * the document fits; rendered one at a time, each step waited for its own
 * file's read, its own turn of the code views' pool (which started no worker
 * for one file) and its own parse. Here the next steps of the order are
 * rendered together, so their reads overlap and the pool gets enough code at
 * once to render it on all its threads. A render gives the same bytes
 * whenever it runs (it depends on the file, the view and the config), so a
 * step taken from a batch is the step rendered alone; its warnings are held
 * and told when the budget takes the step, in the order it would have told
 * them, and the renders of steps the budget never takes are dropped with
 * their warnings. Batches grow from {@linkcode FIRST_BATCH} to
 * {@linkcode MAX_BATCH} steps (and at most {@linkcode MAX_BATCH_BYTES} of
 * source), so a round that needs few steps renders few ahead.
 *
 * @module
 */

import type { RenderedFile, ViewModePlugin } from "./types.ts";
import { prepareView } from "./registry.ts";

/** Steps rendered in the first batch of a fitting. */
export const FIRST_BATCH = 4;
/** Most steps in one batch (each batch is twice the one before, up to this). */
export const MAX_BATCH = 64;
/** Most bytes of source in one batch (a file larger than this is a batch alone). */
export const MAX_BATCH_BYTES: number = 8 * 1024 * 1024;

/** A step to render: a file and the view it steps to. */
export interface StepView {
  path: string;
  view: string;
}

/** A step rendered: the file (undefined when it did not render) and the warnings it gave. */
interface Rendered {
  file: RenderedFile | undefined;
  warnings: string[];
}

/** What {@linkcode stepRenders} needs of the budget. */
export interface AheadOptions {
  /** Render a step, telling its warnings to `warn` (the budget's one render of a step). */
  render(step: StepView, warn: (message: string) => void): Promise<RenderedFile | undefined>;
  /** Whether the budget may still render this step (not tried, and a step down from its view). */
  wanted(step: StepView): boolean;
  /** The file's size in bytes (for the batch's bound). */
  bytes(path: string): number;
  /** Where held warnings are told. */
  warn(message: string): void;
}

/** The budget's step renders (see {@linkcode stepRenders}). */
export interface StepRenders {
  /** Render the steps of `order` from `at` on that are wanted, a batch, unless `order[at]` is rendered already. */
  fill(order: StepView[], at: number): void;
  /** The step rendered (from its batch, its warnings told now, or alone). */
  render(step: StepView): Promise<RenderedFile | undefined>;
  /** How many steps were rendered, and how many of them ahead (work counted by the tests). */
  readonly counts: { rendered: number; ahead: number };
  /**
   * Hold the warnings of the steps taken from now on, untold, until the function returned is
   * called: it gives them back, in order, and the warnings that follow are told again.
   */
  mute(): () => string[];
}

/**
 * Step renders that fill batches ahead of the budget's order.
 *
 * @example
 * ```ts
 * import { stepRenders } from "./_budget_ahead.ts";
 * // const renders = stepRenders({ render, wanted, bytes, warn });
 * // renders.fill(order, i);
 * // const file = await renders.render(order[i]);
 * ```
 */
export function stepRenders(options: AheadOptions): StepRenders {
  const held = new Map<string, Promise<Rendered>>();
  const counts = { rendered: 0, ahead: 0 };
  const keyOf = (step: StepView) => `${step.path}\0${step.view}`;
  let size = FIRST_BATCH;
  let muted: string[] | undefined;
  const warn = (message: string) => {
    if (muted) muted.push(message);
    else options.warn(message);
  };
  const renderHeld = (step: StepView): Promise<Rendered> => {
    const warnings: string[] = [];
    counts.rendered++;
    counts.ahead++;
    return options.render(step, (m) => warnings.push(m)).then((file) => ({ file, warnings }));
  };
  return {
    counts,
    mute() {
      const held: string[] = muted = [];
      return () => {
        muted = undefined;
        return held;
      };
    },
    fill(order, at) {
      const first = order[at];
      if (!first || held.has(keyOf(first)) || !options.wanted(first)) return;
      // A file with a step held is left for a later batch (its steps render one after another).
      const busy = new Set([...held.keys()].map((key) => key.slice(0, key.indexOf("\0"))));
      const wanted = (step: StepView) => !busy.has(step.path) && options.wanted(step);
      const batch = nextBatch(order, at, { size, wanted, bytes: options.bytes });
      // Only a batch of two or more is ahead of the budget: one step is rendered when taken.
      if (batch.length < 2) return;
      size = Math.min(size * 2, MAX_BATCH);
      for (const step of batch) {
        const rendering = renderHeld(step);
        // A render that fails is the budget's error when it takes the step, none when it never does.
        rendering.catch(() => {});
        held.set(keyOf(step), rendering);
      }
    },
    async render(step) {
      const key = keyOf(step);
      const ahead = held.get(key);
      if (!ahead) {
        counts.rendered++;
        return await options.render(step, warn);
      }
      held.delete(key);
      const { file, warnings } = await ahead;
      warnings.forEach(warn);
      return file;
    },
  };
}

/**
 * The wanted steps of `order` from `at` on, at most `size` of them and
 * {@linkcode MAX_BATCH_BYTES} of source, each file once (a file's steps
 * render one after another: one read of a file changed since the build).
 */
function nextBatch(
  order: StepView[],
  at: number,
  limits: { size: number; wanted: (step: StepView) => boolean; bytes: (path: string) => number },
): StepView[] {
  const batch: StepView[] = [];
  const paths = new Set<string>();
  let bytes = 0;
  for (let i = at; i < order.length && batch.length < limits.size; i++) {
    const step = order[i];
    if (paths.has(step.path) || !limits.wanted(step)) continue;
    const size = limits.bytes(step.path);
    if (batch.length && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(step);
    paths.add(step.path);
    bytes += size;
  }
  return batch;
}

/**
 * Tell the view modes of the budget's steps which files they may render
 * (their `prepare` hook: the code views keep their threads between the
 * budget's batches instead of starting them again for each); returns the
 * function that tells them the budget is done. Getting ready never changes
 * what a view renders.
 *
 * @example
 * ```ts
 * import { prepareSteps } from "./_budget_ahead.ts";
 * // const done = prepareSteps([outline], [{ path: "a.py", chars: 2048 }], { warn });
 * // ... the steps ...
 * // done();
 * ```
 */
export function prepareSteps(
  views: ViewModePlugin[],
  files: Array<{ path: string; chars: number }>,
  options: { warn?: (message: string) => void } = {},
): () => void {
  const done: Array<() => void> = [];
  for (const plugin of new Set(views)) {
    const release = prepareView(plugin, files, options);
    if (release) done.push(release);
  }
  return () => done.forEach((release) => release());
}
