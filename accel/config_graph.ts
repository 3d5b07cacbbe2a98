/**
 * The local modules a config file imports, for `slop watch` and the build
 * server: Deno keeps the first version of an imported module, so an edit to
 * one cannot take effect until the process restarts; the watcher says so, and
 * the server hands the build to a new server (`server/session.ts`).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { endsWithSlop } from "../pipeline/helpers.ts";

/** Extensions of files that may be modules in a config's import graph. */
const MODULE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * Whether `path` could be a JavaScript or TypeScript module.
 *
 * @example
 * ```ts
 * import { isModulePath } from "./config_graph.ts";
 * isModulePath("plugins/todo_view.ts"); // true
 * isModulePath("README.md"); // false
 * ```
 */
export function isModulePath(path: string): boolean {
  return MODULE_FILE.test(path);
}

/**
 * Absolute paths of the local files `configPath` imports, directly or not
 * (the config itself left out), from `deno info --json` without remote or npm
 * resolution, so it works offline. An empty set when the graph cannot be read.
 *
 * @example
 * ```ts
 * import { configImports } from "./config_graph.ts";
 * // const modules = await configImports("/project/slop.config.ts");
 * // modules.has("/project/plugins/todo_view.ts"); // true
 * ```
 */
export async function configImports(configPath: string): Promise<Set<string>> {
  try {
    // A child ends with slop (stopped by a signal while it runs, it went on without it).
    const out = await endsWithSlop(Deno.execPath(), {
      args: ["info", "--json", "--no-remote", "--no-npm", "--no-lock", configPath],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      env: { NO_COLOR: "1" },
    }).output();
    if (!out.success) return new Set();
    const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules?: Array<{ specifier?: string }>;
    };
    const paths = new Set<string>();
    for (const m of graph.modules ?? []) {
      if (!m.specifier?.startsWith("file:")) continue;
      const path = fileURLToPath(m.specifier);
      if (path !== configPath) paths.add(path);
    }
    return paths;
  } catch {
    return new Set();
  }
}
