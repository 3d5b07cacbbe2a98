/**
 * A guard for a known quadratic case of tree-sitter-python's external
 * scanner: inside an indented block, at each line of a run of comment-only
 * lines it looks ahead over the rest of the run to find the indentation of
 * the next line of code, so parsing a run of L comment lines and C characters
 * takes time in proportion to L × C (4000 lines of 25 characters: about 5 s
 * here, 20000 lines: minutes). Top-level runs are not affected. Measured with tree-sitter-python@0.25.0.
 *
 * @module
 */

/** Comment lines × characters of one run above which a Python file is not parsed. */
export const COMMENT_RUN_LIMIT = 50_000_000;

/** The costliest run of comment-only lines inside an indented block. */
export interface CommentRun {
  /** 1-based line of the run's first comment. */
  line: number;
  /** Comment lines in the run (blank lines between them do not count). */
  comments: number;
  /** Characters of the run, blank lines included. */
  chars: number;
}

/**
 * The run of comment-only lines (blank lines between them included) that
 * costs tree-sitter-python the most, when it lies inside an indented block
 * (the code line before it or after it is indented); undefined when there is
 * no such run.
 *
 * @example
 * ```ts
 * import { costliestCommentRun } from "./python_comment_runs.ts";
 * costliestCommentRun("class A:\n    # a\n    # b\n    x = 1\n");
 * // { line: 2, comments: 2, chars: 16 }
 * ```
 */
export function costliestCommentRun(text: string): CommentRun | undefined {
  let worst: CommentRun | undefined;
  let worstCost = 0;
  let prevIndented = false;
  let run: CommentRun | undefined;
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNo++;
    let i = start;
    while (i < end && (text[i] === " " || text[i] === "\t" || text[i] === "\f")) i++;
    const blank = i === end || (i === end - 1 && text[i] === "\r");
    if (!blank && text[i] === "#") {
      run ??= { line: lineNo, comments: 0, chars: 0 };
      run.comments++;
      run.chars += end - start + 1;
    } else if (blank) {
      if (run) run.chars += end - start + 1;
    } else {
      const indented = i > start;
      if (run && (prevIndented || indented) && run.comments * run.chars > worstCost) {
        worst = run;
        worstCost = run.comments * run.chars;
      }
      run = undefined;
      prevIndented = indented;
    }
    if (end === text.length) break;
    start = end + 1;
  }
  if (run && prevIndented && run.comments * run.chars > worstCost) worst = run;
  return worst;
}
