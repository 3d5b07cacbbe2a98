/**
 * The `masked` view: per-symbol modes by qualified name, from the file
 * entry's `mask` (`{ "Class.method": "def", "func": "sig" }`): `def` keeps
 * the whole definition, `sig` its signature and doc, `hide` leaves it out.
 * Unlisted symbols and other items follow `rest`. A listed name that matches
 * nothing is a warning naming it.
 *
 * @module
 */

import { CODE_EXTENSIONS, languageOf } from "../../grammars/languages.ts";
import type { MaskMode, ViewModePlugin, ViewOutput } from "../../pipeline/types.ts";
import { DEFAULT_MAX_WORK, renderOrFallback } from "./_code.ts";
import { CODE_VIEW_TIMEOUT_MS, prepareCodeShared } from "./_code_pool.ts";
// Sets where the runtime and the grammars come from, so that `prepare` compiles them at once.
import "../../grammars/parser.ts";

/** Options of {@linkcode maskedViewMode}. */
export interface MaskedOptions {
  /** Modes by qualified name; the file entry's `mask` is merged over it. @default {{}} */
  mask?: Record<string, MaskMode>;
  /** Mode of unlisted symbols, imports and constants. @default {"hide"} */
  rest?: "sig" | "hide";
  /** Values longer than this many lines are elided in `sig` mode. @default {12} */
  maxValueLines?: number;
  /**
   * Most work units (parser steps and tree nodes visited) one file may cost; past it the file
   * falls back to `summary`, with the reason in the manifest's `fallback`. @default {3000000}
   */
  maxWork?: number;
}

/** Defaults of {@linkcode MaskedOptions}. */
export const defaults: Required<MaskedOptions> = {
  mask: {},
  rest: "hide",
  maxValueLines: 12,
  maxWork: DEFAULT_MAX_WORK,
};

/** Most qualified names a warning suggests for a mask name that matches none. */
const SUGGESTIONS = 3;

/**
 * The qualified names a mask name may have meant: those it ends (`Execute` for
 * `Command.Execute`), else those equal to it but for case; `""` when none.
 */
function didYouMean(name: string, names: string[]): string {
  const lower = name.toLowerCase();
  // A JavaScript method assigned to a prototype is named as written, `Foo.prototype.bar`: a mask
  // naming it `Foo.bar` is told so.
  const ends = names.filter((n) =>
    n.endsWith(`.${name}`) || (n.includes(".prototype.") && n.replace(".prototype.", ".") === name)
  );
  const found = ends.length ? ends : names.filter((n) => n.toLowerCase() === lower);
  const unique = [...new Set(found)].sort();
  if (!unique.length) return "";
  const shown = unique.slice(0, SUGGESTIONS).map((n) => `"${n}"`).join(", ");
  const more = unique.length > SUGGESTIONS ? ` and ${unique.length - SUGGESTIONS} more` : "";
  return ` (did you mean ${shown}${more}? Mask keys are qualified names)`;
}

/**
 * The `masked` view mode.
 *
 * @example
 * ```ts
 * import { maskedViewMode } from "./masked.ts";
 * const plugin = maskedViewMode({ rest: "sig" });
 * plugin.name; // "slop:masked"
 * ```
 */
export function maskedViewMode(options: MaskedOptions = {}): ViewModePlugin {
  const settings = { ...defaults, ...options };
  return {
    kind: "view-mode",
    name: "slop:masked",
    version: "53",
    extensions: CODE_EXTENSIONS,
    // The extensions, the files a language knows by name (Ruby's `Rakefile`) and, for a file
    // with no extension, the language its `#!` line names.
    accepts: (path, text) => languageOf(path, text) !== undefined,
    // Files queue for the parsing pool; the pool bounds each file's work (see `_code_pool.ts`).
    timeoutMs: CODE_VIEW_TIMEOUT_MS,
    prepare: prepareCodeShared,
    async render(file, ctx): Promise<ViewOutput> {
      const local = ctx.options as MaskedOptions;
      const mask = { ...settings.mask, ...local.mask, ...ctx.entry.mask };
      const rest = local.rest ?? settings.rest;
      if (rest !== "sig" && rest !== "hide") {
        throw new Error(
          `[plugin slop:masked] Invalid option "rest" for "${file.path}": expected "sig" or "hide", got "${rest}"`,
        );
      }
      // Nothing listed and the rest hidden would be an empty block: like `custom` without slices.
      if (!Object.keys(mask).length && rest === "hide") {
        const out = await ctx.renderAs("summary");
        return {
          ...out,
          view: "summary",
          notes: ["masked view without a mask: fell back to summary"],
        };
      }
      const maxValueLines = local.maxValueLines ?? settings.maxValueLines;
      return await renderOrFallback(file, ctx, {
        view: "masked",
        code: { mask, rest, maxValueLines, maxWork: local.maxWork ?? settings.maxWork },
        finish: (code) => {
          const names = code.symbols.map((s) => s.qualifiedName);
          const known = new Set(names);
          const notes: string[] = [];
          for (const name of Object.keys(mask).sort()) {
            if (known.has(name)) continue;
            const message =
              `[plugin slop:masked] Mask names no symbol "${name}" in "${file.path}"` +
              didYouMean(name, names);
            ctx.warn(message);
            notes.push(message);
          }
          return { text: code.text, notes };
        },
      });
    },
  };
}
