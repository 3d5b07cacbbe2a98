/**
 * The code engine's last runs, kept by file, text and options: a file the
 * budget steps from `skeleton` to `outline` takes both views from one run of
 * the engine (its text is the skeleton, its symbols make the outline) instead
 * of parsing and walking the file again. The engine's output depends only on
 * the path, the text and the options, so a kept run gives the bytes a new run
 * would. A run that fails is not kept (it may be a parse deadline, a clock's
 * doing). Runs are kept only while a build has said it is about to render
 * (`open`, the code pool's `prepare`) and let go when the last one is done,
 * so that nothing is held after the steps; bounded by the runs kept and their
 * texts' characters.
 *
 * A run over its work budget is remembered apart, open or not, by its text's
 * hash: counted, not timed, the same text and options spend the budget again
 * (a 2.5 MB file of number tables parsed to its budget for its skeleton is not
 * parsed to it again for its outline, nor in the task section or the next
 * build). The last {@linkcode MAX_OVER} of them, a hash and a message each.
 *
 * @module
 */

import { type CodeView, DEFAULT_MAX_WORK, isOverBudget, type RenderCodeOptions } from "./_code.ts";
import { PARSE_DEADLINE_MS } from "./_parse_deadline.ts";
import { sha256Hex } from "../../pipeline/helpers.ts";

/** Most runs kept: the budget renders a batch of at most 64 files in one view, then in the next. */
const MAX_RUNS = 128;
/** Most characters of the kept runs' texts together (a larger text is never kept). */
const MAX_CHARS = 4 * 1024 * 1024;

/** Most runs over their work budget remembered (the oldest forgotten first). */
const MAX_OVER = 64;

/** A run over its work budget: its text's length and hash, and its error's message. */
interface Over {
  length: number;
  sha256: string;
  message: string;
}

/** A run kept: the text it read and its view (a promise while it runs). */
interface Run {
  text: string;
  view: Promise<CodeView | undefined>;
}

/** What {@linkcode recentRuns} returns. */
export interface RecentRuns {
  /** Run `render` for `path`, `text` and `options`, or give the run kept for the same three. */
  run(
    path: string,
    text: string,
    options: RenderCodeOptions,
    render: () => Promise<CodeView | undefined>,
  ): Promise<CodeView | undefined>;
  /** Keep runs until the returned function is called (once per `open`). */
  open(): () => void;
}

/**
 * The engine's last runs, kept while open.
 *
 * @example
 * ```ts
 * import { recentRuns } from "./_code_recent.ts";
 * import { renderCode } from "./_code.ts";
 * const recent = recentRuns();
 * const close = recent.open();
 * const text = "def f(x):\n    return x\n";
 * await recent.run("a.py", text, { maxValueLines: 12 }, () => renderCode("a.py", text));
 * await recent.run("a.py", text, {}, () => renderCode("a.py", text)); // the same run
 * close();
 * ```
 */
export function recentRuns(): RecentRuns {
  const runs = new Map<string, Run>();
  const over = overBudgetRuns();
  let chars = 0;
  let opened = 0;
  const drop = (key: string, run: Run) => {
    if (runs.get(key) !== run) return;
    runs.delete(key);
    chars -= run.text.length;
  };
  return {
    open() {
      opened++;
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        if (--opened > 0) return;
        runs.clear();
        chars = 0;
      };
    },
    run(path, text, options, render) {
      const key = `${path}\0${optionsKey(options)}`;
      const spent = over.spent(key, text);
      if (spent) return Promise.reject(spent);
      if (!opened) return over.watch(key, text, render());
      const kept = runs.get(key);
      if (kept?.text === text) {
        // The newest again: the last to be dropped.
        runs.delete(key);
        runs.set(key, kept);
        return kept.view;
      }
      if (kept) drop(key, kept);
      const view = over.watch(key, text, render());
      if (text.length > MAX_CHARS) return view;
      const run = { text, view };
      runs.set(key, run);
      chars += text.length;
      view.catch(() => drop(key, run));
      for (const [oldest, old] of runs) {
        if (runs.size <= MAX_RUNS && chars <= MAX_CHARS) break;
        drop(oldest, old);
      }
      return view;
    },
  };
}

/**
 * The runs over their work budget, by key: `spent` gives the error again for the same text,
 * `watch` remembers a run's when it ends so.
 */
function overBudgetRuns() {
  const known = new Map<string, Over>();
  return {
    spent(key: string, text: string): Error | undefined {
      const run = known.get(key);
      if (!run || run.length !== text.length || run.sha256 !== sha256Hex(text)) return undefined;
      return new Error(run.message);
    },
    watch<T>(key: string, text: string, view: Promise<T>): Promise<T> {
      view.catch((error) => {
        if (!isOverBudget(error)) return;
        known.delete(key);
        known.set(key, { length: text.length, sha256: sha256Hex(text), message: error.message });
        for (const oldest of known.keys()) {
          if (known.size <= MAX_OVER) break;
          known.delete(oldest);
        }
      });
      return view;
    },
  };
}

/** The options as the engine reads them (its defaults filled in): `skeleton`'s and `outline`'s are one. */
function optionsKey(options: RenderCodeOptions): string {
  return JSON.stringify([
    options.mask ?? {},
    options.rest ?? "sig",
    options.maxValueLines ?? 12,
    options.hollow ?? true,
    options.maxWork ?? DEFAULT_MAX_WORK,
    options.maxParseMs ?? PARSE_DEADLINE_MS,
  ]);
}
