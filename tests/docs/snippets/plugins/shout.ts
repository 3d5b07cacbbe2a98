// A ts block of docs/defaults.md, copied by tests/docs/_snippets.ts: do not edit.
// plugins/shout.ts
import type { ViewModePlugin } from "../../../../mod.ts";

/** Options of {@linkcode shoutViewMode}. */
export interface ShoutOptions {
  /** Marks after each line. @default {1} */
  marks?: number;
}

export function shoutViewMode(options: ShoutOptions = {}): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "shout",
    version: "1",
    options: { marks: options.marks ?? 1 }, // part of the cache key: plain JSON data only
    render(file, ctx) {
      const marks = "!".repeat(Number(ctx.options.marks));
      return file.text.split("\n").map((line) => line.toUpperCase() + marks).join("\n");
    },
  };
}
