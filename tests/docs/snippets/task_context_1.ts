// A ts block of docs/task_context.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: ["src/**", "docs/**"],
  budget: { tokens: 8000 },
  personas: {
    fixer: { task: "Make total() skip values that are not numbers" },
  },
});
