/**
 * What the budget works from: {@linkcode FitOptions} (re-exported by `budget.ts`).
 *
 * @module
 */

import type { Registry } from "./registry.ts";
import type { TransformOptions } from "./transform.ts";
import type { PlacedBlock, RenderedFile, ResolvedConfig, SourceFile, StepDown } from "./types.ts";

/** Options of `fitBudget` (`budget.ts`). */
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
