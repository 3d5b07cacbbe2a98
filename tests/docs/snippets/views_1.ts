// A ts block of docs/views.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: ["docs/**", { path: "src/**", view: "skeleton" }, { path: "src/app.ts", view: "full" }],
});
