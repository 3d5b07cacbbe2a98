// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
/**
 * An example view mode: keeps only the lines of a file that carry a marker
 * (TODO, FIXME), each with its line number. Register it with
 * `plugins: [todoViewMode()]` and use it as `view: "todo"`; an entry's
 * `options: { markers: [...] }` sets the markers for that file.
 *
 * @module
 */

import type { ViewModePlugin } from "../../../../mod.ts";

/** Options of {@linkcode todoViewMode}. */
export interface TodoOptions {
  /** Words that mark a line. @default {["TODO", "FIXME"]} */
  markers?: string[];
}

/**
 * A view mode that lists the marked lines of a file.
 *
 * @example
 * ```ts
 * import { todoViewMode } from "./todo_view.ts";
 * todoViewMode({ markers: ["XXX"] }).name; // "todo"
 * ```
 */
export function todoViewMode(options: TodoOptions = {}): ViewModePlugin {
  const defaults = options.markers ?? ["TODO", "FIXME"];
  return {
    kind: "view-mode",
    name: "todo",
    // Part of the cache key: bump it whenever the same input renders differently.
    version: "1",
    // The cache key already holds the entry's options; add what the factory was given.
    cacheKey: () => JSON.stringify(defaults),
    render(file, ctx) {
      const markers = (ctx.options.markers as string[] | undefined) ?? defaults;
      const hits = file.text.split("\n")
        .map((line, i) => ({ line, n: i + 1 }))
        .filter(({ line }) => markers.some((m) => line.includes(m)))
        .map(({ line, n }) => `${n}: ${line.trim()}`);
      return hits.length ? hits.join("\n") : `(no ${markers.join(" or ")} lines)`;
    },
  };
}
