/**
 * A budget round's listing: which files are listed only (in the manifest, not the document) when
 * the others' views cannot make room, decided from the end of the step order (part of
 * `budget.ts`).
 *
 * @module
 */

import { FIRST_BATCH, MAX_BATCH } from "./_budget_ahead.ts";
import { LISTED, RANK, rankOf } from "./_budget_ladder.ts";
import { type Applied, type PlanState, takeStep } from "./_budget_state.ts";
import { countTokens } from "./tokens.ts";

/**
 * Whether the candidates' headings alone (`### path`, the least a block can be) are over
 * `room`: then some files must be listed, whatever views the others take.
 *
 * @example
 * ```ts
 * import { headingsOver } from "./_budget_listing.ts";
 * // if (await headingsOver(state, candidates, room)) await listFromTail(state, { candidates, room, steps });
 * ```
 */
export async function headingsOver(
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
 *
 * @example
 * ```ts
 * import { listHead } from "./_budget_listing.ts";
 * // await listHead(state, { candidates, room, steps, start: tokens });
 * ```
 */
export async function listHead(
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

/** A round's listing from its tail ({@linkcode listFromTail}): what it asks of a round. */
export interface TailRound {
  candidates: string[];
  room: number;
  steps: Applied[];
  /**
   * Give up (nothing stepped, as when every file fits) once the files stepped from the tail held
   * more than this many tokens before their steps and none is listed yet. @default {Infinity}
   */
  upTo?: number;
}

/**
 * A round that lists files, planned from the last candidate back: the files are stepped through
 * the ladder's views a batch at a time (each batch's first views, then its second ones), until
 * those stepped are over `room`; that file and every one before it are listed, the others keep
 * their steps (in the ladder's order: every first step, then every second). The files listed
 * before the last are never rendered in another view, but for those of its batch (whose steps
 * are dropped). False (nothing stepped) when every file fits in the views it reaches, or when the
 * files stepped held more than `upTo` tokens before a file had to be listed: the round takes the
 * ladder's steps.
 *
 * @example
 * ```ts
 * import { listFromTail } from "./_budget_listing.ts";
 * // const listed = await listFromTail(state, { candidates, room, steps });
 * ```
 */
export async function listFromTail(state: PlanState, round: TailRound): Promise<boolean> {
  const { candidates, steps } = round;
  const { taken, asked, start, last } = await stepTail(state, round);
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

/** The steps {@linkcode stepTail} took, the steps it asked, each file's place and estimate before. */
interface TailSteps {
  taken: Array<{ view: number; at: number; step: Applied }>;
  asked: string[];
  start: Map<string, { at: number; was: number | undefined }>;
  /** The last file to list, -1 for none. */
  last: number;
}

/**
 * Step the candidates from the last back, a batch at a time through the ladder's views, until
 * those stepped are over `room` (the last file to list found) or, none listed, held more than
 * `upTo` tokens before their steps.
 */
async function stepTail(state: PlanState, round: TailRound): Promise<TailSteps> {
  const { candidates, room } = round;
  const upTo = round.upTo ?? Infinity;
  const views = state.targets.filter((view) => view !== LISTED);
  const out: TailSteps = { taken: [], asked: [], start: new Map(), last: -1 };
  let [tokens, held] = [0, 0];
  for (let end = candidates.length, size = FIRST_BATCH; end > 0 && out.last < 0;) {
    const batch = candidates.slice(Math.max(0, end - size), end).reverse();
    for (const [i, path] of batch.entries()) {
      const was = state.estimate.get(path);
      out.start.set(path, { at: end - 1 - i, was });
      held += was ?? 0;
    }
    for (const [view, target] of views.entries()) {
      const order = batch.map((path) => ({ path, view: target }));
      for (const [i, { path }] of order.entries()) {
        if (!state.tried.has(`${path}\0${target}`)) out.asked.push(`${path}\0${target}`);
        state.renders.fill(order, i);
        const mine: Applied[] = [];
        await takeStep(state, { path, target, steps: mine });
        for (const step of mine) out.taken.push({ view, at: end - 1 - i, step });
      }
    }
    for (const [i, path] of batch.entries()) {
      tokens += state.estimate.get(path) ?? 0;
      if (tokens > room) {
        out.last = end - 1 - i;
        break;
      }
    }
    if (out.last < 0 && held > upTo) break;
    end -= batch.length;
    size = Math.min(size * 2, MAX_BATCH);
  }
  return out;
}
