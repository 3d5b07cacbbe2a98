/**
 * An example view mode: keeps only the lines of a file that carry a marker
 * (TODO, FIXME), each with its line number. Register it with
 * `plugins: [todoViewMode()]` and use it as `view: "todo"`; an entry's
 * `options: { markers: [...] }` sets the markers for that file.
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
 * A view mode that lists the marked lines of a file.
 *
 * @example
 * ```ts
 * import { todoViewMode } from "./todo_view.ts";
 * todoViewMode({ markers: ["XXX"] }).name; // "todo"
 * ```
 */
export function todoViewMode(options: TodoOptions = {}): ViewModePlugin<TodoOptions> {
  return {
    kind: "view-mode",
    name: "todo",
    // Part of the cache key: bump it whenever the same input renders differently.
    version: "1",
    // The factory's options: `ctx.options` holds them, an entry's `options` over them, and
    // they join the cache key (plain JSON data only).
    options: { markers: options.markers ?? ["TODO", "FIXME"] },
    render(file, ctx) {
      const markers = ctx.options.markers;
      if (!Array.isArray(markers) || !markers.every((m) => typeof m === "string")) {
        // Shown as `[plugin todo] Hook "render" failed on "<file>": ...` with the file's row.
        throw new Error(
          `"options.markers" must be a list of strings, got ${JSON.stringify(markers)}`,
        );
      }
      const hits = file.text.split("\n")
        .map((line, i) => ({ line, n: i + 1 }))
        .filter(({ line }) => markers.some((m) => line.includes(m)))
        .map(({ line, n }) => `${n}: ${line.trim()}`);
      return hits.length ? hits.join("\n") : `(no ${markers.join(" or ")} lines)`;
    },
  };
}
