// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";
import { todoViewMode } from "./plugins/todo_view.ts";

export default defineConfig({
  files: ["src/**", { path: "docs/notes.md", view: "todo", options: { markers: ["XXX"] } }],
  plugins: [todoViewMode()],
});
