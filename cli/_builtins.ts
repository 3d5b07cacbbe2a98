/**
 * The built-in plugins (`plugins/`) as `slop build` registers them: the same list, in the same order, as
 * {@linkcode defaultPlugins}, but view modes and providers stand in the registry by name and
 * their modules are imported when a build uses them (`lazyPlugin` in `pipeline/registry.ts`):
 * a build that shows files in full does not load tree-sitter's views, the LLM summary or
 * four providers. Modules are imported by a URL made at run time: Deno loads every module
 * behind a string-literal `import()` before the first line runs.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import { sectionsAndRules } from "../plugins/_always_loaded.ts";
import { lazyPlugin } from "../pipeline/registry.ts";

/** The lazy modules (under `plugins/`) and their types (type-only: `deno check` covers them, nothing is loaded). */
interface LazyModules {
  "view_modes/full.ts": typeof import("../plugins/view_modes/full.ts");
  "view_modes/none.ts": typeof import("../plugins/view_modes/none.ts");
  "view_modes/summary.ts": typeof import("../plugins/view_modes/summary.ts");
  "view_modes/custom.ts": typeof import("../plugins/view_modes/custom.ts");
  "view_modes/llm_summary.ts": typeof import("../plugins/view_modes/llm_summary.ts");
  "view_modes/skeleton.ts": typeof import("../plugins/view_modes/skeleton.ts");
  "view_modes/outline.ts": typeof import("../plugins/view_modes/outline.ts");
  "view_modes/masked.ts": typeof import("../plugins/view_modes/masked.ts");
  "providers/anthropic.ts": typeof import("../plugins/providers/anthropic.ts");
  "providers/openai.ts": typeof import("../plugins/providers/openai.ts");
  "providers/gemini.ts": typeof import("../plugins/providers/gemini.ts");
  "providers/deepseek.ts": typeof import("../plugins/providers/deepseek.ts");
}

/** A lazy built-in: `factory` of `path`'s module makes the plugin named `name`. */
function lazy<P extends keyof LazyModules, F extends keyof LazyModules[P]>(
  kind: "view-mode" | "provider",
  name: string,
  path: P,
  factory: F,
): Plugin {
  return lazyPlugin(kind, name, async () => {
    const mod: LazyModules[P] = await import(new URL(`../plugins/${path}`, import.meta.url).href);
    const make = mod[factory] as () => Plugin;
    const plugin = make();
    if (plugin.name !== name || plugin.kind !== kind) {
      throw new Error(`[plugin ${name}] Its module made "${plugin.name}" (${plugin.kind})`);
    }
    return plugin;
  });
}

/**
 * A fresh list of every built-in plugin, view modes and providers loaded when first used.
 *
 * @example
 * ```ts
 * import { builtinPlugins } from "./_builtins.ts";
 * builtinPlugins().map((p) => p.name); // the names of defaultPlugins(), in order
 * ```
 */
export function builtinPlugins(): Plugin[] {
  return [
    // view modes
    lazy("view-mode", "slop:full", "view_modes/full.ts", "fullViewMode"),
    lazy("view-mode", "slop:none", "view_modes/none.ts", "noneViewMode"),
    lazy("view-mode", "slop:summary", "view_modes/summary.ts", "summaryViewMode"),
    lazy("view-mode", "slop:custom", "view_modes/custom.ts", "customViewMode"),
    lazy("view-mode", "slop:llm_summary", "view_modes/llm_summary.ts", "llmSummaryViewMode"),
    lazy("view-mode", "slop:skeleton", "view_modes/skeleton.ts", "skeletonViewMode"),
    lazy("view-mode", "slop:outline", "view_modes/outline.ts", "outlineViewMode"),
    lazy("view-mode", "slop:masked", "view_modes/masked.ts", "maskedViewMode"),
    ...sectionsAndRules(),
    // providers
    lazy("provider", "slop:anthropic", "providers/anthropic.ts", "anthropicProvider"),
    lazy("provider", "slop:openai", "providers/openai.ts", "openaiProvider"),
    lazy("provider", "slop:gemini", "providers/gemini.ts", "geminiProvider"),
    lazy("provider", "slop:deepseek", "providers/deepseek.ts", "deepseekProvider"),
  ];
}
