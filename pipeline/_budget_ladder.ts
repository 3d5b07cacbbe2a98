/**
 * The budget's ladder of views: the steps a file takes, how reduced each view is, and which
 * view a step asks for (part of `budget.ts`, which re-exports `LISTED`, `LADDER` and `rankOf`).
 *
 * @module
 */

import { findViewMode, type Registry } from "./registry.ts";
import { extname } from "./paths.ts";
import type { StepView } from "./_budget_ahead.ts";
import type { StepDown } from "./types.ts";

/** The view name of a file stepped down to "listed only": in the manifest, not in the document. */
export const LISTED = "listed";

/** The steps, most detailed first. */
export const LADDER: string[] = ["full", "skeleton", "outline", "summary", LISTED];

/** How reduced each view already is (views not named here count as `full`). */
export const RANK: Record<string, number> = {
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
 * The level of the ladder a view is at (`custom` and `masked` at `full`'s).
 *
 * @example
 * ```ts
 * import { levelOf } from "./_budget_ladder.ts";
 * levelOf("masked"); // 0, as `full`
 * ```
 */
export function levelOf(view: string): number {
  return Math.floor(rankOf(view));
}

/**
 * The view a build without memory asks first to step a file from `from` to `to`: the next view of
 * the ladder. A view that does not take the file falls back (a skeleton of `.md` is a summary),
 * so a step from `full` to `summary` was most often asked as `skeleton`, and its notes say so; a
 * build that asked `summary` at once gave the same document with other notes.
 *
 * @example
 * ```ts
 * import { firstAsked } from "./_budget_ladder.ts";
 * firstAsked({ path: "a.md", from: "full", to: "summary" }, ["skeleton", "outline", "summary", "listed"]); // "skeleton"
 * ```
 */
export function firstAsked(step: StepDown, targets: string[]): string {
  if (step.to === LISTED) return step.to;
  return targets.find((view) => RANK[view] > rankOf(step.from)) ?? step.to;
}

/**
 * The views a build without memory asks, in turn, to step a file from `from` to `to`: those of the
 * ladder after `from`, up to `to` (see {@linkcode firstAsked}).
 *
 * @example
 * ```ts
 * import { askedViews } from "./_budget_ladder.ts";
 * askedViews({ from: "full", to: "outline" }, ["skeleton", "outline", "summary", "listed"]); // ["skeleton", "outline"]
 * ```
 */
export function askedViews(step: Pick<StepDown, "from" | "to">, targets: string[]): string[] {
  if (step.to === LISTED) return [step.to];
  const asked = targets.filter((view) =>
    RANK[view] > rankOf(step.from) && RANK[view] <= RANK[step.to]
  );
  return asked.length ? asked : [step.to];
}

/**
 * Whether a step's view is made for other kinds of file than one a view made for its kind shows
 * (`cells`, for `.ipynb`): both list their endings and the step's leaves the file's out (the code
 * views), so it would only fall back to `summary` with a note that it does not support the file.
 *
 * @example
 * ```ts
 * import { otherKind } from "./_budget_ladder.ts";
 * // otherKind(registry, "cells", { path: "a.ipynb", view: "skeleton" }); // true
 * ```
 */
export function otherKind(registry: Registry, from: string, { path, view }: StepView): boolean {
  const ext = extname(path).toLowerCase();
  const own = findViewMode(registry, from)?.extensions;
  const step = findViewMode(registry, view)?.extensions;
  return !!ext && !!own?.includes(ext) && !!step && !step.includes(ext);
}
