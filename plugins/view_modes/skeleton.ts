/**
 * The `skeleton` view: every definition with its complete signature,
 * decorators or attributes and doc comment, bodies elided with one marker,
 * nesting and indentation kept, in source order. Imports and module-level
 * constants stay; other statements go. Nine languages (see `grammars/`);
 * other files, and files that cannot be parsed, fall back to `summary`.
 *
 * @module
 */

import { CODE_EXTENSIONS, languageOf } from "../../grammars/languages.ts";
import type { ViewModePlugin } from "../../pipeline/types.ts";
import { DEFAULT_MAX_WORK, renderOrFallback } from "./_code.ts";
import { CODE_VIEW_TIMEOUT_MS, prepareCodeShared } from "./_code_pool.ts";
import { definedNames } from "./_defined_names.ts";
// Sets where the runtime and the grammars come from, so that `prepare` compiles them at once.
import "../../grammars/parser.ts";

/** The view's cache version (its renders' and the names it finds for ranking). */
const VERSION = "49";

/** Options of {@linkcode skeletonViewMode}. */
export interface SkeletonOptions {
  /** Values (constants, initializers) longer than this many lines are elided. @default {12} */
  maxValueLines?: number;
  /**
   * Most work units (parser steps and tree nodes visited) one file may cost; past it the file
   * falls back to `summary`, with the reason in the manifest's `fallback`. @default {3000000}
   */
  maxWork?: number;
}

/** Defaults of {@linkcode SkeletonOptions}. */
export const defaults: Required<SkeletonOptions> = {
  maxValueLines: 12,
  maxWork: DEFAULT_MAX_WORK,
};

/**
 * The `skeleton` view mode.
 *
 * @example
 * ```ts
 * import { skeletonViewMode } from "./skeleton.ts";
 * const plugin = skeletonViewMode({ maxValueLines: 20 });
 * plugin.name; // "slop:skeleton"
 * ```
 */
export function skeletonViewMode(options: SkeletonOptions = {}): ViewModePlugin {
  const settings = { ...defaults, ...options };
  return {
    kind: "view-mode",
    name: "slop:skeleton",
    version: VERSION,
    extensions: CODE_EXTENSIONS,
    // The extensions, the files a language knows by name (Ruby's `Rakefile`) and, for a file
    // with no extension, the language its `#!` line names.
    accepts: (path, text) => languageOf(path, text) !== undefined,
    // Files queue for the parsing pool; the pool bounds each file's work (see `_code_pool.ts`).
    timeoutMs: CODE_VIEW_TIMEOUT_MS,
    prepare: prepareCodeShared,
    // Kept in the build's cache by the text's hash, under this view's version.
    definitions: (file, ctx) => definedNames(file.path, file.text, { ...ctx, version: VERSION }),
    render(file, ctx) {
      const merged = { ...settings, ...(ctx.options as SkeletonOptions) };
      return renderOrFallback(file, ctx, {
        view: "skeleton",
        emptyFallback: true,
        code: { maxValueLines: merged.maxValueLines, maxWork: merged.maxWork },
        finish: (code) => ({ text: code.text }),
      });
    },
  };
}
