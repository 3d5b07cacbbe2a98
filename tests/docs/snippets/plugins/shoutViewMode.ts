// A ts block of docs/defaults.md, copied by tests/docs/_snippets.ts: do not edit.
// plugins/shout.ts
import type { ViewModePlugin } from "../../../../mod.ts";

/** Options of {@linkcode shoutViewMode}. */
export interface ShoutOptions {
  /** Marks after each line. @default {1} */
  marks?: number;
}

export function shoutViewMode(options: ShoutOptions = {}): ViewModePlugin {
  const marks = options.marks ?? 1;
  return {
    kind: "view-mode",
    name: "shout",
    version: "1",
    options: { marks }, // part of the cache key: plain JSON data only
    render: (file) =>
      file.text.split("\n").map((line) => line.toUpperCase() + "!".repeat(marks)).join("\n"),
  };
}
