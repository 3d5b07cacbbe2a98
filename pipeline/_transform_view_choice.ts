/**
 * Which view each file gets by the config's rules (`chooseView`): forced or
 * focus files in full, the strategy's and tier's views, the entry's view,
 * the default view; a large data file the config does not name summarized,
 * a notebook shown as its cells. The transform stage renders with it
 * (`transform.ts`), and the speed layer asks it which views a build will use.
 *
 * @module
 */

import { summarizedByDefault } from "./data_files.ts";
import type { ResolvedConfig, SourceFile } from "./types.ts";

/**
 * The view a Jupyter notebook (`.ipynb`) the config gives no view of gets where it would be shown
 * `full`: its cells' sources and short outputs, not its JSON (`plugins/view_modes/cells.ts`).
 */
export const NOTEBOOK_VIEW = "cells";

/**
 * Which view a file gets (first match wins; `autoAggregate: false` is handled
 * before, the file is listed but not rendered): `forceFull` -> focus files -> strategy overrides -> tier 3
 * -> the entry's `view` -> persona/config `defaultView` -> `full` (`summary` for a data file over
 * its limit that the config does not name: `pipeline/data_files.ts`; `cells` for a notebook the
 * entry gives no view).
 *
 * @example
 * ```ts
 * import { chooseView } from "./transform.ts";
 * // chooseView(file, config) === "full"
 * ```
 */
export function chooseView(file: SourceFile, config: ResolvedConfig, isFocus: boolean): string {
  const ruled = ruledView(file, config, isFocus);
  if (ruled) return ruled;
  // A large data file the config does not name is shown by its shape.
  if (summarizedByDefault(file)) return "summary";
  return notebookOr(file, "full");
}

/**
 * Whether a file is summarized by the data rule alone (`pipeline/data_files.ts`): a data file
 * over its limit that would be shown `full`. One the config shows as a summary anyway (its
 * `defaultView`, a persona, `--strategy summarize`) is not: its summary needs no reason.
 *
 * @example
 * ```ts
 * import { summarizedAsData } from "./_transform_view_choice.ts";
 * // summarizedAsData(file, config, false) === true
 * ```
 */
export function summarizedAsData(
  file: SourceFile,
  config: ResolvedConfig,
  isFocus: boolean,
): boolean {
  return summarizedByDefault(file) && !ruledView(file, config, isFocus);
}

/**
 * The view the config's rules give a file (those of {@linkcode chooseView} before its defaults),
 * or `undefined` where it would be shown `full` by no rule's choice.
 */
function ruledView(file: SourceFile, config: ResolvedConfig, isFocus: boolean): string | undefined {
  if (file.entry.forceFull || config.strategy === "full") return "full";
  // A focus notebook is read as its cells too, unless its entry asks for its JSON.
  if (isFocus) return notebookOr(file, "full");
  if (config.strategy === "summarize") return "summary";
  if (config.summaryOnly) return "summary";
  if (config.tier === 3) return "skeleton";
  const view = file.entry.view ?? config.defaultView ?? "full";
  return view !== "full" || file.entry.view ? view : undefined;
}

/** A notebook is shown as its cells unless its entry gives it a view (`view: "full"`: its JSON). */
function notebookOr(file: SourceFile, view: string): string {
  return !file.entry.view && file.path.toLowerCase().endsWith(".ipynb") ? NOTEBOOK_VIEW : view;
}
