// A ts block of docs/views.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts";

export default defineConfig({
  provider: { name: "anthropic", model: "claude-haiku-4-5", apiKeyEnv: "ANTHROPIC_API_KEY" },
  files: ["src/**", { path: "docs/**", view: "llm_summary" }],
});
