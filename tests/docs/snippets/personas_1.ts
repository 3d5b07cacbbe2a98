// A ts block of docs/personas.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  files: ["src/**", "docs/**"],
  personas: {
    worker: { tier: 3, focus: ["src/app.ts"] },
    reviewer: { defaultView: "summary", budget: 2000 },
  },
});
