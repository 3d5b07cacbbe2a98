/**
 * The lists of a tool's data, cut to a length an agent can take in: a budget
 * on a big tree steps down every file (1,600 on redis), and a project full of
 * test credentials redacts hundreds of secrets. Listed whole, they came back
 * beside the inline document and went past what a client accepts from one call
 * (Claude Code: 25,000 tokens). The manifest keeps every item; the data says
 * how many it left out.
 *
 * @module
 */

import type { BudgetReport } from "../pipeline/types.ts";
import { isRedaction, REDACTIONS_SHOWN } from "./_output.ts";

/** How many budget steps and warnings a tool's data lists at most (as the summary's lines). */
const DATA_LIST_MAX = 20;

/** A build's budget report with its first {@linkcode DATA_LIST_MAX} steps, and how many more. */
export type BoundedBudget = BudgetReport & { moreSteppedDown?: number };

/**
 * The budget report with its first steps down (`max`, 20 by default), and
 * `moreSteppedDown` when there were more.
 *
 * @example
 * ```ts
 * import { boundedBudget } from "./_mcp_bounds.ts";
 * const step = { path: "a.ts", from: "full", to: "skeleton" };
 * const report = { tokens: 10, before: 90, after: 9, met: true, steppedDown: Array(25).fill(step) };
 * boundedBudget(report).moreSteppedDown; // 5
 * ```
 */
export function boundedBudget(report: BudgetReport, max = DATA_LIST_MAX): BoundedBudget {
  const more = report.steppedDown.length - max;
  if (more <= 0) return report;
  return {
    ...report,
    steppedDown: report.steppedDown.slice(0, max),
    moreSteppedDown: more,
  };
}

/**
 * A build's warnings as a tool's data gives them: the first
 * {@linkcode REDACTIONS_SHOWN} redactions (as the command prints them) and the
 * first {@linkcode DATA_LIST_MAX} others (`max` of each when given), in their
 * order, with `moreWarnings` when some were left out.
 *
 * @example
 * ```ts
 * import { boundedWarnings } from "./_mcp_bounds.ts";
 * boundedWarnings(["a", "b"]); // { warnings: ["a", "b"] }
 * ```
 */
export function boundedWarnings(
  warnings: string[],
  max?: number,
): { warnings: string[]; moreWarnings?: number } {
  let redactions = 0;
  let others = 0;
  const kept = warnings.filter((warning) =>
    isRedaction(warning)
      ? ++redactions <= (max ?? REDACTIONS_SHOWN)
      : ++others <= (max ?? DATA_LIST_MAX)
  );
  const more = warnings.length - kept.length;
  return more ? { warnings: kept, moreWarnings: more } : { warnings: kept };
}
