/**
 * The task section's candidates: every file of the build ranked against the
 * task text as `slop rank` ranks them (the config's weights, git co-change,
 * the names the `skeleton` view reads), keeping those the section may name.
 * `rankNames` is shared with `slop rank`, so both rank with the same names.
 *
 * @module
 */

import { rankFiles, type RankOptions } from "./rank.ts";
import { coChangeFromLog } from "./co_change.ts";
import { findViewMode, isUserPlugin, loadViewModes, prepareView } from "./registry.ts";
import { guardedStore } from "./_plugin_context.ts";
import { LISTED } from "./budget.ts";
import { extensionOf } from "./extension.ts";
import { MAX_TASK_FILES } from "./_task_budget.ts";
import { type FitTaskOptions, taskHistory } from "./_task_inputs.ts";
import type { BuildState, RenderedFile, SourceFile, Store, ViewModePlugin } from "./types.ts";

/**
 * The most ranked files a budgeted task section tries in full (a larger budget holds more than
 * the list names): at 128k the first 100 often leave room that small files ranked after them fill.
 * How many it tries is `triedEnough`'s (`_task_fit.ts`): past 100, only while the room is large.
 */
const MAX_FIT_FILES = 200;

/**
 * The files the task may show, best first: ranked against the task text as `slop rank` ranks.
 *
 * @example
 * ```ts
 * import { taskCandidates } from "./_task_rank.ts";
 * // const candidates = await taskCandidates(state, "fix the parser", { ...options, byPath });
 * // candidates[0]; // { path: "src/parser.py", score: 4.2 }
 * ```
 */
export async function taskCandidates(
  state: BuildState,
  text: string,
  options: FitTaskOptions & { byPath: Map<string, SourceFile> },
): Promise<Array<{ path: string; score: number; code: boolean }>> {
  const { config } = state;
  // Every file of the build, as `slop rank` sees them: by path only when it has no text.
  const inputs = options.sources.map((s) =>
    s.text !== undefined && !s.error && !s.skip ? { path: s.path, text: s.text } : { path: s.path }
  );
  const files = new Map(state.files.map((f) => [f.path, f]));
  // Ranked as `slop rank` ranks: the config's weights, git co-change as a tie-breaker, the names
  // each file defines as the `skeleton` view reads them (the symbol graph).
  await loadViewModes(options.registry, ["skeleton"]);
  const skeleton = findViewMode(options.registry, "skeleton");
  const history = options.history ?? await taskHistory(config);
  const ranked = await rankFiles(inputs, text, {
    weights: config.rank?.weights,
    // `--no-cache`: no store, so no text is hashed for it.
    ...rankNames(skeleton, options.transform.cache?.enabled ? options.transform.cache : undefined),
    coChange: coChangeFromLog(history, inputs.map((f) => f.path)),
    history,
    root: config.root,
  });
  const isCode = codeTest(skeleton, options.byPath);
  return ranked
    .filter((r) => r.score > 0 && isCandidate(files.get(r.path), options.byPath.get(r.path)))
    .slice(0, config.budget.tokens === undefined ? MAX_TASK_FILES : MAX_FIT_FILES)
    .map((r) => ({ path: r.path, score: r.score, code: isCode(r.path) }));
}

/**
 * Whether a file is code, a language slop has a grammar for, as the `skeleton` view tells (by
 * its text when it reads one, a script by its `#!` line, else by its extension): the map and the
 * section count a file that is not a quarter of one that is (`OTHER_FILES`), as the ranking does.
 *
 * @example
 * ```ts
 * import { codeTest } from "./_task_rank.ts";
 * import { skeletonViewMode } from "../plugins/view_modes/skeleton.ts";
 * const isCode = codeTest(skeletonViewMode(), new Map());
 * isCode("src/app.py"); // true
 * isCode("README.md"); // false
 * ```
 */
export function codeTest(
  skeleton: ViewModePlugin | undefined,
  sources: ReadonlyMap<string, SourceFile>,
): (path: string) => boolean {
  return (path) =>
    skeleton?.accepts?.(path, sources.get(path)?.text ?? "") ??
      skeleton?.extensions?.includes(lowerExtension(path)) ?? false;
}

/** A path's extension with its dot, lowercased (`""` for none). */
function lowerExtension(path: string): string {
  return extensionOf(path.slice(path.lastIndexOf("/") + 1)).toLowerCase();
}

/**
 * The ranking's names from the `skeleton` view: kept in `store` (the build's cache: a warm build
 * parses no file again), the view's threads got ready only once a file is parsed (not when every
 * name comes from the store), then kept until the ranking has all names (each ranking with the
 * same options gets them ready again). What a task build and `slop rank` hand to `rankFiles`.
 *
 * @example
 * ```ts
 * import { rankNames } from "./task.ts";
 * import { rankFiles } from "./rank.ts";
 * import { skeletonViewMode } from "../plugins/view_modes/skeleton.ts";
 * const files = [{ path: "a.py", text: "def retry():\n    pass\n" }];
 * await rankFiles(files, "fix retry", rankNames(skeletonViewMode(), undefined));
 * ```
 */
export function rankNames(
  skeleton: ViewModePlugin | undefined,
  store: Store | undefined,
): Pick<RankOptions, "definitions" | "prepareDefinitions"> {
  const names = skeleton?.definitions;
  if (!names) return {};
  // A config's `skeleton` gets the store its `render` gets (`_plugin_context.ts`).
  if (store && isUserPlugin(skeleton)) store = guardedStore(store);
  let files: Array<{ path: string; chars: number }> | undefined;
  let release: (() => void) | void;
  const parsing = () => {
    if (files && !release) release = prepareView(skeleton, files) ?? (() => {});
  };
  return {
    definitions: (path, text) => names({ path, text: text ?? "" }, { store, parsing }),
    prepareDefinitions: (asked) => {
      files = asked;
      return () => {
        files = undefined;
        release?.();
        // The next ranking with these options gets the threads ready again when it parses.
        release = undefined;
      };
    },
  };
}

/** A file the task may name: rendered or stepped down by the budget, with text, not `none`. */
function isCandidate(file: RenderedFile | undefined, source: SourceFile | undefined): boolean {
  if (!file || source?.text === undefined || source.error || source.skip) return false;
  if (source.entry.autoAggregate === false || source.entry.view === "none") return false;
  return file.status === "rendered" || file.view === LISTED;
}
