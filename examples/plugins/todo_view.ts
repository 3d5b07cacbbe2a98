/**
 * An example user view mode: keeps only the lines that mention TODO or FIXME,
 * with their line numbers. Register it in `plugins: [todoViewMode()]` and use
 * it as `view: "todo"`.
 *
 * @module
 */

import type { ViewModePlugin } from "../../mod.ts";

/** Options of {@linkcode todoViewMode}. */
export interface TodoOptions {
  /** Words that mark a line. @default {["TODO", "FIXME"]} */
  markers?: string[];
}

/**
 * A view mode that lists TODO lines.
 *
 * @example
 * ```ts
 * import { todoViewMode } from "./todo_view.ts";
 * todoViewMode({ markers: ["XXX"] }).name; // "todo"
 * ```
 */
export function todoViewMode(options: TodoOptions = {}): ViewModePlugin {
  const markers = options.markers ?? ["TODO", "FIXME"];
  return {
    kind: "view-mode",
    name: "todo",
    version: "1",
    render(file) {
      const hits = file.text.split("\n")
        .map((line, i) => ({ line, n: i + 1 }))
        .filter(({ line }) => markers.some((m) => line.includes(m)))
        .map(({ line, n }) => `${n}: ${line.trim()}`);
      return hits.length ? hits.join("\n") : "(no TODO lines)";
    },
  };
}
