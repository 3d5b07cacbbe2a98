// The bundled example: `deno task context` builds it into examples/.slop/out/context_NNN.md.
// `deno task slop check --config examples/slop.config.ts` compares its stable prefix with slop.lock.
import { defineConfig } from "../config.ts";
import { todoViewMode } from "./plugins/todo_view.ts";

export default defineConfig({
  files: [
    "README.md",
    // Code as skeletons: signatures, decorators and docs, bodies elided.
    { path: "src/**", view: "skeleton" },
    { path: "app/**", view: "skeleton" },
    // One class in full, the rest of the file as signatures, one method hidden.
    {
      path: "src/inventory.ts",
      view: "masked",
      mask: { "Inventory.remove": "def", "Inventory.list": "hide" },
      options: { rest: "sig" },
    },
    { path: "app/cli.py", view: "summary" },
    // The custom `todo` view plugin (examples/plugins/todo_view.ts).
    { path: "docs/notes.md", view: "todo" },
    // Only the slices recorded in slop/slices.toml (`slop slice add`).
    { path: "docs/design.md", view: "custom" },
    // Listed in the manifest, not rendered.
    { path: "docs/changelog.md", autoAggregate: false },
  ],
  screenshots: ["docs/*.png"],
  history: "discussion.jsonl",
  plugins: [todoViewMode()],
  // slop payload and the summary's cache line price the prefix for this model.
  provider: { name: "anthropic", model: "claude-sonnet-4-5" },
  personas: {
    worker: { tier: 3, focus: ["src/inventory.ts"] },
    reviewer: { strategy: "summarize" },
  },
  presets: {
    api: { files: ["src/**"], description: "Only the TypeScript sources" },
  },
});
