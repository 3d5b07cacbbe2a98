/**
 * The task section's entries: which ranked files it shows, in which view,
 * and which it names in its list, within the room the budget leaves
 * (`_task_room.ts`). Files are tried in their own view by expected recall
 * per token (`_task_fit.ts`), the passed-over ones then as skeletons and
 * outlines, the rest named while the list fits.
 *
 * @module
 */

import { chooseView, focusOf, transformFiles } from "./transform.ts";
import { findViewMode } from "./registry.ts";
import { LISTED, rankOf, totalTokens } from "./budget.ts";
import { fitOrder, placeChance, triedEnough } from "./_task_fit.ts";
import { tiedChances } from "./_task_tests.ts";
import { MAX_TASK_FILES, UNBUDGETED_FILES } from "./_task_budget.ts";
import type { FitTaskOptions } from "./_task_inputs.ts";
import { bytesOf, costOf, fits, type Limits, take } from "./_task_room.ts";
import type { PlacedBlock, RenderedFile, ResolvedConfig, SourceFile, TaskEntry } from "./types.ts";

/** The list's heading as the section writes it (an estimate: the document is checked). */
const LIST_HEADING = "Also relevant, most relevant first:\n\n";

/** Views a task file steps down through after its own view, most detailed first. */
const TASK_LADDER = ["skeleton", "outline"];

/** Views that only condense the text: a task shows such a file in `full` instead. */
const CONDENSED = new Set(["full", "skeleton", "outline", "summary", "llm_summary"]);

/** What {@linkcode chooseEntries} works with besides the candidates. */
interface ChooseContext extends Omit<FitTaskOptions, "sources"> {
  config: ResolvedConfig;
  /** The files as the map shows them, by path. */
  files: Map<string, RenderedFile>;
  /** The sources, by path. */
  sources: Map<string, SourceFile>;
}

/**
 * The section's entries, in ranking order. With a budget: first the ranking's first files that
 * cannot fit in full even alone, condensed ({@linkcode condenseTop}); then the candidates in their
 * own view (as many as {@linkcode triedEnough} asks for, in ranking order), tried in the order
 * {@linkcode fitOrder} gives (expected recall per token; one that does not fit is passed over),
 * then the passed-over ones as skeletons, then as outlines, with what is left; then the rest
 * named while the list fits. Without one: the first {@linkcode UNBUDGETED_FILES}
 * that render in their own view. Costs are estimated per block (`### path` and a fence); the
 * caller checks the assembled document.
 *
 * @example
 * ```ts
 * import { chooseEntries } from "./_task_choose.ts";
 * // const entries = await chooseEntries(candidates, limits, placed, ctx);
 * // entries[0]; // { path: "src/parser.py", score: 4.2, where: "task", view: "full", file }
 * ```
 */
export async function chooseEntries(
  candidates: Array<{ path: string; score: number; code?: boolean }>,
  limits: Limits,
  placed: PlacedBlock[],
  ctx: ChooseContext,
): Promise<TaskEntry[]> {
  const { config, files, sources } = ctx;
  const budgeted = config.budget.tokens !== undefined;
  const left = {
    tokens: limits.tokens - totalTokens(placed),
    bytes: limits.bytes - bytesOf(placed),
  };
  const isFocus = focusOf(config, [...sources.keys()]);
  const chosen: TaskEntry[] = candidates.map(({ path, score }) => {
    const current = files.get(path)!;
    const mapView = current.status === "rendered" ? current.view : LISTED;
    return { path, score, where: mapView === LISTED ? "listed" : "map", view: mapView };
  });
  // Each candidate in its own view (`full` for the views that only condense the text).
  const own = (entry: TaskEntry) => {
    const view = chooseView(sources.get(entry.path)!, config, isFocus(entry.path));
    return prepareView(entry, CONDENSED.has(view) ? "full" : view, ctx);
  };
  if (!budgeted) {
    let shown = 0;
    for (const entry of chosen) {
      if (shown >= UNBUDGETED_FILES) break;
      const ready = await own(entry);
      if (!ready) continue;
      place(entry, ready);
      shown++;
    }
    return chosen;
  }
  // Prepared in ranking order until enough are tried (`triedEnough`): the rest are not rendered.
  const ready = [];
  let tried = 0;
  for (const entry of chosen) {
    if (triedEnough(ready.length, tried, left.tokens)) break;
    const next = await own(entry);
    ready.push(next);
    tried += next?.cost.tokens ?? 0;
  }
  const condensed = await condenseTop(chosen, ready, left, ctx);
  // A file that is not code has a quarter of the chance at its place (`fitOrder`).
  const code = ready.map((_, i) => candidates[i].code ?? true);
  // A test tied to the first code file is tried as if ranked after it (`_task_tests.ts`).
  const paths = ready.map((_, i) => candidates[i].path);
  const tied = tiedChances(paths, { chance: placeChance, code, history: ctx.history });
  for (const i of fitOrder(ready.map((r) => r?.cost.tokens), { code, tied })) {
    if (chosen[i].where === "task") continue;
    if (fits(left, ready[i]!.cost)) place(chosen[i], ready[i]!, left);
  }
  await stepDown(chosen, condensed, left, ctx);
  return await listEntries(chosen, { left, tokenizer: config.budget.tokenizer });
}

/**
 * The passed-over files of the first {@linkcode MAX_TASK_FILES} as skeletons, then as outlines,
 * with what is `left`; a file {@linkcode condenseTop} placed (its cost in `condensed`) may step up
 * to a richer view with what is left and its own cost.
 */
async function stepDown(
  chosen: TaskEntry[],
  condensed: Map<TaskEntry, Limits>,
  left: Limits,
  ctx: ChooseContext,
): Promise<void> {
  for (const view of TASK_LADDER) {
    for (const entry of chosen.slice(0, MAX_TASK_FILES)) {
      const held = condensed.get(entry);
      if (entry.where === "task" && !held) continue;
      const next = await prepareView(entry, view, ctx);
      // What is left with the condensed view's cost given back.
      const room = {
        tokens: left.tokens + (held?.tokens ?? 0),
        bytes: left.bytes + (held?.bytes ?? 0),
      };
      if (!next || !fits(room, next.cost)) continue;
      Object.assign(left, room);
      condensed.delete(entry);
      place(entry, next, left);
    }
  }
}

/** How many of the ranking's first files get a condensed view first when they cannot fit in full. */
const TOP_CONDENSED = 2;

/** The share of the section's room each of them may take in its condensed view. */
const TOP_SHARE = 0.15;

/** The views tried for them, richest first. */
const TOP_LADDER = ["skeleton", "outline", "summary"];

/**
 * The ranking's first {@linkcode TOP_CONDENSED} files that cannot fit in full even alone (a large
 * C file ranked first for its task) are shown first in their richest view of
 * {@linkcode TOP_LADDER} within {@linkcode TOP_SHARE} of the room: tried in full by expected
 * recall per token, small files ranked far below them took the room, and the file the task is
 * most likely about was only named. Their costs, by entry: the skeleton and outline passes may
 * still step them up with what is left.
 */
async function condenseTop(
  chosen: TaskEntry[],
  ready: Array<Prepared | undefined>,
  left: Limits,
  ctx: ChooseContext,
): Promise<Map<TaskEntry, Limits>> {
  const cap = left.tokens * TOP_SHARE;
  const placed = new Map<TaskEntry, Limits>();
  for (const [i, entry] of chosen.slice(0, TOP_CONDENSED).entries()) {
    if (!ready[i] || ready[i].cost.tokens <= left.tokens) continue;
    for (const view of TOP_LADDER) {
      const next = await prepareView(entry, view, ctx);
      if (!next || next.cost.tokens > cap || !fits(left, next.cost)) continue;
      place(entry, next, left);
      placed.set(entry, next.cost);
      break;
    }
  }
  return placed;
}

/** A file rendered in a task view, with its block's cost. */
interface Prepared {
  file: RenderedFile;
  cost: Limits;
}

/** The entry's file in `view`, when the view renders it richer than the entry's view now. */
async function prepareView(
  entry: TaskEntry,
  view: string,
  ctx: ChooseContext,
): Promise<Prepared | undefined> {
  if (rankOf(view) >= rankOf(entry.view) || !findViewMode(ctx.registry, view)) return undefined;
  const file = await render(ctx.sources.get(entry.path)!, view, ctx.config, ctx);
  if (!file || rankOf(file.view) >= rankOf(entry.view)) return undefined;
  const text = `### ${file.path}\n\n\`\`\`\n${file.text}\n\`\`\`\n\n`;
  return { file, cost: await costOf(text, ctx.config.budget.tokenizer, ctx.transform.cache) };
}

/** Show the entry's file in the task section as prepared, its cost taken from what is `left`. */
function place(entry: TaskEntry, ready: Prepared, left?: Limits): void {
  if (left) take(left, ready.cost);
  Object.assign(entry, { where: "task", view: ready.file.view, file: ready.file });
}

/**
 * The chosen entries that stay: those shown in the task section, and those named in its list
 * while each line (the first with the list's heading) fits in what is `left`, which it takes.
 */
async function listEntries(
  chosen: TaskEntry[],
  room: { left: Limits; tokenizer: ResolvedConfig["budget"]["tokenizer"] },
): Promise<TaskEntry[]> {
  const { left, tokenizer } = room;
  const entries: TaskEntry[] = [];
  let heading = true;
  for (const [i, entry] of chosen.entries()) {
    if (entry.where !== "task") {
      if (i >= MAX_TASK_FILES) continue;
      const line = entry.where === "map"
        ? `- ${entry.path} (${entry.view}, in the map above)\n`
        : `- ${entry.path}\n`;
      const cost = await costOf(heading ? `${LIST_HEADING}${line}\n` : line, tokenizer);
      if (!fits(left, cost)) continue;
      take(left, cost);
      heading = false;
    }
    entries.push(entry);
  }
  return entries;
}

/** The file rendered in `view`, or undefined when the view cannot render it. */
async function render(
  source: SourceFile,
  view: string,
  config: ResolvedConfig,
  options: Pick<FitTaskOptions, "registry" | "transform">,
): Promise<RenderedFile | undefined> {
  const [out] = await transformFiles([source], config, options.registry, {
    ...options.transform,
    onFile: undefined,
    viewOf: () => view,
  });
  return out?.status === "rendered" && out.text !== undefined ? out : undefined;
}
