/**
 * The built-in plugins (the one list in `plugins/builtins.ts`) as `slop build` registers them:
 * the same plugins, in the same order, as `defaultPlugins()`, but view modes and providers stand
 * in the registry by name and their modules are imported when a build uses them (`lazyPlugin`
 * in `pipeline/registry.ts`): a build that shows files in full does not load tree-sitter's
 * views, the LLM summary or four providers. Modules are imported by a URL made at run time:
 * Deno loads every module behind a string-literal `import()` before the first line runs.
 *
 * @module
 */

import type { Plugin } from "../pipeline/types.ts";
import {
  BUILTIN_PROVIDERS,
  BUILTIN_VIEW_MODES,
  type BuiltinModule,
  sectionsAndRules,
} from "../plugins/builtins.ts";
import { lazyPlugin } from "../pipeline/registry.ts";

/** A lazy built-in: its module's factory makes the plugin when a build first uses it. */
function lazy(builtin: BuiltinModule): Plugin {
  const { kind, name, module, factory } = builtin;
  return lazyPlugin(kind, name, async () => {
    const mod = await import(new URL(`../plugins/${module}`, import.meta.url).href);
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
  return [...BUILTIN_VIEW_MODES.map(lazy), ...sectionsAndRules(), ...BUILTIN_PROVIDERS.map(lazy)];
}
