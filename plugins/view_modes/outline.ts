/**
 * The `outline` view: the public surface only (exported or non-underscore
 * names, by each language's rules), one line per symbol with its signature
 * and kind, nested under its container.
 *
 * @module
 */

import { CODE_EXTENSIONS, languageOf } from "../../grammars/languages.ts";
import type { ViewModePlugin } from "../../pipeline/types.ts";
import { type CodeSymbol, DEFAULT_MAX_WORK, type FoldedRun, renderOrFallback } from "./_code.ts";
import { CODE_VIEW_TIMEOUT_MS, prepareCodeShared } from "./_code_pool.ts";
// Sets where the runtime and the grammars come from, so that `prepare` compiles them at once.
import "../../grammars/parser.ts";

/** Options of {@linkcode outlineViewMode}. */
export interface OutlineOptions {
  /** Spaces per nesting level. @default {2} */
  indent?: number;
  /**
   * Most work units (parser steps and tree nodes visited) one file may cost; past it the file
   * falls back to `summary`, with the reason in the manifest's `fallback`. @default {3000000}
   */
  maxWork?: number;
}

/** Defaults of {@linkcode OutlineOptions}. */
export const defaults: Required<OutlineOptions> = { indent: 2, maxWork: DEFAULT_MAX_WORK };

/**
 * The `outline` view mode.
 *
 * @example
 * ```ts
 * import { outlineViewMode } from "./outline.ts";
 * outlineViewMode().name; // "slop:outline"
 * ```
 */
export function outlineViewMode(options: OutlineOptions = {}): ViewModePlugin {
  const settings = { ...defaults, ...options };
  return {
    kind: "view-mode",
    name: "slop:outline",
    version: "47",
    extensions: CODE_EXTENSIONS,
    // The extensions, the files a language knows by name (Ruby's `Rakefile`) and, for a file
    // with no extension, the language its `#!` line names.
    accepts: (path, text) => languageOf(path, text) !== undefined,
    // Files queue for the parsing pool; the pool bounds each file's work (see `_code_pool.ts`).
    timeoutMs: CODE_VIEW_TIMEOUT_MS,
    prepare: prepareCodeShared,
    render(file, ctx) {
      const merged = { ...settings, ...(ctx.options as OutlineOptions) };
      const spec = languageOf(file.path, file.text);
      const comment = spec?.id === "python" ? "#" : spec?.lineComment ?? "//";
      return renderOrFallback(file, ctx, {
        view: "outline",
        emptyFallback: true,
        code: { maxWork: merged.maxWork },
        finish: (code) => ({
          text: outlineText(code.symbols, comment, { ...merged, folds: code.folds }),
        }),
      });
    },
  };
}

/** Options of {@linkcode outlineText}. */
export interface OutlineTextOptions extends OutlineOptions {
  /**
   * The runs of like statements the skeleton folded (`CodeView.folds`): each shows its line
   * (`... (2,968 more User.create! statements)`) where it stood, unless its holder is left out.
   */
  folds?: FoldedRun[];
}

/**
 * One line per public symbol: `<indent><signature>  <comment> <kind>`; a
 * symbol inside a non-public one is left out with it. A folded run of statements is its line.
 *
 * @example
 * ```ts
 * import { outlineText } from "./outline.ts";
 * outlineText([{ name: "f", qualifiedName: "f", kind: "function", signature: "def f()", depth: 0, public: true, line: 1 }], "#");
 * // "def f()  # function\n"
 * ```
 */
export function outlineText(
  symbols: CodeSymbol[],
  comment: string,
  options: OutlineTextOptions = {},
): string {
  const indent = options.indent ?? defaults.indent;
  const hidden = new Set<string>();
  const lines: string[] = [];
  const folds = options.folds ?? [];
  let fold = 0;
  const foldsBefore = (at: number) => {
    for (; fold < folds.length && folds[fold].before <= at; fold++) {
      const { scope, depth, marker } = folds[fold];
      if (!scope || !hiddenIn(hidden, `${scope}.`)) {
        lines.push(`${" ".repeat(indent * depth)}${marker}`);
      }
    }
  };
  for (const [at, s] of symbols.entries()) {
    foldsBefore(at);
    const parts = s.qualifiedName.split(".");
    let inHidden = false;
    for (let i = 1; i < parts.length && !inHidden; i++) {
      inHidden = hidden.has(parts.slice(0, i).join("."));
    }
    if (inHidden || !s.public) {
      hidden.add(s.qualifiedName);
      continue;
    }
    lines.push(`${" ".repeat(indent * s.depth)}${s.signature}  ${comment} ${s.kind}`);
  }
  foldsBefore(symbols.length);
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** Whether a name (`Store.get.`, with its final dot) is or is inside one of the `hidden` ones. */
function hiddenIn(hidden: Set<string>, name: string): boolean {
  for (let at = name.indexOf("."); at >= 0; at = name.indexOf(".", at + 1)) {
    if (hidden.has(name.slice(0, at))) return true;
  }
  return false;
}
