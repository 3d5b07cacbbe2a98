// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";
import { todoViewMode } from "./plugins/todo_view.ts";
import { todosSection } from "./plugins/todos_section.ts";
import { sectionFirstOrdering } from "./plugins/section_first.ts";
import { llamacppProvider } from "./plugins/llamacpp_provider.ts";

export default defineConfig({
  files: ["src/**", { path: "docs/notes.md", view: "todo", options: { markers: ["XXX"] } }],
  provider: { name: "llamacpp" },
  plugins: [
    todoViewMode(),
    todosSection(),
    sectionFirstOrdering({ section: "todos" }),
    llamacppProvider(),
  ],
});
