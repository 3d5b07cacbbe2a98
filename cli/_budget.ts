/**
 * The budget lines of the build summary.
 *
 * @module
 */

import type { BudgetReport } from "../pipeline/types.ts";
import { formatCount } from "../pipeline/figures.ts";

/** Files listed by name; the manifest's `budget.steppedDown` has them all. */
const LIST_MAX = 20;

/** Options of {@linkcode budgetLines}. */
export interface BudgetLinesOptions {
  /** The tokenizer the budget counts in (`budget.tokenizer`), named beside the counts. @default {"o200k"} */
  tokenizer?: "o200k" | "cl100k";
  /** The files listed by name at most. @default {20} */
  listMax?: number;
}

/**
 * Say whether the budget was met and what was stepped down to meet it.
 *
 * @example
 * ```ts
 * import { budgetLines } from "./_budget.ts";
 * budgetLines({ tokens: 100, before: 80, after: 80, met: true, steppedDown: [] });
 * // ["budget: 80 of 100 o200k tokens, nothing stepped down"]
 * ```
 */
export function budgetLines(report: BudgetReport, options: BudgetLinesOptions = {}): string[] {
  const { tokens, before, after, met, steppedDown } = report;
  const tokenizer = options.tokenizer ?? "o200k";
  const head = met
    ? `budget: ${formatCount(after)} of ${formatCount(tokens)} ${tokenizer} tokens`
    : `budget: NOT MET, ${formatCount(after)} ${tokenizer} tokens for a budget of ${
      formatCount(tokens)
    }`;
  if (!steppedDown.length) return [`${head}, nothing stepped down`];
  const files = new Set(steppedDown.map((s) => s.path)).size;
  const lines = [
    `${head} (${formatCount(before)} before stepping ${formatCount(files)} file${
      files === 1 ? "" : "s"
    } down):`,
  ];
  const chains = new Map<string, string[]>();
  for (const step of steppedDown) {
    const chain = chains.get(step.path);
    if (chain) chain.push(step.to);
    else chains.set(step.path, [step.from, step.to]);
  }
  const max = options.listMax ?? LIST_MAX;
  for (const [path, chain] of [...chains].slice(0, max)) {
    lines.push(`  stepped down: ${path} ${chain.join(" -> ")}`);
  }
  if (chains.size > max) {
    lines.push(
      `  ... and ${formatCount(chains.size - max)} more stepped down (see the manifest's budget)`,
    );
  }
  return lines;
}
