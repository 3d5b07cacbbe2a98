/**
 * The built-in plugins, assembled in one place and handed to the pipeline
 * by `mod.ts` and `cli.ts`: made at once from the one list in `builtins.ts`.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import {
  BUILTIN_PROVIDERS,
  BUILTIN_VIEW_MODES,
  type BuiltinModule,
  sectionsAndRules,
} from "./builtins.ts";
import * as full from "./view_modes/full.ts";
import * as none from "./view_modes/none.ts";
import * as summary from "./view_modes/summary.ts";
import * as custom from "./view_modes/custom.ts";
import * as llmSummary from "./view_modes/llm_summary.ts";
import * as skeleton from "./view_modes/skeleton.ts";
import * as outline from "./view_modes/outline.ts";
import * as masked from "./view_modes/masked.ts";
import * as cells from "./view_modes/cells.ts";
import * as anthropic from "./providers/anthropic.ts";
import * as openai from "./providers/openai.ts";
import * as gemini from "./providers/gemini.ts";
import * as deepseek from "./providers/deepseek.ts";

/** The modules `builtins.ts` names, loaded here at once, by their path under `plugins/`. */
const MODULES: Record<string, Record<string, unknown>> = {
  "view_modes/full.ts": full,
  "view_modes/none.ts": none,
  "view_modes/summary.ts": summary,
  "view_modes/custom.ts": custom,
  "view_modes/llm_summary.ts": llmSummary,
  "view_modes/skeleton.ts": skeleton,
  "view_modes/outline.ts": outline,
  "view_modes/masked.ts": masked,
  "view_modes/cells.ts": cells,
  "providers/anthropic.ts": anthropic,
  "providers/openai.ts": openai,
  "providers/gemini.ts": gemini,
  "providers/deepseek.ts": deepseek,
};

/** A built-in made by its module's factory. */
function make(builtin: BuiltinModule): Plugin {
  const factory = MODULES[builtin.module]?.[builtin.factory];
  if (typeof factory !== "function") {
    throw new Error(
      `[plugin ${builtin.name}] "${builtin.factory}" of "plugins/${builtin.module}" is not loaded by plugins/defaults.ts`,
    );
  }
  return factory();
}

/**
 * A fresh list of every built-in plugin, in the order of `builtins.ts`.
 *
 * @example
 * ```ts
 * import { defaultPlugins } from "./defaults.ts";
 * defaultPlugins().map((p) => p.name);
 * ```
 */
export function defaultPlugins(): Plugin[] {
  return [
    ...BUILTIN_VIEW_MODES.map(make),
    ...sectionsAndRules(),
    ...BUILTIN_PROVIDERS.map(make),
  ];
}
