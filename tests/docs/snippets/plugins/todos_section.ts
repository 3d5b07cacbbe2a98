// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
// plugins/todos_section.ts
import type { SectionPlugin } from "../../../../mod.ts";

/** Options of {@linkcode todosSection}. */
export interface TodosOptions {
  /** Words that mark an open item. @default {["TODO", "FIXME"]} */
  markers?: string[];
  /** At most this many items. @default {50} */
  limit?: number;
}

/** An "## Open TODOs" section: `- path:line: text` for each marked line of the rendered files. */
export function todosSection(options: TodosOptions = {}): SectionPlugin {
  const markers = options.markers ?? ["TODO", "FIXME"];
  const limit = options.limit ?? 50;
  return {
    kind: "section",
    name: "todos",
    compose(state) {
      const items = state.files.flatMap((file) =>
        (file.text ?? "").split("\n").flatMap((line, i) =>
          markers.some((m) => line.includes(m)) ? [`- ${file.path}:${i + 1}: ${line.trim()}`] : []
        )
      );
      if (items.length === 0) return [];
      const text = `## Open TODOs\n\n${items.slice(0, limit).join("\n")}\n\n`;
      return [{ id: "todos", section: "todos", stability: "stable", text }];
    },
  };
}
