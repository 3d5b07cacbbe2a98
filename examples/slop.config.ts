// The bundled example: `deno task context` builds it into .slop/out/context_NNN.md.
import { defineConfig } from "../mod.ts";
import { todoViewMode } from "./plugins/todo_view.ts";

export default defineConfig({
  files: [
    "README.md",
    "src/**",
    { path: "app/**", view: "summary" },
    { path: "app/cli.py", forceFull: true },
    { path: "docs/notes.md", view: "todo" },
    {
      path: "docs/design.md",
      view: "custom",
      slices: [{ startLine: 3, endLine: 6, tag: "goal", comment: "why this exists" }],
    },
    { path: "docs/changelog.md", autoAggregate: false },
  ],
  screenshots: ["docs/*.png"],
  history: "discussion.jsonl",
  plugins: [todoViewMode()],
  personas: {
    worker: { tier: 3, focus: ["src/inventory.ts"] },
    reviewer: { strategy: "summarize" },
  },
  presets: {
    api: { files: ["src/**"], description: "Only the TypeScript sources" },
  },
});
